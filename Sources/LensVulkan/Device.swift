internal import CVulkan
import Foundation

/// What LiquidLens saw of one physical device, and why it was or was not usable.
public struct DeviceDescription: Sendable, CustomStringConvertible {
    /// Position in Vulkan's list of physical devices, as a device preference may name it.
    public let index: Int
    /// Device name, as the driver reports it.
    public let name: String
    /// Kind of device: discrete GPU, integrated GPU, virtual GPU, CPU or other.
    public let type: String
    /// Vulkan version as "major.minor.patch".
    public let apiVersion: String
    /// Why the device cannot be used; nil when it can.
    public let rejection: String?

    public var description: String {
        "[\(index)] \(name) (\(type), Vulkan \(apiVersion))" + (rejection.map { ": rejected, \($0)" } ?? ": usable")
    }
}

/// A usable physical device with its compute queue family.
struct PhysicalDeviceChoice {
    let handle: VkPhysicalDevice
    let description: DeviceDescription
    let queueFamily: UInt32
    let timestampValidBits: UInt32
    let timestampPeriod: Float
    let pipelineCacheUUID: String
    let typeRank: Int
    /// Dynamic uniform-buffer offsets must be multiples of this (the per-lens parameter blocks).
    let uniformOffsetAlignment: Int
    /// The most texels one texel-buffer view may show.
    let maxTexelBufferElements: Int
}

enum DeviceSelector {
    /// Lists every physical device with the reason it is rejected, if it is.
    static func survey(_ instance: Instance) throws -> [(description: DeviceDescription, choice: PhysicalDeviceChoice?)]
    {
        var count: UInt32 = 0
        try vkCheck(vkEnumeratePhysicalDevices(instance.handle, &count, nil), "vkEnumeratePhysicalDevices")
        var handles = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        if count > 0 {
            try vkCheck(vkEnumeratePhysicalDevices(instance.handle, &count, &handles), "vkEnumeratePhysicalDevices")
        }
        return handles.prefix(Int(count)).enumerated().compactMap { index, handle in
            handle.map { inspect($0, index: index) }
        }
    }

    private static func inspect(_ handle: VkPhysicalDevice, index: Int) -> (DeviceDescription, PhysicalDeviceChoice?) {
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(handle, &properties)
        let version = properties.apiVersion
        let versionText = "\(version >> 22).\((version >> 12) & 0x3FF).\(version & 0xFFF)"
        let (typeName, rank) = typeInfo(properties.deviceType)
        let name = string(fromCArray: properties.deviceName)

        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, &families)
        let computeFamily = families.prefix(Int(familyCount)).firstIndex {
            $0.queueFlags & VK_QUEUE_COMPUTE_BIT.rawValue != 0
        }

