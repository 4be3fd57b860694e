internal import CVulkan
import Foundation

/// Owns the one `VkDescriptorSetLayout`: every ``DescriptorBinding``, compute stage.
final class DescriptorSetLayout {
    let device: Device
    let handle: VkDescriptorSetLayout

    init(device: Device) throws {
        self.device = device
        var bindings = DescriptorBinding.allCases.map { descriptor -> VkDescriptorSetLayoutBinding in
            var binding = VkDescriptorSetLayoutBinding()
            binding.binding = descriptor.rawValue
            binding.descriptorType = descriptor.descriptorType
            binding.descriptorCount = 1
            binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
            return binding
        }
        var info = VkDescriptorSetLayoutCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
        info.bindingCount = UInt32(bindings.count)
        handle = try vkCreate("vkCreateDescriptorSetLayout") { created in
            bindings.withUnsafeMutableBufferPointer { pointer in
                info.pBindings = UnsafePointer(pointer.baseAddress)
                return vkCreateDescriptorSetLayout(device.handle, &info, nil, &created)
            }
        }
    }

    deinit { vkDestroyDescriptorSetLayout(device.handle, handle, nil) }
}

/// Owns the `VkPipelineLayout`: one descriptor set plus the `DispatchConstants` push constants.
final class PipelineLayout {
    let setLayout: DescriptorSetLayout
    let handle: VkPipelineLayout
    let pushConstantSize: UInt32

    init(setLayout: DescriptorSetLayout, pushConstantSize: Int) throws {
        self.setLayout = setLayout
        self.pushConstantSize = UInt32(pushConstantSize)
        var range = VkPushConstantRange()
        range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
        range.offset = 0
        range.size = UInt32(pushConstantSize)
        var setLayoutHandle: VkDescriptorSetLayout? = setLayout.handle
        handle = try vkCreate("vkCreatePipelineLayout") { created in
            withUnsafePointer(to: &range) { rangePointer in
                withUnsafePointer(to: &setLayoutHandle) { layoutPointer in
                    var info = VkPipelineLayoutCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
                    info.setLayoutCount = 1
                    info.pSetLayouts = layoutPointer
                    info.pushConstantRangeCount = 1
                    info.pPushConstantRanges = rangePointer
                    return vkCreatePipelineLayout(setLayout.device.handle, &info, nil, &created)
                }
            }
        }
    }

    deinit { vkDestroyPipelineLayout(setLayout.device.handle, handle, nil) }
}
