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
