import Foundation
import LiquidLens
import Testing

@Suite("--backend auto picks what finishes the job first")
struct BackendChoiceTests {
    private static let budget = BackendChoice.cpuPixelBudget(for: .cpu)

    @Test(
        "The rule over its cases (lavapipe's budget)",
        arguments: [
            (
                RenderJob(frames: 1, width: 780, height: 240), DeviceKind.cpu, Backend.cpu,
                "one 780×240 still; the CPU renders it"
            ),
            (RenderJob(frames: 3, width: 200, height: 140), .cpu, .cpu, "3 frames of 200×140; the CPU renders them"),
            (
                RenderJob(frames: 1, width: budget, height: 1), .cpu, .cpu,
                "before Vulkan is set up (CPU device, 8 MP budget)"
            ),
            (RenderJob(frames: 1, width: budget + 1, height: 1), .cpu, .vulkan, "Vulkan's setup pays off over it"),
            (RenderJob(frames: 1, width: 8192, height: 8192), .cpu, .vulkan, "one 8192×8192 still"),
            (RenderJob(frames: 60, width: 1920, height: 1080), .cpu, .vulkan, "60 frames of 1920×1080; Vulkan's"),
            (RenderJob(frames: 256, width: 512, height: 512), .cpu, .vulkan, "over the batch"),
            (RenderJob(frames: Int.max, width: 4096, height: 4096), .cpu, .vulkan, "over the batch"),
            (RenderJob(frames: 0, width: 780, height: 240), .cpu, .cpu, "one 780×240 still"),
        ])
    func rule(_ job: RenderJob, _ device: DeviceKind, _ backend: Backend, _ reason: String) {
        let choice = BackendChoice.automatic(for: job, device: device)
        #expect(choice.backend == backend, "\(job): \(choice.reason)")
        #expect(choice.reason.contains(reason), "\(choice.reason)")
        #expect(choice == BackendChoice.automatic(for: job, device: device), "the same every time")
    }

    @Test(
        "A GPU's setup pays off far sooner than lavapipe's: the same job goes to Vulkan on a discrete or integrated GPU",
        arguments: [
            (RenderJob(frames: 1, width: 1920, height: 1080), DeviceKind.discreteGPU, Backend.vulkan),
            (RenderJob(frames: 1, width: 1920, height: 1080), .integratedGPU, .vulkan),
            (RenderJob(frames: 1, width: 1920, height: 1080), .cpu, .cpu),
            (RenderJob(frames: 1, width: 1920, height: 1080), .virtualGPU, .cpu),
            (RenderJob(frames: 1, width: 1200, height: 1000), .discreteGPU, .vulkan),
            (RenderJob(frames: 1, width: 1200, height: 1000), .integratedGPU, .cpu),
            (RenderJob(frames: 1, width: 1000, height: 1000), .discreteGPU, .cpu),
            (RenderJob(frames: 12, width: 300, height: 300), .discreteGPU, .vulkan),
            (RenderJob(frames: 12, width: 300, height: 300), .cpu, .cpu),
        ])
    func ruleByDevice(_ job: RenderJob, _ device: DeviceKind, _ backend: Backend) {
        let choice = BackendChoice.automatic(for: job, device: device)
        #expect(choice.backend == backend, "\(device): \(choice.reason)")
        #expect(choice.reason.contains("\(device.rawValue) device"), "\(choice.reason)")
    }

    @Test("Budgets fall from a CPU device to an integrated to a discrete GPU; without a device the CPU renders")
    func budgets() {
        let budgets = [DeviceKind.cpu, .integratedGPU, .discreteGPU].map(BackendChoice.cpuPixelBudget(for:))
        #expect(budgets == budgets.sorted(by: >) && Set(budgets).count == 3, "\(budgets)")
        for job in [RenderJob(frames: 1, width: 780, height: 240), RenderJob(frames: 60, width: 1920, height: 1080)] {
            let choice = BackendChoice.automatic(for: job, device: nil)
            #expect(choice.backend == .cpu && choice.reason.hasSuffix("; Vulkan is unavailable"), "\(choice.reason)")
        }
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
                == "liquidlens: backend cpu (auto: one 780×240 still; the CPU renders it before Vulkan is set up (CPU device, 8 MP budget))\n"
        )
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
                "liquidlens: backend vulkan (auto: \(steps) frames of 1600×1000; Vulkan's setup pays off over the batch (CPU device, 8 MP budget))"
            ), "\(batch.stderr)")
        #expect(batch.stderr.contains("frames (png, vulkan, llvmpipe"), "\(batch.stderr)")
        let quiet = try runCLI(["batch", "sweep.json", "-o", "quiet", "-q", "--shard", "0/\(steps)"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "-q says nothing: \(quiet.stderr)")
    }
}
