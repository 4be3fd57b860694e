import Foundation
import LensVulkan
import LiquidLens

/// Milliseconds between laps.
final class BenchClock {
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Milliseconds since the previous lap (or since creation).
    @discardableResult
    func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e6
    }

    /// Renders `parameters` as one batch: the milliseconds between finished frames (the first
    /// from the start of the batch) and the stage times of each frame.
    static func timeBatch(_ renderer: LensRenderer, _ parameters: [FrameParameters], inFlight: Int) throws -> (
        intervals: [Double], stages: [GPUStageTimes]
    ) {
        let clock = BenchClock()
        var intervals: [Double] = []
        var stages: [GPUStageTimes] = []
        try renderer.renderBatch(count: parameters.count, framesInFlight: inFlight) {
            parameters[$0]
        } deliver: { _, _ in
            intervals.append(clock.lap())
            if let times = renderer.lastStageTimes { stages.append(times) }
        }
        return (intervals, stages)
    }

    /// Per-frame times from the times between finished frames of a batch with `inFlight` frames
    /// submitted at once: without the first `inFlight − 1` intervals (the ring filling: the first
    /// delivery also waits out the frames behind it) and the last `inFlight − 1` (draining: those
    /// frames were already done), which hold one frame's work too many and too few. Where fewer
    /// than three intervals remain, each frame's share of the whole batch stands for every frame.
    static func perFrame(_ intervals: [Double], inFlight: Int) -> [Double] {
        let edge = max(0, inFlight - 1)
        let steady = Array(intervals.dropFirst(edge).dropLast(edge))
        guard steady.count < 3 else { return steady }
        return Array(repeating: intervals.reduce(0, +) / Double(max(1, intervals.count)), count: intervals.count)
    }

    /// A frame's cost with nothing overlapping it: up to three frames of `parameters` (its middle
    /// ones), each rendered alone in its own call, in two passes so that no frame follows itself;
    /// each frame's faster pass (a burst of other work on a shared machine only adds time), then
    /// their median.
    static func timeAlone(_ renderer: LensRenderer, _ parameters: [FrameParameters]) throws -> Double {
        let chosen =
            parameters.count <= 3 ? Array(parameters) : Array(parameters[(parameters.count / 2 - 1)...].prefix(3))
        let clock = BenchClock()
        var fastest = [Double](repeating: .infinity, count: chosen.count)
        for _ in 0..<2 {
            for (index, frame) in chosen.enumerated() {
                clock.lap()
                _ = try renderer.render(frame)
                fastest[index] = min(fastest[index], clock.lap())
            }
        }
        return percentile(fastest, 0.5)
    }

    /// The value at fraction `q` of the sorted values (nearest rank).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * q).rounded(.up)) - 1))]
    }
}

extension BenchReport.Stages {
    /// The median of each stage over `times`; nil when there are none (the CPU backend).
    init?(medianOf times: [GPUStageTimes]) {
        guard !times.isEmpty else { return nil }
        func median(_ stage: KeyPath<GPUStageTimes, Double>) -> Double {
            BenchClock.percentile(times.map { $0[keyPath: stage] }, 0.5)
        }
        self.init(
            compose: median(\.compose), copy: median(\.copy), frost: median(\.frost), lens: median(\.lens),
            readback: median(\.readback))
    }
}
