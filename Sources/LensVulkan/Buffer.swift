internal import CVulkan
import Foundation

/// Owns a uniform and texel (and transfer source/destination) `VkBuffer` and its host-visible, coherent memory, mapped for its whole life.
/// Host writes before a submit are visible to that submit; reads after the fence need the
/// shader-write → host-read barrier the renderer records.
final class Buffer {
    let device: Device
    let handle: VkBuffer
    let memory: VkDeviceMemory
    let size: Int
    let mapped: UnsafeMutableRawPointer

    init(device: Device, size: Int) throws {
        self.device = device
        self.size = max(size, 16)
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(self.size)
        info.usage =
            VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        let handle: VkBuffer = try vkCreate("vkCreateBuffer") { vkCreateBuffer(device.handle, &info, nil, &$0) }
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device.handle, handle, &requirements)
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        let memory: VkDeviceMemory
        do {
            allocation.memoryTypeIndex = try device.memoryType(
                typeBits: requirements.memoryTypeBits,
                required: VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue,
                preferred: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
            memory = try vkCreate("vkAllocateMemory") { vkAllocateMemory(device.handle, &allocation, nil, &$0) }
        } catch {
            vkDestroyBuffer(device.handle, handle, nil)
            throw error
        }
        do {
            try vkCheck(vkBindBufferMemory(device.handle, handle, memory, 0), "vkBindBufferMemory")
            mapped = try vkCreate("vkMapMemory") {
                vkMapMemory(device.handle, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &$0)
            }
        } catch {
            vkFreeMemory(device.handle, memory, nil)
            vkDestroyBuffer(device.handle, handle, nil)
            throw error
        }
        self.handle = handle
        self.memory = memory
    }

    /// Copies `values` to the start of the buffer.
    func upload<T>(_ values: [T]) {
        values.withUnsafeBytes { bytes in
            precondition(bytes.count <= size, "upload larger than the buffer")
            mapped.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
    }

    deinit {
        vkUnmapMemory(device.handle, memory)
        vkDestroyBuffer(device.handle, handle, nil)
        vkFreeMemory(device.handle, memory, nil)
    }
}
