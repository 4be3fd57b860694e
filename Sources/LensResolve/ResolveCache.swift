import Foundation
import LensModel

/// The last backdrop, foreground and label raster a `SceneResolver` made, kept so that the frames
/// of one scene (an animation, a sweep that moves the glass) paint them once, and its image layers
/// resampled to the canvas, kept so that a backdrop repainted (a sweep of another layer) does not
/// resample them again. Holding the same arrays
/// also lets the backends see at a glance that nothing changed (`FrameReuse`). Thread-safe.
public final class ResolveCache: @unchecked Sendable {
    /// A canvas and the layers painted on it: the backdrop's or the foreground's.
    struct LayersKey: Equatable {
        var width: Int
        var height: Int
        var scale: Double
        var layers: [BackgroundLayer]
        var blending: Blending
    }

    struct LabelKey: Equatable {
        var width: Int
        var height: Int
        var scale: Double
        var label: LabelLayer?
    }

    private let lock = NSLock()
    private var backdrop: (key: LayersKey, pixels: [UInt32])?
    private var foreground: (key: LayersKey, pixels: [UInt32], tiles: [SIMD4<UInt32>])?
    private var label: (key: LabelKey, words: [UInt32])?
    private var presence: (words: [UInt32], presence: LabelPresence)?
    private var imageLayers: [(image: [UInt8], width: Int, height: Int, pixels: [SIMD4<Float>])] = []

    /// Image layers kept resampled: enough for a backdrop image and a second image layer.
    private static let imageLayerLimit = 2

    /// Whether the frames resolved through this cache are one animation's, in order.
    public let isSequence: Bool
    /// Adaptive glass's last appearance (true: dark), by where it comes from (`glass[2]`,
    /// `controls[0]`): kept only in a sequence.
    private var adaptiveDark: [String: Bool] = [:]

    /// An empty cache. `sequence`: the frames resolved through it are consecutive frames of one
    /// animation, in order, so adaptive glass keeps the appearance it had in the frame before
    /// while the luminance under it lies between its thresholds (`AdaptiveAppearance`); without,
    /// each frame starts from the appearance its scene gives (batches, whose frames are unrelated
    /// and may be sharded, resolve that way).
    public init(sequence: Bool = false) {
        isSequence = sequence
    }

    /// The appearance adaptive glass from `source` had in the previous frame of a sequence
    /// (true: dark); nil outside a sequence or before its first frame.
    func lastAdaptiveDark(_ source: String) -> Bool? {
        isSequence ? lock.withLock { adaptiveDark[source] } : nil
    }

    /// Keeps, in a sequence, the appearance adaptive glass from `source` has in this frame.
    func keepAdaptiveDark(_ source: String, _ dark: Bool) {
        guard isSequence else { return }
        lock.withLock { adaptiveDark[source] = dark }
    }

    /// The backdrop for `key`: the kept one; else, when only layers changed since, `repaint`'s
    /// from the kept layers and pixels (nil: the layer list changed length); else `paint()`'s. The
    /// result is kept.
    func backdrop(
        for key: LayersKey, paint: () throws -> [UInt32],
        repaint: (_ previous: [BackgroundLayer], _ kept: [UInt32]) throws -> [UInt32]?
    ) rethrows -> [UInt32] {
        let kept = lock.withLock { backdrop }
        if let kept, kept.key == key { return kept.pixels }
        var repainted: [UInt32]?
        if let kept, kept.key.width == key.width, kept.key.height == key.height, kept.key.scale == key.scale,
            kept.key.blending == key.blending
        {
            repainted = try repaint(kept.key.layers, kept.pixels)
        }
        let pixels = try repainted ?? paint()
        lock.withLock { backdrop = (key, pixels) }
        return pixels
    }

    /// The foreground for `key`: the kept one, else `paint()`'s, which is kept.
    func foreground(
        for key: LayersKey, paint: () throws -> (pixels: [UInt32], tiles: [SIMD4<UInt32>])
    ) rethrows -> (pixels: [UInt32], tiles: [SIMD4<UInt32>]) {
        if let kept = lock.withLock({ foreground?.key == key ? foreground : nil }) { return (kept.pixels, kept.tiles) }
        let painted = try paint()
        lock.withLock { foreground = (key, painted.pixels, painted.tiles) }
        return painted
    }

    /// The label raster for `key`: the kept one, else `rasterize()`'s, which is kept.
    func labelWords(for key: LabelKey, rasterize: () throws -> [UInt32]) rethrows -> [UInt32] {
        if let kept = lock.withLock({ label?.key == key ? label?.words : nil }) { return kept }
        let words = try rasterize()
        lock.withLock { label = (key, words) }
        return words
    }

    /// `image` resampled to a `width` × `height` canvas: the kept one (the same decoded image, so
    /// the pixel arrays compare by identity at once), else `resample()`'s, which is kept.
    func aspectFilled(_ image: RGBA8Image, width: Int, height: Int, resample: () -> [SIMD4<Float>])
        -> [SIMD4<Float>]
    {
        let kept = lock.withLock {
            imageLayers.first { $0.width == width && $0.height == height && $0.image == image.pixels }?.pixels
        }
        if let kept { return kept }
        let pixels = resample()
        lock.withLock {
            imageLayers.append((image.pixels, width, height, pixels))
            if imageLayers.count > Self.imageLayerLimit { imageLayers.removeFirst() }
        }
        return pixels
    }

    /// Where the label words have coverage, computed once per label raster.
    func presence(of words: [UInt32], make: () -> LabelPresence) -> LabelPresence {
        if let kept = lock.withLock({ presence?.words == words ? presence?.presence : nil }) { return kept }
        let made = make()
        lock.withLock { presence = (words, made) }
        return made
    }
}
