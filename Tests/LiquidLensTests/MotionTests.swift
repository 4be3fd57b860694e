import Foundation
import LensCompare
import LensReference
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensResolve

@Suite("Motion")
struct MotionTests {
    /// Samples a unit step response every millisecond for `seconds`.
    static func stepResponse(_ spring: Spring, seconds: Double = 3) -> [Double] {
        (0...Int(seconds * 1000)).map { spring.value(from: 0, to: 1, velocity: 0, at: Double($0) / 1000).position }
    }

    @Test(
        "Spring step responses: overshoot within 0.5 % of e^(−πζ/√(1−ζ²)), settling inside the 2 % envelope bound",
        arguments: [Spring.tabLens, .lift, .unlift, .reduceMotion, .menuSettle])
    func springStep(_ spring: Spring) {
        let samples = Self.stepResponse(spring)
        let zeta = spring.dampingRatio
        let omega = 2 * Double.pi / spring.response
        let overshoot = samples.max()! - 1
        let expected = exp(-Double.pi * zeta / (1 - zeta * zeta).squareRoot())
        #expect(abs(overshoot - expected) < 0.005, "overshoot \(overshoot) vs \(expected)")
        // Last time outside ±2 %; the envelope e^(−ζωt)/√(1−ζ²) bounds it from above, and a
        // response that settles less than half as fast as its envelope would mean a wrong ω.
        let settled = Double(samples.lastIndex { abs($0 - 1) > 0.02 }!) / 1000
        let envelope = -log(0.02 * (1 - zeta * zeta).squareRoot()) / (zeta * omega)
        #expect(settled <= envelope && settled >= 0.5 * envelope, "settling \(settled) s, envelope \(envelope) s")
        #expect(abs(samples.last! - 1) < 1e-3)
    }

    @Test("A critically damped and an overdamped spring do not overshoot")
    func noOvershoot() {
        for zeta in [1.0, 1.5] {
            #expect(Self.stepResponse(Spring(dampingRatio: zeta, response: 0.3)).allSatisfy { $0 <= 1 + 1e-12 })
        }
    }

    @Test("Exponential easing after 1 s is the same at 30, 60 and 120 fps")
    func easingIsFrameRateFree() {
        let scene = BuiltInAnimation.segmentedDrag.scene
        func held(fps: Double) -> Double {
            guard case .segmented(let control) = scene.frame(at: Double(Int(fps)) / fps).controls[0] else { return -1 }
            return control.held
        }
        #expect(held(fps: 30) == held(fps: 60) && held(fps: 60) == held(fps: 120))
        #expect(Easing.rail.value(from: 0, to: 1, at: 1) == 1, "snapped within 0.005")
        #expect(abs(Easing.rail.value(from: 0, to: 1, at: 0.1) - (1 - exp(-1))) < 1e-12)
        #expect(abs(Easing.rail.value(from: 1, to: 0, at: 0.2) - exp(-1)) < 1e-12)
    }

    static func segmented(_ gesture: GestureTimeline) -> Scene {
        var scene = BuiltInAnimation.segmentedDrag.scene
        scene.animation = SceneAnimation(duration: 3, gesture: gesture)
        return scene
    }

    /// A drag from segment 0 to x, released (or cancelled) at 1 s. Segment centres: 75 + 70·i.
    static func drag(to x: Double, cancelled: Bool = false, external: [ExternalSelection] = []) -> GestureTimeline {
        GestureTimeline(
            path: [
                GesturePoint(time: 0.2, x: 75, y: 60), GesturePoint(time: 0.9, x: x, y: 60),
                GesturePoint(time: 1, x: x, y: 60),
            ],
            cancelled: cancelled, externalSelections: external)
    }

