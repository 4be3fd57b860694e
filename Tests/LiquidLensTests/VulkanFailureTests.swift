import Foundation
import LiquidLens
import Testing

@testable import LensReference
@testable import LensVulkan

@Suite("Vulkan failures carry their result; faults are injected through the renderer's options")
struct VulkanFailureTests {
    /// A small frame every fault test renders.
    let parameters: FrameParameters

    init() throws {
        parameters = try resolve(BuiltInScene.segmented.scene)
    }

    /// A renderer with `faults` and nothing from the environment, sharing the tests' pipeline cache.
    func renderer(_ faults: FaultInjection) throws -> VulkanRenderer {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("liquidlens-test-cache")
        var options = VulkanOptions(pipelineCacheDirectory: cache)
        options.faultInjection = faults
        return try VulkanRenderer(options: options)
    }

    @Test("The LIQUIDLENS_INJECT_* variables ask for the faults they name, and only with the values they document")
    func faultsFromEnvironment() {
        #expect(FaultInjection(environment: [:]) == FaultInjection())
        let all = [
            "LIQUIDLENS_INJECT_WRONG_PIXELS": "1", "LIQUIDLENS_INJECT_DEVICE_LOST": "4",
            "LIQUIDLENS_INJECT_OUT_OF_MEMORY": "1", "LIQUIDLENS_INJECT_LABEL_FREE_COMPILE_FAILURE": "1",
        ]
        #expect(
            FaultInjection(environment: all)
                == FaultInjection(
                    wrongPixels: true, deviceLostAtFrame: 4, outOfMemory: true, labelFreeCompileFails: true))
        let off = [
            "LIQUIDLENS_INJECT_WRONG_PIXELS": "0", "LIQUIDLENS_INJECT_DEVICE_LOST": "soon",
            "LIQUIDLENS_INJECT_OUT_OF_MEMORY": "yes", "LIQUIDLENS_INJECT_LABEL_FREE_COMPILE_FAILURE": "true",
        ]
        #expect(FaultInjection(environment: off) == FaultInjection())
    }

    @Test("An injected out-of-memory fault fails the frame with VK_ERROR_OUT_OF_DEVICE_MEMORY and says how to go on")
    func injectedOutOfMemory() throws {
        let gpu = try renderer(FaultInjection(outOfMemory: true))
        let error = try #require(throws: VulkanError.self) { try gpu.render(parameters) }
        #expect(error.result == .outOfDeviceMemory && error.isOutOfMemory && !error.isDeviceLost)
        #expect(error.call == "vkAllocateMemory")
        #expect(error.description.contains("has no memory for this frame (about"))
        #expect(
            error.description.hasSuffix(
                "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY; use --backend cpu or a smaller --scale"))
    }

    @Test("An injected device loss fails the frame asked for with VK_ERROR_DEVICE_LOST; the next frame renders")
    func injectedDeviceLost() throws {
        let gpu = try renderer(FaultInjection(deviceLostAtFrame: 2))
        let first = try gpu.render(parameters)
        let error = try #require(throws: VulkanError.self) { try gpu.render(parameters) }
        #expect(error.result == .deviceLost && error.isDeviceLost && !error.isOutOfMemory)
        #expect(error.call == "vkQueueSubmit")
        #expect(
            error.description
                == "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (injected by LIQUIDLENS_INJECT_DEVICE_LOST)")
        #expect(try gpu.render(parameters) == first)
    }

    @Test(
        "A failed label-free compile costs a lens that reaches the label nothing, and fails a lens that needs it"
    )
    func injectedLabelFreeCompileFailure() throws {
        let split = try resolve(BenchmarkWorkload.lensHeavy.scene(30, of: 60))
        let lens = split.lenses[0]
        #expect(lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount, "tiles of both kinds")
        let gpu = try renderer(FaultInjection(labelFreeCompileFails: true))
        let first = try gpu.render(split)
        try gpu.waitForPipelines()
        let second = try gpu.render(split)
        #expect(
            gpu.lastDispatches.labelFreeVariantTiles == 0 && gpu.lensVariantsKnown == 1,
            "its failure dropped, not retried")
        let expected = ReferenceRenderer().render(split)
        checkParity("lens-heavy", actual: first, expected: expected, prefix: "compile-failure-")
        checkParity("lens-heavy", actual: second, expected: expected, prefix: "compile-failure-again-")

        let unlabeled = try resolve(BuiltInScene.probeGrid.scene)
        #expect(unlabeled.lenses.allSatisfy { $0.labelTileCount == 0 }, "no lens reaches a glyph")
        let error = try #require(throws: VulkanError.self) { try gpu.render(unlabeled) }
        #expect(error.result == .outOfHostMemory && error.call == "vkCreateComputePipelines")
    }

    @Test("Injected wrong pixels flip the low bits of red in every 7th pixel, and nothing else")
    func injectedWrongPixels() throws {
        let clean = try renderer(FaultInjection()).render(parameters)
        let damaged = try renderer(FaultInjection(wrongPixels: true)).render(parameters)
        var expected = clean
        for pixel in stride(from: 0, to: clean.width * clean.height, by: 7) { expected.pixels[pixel * 4] ^= 0x0F }
        #expect(damaged == expected)
    }

    @Test("A Vulkan call that really fails throws its own call name and result")
    func realFailureCarriesItsResult() throws {
        let instance = try Instance(validation: false)
        let device = try Device(instance: instance, physical: DeviceSelector.choose(instance, preference: nil))
        let error = try #require(throws: VulkanError.self) {
            try Buffer(device: device, size: 1 << 40, placement: .shared)
        }
        #expect(error.isOutOfMemory, "\(error)")
        let call = try #require(error.call)
        let result = try #require(error.result)
        #expect(["vkCreateBuffer", "vkAllocateMemory"].contains(call))
        #expect(error.description == "\(call) failed: \(result.name)")
    }

    @Test("Results are named as Vulkan names them; an unknown code by its number")
    func resultNames() {
        #expect(VulkanResult.deviceLost.name == "VK_ERROR_DEVICE_LOST")
        #expect(VulkanResult(code: -2) == .outOfDeviceMemory)
        #expect(VulkanResult(code: 12345).name == "VkResult 12345")
        #expect("\(VulkanResult.incompatibleDriver)" == "VK_ERROR_INCOMPATIBLE_DRIVER (no usable Vulkan driver)")
    }
}
