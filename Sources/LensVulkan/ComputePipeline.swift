internal import CVulkan
import Foundation

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
