internal import CVulkan
import Foundation

/// A queue of the device and its family. Retrieved with the device and gone with it: nothing to destroy.
struct Queue {
    let handle: VkQueue
    let family: UInt32
}

/// Owns the logical `VkDevice` with its compute queue and, when the device has a dedicated
/// transfer family, a transfer queue; keeps its ``Instance`` alive.
final class Device {
    let instance: Instance
    let physical: PhysicalDeviceChoice
    let handle: VkDevice
    let compute: Queue
    /// The queue of the dedicated transfer family; nil when the device has none.
    let transfer: Queue?
    let memoryProperties: VkPhysicalDeviceMemoryProperties

    init(instance: Instance, physical: PhysicalDeviceChoice) throws {
        self.instance = instance
        self.physical = physical
        let families = [physical.queueFamily] + (physical.transferQueueFamily.map { [$0] } ?? [])
        var priority: Float = 1
        let handle: VkDevice = try vkCreate("vkCreateDevice") { created in
            withUnsafePointer(to: &priority) { priorityPointer in
                var queueInfos = families.map { family in
                    var queueInfo = VkDeviceQueueCreateInfo()
                    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                    queueInfo.queueFamilyIndex = family
                    queueInfo.queueCount = 1
                    queueInfo.pQueuePriorities = priorityPointer
                    return queueInfo
                }
                return queueInfos.withUnsafeMutableBufferPointer { queuePointer in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.queueCreateInfoCount = UInt32(queuePointer.count)
                    info.pQueueCreateInfos = UnsafePointer(queuePointer.baseAddress)
                    return vkCreateDevice(physical.handle, &info, nil, &created)
                }
            }
        }
        let queues = families.map { family -> Queue? in
            var queue: VkQueue?
            vkGetDeviceQueue(handle, family, 0, &queue)
            return queue.map { Queue(handle: $0, family: family) }
        }
        guard let compute = queues[0], queues.allSatisfy({ $0 != nil }) else {
            vkDestroyDevice(handle, nil)
            throw VulkanError("vkGetDeviceQueue gave no queue for a family vkCreateDevice was asked for")
        }
        self.handle = handle
        self.compute = compute
        transfer = queues.count > 1 ? queues[1] : nil
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physical.handle, &memory)
        memoryProperties = memory
    }

    /// Index of a memory type allowed by `typeBits` having all of `required`, preferring one with
    /// all of `preferred` and, after that, one with none of `avoided`; among equals, Vulkan's
    /// order (drivers list their best type first).
    func memoryType(typeBits: UInt32, required: UInt32, preferred: UInt32, avoided: UInt32 = 0) throws -> UInt32 {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let candidates = (0..<Int(memoryProperties.memoryTypeCount)).filter {
            typeBits & (1 << UInt32($0)) != 0 && types[$0].propertyFlags & required == required
        }
        func score(_ index: Int) -> Int {
            let flags = types[index].propertyFlags
            return (flags & preferred == preferred ? 2 : 0) + (flags & avoided == 0 ? 1 : 0)
        }
        let bestScore = candidates.map(score).max()
        guard let best = candidates.first(where: { score($0) == bestScore }) else {
            throw VulkanError(
                "no memory type with property flags 0x\(String(required, radix: 16)) for storage buffers on \(physical.description.name)"
            )
        }
        return UInt32(best)
    }

    /// Waits until every queue of the device is idle.
    func waitIdle() throws {
        try vkCheck(vkDeviceWaitIdle(handle), "vkDeviceWaitIdle")
    }

    /// Runs after every object made on the device is gone (each holds the device); its owner
    /// waited for the device before releasing them (`VulkanRenderer`'s deinit).
    deinit { vkDestroyDevice(handle, nil) }
}
