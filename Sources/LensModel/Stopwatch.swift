/// Time since it was started, on the monotonic clock: a duration a change of the wall clock (NTP,
/// a user setting the date) cannot bend, for every time the tool reports.
package struct Stopwatch: Sendable {
    private let start = ContinuousClock.now

    /// A stopwatch started now.
    package init() {}

    /// Seconds since the start.
    package var seconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
