import Foundation
import LensModel

/// Progress on stderr in a ``ProgressOption/Style``: a redrawn bar (frames or pairs, per second,
/// ETA), plain lines every tenth of the run, one JSON object per finished item, or nothing. Safe
/// to advance from any thread.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int
    private let style: ProgressOption.Style
    /// What is counted: `frames`, `pairs`.
    private let unit: String
    private let start = Stopwatch()
    private var done = 0
    private var lastTenth = -1

    init(total: Int, style: ProgressOption.Style, unit: String = "frames") {
        self.total = total
        self.style = style
        self.unit = unit
    }

    /// One more done: the item at `index` (its 0-based place in the whole output, when it has
    /// one; JSON lines print it from 1, as its file name numbers it); `total` corrects the count
    /// when it is learned only once the work starts. `values` (a JSON object: a batch frame's swept
    /// or sampled keys) goes into its JSON line.
    func advance(index: Int? = nil, total: Int? = nil, values: @autoclosure () -> String? = nil) {
        lock.withLock {
            if let total { self.total = total }
            advanceLocked(index: index, values: style == .json ? values() : nil)
        }
    }

    private func advanceLocked(index: Int?, values: String?) {
        done += 1
        let elapsed = start.seconds
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = Double(total - done) / max(rate, 1e-9)
        let status =
            "\(done)/\(total) \(unit)  \(String(format: "%.1f", rate)) \(unit)/s  ETA \(String(format: "%.1f", eta)) s"
        switch style {
        case .bar, .auto:
            let width = 30
            let filled = width * done / max(total, 1)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            StandardStreams.writeErrorPart("\r[\(bar)] \(status)")
        case .lines:
            let tenth = done * 10 / max(total, 1)
            if tenth != lastTenth {
                lastTenth = tenth
                printError(status)
            }
        case .json:
            // One write per line, so lines from several processes sharing a log never interleave.
            let place = index.map { #""index":\#($0 + 1),"# } ?? ""
            let varied = values.map { #""values":\#($0),"# } ?? ""
            printError(
                #"{\#(place)\#(varied)"done":\#(done),"total":\#(total),"#
                    + #""\#(unit)PerSecond":\#(String(format: "%.3f", rate)),"etaSeconds":\#(String(format: "%.1f", eta))}"#
            )
        case .none:
            break
        }
    }

    func finish() {
        if style == .bar { StandardStreams.writeErrorPart("\n") }
    }
}

/// Ctrl-C, or SIGTERM from a scheduler cancelling or preempting the job, during a long run: the
/// loop finishes the frame in flight, cleans up and says how to go on.
enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var received: Int32?
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static var requested: Bool { lock.withLock { received != nil } }

    /// 128 + the signal, as a shell reports a process the signal killed: 130 for SIGINT, 143 for SIGTERM.
    static var exitStatus: Int32 { 128 + (lock.withLock { received } ?? SIGINT) }

    static func watch() {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { lock.withLock { received = received ?? number } }
            source.resume()
            return source
        }
    }
}

/// A run stopped by Ctrl-C or SIGTERM: exit ``Interruption/exitStatus``.
struct Interrupted: Error {
    let message: String
}
