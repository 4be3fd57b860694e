import Foundation
import LensModel

/// A tiny single-stroke font for the built-in scenes' label rows (D, W, M, Y, digits 3 and 6),
/// rasterised with analytic antialiasing. It stands in until label rows come from real fonts.
package enum StrokeFont {
    /// Polylines in em units: x to the right, y from 0 (cap top) to 1 (baseline).
    struct Glyph {
        let width: Double
        let strokes: [[SIMD2<Double>]]
    }

    static func arc(center: SIMD2<Double>, radius: Double, from start: Double, to end: Double) -> [SIMD2<Double>] {
        let steps = 24
        return (0...steps).map { step in
            let angle = (start + (end - start) * Double(step) / Double(steps)) * .pi / 180
            return center + SIMD2(cos(angle), sin(angle)) * radius
        }
    }

    static let glyphs: [Character: Glyph] = [
        "D": Glyph(
            width: 0.72,
            strokes: [
                [SIMD2(0.22, 0), SIMD2(0, 0), SIMD2(0, 1), SIMD2(0.22, 1)]
                    + arc(center: SIMD2(0.22, 0.5), radius: 0.5, from: 90, to: -90)
            ]),
        "W": Glyph(
            width: 0.95,
            strokes: [[SIMD2(0, 0), SIMD2(0.22, 1), SIMD2(0.475, 0.3), SIMD2(0.73, 1), SIMD2(0.95, 0)]]),
        "M": Glyph(
            width: 0.8,
            strokes: [[SIMD2(0, 1), SIMD2(0, 0), SIMD2(0.4, 0.62), SIMD2(0.8, 0), SIMD2(0.8, 1)]]),
        "Y": Glyph(
            width: 0.72,
            strokes: [[SIMD2(0, 0), SIMD2(0.36, 0.5), SIMD2(0.72, 0)], [SIMD2(0.36, 0.5), SIMD2(0.36, 1)]]),
        "3": Glyph(
            width: 0.58,
            strokes: [
                arc(center: SIMD2(0.28, 0.25), radius: 0.25, from: -160, to: 90),
                arc(center: SIMD2(0.28, 0.72), radius: 0.28, from: -90, to: 160),
            ]),
        "6": Glyph(
            width: 0.6,
            strokes: [
                arc(center: SIMD2(0.3, 0.7), radius: 0.3, from: 0, to: 360),
                arc(center: SIMD2(0.62, 0.7), radius: 0.62, from: 180, to: 245),
            ]),
    ]

    /// Space between letters, and the width of a space, in em.
    static let tracking = 0.12
    static let spaceWidth = 0.45

    /// Width in em of `text` as `draw` lays it out.
    package static func advance(of text: String) -> Double {
        var width = 0.0
        for (index, character) in text.enumerated() {
            if index > 0 { width += tracking }
            width += glyphs[character]?.width ?? spaceWidth
        }
        return width
    }

    /// Draws `text` into `mask` with its cap top-left at pixel (x, y), cap height `size` pixels;
    /// `weight` scales the stroke (1 regular, about 1.6 bold). Characters the font lacks are spaces.
    package static func draw(
        _ text: String, into mask: inout AlphaImage, x: Double, y: Double, size: Double, weight: Double = 1
    ) {
        let halfStroke = max(0.55, size * 0.065 * weight)
        var penX = x
        for (index, character) in text.enumerated() {
            if index > 0 { penX += tracking * size }
            guard let glyph = glyphs[character] else {
                penX += spaceWidth * size
                continue
            }
            let segments = glyph.strokes.flatMap { stroke in
                zip(stroke, stroke.dropFirst()).map { (SIMD2(penX, y) + $0 * size, SIMD2(penX, y) + $1 * size) }
            }
            let reach = halfStroke + 1
            let minX = max(0, Int((penX - reach).rounded(.down)))
            let maxX = min(mask.width, Int((penX + glyph.width * size + reach).rounded(.up)))
            let minY = max(0, Int((y - reach).rounded(.down)))
            let maxY = min(mask.height, Int((y + size + reach).rounded(.up)))
            if minX < maxX && minY < maxY {
                for py in minY..<maxY {
                    for px in minX..<maxX {
                        let point = SIMD2(Double(px) + 0.5, Double(py) + 0.5)
                        let distance = segments.map { segmentDistance(point, $0.0, $0.1) }.min() ?? .infinity
                        let coverage = min(max(halfStroke + 0.5 - distance, 0), 1)
                        let index = py * mask.width + px
                        mask.coverage[index] = max(mask.coverage[index], UInt8((coverage * 255).rounded()))
                    }
                }
            }
            penX += glyph.width * size
        }
    }

    static func segmentDistance(_ point: SIMD2<Double>, _ start: SIMD2<Double>, _ end: SIMD2<Double>) -> Double {
        let along = end - start
        let lengthSquared = (along * along).sum()
        let t = lengthSquared > 0 ? min(max(((point - start) * along).sum() / lengthSquared, 0), 1) : 0
        let nearest = start + along * t
        let offset = point - nearest
        return (offset * offset).sum().squareRoot()
    }
}
