internal import CVulkan
import Foundation
import LensShaders

/// Owns a `VkShaderModule` made from embedded SPIR-V.
final class ShaderModule {
    let device: Device
    let handle: VkShaderModule

    init(device: Device, name: ShaderModuleName) throws {
        self.device = device
        let words = name.spirv
        handle = try vkCreate("vkCreateShaderModule(\(name.rawValue))") { created in
            words.withUnsafeBufferPointer { code in
                var info = VkShaderModuleCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
                info.codeSize = code.count * 4
                info.pCode = code.baseAddress
                return vkCreateShaderModule(device.handle, &info, nil, &created)
            }
        }
    }

    deinit { vkDestroyShaderModule(device.handle, handle, nil) }
}

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

/// Owns a `VkPipelineCache` seeded from, and saved back to, a file keyed by the device's
/// pipeline-cache UUID, so llvmpipe's pipeline compile is paid once per machine, not per process.
final class PipelineCache {
    let device: Device
    let handle: VkPipelineCache
    let file: URL?
    /// The size of the cache in its file, loaded or last saved.
    private var savedBytes: Int

    init(device: Device, directory: URL?) throws {
        self.device = device
        file = directory?.appendingPathComponent("pipelines-\(device.physical.pipelineCacheUUID).bin")
        let seed = file.flatMap { try? Data(contentsOf: $0) } ?? Data()
        savedBytes = seed.count
        handle = try vkCreate("vkCreatePipelineCache") { created in
            seed.withUnsafeBytes { bytes in
                var info = VkPipelineCacheCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO
                info.initialDataSize = bytes.count
                info.pInitialData = bytes.baseAddress
                return vkCreatePipelineCache(device.handle, &info, nil, &created)
            }
        }
    }

    /// Writes the cache back when it grew. Best effort: a read-only or full disk only costs the
    /// next process its pipeline compile, so failures are ignored.
    func save() {
        guard let file else { return }
        var size = 0
        guard vkGetPipelineCacheData(device.handle, handle, &size, nil) == VK_SUCCESS, size > savedBytes else {
            return
        }
        var data = Data(count: size)
        let result = data.withUnsafeMutableBytes {
            vkGetPipelineCacheData(device.handle, handle, &size, $0.baseAddress)
        }
        guard result == VK_SUCCESS else { return }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        if (try? data.prefix(size).write(to: file, options: .atomic)) != nil { savedBytes = size }
    }

    deinit { vkDestroyPipelineCache(device.handle, handle, nil) }
}

/// Owns one compute `VkPipeline`, optionally specialised: `specialization[id]` is the value of
/// the shader's `constant_id = id` (32-bit each; booleans as 0 or 1).
final class ComputePipeline {
    let layout: PipelineLayout
    let handle: VkPipeline

    init(
        layout: PipelineLayout, shader: ShaderModule, cache: PipelineCache, specialization: [UInt32: UInt32] = [:]
    ) throws {
        self.layout = layout
        let constants = specialization.sorted { $0.key < $1.key }
        var entries = constants.indices.map {
            VkSpecializationMapEntry(constantID: constants[$0].key, offset: UInt32($0 * 4), size: 4)
        }
        var values = constants.map(\.value)
        handle = try vkCreate("vkCreateComputePipelines") { created in
            entries.withUnsafeMutableBufferPointer { entryPointer in
                values.withUnsafeMutableBytes { valueBytes in
                    var info = VkSpecializationInfo(
                        mapEntryCount: UInt32(specialization.count), pMapEntries: entryPointer.baseAddress,
                        dataSize: valueBytes.count, pData: valueBytes.baseAddress)
                    return withUnsafePointer(to: &info) { specializationPointer in
                        "main".withCString { entry in
                            var stage = VkPipelineShaderStageCreateInfo()
                            stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                            stage.stage = VK_SHADER_STAGE_COMPUTE_BIT
                            stage.module = shader.handle
                            stage.pName = entry
                            stage.pSpecializationInfo = specialization.isEmpty ? nil : specializationPointer
                            var pipelineInfo = VkComputePipelineCreateInfo()
                            pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
                            pipelineInfo.stage = stage
                            pipelineInfo.layout = layout.handle
                            return vkCreateComputePipelines(
                                shader.device.handle, cache.handle, 1, &pipelineInfo, nil, &created)
                        }
                    }
                }
            }
        }
    }

    deinit { vkDestroyPipeline(layout.setLayout.device.handle, handle, nil) }
}
