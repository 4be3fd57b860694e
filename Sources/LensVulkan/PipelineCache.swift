internal import CVulkan
import Foundation

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
