import Foundation
import LensModel

/// The frost's pyramid, as Apple takes the blur by level of detail from a ¼-scale backdrop: a
/// frost of σ pixels runs at level L (the canvas at 1/2^L, each texel the box average of its
/// 2^L × 2^L pixels) with a Gaussian of the σ that remains, and the lens reads it back bilinearly.
/// The work of a blur falls by 2^L per axis, so a cold frame costs far less than linearly in σ and
/// distinct thumbnails never pay full-scale blurs.
package enum FrostPyramid {
    /// The deepest level: ¼ scale, as Apple's backdrop.
    package static let deepestLevel = 2
    /// The deepest level of a progressive blur's bands (1/32 scale): their σ reaches far past
    /// glass frost, and a deeper level keeps the kernel small at any σ.
    package static let deepestBlurLevel = 5
    /// Levels from here on store the texels a frost's row tiles read once, for the horizontal pass:
    /// each averages 4^level pixels, too many to average again at every tap (level 0's texel is
    /// the pixel itself). Twin: `FIRST_STORED_LEVEL` in Shaders/lens_common.glsl.
    package static let firstStoredLevel: UInt32 = 1

    /// Elements of the scratch buffer for a `width` × `height` canvas: the horizontal pass's
    /// results at the canvas's row stride, then the stored level texels with the first stored
    /// level's (the widest), apart from the frosted buffer so that no texel overwrites a kept frost
    /// tile. Twin: `levelTexelIndex` in Shaders/lens_common.glsl.
    package static func scratchCount(width: Int, height: Int) -> Int {
        let level = Int(firstStoredLevel)
        return width * height + size(width, level: level) * size(height, level: level)
    }

    /// The level for a frost of `sigma` pixels: the deepest (down to `deepest`) whose texel stays
    /// within σ/2 (finer levels for light frost, where a ¼-scale texel would show).
    package static func level(sigma: Double, deepest: Int = deepestLevel) -> Int {
        var level = 0
        while level < deepest, sigma >= Double(2 << level) { level += 1 }
        return level
    }

    /// The Gaussian σ, in level texels, that with the box average (variance (4^L − 1)/12 px²) and
    /// the bilinear read-back (a tent of one texel: 4^L/6 px²) blurs by `sigma` pixels in all.
    package static func levelSigma(sigma: Double, level: Int) -> Double {
        let texel = Double(1 << level)
        let box = (texel * texel - 1) / 12
        let readBack = level == 0 ? 0 : texel * texel / 6
        return max(0, sigma * sigma - box - readBack).squareRoot() / texel
    }

    /// Texels across `extent` pixels at `level`: the last one may cover fewer pixels.
    package static func size(_ extent: Int, level: Int) -> Int { (extent + (1 << level) - 1) >> level }
}

extension PixelRegion {
    /// The texels of pyramid `level` that cover this region's pixels.
    package func atLevel(_ level: Int) -> PixelRegion {
        let round = (1 << level) - 1
        return PixelRegion(x0: x0 >> level, y0: y0 >> level, x1: (x1 + round) >> level, y1: (y1 + round) >> level)
    }
}
