internal import CVulkan
import Foundation

/// Owns a timestamp `VkQueryPool`.
final class TimestampQueryPool {
    let device: Device
    let handle: VkQueryPool
    let capacity: UInt32

    init(device: Device, capacity: UInt32) throws {
        self.device = device
        self.capacity = capacity
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = VK_QUERY_TYPE_TIMESTAMP
        info.queryCount = capacity
        handle = try vkCreate("vkCreateQueryPool") { vkCreateQueryPool(device.handle, &info, nil, &$0) }
    }

    /// The first `count` timestamps in nanoseconds; nil while any is not available yet.
    func results(count: UInt32) throws -> [Double]? {
        guard count > 0 else { return [] }
        var values = [UInt64](repeating: 0, count: Int(count))
        let result = values.withUnsafeMutableBytes { bytes in
            vkGetQueryPoolResults(
                device.handle, handle, 0, count, bytes.count, bytes.baseAddress, 8,
                VK_QUERY_RESULT_64_BIT.rawValue)
        }
        if result == VK_NOT_READY { return nil }
        try vkCheck(result, "vkGetQueryPoolResults")
        let period = Double(device.physical.timestampPeriod)
        return values.map { Double($0) * period }
    }

    deinit { vkDestroyQueryPool(device.handle, handle, nil) }
}
