internal import CVulkan
import Foundation

/// Owns a `VkCommandPool` and one primary command buffer from it, re-recorded every frame and
/// submitted to the queue whose family the pool belongs to.
final class CommandBuffer {
    let device: Device
    let queue: Queue
    let pool: VkCommandPool
    let handle: VkCommandBuffer

    init(device: Device, queue: Queue) throws {
        self.device = device
        self.queue = queue
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = queue.family
        let pool: VkCommandPool = try vkCreate("vkCreateCommandPool") {
            vkCreateCommandPool(device.handle, &poolInfo, nil, &$0)
        }
        var info = VkCommandBufferAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        info.commandPool = pool
        info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        info.commandBufferCount = 1
        do {
            handle = try vkCreate("vkAllocateCommandBuffers") { vkAllocateCommandBuffers(device.handle, &info, &$0) }
        } catch {
            vkDestroyCommandPool(device.handle, pool, nil)
            throw error
        }
        self.pool = pool
    }

    /// Resets, records `body`, ends.
    func record(_ body: (VkCommandBuffer) throws -> Void) throws {
        try vkCheck(vkResetCommandBuffer(handle, 0), "vkResetCommandBuffer")
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        try vkCheck(vkBeginCommandBuffer(handle, &begin), "vkBeginCommandBuffer")
        try body(handle)
        try vkCheck(vkEndCommandBuffer(handle), "vkEndCommandBuffer")
    }

    /// Submits to the queue: the commands wait at `waiting.stages` until `waiting.semaphore` is
    /// signalled; `signalling` and `fence` (reset first) signal when the queue has run them.
    func submit(
        waiting: (semaphore: Semaphore, stages: UInt32)? = nil, signalling: Semaphore? = nil, fence: Fence? = nil
    ) throws {
        try fence?.reset()
        var commandBuffer: VkCommandBuffer? = handle
        var waitSemaphore: VkSemaphore? = waiting?.semaphore.handle
        var waitStages = waiting?.stages ?? 0
        var signalSemaphore: VkSemaphore? = signalling?.handle
        let result = withUnsafePointer(to: &commandBuffer) { commands in
            withUnsafePointer(to: &waitSemaphore) { wait in
                withUnsafePointer(to: &waitStages) { stages in
                    withUnsafePointer(to: &signalSemaphore) { signal in
                        var submit = VkSubmitInfo()
                        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                        submit.commandBufferCount = 1
                        submit.pCommandBuffers = commands
                        if waiting != nil {
                            submit.waitSemaphoreCount = 1
                            submit.pWaitSemaphores = wait
                            submit.pWaitDstStageMask = stages
                        }
                        if signalling != nil {
                            submit.signalSemaphoreCount = 1
                            submit.pSignalSemaphores = signal
                        }
                        return vkQueueSubmit(queue.handle, 1, &submit, fence?.handle)
                    }
                }
            }
        }
        try vkCheck(result, "vkQueueSubmit")
    }

    deinit { vkDestroyCommandPool(device.handle, pool, nil) }
}
