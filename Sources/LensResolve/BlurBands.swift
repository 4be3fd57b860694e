import Foundation
import LensModel

/// A progressive blur as a stack of blur bands, each a rectangle of flat, unlit glass with one
/// frost σ. The stops halve from the blur's radius down to half a pixel; band k covers σ from stop
/// k − 1 to stop k + 1, its coverage rising from 0 to 1 up to stop k, so over the band below it
/// mixes the two blurs linearly in σ. Deeper bands blur at deeper pyramid levels with a kernel of
/// the same size (each level texel box-averages its 2^level² pixels once, and deep levels' tiles
/// are large: see `bench --sweeps blur`).
struct BlurBand {
    /// The band's rectangle, in pixels: x0, y0, x1, y1.
    var rect: SIMD4<Double>
    /// Frost σ, in pixels.
    var sigma: Double
    /// σ over the blur's radius: the share of the tint's alpha this band lays.
    var share: Double
    /// Origin and axis of the coverage ramp, in pixels (axis zero: full coverage).
    var ramp: SIMD4<Float>

    /// Smallest σ a band blurs by, in pixels: below it a blur does not show.
    static let smallestSigma = 0.5

    /// The bands of `blur` at `scale` pixels per point, bottom to top.
    static func bands(of blur: ProgressiveBlur, scale: Double) -> [BlurBand] {
        let radius = blur.radius * scale
        let depth = blur.depth * scale
        let hold = min(blur.hold * scale, depth)
        guard radius >= smallestSigma / 2, depth > 0 else { return [] }
        let count = 1 + max(0, Int(log2(radius / smallestSigma)))
        let stops = [0] + (1...count).map { radius / Double(1 << (count - $0)) }
        // Depth from the edge (pixels) where σ falls to `sigma`.
        func position(_ sigma: Double) -> Double { sigma >= radius ? hold : depth - sigma / radius * (depth - hold) }
        return (1...count).compactMap { index in
            let far = position(stops[index - 1])
            let full = position(stops[index])
            // Bands overlap the next by a pixel, which covers that pixel fully.
            let near = index == count ? 0 : max(0, position(stops[index + 1]) - 1)
            let length = far - full
            // A band that never rises is hidden under the next (a blur held over its whole depth).
            guard far > near, index == count || length > 1e-6 else { return nil }
            let ramp = length > 1e-6 ? blur.placedRamp(far: far, length: length, scale: scale) : .zero
            return BlurBand(
                rect: blur.placedRect(near: near, far: far, scale: scale), sigma: stops[index],
                share: stops[index] / radius, ramp: ramp)
        }
    }
}

extension ProgressiveBlur {
    /// The pixels from depth `near` to `far` (pixels from `edge`) across the whole frame.
    fileprivate func placedRect(near: Double, far: Double, scale: Double) -> SIMD4<Double> {
        let x0 = frame.x * scale
        let y0 = frame.y * scale
        let x1 = (frame.x + frame.width) * scale
        let y1 = (frame.y + frame.height) * scale
        switch edge {
        case .top: return SIMD4(x0, y0 + near, x1, y0 + far)
        case .bottom: return SIMD4(x0, y1 - far, x1, y1 - near)
        case .leading: return SIMD4(x0 + near, y0, x0 + far, y1)
        case .trailing: return SIMD4(x1 - far, y0, x1 - near, y1)
        }
    }

    /// The coverage ramp from depth `far` (0) toward `edge`, reaching 1 `length` pixels on.
    fileprivate func placedRamp(far: Double, length: Double, scale: Double) -> SIMD4<Float> {
        let start = placedRect(near: far, far: far, scale: scale)
        let step = Float(1 / length)
        switch edge {
        case .top: return SIMD4(Float(start.x), Float(start.w), 0, -step)
        case .bottom: return SIMD4(Float(start.x), Float(start.y), 0, step)
        case .leading: return SIMD4(Float(start.z), Float(start.y), -step, 0)
        case .trailing: return SIMD4(Float(start.x), Float(start.y), step, 0)
        }
    }
}

extension LensBuilder {
    /// Appends the bands of every blur under `scene`'s glass to `lists`; returns how many.
    func addBlurs(of scene: Scene, to lists: inout LensLists) -> Int {
        let first = lists.lenses.count
        for blur in scene.backdropBlurs { add(blur, to: &lists) }
        return lists.lenses.count - first
    }

    /// Appends the bands of `blur` to `lists`: flat glass that neither refracts nor lights nor
    /// casts a shadow, tinted by the blur's share of `tint`, the label row kept in its resting
    /// colour. Bands of one blur all blur what lies under the blur, not each other.
    func add(_ blur: ProgressiveBlur, to lists: inout LensLists) {
        let first = lists.lenses.count
        for band in BlurBand.bands(of: blur, scale: scale) {
            let frame = Rect(
                x: band.rect.x / scale, y: band.rect.y / scale, width: (band.rect.z - band.rect.x) / scale,
                height: (band.rect.w - band.rect.y) / scale)
            let geometry = [
                ShapeGeometry(shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]), frame: frame, scale: scale)
            ]
            var lens = LensParams()
            lens.shapeOffset = UInt32(lists.shapes.count)
            lens.shapeCount = 1
            lists.shapes += geometry.map(\.parameters)
            lens.warpsContentBelow = 0
            lens.accentStrength = 0
            var tint = blur.tint
            tint.alpha *= band.share
            lens.tint = tint.premultiplied(for: scene.blending)
            lens.coverageRamp = band.ramp
            frost(sigma: band.sigma, deepest: FrostPyramid.deepestBlurLevel, into: &lens, tables: &lists.tables)
            place(lens, geometry: geometry, in: &lists, siblings: first..<lists.lenses.count)
        }
    }
}