    @Test(
        "Release commits the nearest segment; cancel rolls back; an external change during the drag waits for its end")
    func gestureSemantics() {
        #expect(Self.segmented(Self.drag(to: 75 + 70 * 3.2)).settledSelection == 3)
        #expect(Self.segmented(Self.drag(to: 75 + 70 * 2.6)).settledSelection == 3)
        #expect(Self.segmented(Self.drag(to: 75 + 70 * 3.2, cancelled: true)).settledSelection == 0)
        let deferred = Self.segmented(Self.drag(to: 75 + 70 * 3.2, external: [ExternalSelection(time: 0.5, index: 1)]))
        #expect(deferred.settledSelection == 1, "the external selection applies when the gesture ends")
        if case .segmented(let during) = deferred.frame(at: 0.9).controls[0] {
            #expect(
                abs(during.thumbPosition - 3.2) < 1e-9, "during the drag the thumb follows the finger, not the model")
        }
        let outside = Self.segmented(Self.drag(to: 75 + 70 * 3.2, external: [ExternalSelection(time: 1.5, index: 2)]))
        #expect(outside.settledSelection == 2, "a change after the gesture applies at once")
    }

    @Test("Past the ends of the rail the thumb rubber-bands")
    func rubberBand() throws {
        let scene = Self.segmented(Self.drag(to: 75 + 70 * 6))
        let control = try #require(segmentedControl(scene.frame(at: 0.95).controls[0]))
        #expect(
            control.thumbPosition > 4 && control.thumbPosition < 4.6,
            "two segments past the end shows as \(control.thumbPosition)")
        #expect(Motion.rubberBand(5, lower: 0, upper: 4, dimension: 1) < 5)
    }

    @Test("The lens stays lifted for the hang time; squash and stretch follow the drag velocity")
    func hangTimeAndStretch() throws {
        let tap = Self.segmented(
            GestureTimeline(path: [GesturePoint(time: 0.2, x: 75, y: 60), GesturePoint(time: 0.25, x: 75, y: 60)]))
        let lifted = try #require(segmentedControl(tap.frame(at: 0.5).controls[0]))
        let later = try #require(segmentedControl(tap.frame(at: 2.5).controls[0]))
        #expect(lifted.lift > 0.5, "lifted at 0.5 s after a 50 ms tap: \(lifted.lift)")
        #expect(later.lift < 0.01)
        #expect(
            Motion.stretch(velocity: 0) == 1 && Motion.stretch(velocity: 5000) == 1.15
                && Motion.stretch(velocity: -5000) == 0.75)
        let fast = Self.segmented(Self.drag(to: 355))
        let dragging = try #require(segmentedControl(fast.frame(at: 0.6).controls[0]))
        #expect(dragging.thumbStretch > 1.1, "stretched while dragging fast: \(dragging.thumbStretch)")
    }

    @Test("A dragged tab-bar lens squashes across its motion as the iOS 27 loupe does, about its centre, and recovers")
    func tabBarSquash() throws {
        // ios27-measurements.md: 73 pt at rest; 44–48 at ~1100 pt/s, 49–57 at 540, ~55 at 270.
        #expect(Motion.loupeSquash(speed: 0) == 1)
        #expect((44.0 / 73...48.0 / 73).contains(Motion.loupeSquash(speed: -1100)))
        #expect((49.0 / 73...57.0 / 73).contains(Motion.loupeSquash(speed: 540)))
        #expect(abs(Motion.loupeSquash(speed: 270) - 55.0 / 73) < 0.03)
        let drag = BuiltInAnimation.tabBarDrag
        guard case .tabBar(let moving) = drag.frame(at: 1.0).controls[0],
            case .tabBar(let settled) = drag.frame(at: drag.duration).controls[0]
        else {
            Issue.record("tab-bar-drag drives a tab bar")
            return
        }
        #expect(moving.lensSquash < 0.8 && settled.lensSquash > 0.999, "\(moving.lensSquash), \(settled.lensSquash)")
        var still = drag.frame(at: 1.0)
        var bar = moving
        bar.lensSquash = 1
        still.controls[0] = .tabBar(bar)
        let layout = LayeringTests.layout(still, scale: 1)
        let round = try #require(try layout.expand(still).glass.last)
        let squashed = try #require(try layout.expand(drag.frame(at: 1.0)).glass.last)
        let growth = try #require(round.lift).growth.y * moving.lift
        let (a, b) = (round.shapes[0].frame, squashed.shapes[0].frame)
        #expect(abs((b.height + growth) / (a.height + growth) - moving.lensSquash) < 1e-9, "lift included")
        #expect(abs(a.midY - b.midY) < 1e-9 && a.width == b.width, "about its centre, its width kept")
        let json =
            #"{"canvas": {"width": 300, "height": 100}, "controls": [{"type": "tabBar", "center": [150, 50], "width": 280, "items": [{"title": "A"}], "lensPosition": 0, "lensSquash": 0.3}]}"#
        #expect { try Scene.decode(Data(json.utf8)) } throws: {
            ($0 as? SceneError)?.keyPath == "controls[0].lensSquash"
        }
        var built = still
        bar.lensSquash = 0.2
        built.controls[0] = .tabBar(bar)
        #expect { try built.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].lensSquash" }
    }

    @Test("Circular menu: the lens stays inside the circle and settles on the nearest item")
    func lensMenu() throws {
        var scene = BuiltInAnimation.lensMenuDrag.scene
        let menu = try #require(lensMenuControl(scene.controls[0]))
        let start = SIMD2(menu.center.x, menu.center.y) + menu.itemOffset(0)
        #expect(abs(menu.maxLensDistance - (155 - 58 - 10)) < 1e-9)
        scene.animation = SceneAnimation(
            duration: 3,
            gesture: GestureTimeline(path: [
                GesturePoint(time: 0.2, x: start.x, y: start.y),
                GesturePoint(time: 0.8, x: start.x + 400, y: start.y + 400),
                GesturePoint(time: 1, x: start.x + 400, y: start.y + 400),
            ]))
        let dragged = try #require(lensMenuControl(scene.frame(at: 0.9).controls[0]))
        let offset = SIMD2(dragged.lensOffset.x, dragged.lensOffset.y)
        #expect((offset * offset).sum().squareRoot() <= menu.maxLensDistance + 1e-9)
        #expect(scene.settledSelection == 2, "dragged down-right, the lens settles on Settings (30°)")
        #expect(BuiltInAnimation.lensMenuDrag.scene.settledSelection == 2)
    }

    @Test(
        "The frame at 0.5 s rendered at 30 fps equals the same instant at 120 fps", arguments: [Backend.cpu, .vulkan])
    func frameRateIndependentFrames(backend: Backend) throws {
        let animation = BuiltInAnimation.segmentedDrag
        let at30 = try render(LensRenderer.resolve(animation.frame(at: Double(15) / 30), scale: 1), on: backend)
        let at120 = try render(LensRenderer.resolve(animation.frame(at: Double(60) / 120), scale: 1), on: backend)
        let diff = try ImageDiff(at30, at120)
        #expect(diff.maxError.max() <= 1 && diff.identicalFraction >= 0.999)
    }
}

