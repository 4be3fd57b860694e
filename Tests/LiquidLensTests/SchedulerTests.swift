import Foundation
import LiquidLens
import Testing

@Suite("Made for schedulers: progress for log collectors, exit statuses to retry on")
struct SchedulerTests {
    @Test("--progress json prints one JSON object per finished frame, indexed as the files are")
    func jsonProgress() throws {
        let folder = try temporaryFolder("progress-json")
        let manifest = try writeSweepManifest(folder, steps: 6)
        let result = try runCLI([
            "batch", manifest.path, "-o", folder.appendingPathComponent("frames").path, "--shard", "1/2",
            "--progress", "json", "--backend", "cpu",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 3)
        for (position, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(
                Set(object.keys) == ["index", "values", "done", "total", "framesPerSecond", "etaSeconds"], "\(line)")
            let index = try #require(object["index"] as? Int)
            // The sweep's value of the frame: x from 10 to 170 in 6 steps.
            let values = try #require(object["values"] as? [String: Any])
            #expect(values.keys.sorted() == ["glass[0].frame.x"])
            #expect(abs((values["glass[0].frame.x"] as? Double ?? -1) - (10 + 32 * Double(index - 1))) < 1e-9)
            #expect(index == 4 + position, "shard 1/2 of 6 holds frames 4, 5 and 6")
            #expect(
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("frames/move-0000\(index).png").path),
                "index \(index) is the number in its file's name")
            #expect(object["done"] as? Int == position + 1)
            #expect(object["total"] as? Int == 3)
            #expect((object["framesPerSecond"] as? Double ?? 0) > 0)
            #expect((object["etaSeconds"] as? Double ?? -1) >= 0)
        }
        let animate = try runCLI(
            [
                "animate", "--example", "merge", "--duration", "0.1", "--scale", "1", "--backend", "cpu", "--progress",
                "json", "-o", folder.appendingPathComponent("merge").path,
            ])
        #expect(animate.status == 0, "\(animate.stderr)")
        let animated = animate.stderr.split(separator: "\n").filter { $0.hasPrefix(#"{"index":"#) }
        #expect(animated.count == 3 && animated.allSatisfy { !$0.contains("values") }, "nothing varies by key")
    }

    @Test("A lost Vulkan device exits 75, the status a scheduler requeues on; batch --resume then finishes")
    func deviceLostStatus() throws {
        let folder = try temporaryFolder("device-lost")
        let render = try runCLI(
            ["render", "--backend", "vulkan", "-o", "out.png"], environment: ["LIQUIDLENS_INJECT_DEVICE_LOST": "1"],
            in: folder)
        #expect(render.status == 75)
        #expect(render.stderr.contains("VK_ERROR_DEVICE_LOST"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))

        let batch = [
            "batch", try writeSweepManifest(folder, steps: 4).path, "-o", "frames", "--backend", "vulkan", "-q",
        ]
        let lost = try runCLI(batch, environment: ["LIQUIDLENS_INJECT_DEVICE_LOST": "3"], in: folder)
        #expect(lost.status == 75)
        #expect(lost.stderr.contains("VK_ERROR_DEVICE_LOST"), "\(lost.stderr)")
        let requeued = try runCLI(batch + ["--resume"], in: folder)
        #expect(requeued.status == 0, "\(requeued.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path)
        #expect(frames.sorted() == (1...4).map { "move-0000\($0).png" })
    }

    @Test("SIGTERM stops a batch after the frame in flight: exit 143, only complete files")
    func terminated() throws {
        let folder = try temporaryFolder("sigterm")
        let manifest = try writeSweepManifest(folder, steps: 40)
        let output = folder.appendingPathComponent("frames")
        let process = Process()
        process.executableURL = cliBinary()
        process.arguments = ["batch", manifest.path, "-o", output.path, "-q", "--backend", "cpu"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        try waitUntil("2 frames written") { entryCount(output) >= 2 }
        kill(process.processIdentifier, SIGTERM)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(stderr.contains("interrupted after") && stderr.contains("--resume"), "\(stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(names.count < 40 && !names.contains { $0.hasPrefix(".") }, "\(names)")
        #expect(names.allSatisfy { ImageFormat.png.isComplete(output.appendingPathComponent($0)) })
    }
}
