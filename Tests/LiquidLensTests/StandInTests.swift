import Foundation
import LiquidLens
import Testing

@testable import LensReference
@testable import LensVulkan

/// A Vulkan renderer whose frames wait for no pipeline: the CPU reference stands in for those
/// whose pipelines are not compiled. Each test makes its own, so its pipelines start uncompiled.
private func standInRenderer() throws -> VulkanRenderer {
    let reference = ReferenceRenderer()
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("liquidlens-test-cache")
    let renderer = try VulkanRenderer(
        options: VulkanOptions(validation: true, pipelineCacheDirectory: cache, standIn: { reference.render($0) }))
    // A device frame is one with stage times.
    renderer.measuresStages = true
    return renderer
}

@Suite("The CPU reference stands in while the Vulkan pipelines are not compiled", .serialized)
struct StandInTests {
    @Test(
        "A frame whose pipelines are compiling is the stand-in's; once they are ready the GPU renders it, the same pixels",
        arguments: [BuiltInScene.segmented, .tabBar, .lensMenu])
    func standInThenDevice(_ scene: BuiltInScene) throws {
        let parameters = try LensRenderer.resolve(scene.scene)
        let expected = ReferenceRenderer().render(parameters)
        let renderer = try standInRenderer()
        let first = try renderer.render(parameters)
        #expect(renderer.standInFrames == 1)
        #expect(renderer.lastStageTimes == nil)
        try renderer.waitForPipelines()
        let second = try renderer.render(parameters)
        #expect(renderer.standInFrames == 1)
        #expect(renderer.lastStageTimes != nil)
        #expect(first == expected)
        #expect(second == expected)
        #expect(renderer.validationMessages.isEmpty)
    }

    @Test(
        "gallery and presets take --while-compiling cpu: the sheets are the CPU backend's, byte for byte; a gallery on vulkan that waits says how long"
    )
    func contactSheets() throws {
        let folder = try temporaryFolder("stand-in-sheets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = ["--backend", "vulkan", "--while-compiling", "cpu"]
        for (command, output, backends) in [
            ("gallery", ["-o"], [["--backend", "cpu"], standIn, ["--backend", "vulkan"]]),
            ("presets", ["--sheet"], [["--backend", "cpu"], standIn]),
        ] {
            var sheets: [Data] = []
            for (index, backend) in backends.enumerated() {
                let name = "\(command)-\(index).png"
                let run = try runCLI([command] + output + [name] + backend, in: folder)
                #expect(run.status == 0, "\(command) \(backend): \(run.stderr)")
                if backend == standIn {
                    #expect(run.stderr.contains("whose GPU pipelines were not compiled"), "\(run.stderr)")
                } else if backend == ["--backend", "vulkan"] {
                    // 37 cells needing 30-odd lens variants wait seconds on lavapipe.
                    #expect(
                        run.stderr.contains(" s for GPU pipelines to compile (--while-compiling cpu"), "\(run.stderr)")
                }
                sheets.append(try Data(contentsOf: folder.appendingPathComponent(name)))
            }
            #expect(Set(sheets).count == 1, "\(command)")
        }
    }

    @Test(
        "A batch mixing stand-in and GPU frames delivers every frame in order, each the CPU reference's; a slot's device frame after a stand-in reuses what its last device frame left",
        arguments: [1, 2])
    func mixedBatch(framesInFlight: Int) throws {
        let workload = BenchmarkWorkload.thumbnails
        let known = try LensRenderer.resolve(try workload.scene(0, of: 256))
        let new = try LensRenderer.resolve(try workload.scene(1, of: 256))
        let renderer = try standInRenderer()
        _ = try renderer.render(known)
        try renderer.waitForPipelines()
        let frames = [known, new, known, new, known]
        var delivered: [Int] = []
        var onDevice: [Bool] = []
        try renderer.renderBatch(count: frames.count, framesInFlight: framesInFlight) {
            frames[$0]
        } deliver: { index, image in
            delivered.append(index)
            onDevice.append(renderer.lastStageTimes != nil)
            #expect(image == ReferenceRenderer().render(frames[index]), "frame \(index)")
        }
        #expect(delivered == Array(frames.indices))
        // The known frame's pipelines are compiled; the new one's are not when it first comes.
        #expect(onDevice[0] && onDevice[2] && onDevice[4])
        #expect(!onDevice[1])
        #expect(renderer.standInFrames >= 2)
        #expect(renderer.validationMessages.isEmpty)
    }

