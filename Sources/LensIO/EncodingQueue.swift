import Foundation
import LensModel

/// Encodes and writes images on other cores while the renderer goes on with the next frames.
/// At most `workers` images wait or encode at once (``write(_:to:format:compression:)`` blocks
/// beyond that), so memory stays bounded. Every file is written as ``OutputFile`` writes: atomically.
public final class EncodingQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "liquidlens.encoding", attributes: .concurrent)
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var firstError: (any Error)?
    private var written = 0

    /// A queue holding at most `workers` images (at least 1) waiting or encoding at once.
    public init(workers: Int) {
        slots = DispatchSemaphore(value: max(1, workers))
    }

    /// Queues `image` to be encoded and written to `url`; throws an earlier write's error.
    public func write(_ image: RGBA8Image, to url: URL, format: ImageFormat, compression: PNGCompression) throws {
        if let error = lock.withLock({ firstError }) { throw error }
        slots.wait()
        group.enter()
        queue.async { [self] in
            defer {
                slots.signal()
                group.leave()
            }
            do {
                try OutputFile.write(try format.encode(image, compression: compression), to: url)
                lock.withLock { written += 1 }
            } catch {
                lock.withLock { firstError = firstError ?? error }
            }
        }
    }

    /// Waits for every queued write; throws the first error.
    public func finish() throws {
        group.wait()
        if let error = lock.withLock({ firstError }) { throw error }
    }

    /// Files written so far.
    public var writtenCount: Int { lock.withLock { written } }
}
