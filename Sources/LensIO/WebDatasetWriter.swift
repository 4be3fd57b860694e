import Foundation
import LensModel

/// Writes samples into WebDataset shards: tar archives (``TarShard``) of consecutive samples,
/// each sample its image (`KEY.png`, encoded on other cores while the renderer goes on) and the
/// documents that go with it (`KEY.json`, `KEY.scene.json`), appended in the order the samples
/// were given. A shard is renamed into place only once its last sample is in it, so a stopped
/// run leaves whole shards and nothing else.
package final class WebDatasetWriter: @unchecked Sendable {
    /// One shard: its file and how many samples it holds.
    package struct Shard: Sendable {
        package var url: URL
        package var count: Int

        package init(url: URL, count: Int) {
            self.url = url
            self.count = count
        }
    }

    /// A sample's files but its image, by the name after its key (`json`, `scene.json`).
    package typealias Documents = [(suffix: String, data: Data)]

    private let shards: [Shard]
    /// The position after each shard's last sample.
    private let ends: [Int]
    private let format: ImageFormat
    private let compression: PNGCompression
    private let quality: Int
    private let work: WorkQueue
    private let lock = NSLock()
    /// Encoded samples waiting for those before them, by position.
    private var waiting: [Int: [(name: String, data: Data)]] = [:]
    private var next = 0
    private var shardIndex = 0
    private var current: TarShard?
    private var finished = 0

    /// A writer of `shards` in order, their samples' images in `format`, encoded on `workers` cores.
    package init(
        shards: [Shard], format: ImageFormat, compression: PNGCompression, quality: Int, workers: Int
    ) {
        self.shards = shards
        ends = shards.reduce(into: []) { ends, shard in ends.append((ends.last ?? 0) + shard.count) }
        self.format = format
        self.compression = compression
        self.quality = quality
        work = WorkQueue(label: "liquidlens.webdataset", workers: workers)
    }

    /// Queues sample `position` (0 for the first of the first shard): `image` to be encoded, then
    /// written with `documents` under `key` once every sample before it is; throws an earlier
    /// sample's error.
    package func add(position: Int, key: String, image: RGBA8Image, documents: Documents) throws {
        try work.submit { [self] in
            let encoded = try format.encode(image, compression: compression, quality: quality)
            let files =
                [(key + "." + format.fileExtension, encoded)] + documents.map { (key + "." + $0.suffix, $0.data) }
            try lock.withLock {
                waiting[position] = files
                try appendReady()
            }
        }
    }

    /// Waits for every queued sample; throws the first error. Every shard whose samples all came
    /// is in place; one left unfinished is removed.
    package func finish() throws {
        defer { lock.withLock { current?.abandon() } }
        try work.finish()
    }

    /// Shards written so far.
    package var finishedShards: Int { lock.withLock { finished } }

    /// Appends the samples that are next in order, opening and finishing shards as they fill; the
    /// lock is held.
    private func appendReady() throws {
        while let files = waiting.removeValue(forKey: next) {
            let shard = try current ?? TarShard(url: shards[shardIndex].url)
            current = shard
            for (name, data) in files { try shard.append(name, data) }
            next += 1
            if next == ends[shardIndex] {
                try shard.finish()
                current = nil
                shardIndex += 1
                finished += 1
            }
        }
    }
}
