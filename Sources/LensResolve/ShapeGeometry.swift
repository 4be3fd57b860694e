import Foundation
import LensModel

/// A shape in pixel space, evaluated in `Double` for the model's own rasterising (backdrop fills)
/// and turned into the shaders' `ShapeParams`.
package struct ShapeGeometry: Sendable {
    /// Centre x in pixels.
    package let centerX: Double
    /// Centre y in pixels.
    package let centerY: Double
    /// Half the width in pixels, growth included (a circle's is its radius).
    package let halfWidth: Double
    /// Half the height in pixels, growth included (a circle's is its radius).
    package let halfHeight: Double
    /// Top-left, top-right, bottom-right, bottom-left.
    package let radii: [Double]
    /// 0 rounded box, 1 ellipse, 2 squircle (the shaders' `ShapeParams.kind`).
    package let kind: UInt32
    /// Superellipse exponent of a squircle's corners; 2 for the other kinds.
    package let exponent: Double

    /// `growth` (pixels) is added to width and height about the centre.
    package init(shape: Shape, frame: Rect, scale: Double, growth: (x: Double, y: Double) = (0, 0)) {
        centerX = frame.midX * scale
        centerY = frame.midY * scale
        var halfWidth = (frame.width * scale + growth.x) / 2
        var halfHeight = (frame.height * scale + growth.y) / 2
        var kind: UInt32 = 0
        var exponent = 2.0
        switch shape {
        case .circle:
            halfWidth = min(halfWidth, halfHeight)
            halfHeight = halfWidth
            radii = Array(repeating: halfWidth, count: 4)
        case .ellipse:
            kind = 1
            radii = [0, 0, 0, 0]
        case .capsule:
            radii = Array(repeating: min(halfWidth, halfHeight), count: 4)
        case .roundedRectangle(let cornerRadii):
            radii = cornerRadii.map { min($0 * scale, min(halfWidth, halfHeight)) }
        case .squircle(let cornerRadii, let squircleExponent):
            kind = 2
            exponent = squircleExponent
            radii = cornerRadii.map { min($0 * scale, min(halfWidth, halfHeight)) }
        }
        self.halfWidth = halfWidth
        self.halfHeight = halfHeight
        self.kind = kind
        self.exponent = exponent
    }

    /// Signed distance in pixels from pixel-space point (x, y): negative inside.
    package func distance(_ x: Double, _ y: Double) -> Double {
        let localX = x - centerX
        let localY = y - centerY
        if kind == 1 {
            let k0 = ((localX / halfWidth) * (localX / halfWidth) + (localY / halfHeight) * (localY / halfHeight))
                .squareRoot()
            let k1x = localX / (halfWidth * halfWidth)
            let k1y = localY / (halfHeight * halfHeight)
            let k1 = (k1x * k1x + k1y * k1y).squareRoot()
            return k1 > 1e-9 ? k0 * (k0 - 1) / k1 : -min(halfWidth, halfHeight)
        }
        let radius = localX < 0 ? (localY < 0 ? radii[0] : radii[3]) : (localY < 0 ? radii[1] : radii[2])
        let qx = abs(localX) - halfWidth + radius
        let qy = abs(localY) - halfHeight + radius
        let ox = max(qx, 0)
        let oy = max(qy, 0)
        let outside =
            kind == 2 ? pow(pow(ox, exponent) + pow(oy, exponent), 1 / exponent) : (ox * ox + oy * oy).squareRoot()
        return min(max(qx, qy), 0) + outside - radius
    }

    /// How many times its box's distance the shape's distance can fall short, as the shaders'
    /// `boundsDistance` takes it: a rounded box's distance is exact, so at least its box's (1); the
    /// ellipse's estimate falls short by up to √2 · long / short half and the squircle's corner
    /// norm by up to √2 (1.5 for √2 covers rounding and the polynomial powers).
    package var distanceShortfall: Double {
        switch kind {
        case 0: 1
        case 1: 1.5 * max(halfWidth, halfHeight) / min(halfWidth, halfHeight)
        default: 1.5
        }
    }

    /// The shaders' description of this shape.
    package var parameters: ShapeParams {
        ShapeParams(
            centerHalfSize: SIMD4(Float(centerX), Float(centerY), Float(halfWidth), Float(halfHeight)),
            cornerRadii: SIMD4(Float(radii[0]), Float(radii[1]), Float(radii[2]), Float(radii[3])),
            kind: kind, exponent: Float(exponent))
    }
}