        var rejection: String?
        if (version >> 22) < 1 || ((version >> 22) == 1 && ((version >> 12) & 0x3FF) < 1) {
            rejection = "Vulkan \(versionText) is older than 1.1"
        } else if computeFamily == nil {
            rejection = "no queue family supports compute"
        }
        let description = DeviceDescription(
            index: index, name: name, type: typeName, apiVersion: versionText, rejection: rejection)
        guard rejection == nil, let computeFamily else { return (description, nil) }
        let uuid = withUnsafeBytes(of: properties.pipelineCacheUUID) { bytes in
            bytes.map { String(format: "%02x", $0) }.joined()
        }
        return (
            description,
            PhysicalDeviceChoice(
                handle: handle, description: description, queueFamily: UInt32(computeFamily),
                timestampValidBits: families[computeFamily].timestampValidBits,
                timestampPeriod: properties.limits.timestampPeriod, pipelineCacheUUID: uuid, typeRank: rank,
                uniformOffsetAlignment: Int(properties.limits.minUniformBufferOffsetAlignment),
                maxTexelBufferElements: Int(properties.limits.maxTexelBufferElements))
        )
    }

    private static func typeInfo(_ type: VkPhysicalDeviceType) -> (String, Int) {
        switch type {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: ("discrete GPU", 0)
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: ("integrated GPU", 1)
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: ("virtual GPU", 2)
        case VK_PHYSICAL_DEVICE_TYPE_CPU: ("CPU", 3)
        default: ("other", 4)
        }
    }

    /// Picks the device named by `preference` (an index or part of a name), or else the first
    /// usable device of the best kind (discrete, integrated, virtual, CPU).
    static func choose(_ instance: Instance, preference: String?) throws -> PhysicalDeviceChoice {
        let survey = try survey(instance)
        let listing =
            survey.isEmpty
            ? "  (none: the Vulkan loader found no device; for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers)"
            : survey.map { "  \($0.description)" }.joined(separator: "\n")
        if let preference, !preference.isEmpty {
            let matches = survey.filter {
                String($0.description.index) == preference
                    || $0.description.name.localizedCaseInsensitiveContains(preference)
            }
            guard let match = matches.first else {
                throw VulkanError("no Vulkan device matches \"\(preference)\". Devices found:\n\(listing)")
            }
            guard let choice = match.choice else {
                throw VulkanError("Vulkan device \"\(preference)\" cannot be used. Devices found:\n\(listing)")
            }
            return choice
        }
        guard let best = survey.compactMap(\.choice).min(by: { $0.typeRank < $1.typeRank }) else {
            throw VulkanError("no usable Vulkan device. Devices found:\n\(listing)")
        }
        return best
    }
}

/// Owns the logical `VkDevice` and its compute queue; keeps its ``Instance`` alive.
final class Device {
    let instance: Instance
    let physical: PhysicalDeviceChoice
    let handle: VkDevice
    let queue: VkQueue
    let memoryProperties: VkPhysicalDeviceMemoryProperties

    init(instance: Instance, physical: PhysicalDeviceChoice) throws {
        self.instance = instance
        self.physical = physical
        var priority: Float = 1
        let handle: VkDevice = try vkCreate("vkCreateDevice") { created in
            withUnsafePointer(to: &priority) { priorityPointer in
                var queueInfo = VkDeviceQueueCreateInfo()
                queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                queueInfo.queueFamilyIndex = physical.queueFamily
                queueInfo.queueCount = 1
                queueInfo.pQueuePriorities = priorityPointer
                return withUnsafePointer(to: &queueInfo) { queuePointer in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.queueCreateInfoCount = 1
                    info.pQueueCreateInfos = queuePointer
                    return vkCreateDevice(physical.handle, &info, nil, &created)
                }
            }
        }
        var queue: VkQueue?
        vkGetDeviceQueue(handle, physical.queueFamily, 0, &queue)
        guard let queue else {
            vkDestroyDevice(handle, nil)
            throw VulkanError("vkGetDeviceQueue gave no queue for the family vkCreateDevice was asked for")
        }
        self.handle = handle
        self.queue = queue
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physical.handle, &memory)
        memoryProperties = memory
    }

    /// Index of a memory type allowed by `typeBits` having all of `required`, preferring `preferred` too.
    func memoryType(typeBits: UInt32, required: UInt32, preferred: UInt32) throws -> UInt32 {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let candidates = (0..<Int(memoryProperties.memoryTypeCount)).filter {
            typeBits & (1 << UInt32($0)) != 0 && types[$0].propertyFlags & required == required
        }
        if let best = candidates.first(where: { types[$0].propertyFlags & preferred == preferred }) ?? candidates.first
        {
            return UInt32(best)
        }
        throw VulkanError("no host-visible memory type for storage buffers on \(physical.description.name)")
    }

    deinit {
        // Teardown cannot fail usefully: a lost device is destroyed all the same.
        _ = vkDeviceWaitIdle(handle)
        vkDestroyDevice(handle, nil)
    }
}