    @Test(
        "A small frame's lens variant is not compiled for a few stand-in frames (a contact sheet's cells); a large frame's is within a few"
    )
    func compilesOnlyWhatPays() throws {
        let tiny = try LensRenderer.resolve(
            Scene(
                canvas: Canvas(width: 64, height: 48), background: [BackgroundLayer(.solid(.white))],
                glass: [GlassElement(shape: .capsule, frame: Rect(x: 8, y: 8, width: 48, height: 32))]))
        let renderer = try standInRenderer()
        // A 64 × 48 frame stands in in about a millisecond, far from the 200 ms a compile is taken to cost.
        for _ in 0..<3 { _ = try renderer.render(tiny) }
        #expect(renderer.standInFrames == 3)
        #expect(renderer.lensVariantsKnown == 0)
        // A 1920 × 1080 lens-heavy frame stands in in 30–50 ms here (its variant pays within about
        // six frames); the bound leaves room for a host many times faster.
        let large = try LensRenderer.resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1))
        var frames = 0
        while renderer.lensVariantsKnown == 0 && frames < 200 {
            _ = try renderer.render(large)
            frames += 1
        }
        #expect(renderer.lensVariantsKnown > 0, "\(frames) frames")
        #expect(renderer.validationMessages.isEmpty)
    }

    @Test("prepare starts every frame's compiles at once where frames wait for them, and nothing with a stand-in")
    func prepareCompilesAhead() throws {
        let frames = try [Shape.capsule, .circle, .ellipse].map { shape in
            try LensRenderer.resolve(
                Scene(
                    canvas: Canvas(width: 64, height: 48), background: [BackgroundLayer(.solid(.white))],
                    glass: [GlassElement(shape: shape, frame: Rect(x: 8, y: 8, width: 48, height: 32))]))
        }
        let variants = Set(frames.compactMap { FramePipelines($0).lens.first ?? nil }).count
        let waiting = try VulkanRenderer(options: VulkanOptions(validation: true))
        waiting.prepare(frames)
        #expect(waiting.lensVariantsKnown == variants, "all started before the first frame")
        for frame in frames { #expect(try waiting.render(frame) == ReferenceRenderer().render(frame)) }
        #expect(waiting.validationMessages.isEmpty)
        let standingIn = try standInRenderer()
        standingIn.prepare(frames)
        #expect(standingIn.lensVariantsKnown == 0)
    }

    @Test("Asking for every compile compiles every stand-in frame's pipelines, not only the last one's")
    func waitForEveryStandIn() throws {
        let frames = try [Shape.capsule, .circle].map { shape in
            try LensRenderer.resolve(
                Scene(
                    canvas: Canvas(width: 64, height: 48), background: [BackgroundLayer(.solid(.white))],
                    glass: [GlassElement(shape: shape, frame: Rect(x: 8, y: 8, width: 48, height: 32))]))
        }
        let renderer = try standInRenderer()
        for frame in frames { _ = try renderer.render(frame) }
        #expect(renderer.standInFrames == 2)
        try renderer.waitForPipelines()
        for frame in frames {
            #expect(try renderer.render(frame) == ReferenceRenderer().render(frame))
            #expect(renderer.lastStageTimes != nil, "on the device")
        }
        #expect(renderer.standInFrames == 2)
        #expect(renderer.validationMessages.isEmpty)
    }

    @Test(
        "LensRenderer stands in by default on auto, waits on vulkan (and times the wait), and does what whileCompiling says"
    )
    func defaults() throws {
        let scene = BuiltInScene.segmented.scene
        let expected = try LensRenderer(backend: .cpu).render(scene)
        for (backend, policy, standIns) in [
            (Backend.automatic, WhileCompiling?.none, 1), (.vulkan, nil, 0), (.vulkan, .cpu, 1), (.automatic, .wait, 0),
        ] {
            let renderer = try LensRenderer(backend: backend, whileCompiling: policy)
            #expect(try renderer.render(scene) == expected)
            #expect(renderer.standInFrames == standIns, "\(backend) \(String(describing: policy))")
            #expect((renderer.compileWaitMs > 0) == (standIns == 0), "a frame on the GPU waited for its compiles")
        }
    }
}

