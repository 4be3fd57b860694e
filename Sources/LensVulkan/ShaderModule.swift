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
