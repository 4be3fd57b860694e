import Foundation
import LiquidLens
import Testing

@Suite("--backend auto picks what finishes the job first")
struct BackendChoiceTests {
    private static let budget = BackendChoice.cpuPixelBudget

    @Test(
        "The rule over its cases",
        arguments: [
            (RenderJob(frames: 1, width: 780, height: 240), true, Backend.cpu, "one 780×240 still; the CPU renders it"),
            (RenderJob(frames: 3, width: 200, height: 140), true, .cpu, "3 frames of 200×140; the CPU renders them"),
            (RenderJob(frames: 1, width: budget, height: 1), true, .cpu, "before the GPU is set up"),
            (RenderJob(frames: 1, width: budget + 1, height: 1), true, .vulkan, "the GPU's setup pays off over it"),
            (RenderJob(frames: 1, width: 8192, height: 8192), true, .vulkan, "one 8192×8192 still"),
            (RenderJob(frames: 60, width: 1920, height: 1080), true, .vulkan, "60 frames of 1920×1080; the GPU's"),
            (RenderJob(frames: 256, width: 512, height: 512), true, .vulkan, "over the batch"),
            (RenderJob(frames: Int.max, width: 4096, height: 4096), true, .vulkan, "over the batch"),
            (RenderJob(frames: 0, width: 780, height: 240), true, .cpu, "one 780×240 still"),
            (
                RenderJob(frames: 60, width: 1920, height: 1080), false, .cpu,
                "60 frames of 1920×1080; Vulkan is unavailable"
            ),
            (RenderJob(frames: 1, width: 780, height: 240), false, .cpu, "Vulkan is unavailable"),
        ])
    func rule(_ job: RenderJob, _ vulkanAvailable: Bool, _ backend: Backend, _ reason: String) {
        let choice = BackendChoice.automatic(for: job, vulkanAvailable: vulkanAvailable)
        #expect(choice.backend == backend, "\(job): \(choice.reason)")
        #expect(choice.reason.contains(reason), "\(choice.reason)")
        #expect(choice == BackendChoice.automatic(for: job, vulkanAvailable: vulkanAvailable), "the same every time")
    }

    @Test("A job's size is the scene's at the scale asked for, rounded as the resolver rounds it")
    func jobOfScene() throws {
        let scene = BuiltInScene.segmented.scene
        let parameters = try resolve(scene)
        #expect(RenderJob(frames: 1, scene: scene).pixelsPerFrame == parameters.width * parameters.height)
        let scaled = try LensRenderer.resolve(scene, scale: 1.5)
        let job = RenderJob(frames: 1, scene: scene, scale: 1.5)
        #expect(job.width == scaled.width && job.height == scaled.height)
    }

    @Test("The library's automatic renderer takes the CPU for a small still without setting Vulkan up")
    func library() throws {
        let small = try LensRenderer(backend: .automatic, job: RenderJob(frames: 1, width: 780, height: 240))
        #expect(small.activeBackend == .cpu && small.device == nil && small.fallbackReason == nil)
        #expect(small.automaticChoice?.backend == .cpu)
        let named = try LensRenderer(backend: .cpu)
        #expect(named.automaticChoice == nil)
    }

    @Test("render --backend auto of the showcase says cpu on stderr; a large batch says vulkan")
    func cli() throws {
        let folder = try temporaryFolder("cli-auto")
        let still = try runCLI(["render", "-o", "still.png"], in: folder)
        #expect(still.status == 0, "\(still.stderr)")
        #expect(
            still.stderr
                == "liquidlens: backend cpu (auto: one 780×240 still; the CPU renders it before the GPU is set up)\n")
        #expect(still.stdout.contains("cpu reference"))

        // A sweep of 1600×1000 frames, one more than the CPU's budget holds.
        let steps = Self.budget / (1600 * 1000) + 1
        try Data(
            """
            {"canvas": {"width": 1600, "height": 1000, "scale": 1}, "background": "grid",
             "glass": [{"shape": "capsule", "frame": {"x": 100, "y": 400, "width": 400, "height": 160}}]}
            """.utf8
        ).write(to: folder.appendingPathComponent("wide.json"))
        try Data(
            """
            {"scene": "wide.json", "sweep": [{"key": "glass[0].frame.x", "from": 100, "to": 1100, "steps": \(steps)}]}
            """.utf8
        ).write(to: folder.appendingPathComponent("sweep.json"))
        let batch = try runCLI(["batch", "sweep.json", "-o", "frames", "--progress", "lines"], in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(
            batch.stderr.contains(
                "liquidlens: backend vulkan (auto: \(steps) frames of 1600×1000; the GPU's setup pays off over the batch)"
            ), "\(batch.stderr)")
        #expect(batch.stderr.contains("frames (png, vulkan, llvmpipe"), "\(batch.stderr)")
        let quiet = try runCLI(["batch", "sweep.json", "-o", "quiet", "-q", "--shard", "0/\(steps)"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "-q says nothing: \(quiet.stderr)")
    }
}
