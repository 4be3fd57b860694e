internal import CVulkan
import Foundation

/// Collects what the validation layer says; the debug messenger writes here from any thread.
final class ValidationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ message: String) {
        lock.withLock { stored.append(message) }
    }

    var messages: [String] { lock.withLock { stored } }
}

/// Owns a `VkInstance` and, with validation on, its debug messenger. Destroyed last: every other
/// Vulkan object keeps its instance alive through its device.
final class Instance {
    let handle: VkInstance
    let validationLog = ValidationLog()
    let validationEnabled: Bool
    private var messenger: VkDebugUtilsMessengerEXT?

    static let validationLayer = "VK_LAYER_KHRONOS_validation"

    /// - Parameter validation: enables the Khronos validation layer; throws if it is not installed.
    init(validation: Bool) throws {
        try VulkanLoader.load()
        if validation && !Self.availableLayers().contains(Self.validationLayer) {
            throw VulkanError(
                "validation was requested but \(Self.validationLayer) is not installed (apt-get install vulkan-validationlayers)"
            )
        }
        var appInfo = VkApplicationInfo()
        appInfo.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        appInfo.apiVersion = (1 << 22) | (1 << 12)  // Vulkan 1.1
        let layers = validation ? [Self.validationLayer] : []
        let extensions = validation ? ["VK_EXT_debug_utils"] : []
        do {
            handle = try vkCreate("vkCreateInstance") { created in
                "LiquidLens".withCString { name in
                    appInfo.pApplicationName = name
                    return withUnsafePointer(to: &appInfo) { app in
                        withCStringArray(layers) { layerNames in
                            withCStringArray(extensions) { extensionNames in
                                var info = VkInstanceCreateInfo()
                                info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                                info.pApplicationInfo = app
                                info.enabledLayerCount = UInt32(layers.count)
                                info.ppEnabledLayerNames = layerNames
                                info.enabledExtensionCount = UInt32(extensions.count)
                                info.ppEnabledExtensionNames = extensionNames
                                return vkCreateInstance(&info, nil, &created)
                            }
                        }
                    }
                }
            }
        } catch let error as VulkanError where error.result == .incompatibleDriver {
            throw error.explained(
                "no Vulkan driver found: the Vulkan loader has no installable client driver (for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers)"
            )
        }
        validationEnabled = validation
        if validation { try installMessenger() }
    }

    private func installMessenger() throws {
        guard let address = vkGetInstanceProcAddr(handle, "vkCreateDebugUtilsMessengerEXT") else {
            throw VulkanError("vkCreateDebugUtilsMessengerEXT is unavailable")
        }
        let create = unsafeBitCast(address, to: PFN_vkCreateDebugUtilsMessengerEXT.self)
        var info = VkDebugUtilsMessengerCreateInfoEXT()
        info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
        info.messageType =
            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue
        info.pfnUserCallback = { _, _, data, userData in
            guard let userData, let data else { return VkBool32(VK_FALSE) }
            let log = Unmanaged<ValidationLog>.fromOpaque(userData).takeUnretainedValue()
            log.append(data.pointee.pMessage.map { String(cString: $0) } ?? "(no message)")
            return VkBool32(VK_FALSE)
        }
        info.pUserData = Unmanaged.passUnretained(validationLog).toOpaque()
        messenger = try vkCreate("vkCreateDebugUtilsMessengerEXT") { create(handle, &info, nil, &$0) }
    }

    static func availableLayers() -> [String] {
        var count: UInt32 = 0
        guard vkEnumerateInstanceLayerProperties(&count, nil) == VK_SUCCESS, count > 0 else { return [] }
        var layers = [VkLayerProperties](repeating: VkLayerProperties(), count: Int(count))
        guard vkEnumerateInstanceLayerProperties(&count, &layers) == VK_SUCCESS else { return [] }
        return layers.prefix(Int(count)).map { string(fromCArray: $0.layerName) }
    }

    deinit {
        if let messenger, let address = vkGetInstanceProcAddr(handle, "vkDestroyDebugUtilsMessengerEXT") {
            unsafeBitCast(address, to: PFN_vkDestroyDebugUtilsMessengerEXT.self)(handle, messenger, nil)
        }
        vkDestroyInstance(handle, nil)
    }
}
