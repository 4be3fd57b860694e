internal import CVulkan
import Foundation

/// A usable physical device with its compute queue family and, when it has one, its dedicated
/// transfer queue family.
struct PhysicalDeviceChoice {
    let handle: VkPhysicalDevice
    let description: DeviceDescription
    let queueFamily: UInt32
    let transferQueueFamily: UInt32?
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
        let (kind, rank) = typeInfo(properties.deviceType)
        let name = string(fromCArray: properties.deviceName)

        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, &families)
        let computeFamily = families.prefix(Int(familyCount)).firstIndex {
            $0.queueFlags & VK_QUEUE_COMPUTE_BIT.rawValue != 0
        }
        let transferFamily = families.prefix(Int(familyCount)).firstIndex {
            $0.queueCount > 0 && $0.queueFlags & VK_QUEUE_TRANSFER_BIT.rawValue != 0
                && $0.queueFlags & (VK_QUEUE_COMPUTE_BIT.rawValue | VK_QUEUE_GRAPHICS_BIT.rawValue) == 0
        }

        var rejection: String?
        if (version >> 22) < 1 || ((version >> 22) == 1 && ((version >> 12) & 0x3FF) < 1) {
            rejection = "Vulkan \(versionText) is older than 1.1"
        } else if computeFamily == nil {
            rejection = "no queue family supports compute"
        }
        let description = DeviceDescription(
            index: index, name: name, kind: kind, apiVersion: versionText, rejection: rejection,
            memory: memoryLayout(
                handle, integrated: rank == 1 || rank == 3, hasDedicatedTransferQueue: transferFamily != nil))
        guard rejection == nil, let computeFamily else { return (description, nil) }
        let uuid = withUnsafeBytes(of: properties.pipelineCacheUUID) { bytes in
            bytes.map { String(format: "%02x", $0) }.joined()
        }
        return (
            description,
            PhysicalDeviceChoice(
                handle: handle, description: description, queueFamily: UInt32(computeFamily),
                transferQueueFamily: transferFamily.map(UInt32.init),
                timestampValidBits: families[computeFamily].timestampValidBits,
                timestampPeriod: properties.limits.timestampPeriod, pipelineCacheUUID: uuid, typeRank: rank,
                uniformOffsetAlignment: Int(properties.limits.minUniformBufferOffsetAlignment),
                maxTexelBufferElements: Int(properties.limits.maxTexelBufferElements))
        )
    }

    /// The device's heaps, each host-visible when one of its memory types is.
    private static func memoryLayout(_ handle: VkPhysicalDevice, integrated: Bool, hasDedicatedTransferQueue: Bool)
        -> DeviceMemoryLayout
    {
        var properties = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(handle, &properties)
        let heaps = withUnsafeBytes(of: properties.memoryHeaps) { Array($0.bindMemory(to: VkMemoryHeap.self)) }
        let types = withUnsafeBytes(of: properties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let visibleHeaps = Set(
            types.prefix(Int(properties.memoryTypeCount))
                .filter { $0.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue != 0 }.map(\.heapIndex))
        return DeviceMemoryLayout(
            heaps: heaps.prefix(Int(properties.memoryHeapCount)).enumerated().map { index, heap in
                DeviceMemoryLayout.Heap(
                    size: heap.size, isDeviceLocal: heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.rawValue != 0,
                    isHostVisible: visibleHeaps.contains(UInt32(index)))
            }, integrated: integrated, hasDedicatedTransferQueue: hasDedicatedTransferQueue)
    }

    private static func typeInfo(_ type: VkPhysicalDeviceType) -> (DeviceKind, Int) {
        switch type {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: (.discreteGPU, 0)
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: (.integratedGPU, 1)
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: (.virtualGPU, 2)
        case VK_PHYSICAL_DEVICE_TYPE_CPU: (.cpu, 3)
        default: (.other, 4)
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
            guard let match = survey.first(where: { $0.description.isNamed(by: preference) }) else {
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
