import Foundation
import LensModel

/// Work run on other cores while the caller goes on, at most `workers` items waiting or running at
/// once (``submit(_:)`` blocks beyond that, so memory stays bounded). The first error a work item
/// throws is kept: later submissions throw it, and ``finish()`` rethrows it.
package final class WorkQueue: @unchecked Sendable {
    private let queue: DispatchQueue
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var firstError: (any Error)?

    /// A queue running at most `workers` (at least 1) items at once.
    package init(label: String, workers: Int) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
        slots = DispatchSemaphore(value: max(1, workers))
    }

    /// Runs `work` on another thread; throws an earlier item's error instead.
    package func submit(_ work: @escaping @Sendable () throws -> Void) throws {
        if let error = lock.withLock({ firstError }) { throw error }
        slots.wait()
        group.enter()
        queue.async { [self] in
            defer {
                slots.signal()
                group.leave()
            }
            do {
                try work()
            } catch {
                lock.withLock { firstError = firstError ?? error }
            }
        }
    }

    /// Waits for every submitted item; throws the first error.
    package func finish() throws {
        group.wait()
        if let error = lock.withLock({ firstError }) { throw error }
    }
}

/// Encodes and writes images on other cores while the renderer goes on with the next frames.
/// At most `workers` images wait or encode at once (``write(_:to:format:compression:quality:)`` blocks
/// beyond that), so memory stays bounded. Every file is written as `OutputFile` writes: atomically.
public final class EncodingQueue: @unchecked Sendable {
    private let work: WorkQueue
    private let lock = NSLock()
    private var written = 0

    /// A queue holding at most `workers` images (at least 1) waiting or encoding at once.
    public init(workers: Int) {
        work = WorkQueue(label: "liquidlens.encoding", workers: workers)
    }

    /// Queues `image` to be encoded (PNG at `compression`, JPEG and WebP at `quality`) and written
    /// to `url`; throws an earlier write's error.
    public func write(
        _ image: RGBA8Image, to url: URL, format: ImageFormat, compression: PNGCompression,
        quality: Int = ImageFormat.defaultQuality
    ) throws {
        try work.submit { [self] in
            try OutputFile.write(try format.encode(image, compression: compression, quality: quality), to: url)
            lock.withLock { written += 1 }
        }
    }

    /// Waits for every queued write; throws the first error.
    public func finish() throws {
        try work.finish()
    }

    /// Files written so far.
    public var writtenCount: Int { lock.withLock { written } }
}
