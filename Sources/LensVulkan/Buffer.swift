internal import CVulkan
import Foundation

/// Owns a `VkBuffer` and its memory, and the host's mapping of it for its whole life when the
/// host reaches it. Where the memory lies is the buffer's ``Placement``.
final class Buffer {
    /// Where a buffer's memory lies, who reads and writes it, and how.
    enum Placement {
        /// Host-visible and coherent, mapped, device-local where the device offers it: the host
        /// writes inputs where the shaders read them and reads the output in place (unified path).
        case shared
        /// Device-local and never mapped, host-visible only where the device offers nothing else:
        /// inputs and intermediates on the discrete path, filled by copies.
        case deviceLocal
        /// Host-visible and coherent, mapped, away from the device's own memory where the device
        /// offers that: the host writes uploads here for the transfer queue to copy out.
        case staging
        /// Host-visible and mapped, host-cached where the device offers it (reads through the
        /// CPU's caches), not necessarily coherent: finished frames are copied here for the host.
        case readback
    }

    let device: Device
    let handle: VkBuffer
    let memory: VkDeviceMemory
    let size: Int
    /// The host's view of the memory; nil for a device-local buffer.
    let mapped: UnsafeMutableRawPointer?
    /// Whether the memory is `HOST_COHERENT`; if not, device writes need ``invalidate()`` before
    /// the host reads them.
    let isCoherent: Bool

    /// - Parameter queueFamilies: the queue families that use the buffer when they are more than
    ///   one (`VK_SHARING_MODE_CONCURRENT`); empty for one family (`EXCLUSIVE`).
    init(device: Device, size: Int, placement: Placement, queueFamilies: [UInt32] = []) throws {
        self.device = device
        self.size = max(size, 16)
        let (usage, required, preferred, avoided) = placement.memoryNeeds
        let coherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        let handle = try Self.createHandle(device, size: self.size, usage: usage, queueFamilies: queueFamilies)
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device.handle, handle, &requirements)
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        let memory: VkDeviceMemory
        let flags: UInt32
        do {
            allocation.memoryTypeIndex = try device.memoryType(
                typeBits: requirements.memoryTypeBits, required: required, preferred: preferred, avoided: avoided)
            flags = withUnsafeBytes(of: device.memoryProperties.memoryTypes) {
                $0.bindMemory(to: VkMemoryType.self)[Int(allocation.memoryTypeIndex)].propertyFlags
            }
            memory = try vkCreate("vkAllocateMemory") { vkAllocateMemory(device.handle, &allocation, nil, &$0) }
        } catch {
            vkDestroyBuffer(device.handle, handle, nil)
            throw error
        }
        do {
            try vkCheck(vkBindBufferMemory(device.handle, handle, memory, 0), "vkBindBufferMemory")
            mapped =
                placement == .deviceLocal
                ? nil
                : try vkCreate("vkMapMemory") {
                    vkMapMemory(device.handle, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &$0)
                }
        } catch {
            vkFreeMemory(device.handle, memory, nil)
            vkDestroyBuffer(device.handle, handle, nil)
            throw error
        }
        self.handle = handle
        self.memory = memory
        isCoherent = flags & coherent != 0
    }

    /// A buffer of `size` bytes for `usage`, shared by `queueFamilies` when they are more than one.
    private static func createHandle(_ device: Device, size: Int, usage: UInt32, queueFamilies: [UInt32]) throws
        -> VkBuffer
    {
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(size)
        info.usage = usage
        info.sharingMode = queueFamilies.count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE
        return try vkCreate("vkCreateBuffer") { created in
            queueFamilies.withUnsafeBufferPointer { families in
                if queueFamilies.count > 1 {
                    info.queueFamilyIndexCount = UInt32(families.count)
                    info.pQueueFamilyIndices = families.baseAddress
                }
                return vkCreateBuffer(device.handle, &info, nil, &created)
            }
        }
    }

    /// Copies `bytes` into the mapped memory at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        guard let mapped, let source = bytes.baseAddress else {
            precondition(bytes.isEmpty, "write to a buffer the host does not map")
            return
        }
        precondition(offset + bytes.count <= size, "write past the end of the buffer")
        (mapped + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// Makes what the device wrote visible to the host's mapping; nothing to do on coherent memory.
    func invalidate() throws {
        guard !isCoherent else { return }
        var range = VkMappedMemoryRange()
        range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE
        range.memory = memory
        range.offset = 0
        range.size = VkDeviceSize(VK_WHOLE_SIZE)
        try vkCheck(vkInvalidateMappedMemoryRanges(device.handle, 1, &range), "vkInvalidateMappedMemoryRanges")
    }

    deinit {
        if mapped != nil { vkUnmapMemory(device.handle, memory) }
        vkDestroyBuffer(device.handle, handle, nil)
        vkFreeMemory(device.handle, memory, nil)
    }
}

extension Buffer.Placement {
    /// The buffer's usage, and the memory properties it requires, prefers and avoids.
    fileprivate var memoryNeeds: (usage: UInt32, required: UInt32, preferred: UInt32, avoided: UInt32) {
        // What the shaders read them as (uniform blocks, texel buffers) and what copies do.
        let shaderUsage =
            VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        let hostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue
        let coherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        let deviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue
        return switch self {
        case .shared: (shaderUsage, hostVisible | coherent, deviceLocal, 0)
        case .deviceLocal: (shaderUsage, 0, deviceLocal, hostVisible)
        case .staging: (VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue, hostVisible | coherent, 0, deviceLocal)
        case .readback:
            (VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, hostVisible, VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue, 0)
        }
    }
}
