internal import CVulkan
import Foundation

/// Owns a `VkDescriptorPool` and the one set allocated from it (freed with the pool).
final class DescriptorSet {
    let layout: DescriptorSetLayout
    let pool: VkDescriptorPool
    let handle: VkDescriptorSet

    init(layout: DescriptorSetLayout) throws {
        self.layout = layout
        let device = layout.device.handle
        var sizes = Dictionary(grouping: DescriptorBinding.allCases, by: \.descriptorType.rawValue).map {
            VkDescriptorPoolSize(type: VkDescriptorType(rawValue: $0.key), descriptorCount: UInt32($0.value.count))
        }
        var poolInfo = VkDescriptorPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        poolInfo.maxSets = 1
        poolInfo.poolSizeCount = UInt32(sizes.count)
        let pool: VkDescriptorPool = try vkCreate("vkCreateDescriptorPool") { created in
            sizes.withUnsafeMutableBufferPointer { sizePointer in
                poolInfo.pPoolSizes = UnsafePointer(sizePointer.baseAddress)
                return vkCreateDescriptorPool(device, &poolInfo, nil, &created)
            }
        }
        var setLayout: VkDescriptorSetLayout? = layout.handle
        do {
            handle = try vkCreate("vkAllocateDescriptorSets") { created in
                withUnsafePointer(to: &setLayout) { layoutPointer in
                    var info = VkDescriptorSetAllocateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
                    info.descriptorPool = pool
                    info.descriptorSetCount = 1
                    info.pSetLayouts = layoutPointer
                    return vkAllocateDescriptorSets(device, &info, &created)
                }
            }
        } catch {
            vkDestroyDescriptorPool(device, pool, nil)
            throw error
        }
        self.pool = pool
    }

    /// Points every binding at its buffer (`buffers`, indexed by ``Binding``) or its texel view.
    func bind(buffers: [Buffer], views: [DescriptorBinding: BufferView]) {
        let bindings = DescriptorBinding.allCases
        var bufferInfos = bindings.map { binding -> VkDescriptorBufferInfo in
            let range: VkDeviceSize =
                switch binding.kind {
                case .uniformBuffer(let range), .dynamicUniformBuffer(let range): VkDeviceSize(range)
                case .texels, .storageTexels: VkDeviceSize(VK_WHOLE_SIZE)
                }
            return VkDescriptorBufferInfo(buffer: buffers[binding.buffer.rawValue].handle, offset: 0, range: range)
        }
        var viewHandles = bindings.map { views[$0]?.handle }
        bufferInfos.withUnsafeMutableBufferPointer { infoPointer in
            viewHandles.withUnsafeMutableBufferPointer { viewPointer in
                var writes = bindings.enumerated().map { index, binding -> VkWriteDescriptorSet in
                    var write = VkWriteDescriptorSet()
                    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                    write.dstSet = handle
                    write.dstBinding = binding.rawValue
                    write.descriptorCount = 1
                    write.descriptorType = binding.descriptorType
                    if binding.kind.texelFormat != nil {
                        write.pTexelBufferView = UnsafePointer(viewPointer.baseAddress! + index)
                    } else {
                        write.pBufferInfo = UnsafePointer(infoPointer.baseAddress! + index)
                    }
                    return write
                }
                vkUpdateDescriptorSets(layout.device.handle, UInt32(writes.count), &writes, 0, nil)
            }
        }
    }

    deinit { vkDestroyDescriptorPool(layout.device.handle, pool, nil) }
}

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

/// Owns a timestamp `VkQueryPool`.
final class TimestampQueryPool {
    let device: Device
    let handle: VkQueryPool
    let capacity: UInt32

    init(device: Device, capacity: UInt32) throws {
        self.device = device
        self.capacity = capacity
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = VK_QUERY_TYPE_TIMESTAMP
        info.queryCount = capacity
        handle = try vkCreate("vkCreateQueryPool") { vkCreateQueryPool(device.handle, &info, nil, &$0) }
    }

    /// The first `count` timestamps in nanoseconds; nil while any is not available yet.
    func results(count: UInt32) throws -> [Double]? {
        guard count > 0 else { return [] }
        var values = [UInt64](repeating: 0, count: Int(count))
        let result = values.withUnsafeMutableBytes { bytes in
            vkGetQueryPoolResults(
                device.handle, handle, 0, count, bytes.count, bytes.baseAddress, 8,
                VK_QUERY_RESULT_64_BIT.rawValue)
        }
        if result == VK_NOT_READY { return nil }
        try vkCheck(result, "vkGetQueryPoolResults")
        let period = Double(device.physical.timestampPeriod)
        return values.map { Double($0) * period }
    }

    deinit { vkDestroyQueryPool(device.handle, handle, nil) }
}
