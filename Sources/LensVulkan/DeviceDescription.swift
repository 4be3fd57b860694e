internal import CVulkan
import Foundation

/// The kind of a Vulkan physical device (`VkPhysicalDeviceType`), in Vulkan's order of preference.
public enum DeviceKind: String, Sendable, CaseIterable {
    case discreteGPU = "discrete GPU"
    case integratedGPU = "integrated GPU"
    case virtualGPU = "virtual GPU"
    /// A CPU implementation, such as Mesa's lavapipe.
    case cpu = "CPU"
    case other
}

/// What LiquidLens saw of one physical device, and why it was or was not usable.
public struct DeviceDescription: Sendable, CustomStringConvertible {
    /// Position in Vulkan's list of physical devices, as a device preference may name it.
    public let index: Int
    /// Device name, as the driver reports it.
    public let name: String
    /// Kind of device: discrete GPU, integrated GPU, virtual GPU, CPU or other.
    public let kind: DeviceKind
    /// The kind in words, as `liquidlens devices` prints it.
    public var type: String { kind.rawValue }
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
