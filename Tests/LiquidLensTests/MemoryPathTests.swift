import Foundation
import LiquidLens
import Testing

@testable import LensReference
@testable import LensVulkan

/// One Vulkan renderer forced onto the discrete memory path (device-local buffers, staging,
/// copies, readback), validation on, shared by the tests under a lock as ``SharedGPU`` is.
enum SharedDiscreteGPU {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var renderer: VulkanRenderer?

    static func with<T>(_ body: (VulkanRenderer) throws -> T) throws -> T {
        try lock.withLock {
            if renderer == nil { renderer = try VulkanRenderer(options: discreteOptions) }
            let before = renderer!.validationMessages.count
            let result = try body(renderer!)
            let messages = renderer!.validationMessages.dropFirst(before)
            if !messages.isEmpty { Issue.record("validation layer: \(Array(messages))") }
            return result
        }
    }

    /// Validation on, the discrete path forced, the tests' pipeline cache.
    static var discreteOptions: VulkanOptions {
        VulkanOptions(
            validation: true,
            pipelineCacheDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(
                "liquidlens-test-cache"), memoryPath: .discrete)
    }
}

extension ParityScene {
    /// Frames of the benchmark workloads: the lens-heavy lens at both ends and the middle of its
    /// run, the screen mid-drag, the 64 panes apart and as one container's shapes, and four
    /// distinct thumbnails.
    static let benchmarkFrames: [ParityScene] = {
        let frames: [(BenchmarkWorkload, Int, Int)] = [
            (.lensHeavy, 0, 60), (.lensHeavy, 30, 60), (.lensHeavy, 59, 60), (.screen, 60, 120), (.panes, 12, 24),
        ]
        let container = ParityScene(
            name: "bench-container-64",
            scene: try! BenchmarkWorkload.lensHeavy(
                lensCenterX: 960, glass: BenchmarkWorkload.panes(64, grouped: true, frame: 1)))
        return frames.map { workload, index, count in
            ParityScene(
                name: "bench-\(workload.rawValue)-\(index)-of-\(count)", scene: try! workload.scene(index, of: count))
        }
            + [container]
            + (0..<4).map { ParityScene(name: "bench-thumbnail-\($0)", scene: BenchmarkWorkload.thumbnail($0)) }
    }()
}

@Suite("The discrete memory path: device-local buffers, a staging ring, copies")
struct MemoryPathTests {
    @Test(
        "Forced onto the discrete path, the GPU gives the unified path's pixels, so matches the CPU as it does; validation silent",
        arguments: ParityScene.all + ParityScene.benchmarkFrames)
    func parity(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        let actual = try SharedDiscreteGPU.with { gpu in
            #expect(gpu.memoryPath == .discrete && gpu.validationEnabled)
            return try gpu.render(parameters)
        }
        let unified = try SharedGPU.with { try $0.render(parameters) }
        #expect(actual == unified, "the memory path changes no pixel")
        checkParity(case_.name, actual: actual, expected: ReferenceRenderer().render(parameters), prefix: "discrete-")
    }

    @Test("The forced path stages its uploads, reads back through host memory, and skips what did not change")
    func stagesOnlyWhatChanged() throws {
        let gpu = try VulkanRenderer(options: SharedDiscreteGPU.discreteOptions)
        #expect(gpu.memoryPath == .discrete)
        let parameters = try resolve(BuiltInScene.segmented.scene)
        let frameBytes = parameters.width * parameters.height * 4

        let first = try gpu.render(parameters)
        let cold = gpu.lastTransfers
        #expect(
            Set(cold.inputs).isSuperset(of: ["params", "tables", "backdrop", "label", "shapes", "tiles", "tileShapes"]),
            "\(cold.inputs)")
        #expect(cold.copiedBytes == cold.uploadedBytes && cold.uploadedBytes > frameBytes)
        #expect(cold.readbackBytes == frameBytes)
        #expect(cold.allocatedBytes >= 3 * frameBytes, "the first frame allocates its buffers")

        let second = try gpu.render(parameters)
        let warm = gpu.lastTransfers
        #expect(second == first)
        for unchanged in ["tables", "backdrop", "label", "foreground", "shapes", "tileShapes"] {
            #expect(!warm.inputs.contains(unchanged), "\(unchanged) uploaded again: \(warm.inputs)")
        }
        #expect(warm.copiedBytes == warm.uploadedBytes && warm.uploadedBytes < cold.uploadedBytes / 10)
        #expect(warm.readbackBytes == frameBytes)

        #expect(try gpu.render(parameters) == first)
        #expect(gpu.lastTransfers.inputs.isEmpty, "a third identical frame uploads nothing")

