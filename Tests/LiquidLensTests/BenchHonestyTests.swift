import Foundation
import Testing

@Suite("bench prints only what it measured", .serialized)
struct BenchHonestyTests {
    /// Runs `bench` on lens-heavy on Vulkan with `options` in `folder`; its JSON report, and
    /// the one workload's result in it.
    func bench(_ options: [String], in folder: URL) throws -> (report: [String: Any], result: [String: Any]) {
        let run = try runCLI(
            ["bench", "--workload", "lens-heavy", "--backend", "vulkan", "--json", "report.json"] + options, in: folder)
        try #require(run.status == 0, "\(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json")))
                as? [String: Any])
        return (report, try #require((report["results"] as? [[String: Any]])?.first))
    }

    /// A frame count too small for a distribution (ring filling and draining, compile waits,
    /// stand-in frames rendered at submission) once reported the time between two frames that
    /// finished together: 1.5 ms for a 30 ms frame.
    @Test("For every frame count from 1 to 8, the per-frame time is within 1.5× of a frame rendered alone")
    func perFrameMatchesAFrameAlone() throws {
        let folder = try temporaryFolder("bench-honesty")
        // A burst of other work on the shared machine (the rest of the suite runs beside this)
        // slows one of the two measurements of a run; the misreport this guards against (a 20×
        // error) shows in every run. So each count gets up to two more runs when its first
        // disagrees (a fresh Debian root once saw two noisy runs in a row: 0.65× then 1.96×).
        for frames in 1...8 {
            var runs: [String] = []
            var agreed = false
            while !agreed && runs.count < 3 {
                let measured = try bench(["--frames", String(frames)], in: folder).result
                let perFrame = try #require((measured["frameMs"] as? [String: Any])?["median"] as? Double)
                let alone = try #require(measured["frameAloneMs"] as? Double)
                runs.append("per frame \(perFrame) ms, a frame alone \(alone) ms")
                agreed = perFrame <= alone * 1.5 && perFrame >= alone / 1.5
            }
            #expect(agreed, "\(frames) frames: \(runs.joined(separator: "; again: "))")
        }
    }

    @Test("A sweep point of two frames times the second frame, not the gap after the first")
    func sweepOfTwoFrames() throws {
        let folder = try temporaryFolder("bench-sweep-honesty")
        let (report, measured) = try bench(
            ["--frames", "2", "--sweeps", "resolution", "--sweep-frames", "2"], in: folder)
        let alone = try #require(measured["frameAloneMs"] as? Double)
        let sweep = try #require((report["sweeps"] as? [[String: Any]])?.first)
        let points = try #require(sweep["points"] as? [[String: Any]])
        let fullHD = try #require(points.first { $0["label"] as? String == "1920×1080" })
        let steady = try #require(fullHD["frameMs"] as? Double)
        // The sweep's second frame moves the lens across the frame, so it redoes more than the
        // batch's frames; it can cost more than a frame alone, never a fraction of it.
        #expect(steady >= alone / 1.5, "sweep 1920×1080: \(steady) ms, a frame alone \(alone) ms")
    }
}