@Suite("A lens variant is compiled once its stand-in frames would have paid for it")
struct CompilePaybackTests {
    /// Two distinct lens variants of the lens-heavy lens, and its frost passes.
    private func variants() throws -> (lens: [PipelineVariant], frost: [PipelineVariant]) {
        let parameters = try LensRenderer.resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1))
        let lens = [false, true].map {
            PipelineVariant.lens(
                LensVariant(
                    lens: parameters.lenses[0], shapes: parameters.shapes[...], reachesLabel: true,
                    linearBlending: $0))
        }
        return (lens, FrostVariant.passes(of: parameters.lenses[0]).map(PipelineVariant.frost))
    }

    private let megapixel = 1_000_000

    /// A payback that has seen these times of frames of a megapixel, in this order.
    private func measured(standIn: [Double], device: [Double], compile: [Double]) -> CompilePayback {
        var payback = CompilePayback()
        for milliseconds in standIn { payback.noteStandIn(milliseconds: milliseconds, pixels: megapixel) }
        for milliseconds in device { payback.noteDevice(milliseconds: milliseconds, pixels: megapixel) }
        for milliseconds in compile { payback.noteLensCompile(milliseconds: milliseconds) }
        return payback
    }

    @Test(
        "Before a device frame and a compile are timed, the device counts as free and a compile as 200 ms; without a stand-in time only frost compiles"
    )
    func beforeMeasuring() throws {
        let (lens, frost) = try variants()
        var unmeasured = CompilePayback()
        for _ in 0..<50 { #expect(unmeasured.toCompile(lens + frost, pixels: megapixel) == frost) }
        // 50 ms a stand-in frame: the fourth use has cost the 200 ms a compile is taken to cost.
        var payback = measured(standIn: [50], device: [], compile: [])
        for _ in 0..<3 { #expect(payback.toCompile([lens[0]], pixels: megapixel).isEmpty) }
        #expect(payback.toCompile([lens[0]] + frost, pixels: megapixel) == [lens[0]] + frost)
        // Once a compile is timed (100 ms), its time is the rule's: the second use pays.
        payback.noteLensCompile(milliseconds: 100)
        #expect(payback.toCompile([lens[1]], pixels: megapixel).isEmpty)
        #expect(payback.toCompile([lens[1]], pixels: megapixel) == [lens[1]])
    }

    @Test(
        "A variant saving 100 ms a frame against a 220 ms compile compiles at its third use, each variant counted alone"
    )
    func paysBack() throws {
        let (lens, frost) = try variants()
        var payback = measured(standIn: [200], device: [100], compile: [220])
        #expect(payback.toCompile([lens[0]], pixels: megapixel).isEmpty)
        #expect(payback.toCompile([lens[0]], pixels: megapixel).isEmpty)
        #expect(payback.toCompile([lens[0], lens[1]] + frost, pixels: megapixel) == [lens[0]] + frost)
        #expect(payback.toCompile([lens[1]], pixels: megapixel).isEmpty)
        #expect(payback.toCompile([lens[1]], pixels: megapixel) == [lens[1]])
    }

    @Test(
        "Frames are weighed by their size: a small frame's stand-in time a pixel does not stand for a large frame's"
    )
    func weighedBySize() throws {
        let (lens, _) = try variants()
        var payback = CompilePayback()
        // A 64 × 48 frame in 1 ms (325 ms a megapixel, mostly fixed costs), a 1080p frame in 41.5 ms (20).
        payback.noteStandIn(milliseconds: 1, pixels: 64 * 48)
        payback.noteStandIn(milliseconds: 41.472, pixels: 1920 * 1080)
        #expect(abs(payback.standInMsPerMegapixel! - 20) < 1e-9, "the least a megapixel")
        // 1080p frames save 41.5 ms each against the device taken as free: the fifth pays 200 ms.
        for _ in 0..<4 { #expect(payback.toCompile([lens[0]], pixels: 1920 * 1080).isEmpty) }
        #expect(payback.toCompile([lens[0]], pixels: 1920 * 1080) == [lens[0]])
        // A thousand small frames weigh 61 ms.
        for _ in 0..<1000 { #expect(payback.toCompile([lens[1]], pixels: 64 * 48).isEmpty) }
    }

    @Test("The device's rate from small frames is not taken for a larger frame, whose saving it would hide")
    func deviceRateBySize() throws {
        let (lens, _) = try variants()
        var payback = CompilePayback()
        // lavapipe: a 1080p frame on the CPU at 20 ms a megapixel, a 512² frame on the device at 90.
        payback.noteStandIn(milliseconds: 41.472, pixels: 1920 * 1080)
        payback.noteDevice(milliseconds: 23.592_96, pixels: 512 * 512)
        #expect(payback.largestDeviceFrame == 512 * 512)
        for _ in 0..<4 { #expect(payback.toCompile([lens[0]], pixels: 1920 * 1080).isEmpty) }
        #expect(payback.toCompile([lens[0]], pixels: 1920 * 1080) == [lens[0]], "the device counts as free")
        for _ in 0..<1000 { #expect(payback.toCompile([lens[1]], pixels: 512 * 512).isEmpty, "it is slower there") }
    }

    @Test("On a device whose frames are not timed, every variant compiles at its first use")
    func untimedDevice() throws {
        let (lens, frost) = try variants()
        var payback = CompilePayback()
        payback.deviceIsTimed = false
        #expect(payback.toCompile(lens + frost, pixels: megapixel) == lens + frost)
    }

    @Test(
        "A label-free variant compiles once the device time it would have saved reaches a compile, each counted alone"
    )
    func labelFreePaysBack() throws {
        let parameters = try LensRenderer.resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1))
        let variants = [false, true].map {
            LensVariant(
                lens: parameters.lenses[0], shapes: parameters.shapes[...], reachesLabel: false, linearBlending: $0)
        }
        var payback = CompilePayback()
        #expect(payback.labelFreePays(variants[0], tiles: 640) == false, "nothing measured yet")
        payback.noteLensCompile(milliseconds: 220)
        payback.noteLensPass(milliseconds: 12, tiles: 1024)
        payback.noteLensPass(milliseconds: 8, tiles: 1024)
        payback.noteLensPass(milliseconds: 0, tiles: 0)
        #expect(payback.lensTileMs == 8.0 / 1024, "the least time of a tile, frames without tiles ignored")
        // 640 tiles × 8/1024 ms × 0.2 saves 1 ms a frame: the 220th frame has paid for 220 ms.
        for _ in 0..<219 { #expect(payback.labelFreePays(variants[0], tiles: 640) == false) }
        #expect(payback.labelFreePays(variants[0], tiles: 640) == true)
        #expect(payback.labelFreePays(variants[1], tiles: 640) == false)
        payback.deviceIsTimed = false
        #expect(payback.labelFreePays(variants[1], tiles: 1_000_000) == false, "an untimed device never compiles it")
    }

    @Test("Where the stand-in is as fast as the device, nothing more compiles; each time kept is the least seen")
    func neverPays() throws {
        let (lens, _) = try variants()
        var payback = measured(standIn: [30, 14, 20], device: [15], compile: [400, 220])
        #expect(
            payback.standInMsPerMegapixel == 14 && payback.deviceMsPerMegapixel == 15 && payback.lensCompileMs == 220)
        for _ in 0..<1000 { #expect(payback.toCompile(lens, pixels: megapixel).isEmpty) }
    }
}
