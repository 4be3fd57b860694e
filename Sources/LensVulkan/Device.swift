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
    /// Its memory heaps, whether they make it unified or discrete, and its transfer queue.
    public let memory: DeviceMemoryLayout

    /// Whether a device preference names this device: a preference of digits alone is an
    /// index, matched exactly (never digits inside a name, as in "LLVM 15.0.6"); anything else is
    /// a part of the name, in any case.
    public func isNamed(by preference: String) -> Bool {
        if !preference.isEmpty && preference.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return Int(preference) == index
        }
        return name.localizedCaseInsensitiveContains(preference)
    }

    public var description: String {
        "[\(index)] \(name) (\(type), Vulkan \(apiVersion))" + (rejection.map { ": rejected, \($0)" } ?? ": usable")
    }
}

/// How a device's memory is laid out: shared with the host (unified) or its own across a bus
/// (discrete), with its heaps, and whether it has a queue family for copies alone.
public struct DeviceMemoryLayout: Sendable, CustomStringConvertible {
    /// One memory heap.
    public struct Heap: Sendable, Equatable {
        /// Size in bytes.
        public let size: UInt64
        /// `VK_MEMORY_HEAP_DEVICE_LOCAL_BIT`: memory next to the device.
        public let isDeviceLocal: Bool
        /// Some memory type in the heap is `HOST_VISIBLE`: the host can map it.
        public let isHostVisible: Bool

        /// A heap of `size` bytes with the given properties.
        public init(size: UInt64, isDeviceLocal: Bool, isHostVisible: Bool) {
            self.size = size
            self.isDeviceLocal = isDeviceLocal
            self.isHostVisible = isHostVisible
        }
    }

    /// The heaps, in Vulkan's order.
    public let heaps: [Heap]
    /// Host and device share one memory, so the shaders read what the host wrote in place: the
    /// device says it is integrated or a CPU, or no host-visible heap lies apart from its
    /// device-local ones. Discrete otherwise: a device-local heap, and the host's memory in a
    /// heap that is not device-local (a GPU with memory of its own across a bus; also with
    /// resizable BAR, whose device-local heap the host can map, but only across the bus).
    public let isUnified: Bool
    /// A queue family with transfer but neither compute nor graphics (a copy engine), which the
    /// discrete path copies on alongside the compute queue.
    public let hasDedicatedTransferQueue: Bool

    /// The layout of these heaps on a device that is or is not integrated (or a CPU).
    public init(heaps: [Heap], integrated: Bool, hasDedicatedTransferQueue: Bool) {
        self.heaps = heaps
        let apart = heaps.contains(where: \.isDeviceLocal) && heaps.contains { $0.isHostVisible && !$0.isDeviceLocal }
        isUnified = integrated || !apart
        self.hasDedicatedTransferQueue = hasDedicatedTransferQueue
    }

    /// `unified memory (heap 0: 7.7 GiB, device-local, host-visible); no dedicated transfer queue`.
    public var description: String {
        let heapText = heaps.enumerated().map { index, heap in
            let kinds = [heap.isDeviceLocal ? "device-local" : nil, heap.isHostVisible ? "host-visible" : nil]
            return
                (["heap \(index): " + String(format: "%.1f GiB", Double(heap.size) / Double(1 << 30))]
                + kinds.compactMap { $0 }).joined(separator: ", ")
        }
        return "\(isUnified ? "unified" : "discrete") memory (\(heapText.joined(separator: "; ")))"
            + (hasDedicatedTransferQueue ? "; dedicated transfer queue" : "; no dedicated transfer queue")
    }
}

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
        let (typeName, rank) = typeInfo(properties.deviceType)
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
            index: index, name: name, type: typeName, apiVersion: versionText, rejection: rejection,
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

/// A queue of the device and its family. Retrieved with the device and gone with it: nothing to destroy.
struct Queue {
    let handle: VkQueue
    let family: UInt32
}

/// Owns the logical `VkDevice` with its compute queue and, when the device has a dedicated
/// transfer family, a transfer queue; keeps its ``Instance`` alive.
final class Device {
    let instance: Instance
    let physical: PhysicalDeviceChoice
    let handle: VkDevice
    let compute: Queue
    /// The queue of the dedicated transfer family; nil when the device has none.
    let transfer: Queue?
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    /// Buffers allocated on this device so far: they grow with the frame, never one per frame.
    var bufferAllocations = 0

    init(instance: Instance, physical: PhysicalDeviceChoice) throws {
        self.instance = instance
        self.physical = physical
        let families = [physical.queueFamily] + (physical.transferQueueFamily.map { [$0] } ?? [])
        var priority: Float = 1
        let handle: VkDevice = try vkCreate("vkCreateDevice") { created in
            withUnsafePointer(to: &priority) { priorityPointer in
                var queueInfos = families.map { family in
                    var queueInfo = VkDeviceQueueCreateInfo()
                    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
                    queueInfo.queueFamilyIndex = family
                    queueInfo.queueCount = 1
                    queueInfo.pQueuePriorities = priorityPointer
                    return queueInfo
                }
                return queueInfos.withUnsafeMutableBufferPointer { queuePointer in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.queueCreateInfoCount = UInt32(queuePointer.count)
                    info.pQueueCreateInfos = UnsafePointer(queuePointer.baseAddress)
                    return vkCreateDevice(physical.handle, &info, nil, &created)
                }
            }
        }
        let queues = families.map { family -> Queue? in
            var queue: VkQueue?
            vkGetDeviceQueue(handle, family, 0, &queue)
            return queue.map { Queue(handle: $0, family: family) }
        }
        guard let compute = queues[0], queues.allSatisfy({ $0 != nil }) else {
            vkDestroyDevice(handle, nil)
            throw VulkanError("vkGetDeviceQueue gave no queue for a family vkCreateDevice was asked for")
        }
        self.handle = handle
        self.compute = compute
        transfer = queues.count > 1 ? queues[1] : nil
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physical.handle, &memory)
        memoryProperties = memory
    }

    /// Index of a memory type allowed by `typeBits` having all of `required`, preferring one with
    /// all of `preferred` and, after that, one with none of `avoided`; among equals, Vulkan's
    /// order (drivers list their best type first).
    func memoryType(typeBits: UInt32, required: UInt32, preferred: UInt32, avoided: UInt32 = 0) throws -> UInt32 {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let candidates = (0..<Int(memoryProperties.memoryTypeCount)).filter {
            typeBits & (1 << UInt32($0)) != 0 && types[$0].propertyFlags & required == required
        }
        func score(_ index: Int) -> Int {
            let flags = types[index].propertyFlags
            return (flags & preferred == preferred ? 2 : 0) + (flags & avoided == 0 ? 1 : 0)
        }
        let bestScore = candidates.map(score).max()
        guard let best = candidates.first(where: { score($0) == bestScore }) else {
            throw VulkanError(
                "no memory type with property flags 0x\(String(required, radix: 16)) for storage buffers on \(physical.description.name)"
            )
        }
        return UInt32(best)
    }

    /// Waits until every queue of the device is idle.
    func waitIdle() throws {
        try vkCheck(vkDeviceWaitIdle(handle), "vkDeviceWaitIdle")
    }

    deinit {
        // Teardown cannot fail usefully: a lost device is destroyed all the same.
        _ = vkDeviceWaitIdle(handle)
        vkDestroyDevice(handle, nil)
    }
}
