import Foundation
import LensModel

/// Decoded images kept across the frames of a batch or an animation and across scenes in one
/// process, so that an image backdrop, mask or icon is read once: keyed by path, file size,
/// modification time, and for SVG the scale it was rasterised at (a changed file is read again; a
/// raster image is read once whatever scale asks for it), the least recently used dropped
/// once the images kept pass `byteLimit`. Thread-safe.
public final class ImageCache: @unchecked Sendable {
    private struct Key: Hashable {
        var path: String
        /// Nil when the file could not be looked at.
        var stamp: FileStamp?
        /// The scale an SVG was rasterised at; nil for raster images, whose pixels do not depend on it.
        var scale: Double?
    }

    /// Most bytes of pixels kept.
    public let byteLimit: Int
    /// Called with a line for the user when a file is read with a remark (an animated WebP's first
    /// frame), the path first; nil says nothing.
    public var onNote: (@Sendable (String) -> Void)? {
        get { lock.withLock { noteHandler } }
        set { lock.withLock { noteHandler = newValue } }
    }

    private let lock = NSLock()
    private var noteHandler: (@Sendable (String) -> Void)?
    private var images: [Key: (image: RGBA8Image, lastUse: Int)] = [:]
    private var bytes = 0
    private var clock = 0
    private var reads = 0

    /// A cache holding at most `byteLimit` bytes of pixels (default 1 GiB).
    public init(byteLimit: Int = 1 << 30) {
        self.byteLimit = byteLimit
    }

    /// The image at `url` (SVG at `scale`), read with ``ImageReader`` unless it is kept.
    public func image(at url: URL, scale: Double = 1) throws -> RGBA8Image {
        try image(at: url, scale: scale, stamp: FileStamp.of(url.path))
    }

    /// The image at `url` as ``image(at:scale:)`` reads it, for a caller that has just taken the
    /// file's `stamp` itself (nil: it could not be looked at).
    package func image(at url: URL, scale: Double, stamp: FileStamp?) throws -> RGBA8Image {
        let raster = Key(path: url.standardizedFileURL.path, stamp: stamp, scale: nil)
        var vector = raster
        vector.scale = scale
        if let kept = lock.withLock({ () -> RGBA8Image? in
            guard let key = [raster, vector].first(where: { images[$0] != nil }) else { return nil }
            clock += 1
            images[key]?.lastUse = clock
            return images[key]?.image
        }) {
            return kept
        }
        let decoded = try ImageReader.read(contentsOf: url, scale: scale)
        let handler = lock.withLock {
            reads += 1
            keep(decoded.image, for: decoded.format == .svg ? vector : raster)
            return noteHandler
        }
        for note in decoded.notes { handler?("\(url.path): \(note)") }
        return decoded.image
    }

    /// Files read so far (not served from the cache).
    package var readCount: Int { lock.withLock { reads } }

    /// Keeps `image`, dropping the least recently used past the limit; an image larger than the
    /// limit alone is not kept. Called with the lock held.
    private func keep(_ image: RGBA8Image, for key: Key) {
        let size = image.pixels.count
        guard size <= byteLimit else { return }
        if let old = images[key] { bytes -= old.image.pixels.count }
        clock += 1
        images[key] = (image, clock)
        bytes += size
        while bytes > byteLimit, let oldest = images.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.image.pixels.count
            images[oldest.key] = nil
        }
    }
}