@Suite("Animated output")
struct AnimationOutputTests {
    static func probe(_ file: URL) throws -> (frames: Int, duration: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
            "stream=nb_read_frames,avg_frame_rate:format=duration",
            "-of", "default=noprint_wrappers=1", file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var frames = 0
        var duration = 0.0
        var rate = 0.0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            guard parts.count == 2 else { continue }
            if parts[0] == "nb_read_frames" { frames = Int(parts[1]) ?? 0 }
            if parts[0] == "duration" { duration = Double(parts[1]) ?? 0 }
            if parts[0] == "avg_frame_rate" {
                let fraction = parts[1].split(separator: "/").compactMap { Double($0) }
                if fraction.count == 2, fraction[1] > 0 { rate = fraction[0] / fraction[1] }
            }
        }
        // Animated PNG carries no container duration: frames over the frame rate is its length.
        return (frames, duration > 0 ? duration : Double(frames) / max(rate, 1e-9))
    }

    @Test("Each format holds the frames and the duration asked for", arguments: ["gif", "png", "mp4", "webm"])
    func formats(_ format: String) throws {
        let folder = try temporaryFolder("animate-\(format)")
        let result = try runCLI(
            [
                "animate", "--example", "merge", "--fps", "10", "--duration", "1.2", "--scale", "1", "-q", "-o",
                "merge.\(format)",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "--quiet prints nothing: \(result.stderr)")
        let (frames, duration) = try Self.probe(folder.appendingPathComponent("merge.\(format)"))
        #expect(frames == 12)
        #expect(abs(duration - 1.2) < 0.11, "duration \(duration)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["merge.\(format)"], "no temporary files left: \(leftovers)")
    }

    @Test("A folder gets numbered PNGs that sort in frame order; progress is plain lines off a terminal")
    func folder() throws {
        let folder = try temporaryFolder("animate-folder")
        let result = try runCLI(
            ["animate", "--example", "segmented-drag", "--fps", "5", "--scale", "1", "-o", "frames"], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr.contains("12/12 frames"), "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path)
            .sorted()
        #expect(names.count == 12 && names.first == "frame-0001.png" && names.last == "frame-0012.png")
        #expect(AnimationWriter.frameName(9, count: 12_000) == "frame-00010.png")
        let sorted = (0..<12_000).map { AnimationWriter.frameName($0, count: 12_000) }
        #expect(sorted == sorted.sorted())
    }

    @Test("An interrupted run leaves no half-written file")
    func interrupted() throws {
        let folder = try temporaryFolder("animate-killed")
        for output in ["killed.mp4", "frames"] {
            let process = Process()
            process.executableURL = cliBinary()
            process.arguments = [
                "animate", "--example", "merge", "--fps", "60", "--duration", "20", "--scale", "1", "--backend", "cpu",
                "-q", "-o",
                output,
            ]
            process.currentDirectoryURL = folder
            try process.run()
            // Killed mid-write: once the video's temporary file, or the second frame, exists.
            try waitUntil("\(output) is being written") {
                guard output == "frames" else {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                    return names.contains { $0.hasPrefix(".killed.mp4.partial-") }
                }
                return FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("frames/frame-0002.png").path)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("killed.mp4").path),
            "no partial video under the output name")
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path)
            .filter { $0.hasPrefix("frame-") }
        #expect(!frames.isEmpty)
        let resumed = try runCLI(
            [
                "animate", "--example", "merge", "--fps", "2", "--duration", "20", "--scale", "1", "--backend", "cpu",
                "-q",
                "--resume", "-o", "frames",
            ], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path)
        #expect(after.allSatisfy { !$0.contains(".partial-") }, "resuming clears partial files: \(after)")
        for frame in frames {
            #expect(throws: Never.self) {
                try PNGCodec.read(contentsOf: folder.appendingPathComponent("frames/\(frame)"))
            }
        }
    }

    @Test(
        "A folder that already holds frames is written over as batch writes it; --resume keeps complete frames, --force removes the rest"
    )
    func existingFrames() throws {
        let folder = try temporaryFolder("animate-existing")
        let base = [
            "animate", "--example", "merge", "--fps", "5", "--scale", "1", "--backend", "cpu", "-q", "-o", "frames",
        ]
        #expect(try runCLI(base, in: folder).status == 0)
        let frames = folder.appendingPathComponent("frames")
        let first = try Data(contentsOf: frames.appendingPathComponent("frame-0001.png"))
        #expect(try runCLI(base, in: folder).status == 0, "a second run writes over the first")
        #expect(try Data(contentsOf: frames.appendingPathComponent("frame-0001.png")) == first)
        let shorter = try runCLI(
            Array(base.dropLast(3)) + ["--duration", "1", "-o", "frames"], in: folder)
        #expect(shorter.status == 0)
        #expect(
            shorter.stderr.contains(
                "also holds 10 frame(s) this run does not write (frame-0006.png …); --force removes them first"),
            "\(shorter.stderr)")
        let kept = frames.appendingPathComponent("frame-0001.png")
        let before = try FileManager.default.attributesOfItem(atPath: kept.path)[.modificationDate] as? Date
        try FileManager.default.removeItem(at: frames.appendingPathComponent("frame-0007.png"))
        try Data("half a png".utf8).write(to: frames.appendingPathComponent("frame-0009.png"))
        #expect(try runCLI(base + ["--resume"], in: folder).status == 0)
        #expect(
            try FileManager.default.attributesOfItem(atPath: kept.path)[.modificationDate] as? Date == before,
            "complete frames are kept")
        #expect(throws: Never.self) { try PNGCodec.read(contentsOf: frames.appendingPathComponent("frame-0007.png")) }
        #expect(throws: Never.self) { try PNGCodec.read(contentsOf: frames.appendingPathComponent("frame-0009.png")) }
        #expect(try runCLI(base + ["--force"], in: folder).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames.path).count == 15)
    }

    @Test("Ctrl-C stops after the frame in flight, removes the partial video and says so")
    func interruptedBySIGINT() throws {
        let folder = try temporaryFolder("animate-sigint")
        let process = Process()
        process.executableURL = cliBinary()
        process.arguments = [
            "animate", "--example", "merge", "--fps", "60", "--duration", "20", "--scale", "1", "--backend", "cpu",
            "-q", "-o", "clip.mp4",
        ]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Interrupted once frames flow into ffmpeg's temporary file.
        try waitUntil("the video is being written") {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains {
                $0.hasPrefix(".clip.mp4.partial-")
            }
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("interrupted after") && stderr.contains("nothing was written to"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no partial file left")
    }

    @Test("A device lost mid-run is an error (exit 75) that says how to go on; --fallback cpu finishes on the CPU")
    func deviceLost() throws {
        let folder = try temporaryFolder("animate-lost")
        let fault = ["LIQUIDLENS_INJECT_DEVICE_LOST": "4"]
        let base = ["animate", "--example", "merge", "--fps", "4", "--scale", "1", "--backend", "vulkan"]
        let failed = try runCLI(base + ["-q", "-o", "a.gif"], environment: fault, in: folder)
        #expect(failed.status == 75)
        #expect(failed.stderr.contains("frame 4: vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"), "\(failed.stderr)")
        #expect(failed.stderr.contains("add --fallback cpu"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.gif").path))
        // Not quiet: the line that says what was written names the backend that finished it.
        let rescued = try runCLI(
            base + ["--progress", "none", "--fallback", "cpu", "-o", "frames"], environment: fault, in: folder)
        #expect(rescued.status == 0, "\(rescued.stderr)")
        #expect(rescued.stderr.contains("warning: the Vulkan device failed at frame 4"))
        #expect(rescued.stdout.contains("cpu reference"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path).count
                == 12)
    }

    @Test("Without ffmpeg a video output fails clearly, naming the package")
    func missingFFmpeg() throws {
        let folder = try temporaryFolder("animate-noffmpeg")
        let result = try runCLI(
            ["animate", "--example", "merge", "--duration", "0.2", "--scale", "1", "-q", "-o", "out.mp4"],
            environment: ["PATH": "/nonexistent"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("needs ffmpeg, which is not installed (apt-get install ffmpeg)"), "\(result.stderr)")
    }
}

/// The segmented control's state, or nil for another kind of control.
private func segmentedControl(_ control: Control) -> SegmentedControl? {
    guard case .segmented(let segmented) = control else { return nil }
    return segmented
}

/// The lens menu's state, or nil for another kind of control.
private func lensMenuControl(_ control: Control) -> LensMenu? {
    guard case .lensMenu(let menu) = control else { return nil }
    return menu
}
