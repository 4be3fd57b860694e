import Foundation
import LiquidLens
import Testing

@testable import LensVulkan

@Suite("Vulkan failures carry their result")
struct VulkanFailureTests {
    @Test("A Vulkan call that really fails throws its own call name and result")
    func realFailureCarriesItsResult() throws {
        let instance = try Instance(validation: false)
        let device = try Device(instance: instance, physical: DeviceSelector.choose(instance, preference: nil))
        let error = try #require(throws: VulkanError.self) { try Buffer(device: device, size: 1 << 40) }
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
