internal import CVulkan
import Foundation

/// Owns a binary `VkSemaphore`: one submit signals it, a later one (on this queue or another)
/// waits for it, which also makes the first submit's writes visible to the second.
final class Semaphore {
    let device: Device
    let handle: VkSemaphore

    init(device: Device) throws {
        self.device = device
        var info = VkSemaphoreCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
        handle = try vkCreate("vkCreateSemaphore") { vkCreateSemaphore(device.handle, &info, nil, &$0) }
    }

    deinit { vkDestroySemaphore(device.handle, handle, nil) }
}

/// Owns a `VkFence`.
final class Fence {
    let device: Device
    let handle: VkFence

    init(device: Device) throws {
        self.device = device
        var info = VkFenceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        handle = try vkCreate("vkCreateFence") { vkCreateFence(device.handle, &info, nil, &$0) }
    }

    func reset() throws {
        var fence: VkFence? = handle
        try vkCheck(vkResetFences(device.handle, 1, &fence), "vkResetFences")
    }

    /// Waits in one-second slices; `VK_TIMEOUT` is an answer ("not yet"), not a failure.
    func wait() throws {
        var fence: VkFence? = handle
        while true {
            let result = vkWaitForFences(device.handle, 1, &fence, VkBool32(VK_TRUE), 1_000_000_000)
            if result == VK_TIMEOUT { continue }
            try vkCheck(result, "vkWaitForFences")
            return
        }
    }

    deinit { vkDestroyFence(device.handle, handle, nil) }
}