        // Buffers grow to the largest frame seen, then frames of any size seen allocate nothing.
        let other = try resolve(BuiltInScene.probeGrid.scene)
        let otherImage = ReferenceRenderer().render(other)
        #expect(try gpu.render(other) == otherImage)
        for _ in 0..<2 {
            #expect(try gpu.render(parameters) == first)
            #expect(gpu.lastTransfers.allocatedBytes == 0, "nothing allocated per frame")
            #expect(try gpu.render(other) == otherImage)
            #expect(gpu.lastTransfers.allocatedBytes == 0, "nothing allocated per frame")
        }
        #expect(gpu.validationMessages.isEmpty, "\(gpu.validationMessages)")
    }

    @Test("Frames in flight on the discrete path: each slot stages, renders and reads back its own frame")
    func framesInFlight() throws {
        let frames = try (0..<7).map { index in
            var scene = BuiltInScene.probeGrid.scene
            scene.glass[0].shapes[0].frame.x += Double(index * 20)
            return try resolve(scene)
        }
        var images: [Int: RGBA8Image] = [:]
        try SharedDiscreteGPU.with { gpu in
            try gpu.renderBatch(count: frames.count, framesInFlight: 3) {
                frames[$0]
            } deliver: { index, image in
                images[index] = image
            }
        }
        for (index, parameters) in frames.enumerated() {
            #expect(images[index] == ReferenceRenderer().render(parameters), "frame \(index)")
        }
    }

    @Test("--memory (or $LIQUIDLENS_MEMORY) forces a path on every command that takes --device")
    func cli() throws {
        let folder = try temporaryFolder("cli-memory")
        let forced = try runCLI(
            [
                "render", "--backend", "vulkan", "--memory", "discrete", "--validation", "--timing", "--frames", "2",
                "-o", "a.png",
            ],
            in: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.isEmpty, "validation or other messages: \(forced.stderr)")
        #expect(forced.stdout.contains("memory:      discrete path; last frame: "), "\(forced.stdout)")
        let automatic = try runCLI(
            ["render", "--backend", "vulkan", "--timing", "--frames", "2", "-o", "b.png"], in: folder)
        #expect(automatic.stdout.contains("memory:      unified path; last frame: "), "\(automatic.stdout)")
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("a.png"))
                == Data(contentsOf: folder.appendingPathComponent("b.png")))

        let bench = try runCLI(
            ["bench", "--workload", "thumbnails", "--frames", "2", "--backend", "vulkan"],
            environment: ["LIQUIDLENS_MEMORY": "discrete"], in: folder)
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("discrete memory path"), "\(bench.stdout)")
        let bad = try runCLI(
            ["gallery", "--backend", "vulkan", "-o", "g.png"], environment: ["LIQUIDLENS_MEMORY": "vram"], in: folder)
        #expect(bad.status == 1)
        #expect(
            bad.stderr == "Error: LIQUIDLENS_MEMORY=vram names no memory path (expected auto, discrete or unified)\n")
        let usage = try runCLI(["animate", "--memory", "vram"], in: folder)
        #expect(usage.status == 64 && usage.stderr.contains("Invalid value 'vram' for '--memory <path>'"))
    }

    @Test("lavapipe's memory is unified: automatic keeps the zero-copy path")
    func automaticOnLavapipe() throws {
        let parameters = try resolve(BuiltInScene.probeRamp.scene)
        try SharedGPU.with { gpu in
            #expect(gpu.deviceDescription.memory.isUnified)
            #expect(gpu.memoryPath == .unified)
            _ = try gpu.render(parameters)
            #expect(gpu.lastTransfers.copiedBytes == 0 && gpu.lastTransfers.readbackBytes == 0)
        }
    }

    /// A device's heaps and kind, and whether its memory is unified.
    struct LayoutCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let heaps: [DeviceMemoryLayout.Heap]
        let integrated: Bool
        let unified: Bool
    }

    @Test(
        "Unified or discrete is told by the heaps, and by the device's kind",
        arguments: [
            LayoutCase(
                testDescription: "lavapipe: one heap, device-local and mappable",
                heaps: [heap(2, local: true, visible: true)], integrated: false, unified: true),
            LayoutCase(
                testDescription: "discrete GPU: its own memory, the host's apart",
                heaps: [heap(24, local: true, visible: false), heap(64)], integrated: false, unified: false),
            LayoutCase(
                testDescription: "discrete GPU with resizable BAR: its memory mappable, but across the bus",
                heaps: [heap(24, local: true, visible: true), heap(64)], integrated: false, unified: false),
            LayoutCase(
                testDescription: "integrated GPU: one device-local heap",
                heaps: [heap(16, local: true, visible: true)], integrated: true, unified: true),
            LayoutCase(
                testDescription: "APU: a carve-out and the host's memory, but integrated",
                heaps: [heap(0.5, local: true, visible: true), heap(16)], integrated: true, unified: true),
        ])
    func memoryLayout(_ case_: LayoutCase) {
        let layout = DeviceMemoryLayout(
            heaps: case_.heaps, integrated: case_.integrated, hasDedicatedTransferQueue: !case_.unified)
        #expect(layout.isUnified == case_.unified, "\(layout)")
    }

    @Test("The memory layout reads as devices prints it")
    func memoryLayoutDescription() {
        let layout = DeviceMemoryLayout(
            heaps: [heap(24, local: true, visible: true), heap(64)], integrated: false, hasDedicatedTransferQueue: true)
        #expect(
            layout.description
                == "discrete memory (heap 0: 24.0 GiB, device-local, host-visible; heap 1: 64.0 GiB, host-visible); dedicated transfer queue"
        )
    }
}

/// A heap of `gibibytes`, host-visible and not device-local unless told.
private func heap(_ gibibytes: Double, local: Bool = false, visible: Bool = true) -> DeviceMemoryLayout.Heap {
    DeviceMemoryLayout.Heap(size: UInt64(gibibytes * Double(1 << 30)), isDeviceLocal: local, isHostVisible: visible)
}
