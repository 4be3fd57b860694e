import LensModel

/// Pixels that differ visibly, as pixelmatch counts them: a pixel differs when its YIQ colour
/// distance (Kotsarenko and Ramos; semi-transparent colours blended over white) exceeds
/// `35215 · threshold²`, unless it looks like anti-aliasing in either image (Vysniauskas 2009:
/// darker and brighter neighbours, one of which sits in a flat area in both images), which is
/// counted apart.
public struct PixelmatchCount: Sendable, Equatable {
    /// pixelmatch's sensitivity, 0…1 (0.1 by default): smaller counts subtler differences.
    public let threshold: Double
    /// Pixels over the threshold that are not anti-aliasing: what pixelmatch returns.
    public let differentPixels: Int
    /// Pixels over the threshold that are anti-aliasing in one of the images.
    public let antialiasedPixels: Int
}

/// pixelmatch's classification, on the pixels the mask says differ (others have distance 0).
enum Pixelmatch {
    /// The largest YIQ distance two colours can have: the scale of the threshold.
    static let maxYIQDistance = 35215.0

    static func count(
        _ actual: RGBA8Image, _ expected: RGBA8Image, mask: DifferenceMask, threshold: Double
    ) -> PixelmatchCount {
        let maxDelta = maxYIQDistance * threshold * threshold
        var different = 0
        var antialiased = 0
        let width = expected.width
        for index in mask.differingPixels {
            let pixel = Int(index)
            guard abs(colorDelta(expected, actual, pixel, pixel)) > maxDelta else { continue }
            let (x, y) = (pixel % width, pixel / width)
            if isAntialiased(expected, x, y, other: actual) || isAntialiased(actual, x, y, other: expected) {
                antialiased += 1
            } else {
                different += 1
            }
        }
        return PixelmatchCount(threshold: threshold, differentPixels: different, antialiasedPixels: antialiased)
    }

    /// The squared YIQ distance between pixel `k` of `first` and `m` of `second`, negative when the
    /// second is brighter; with `brightnessOnly`, the signed Y difference alone.
    static func colorDelta(
        _ first: RGBA8Image, _ second: RGBA8Image, _ k: Int, _ m: Int, brightnessOnly: Bool = false
    ) -> Double {
        let p = first.pixels
        let q = second.pixels
        var (r1, g1, b1, a1) = (Double(p[k * 4]), Double(p[k * 4 + 1]), Double(p[k * 4 + 2]), Double(p[k * 4 + 3]))
        var (r2, g2, b2, a2) = (Double(q[m * 4]), Double(q[m * 4 + 1]), Double(q[m * 4 + 2]), Double(q[m * 4 + 3]))
        if a1 == a2 && r1 == r2 && g1 == g2 && b1 == b2 { return 0 }
        // Semi-transparent colours are judged over white.
        func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
        if a1 < 255 {
            a1 /= 255
            (r1, g1, b1) = (blend(r1, a1), blend(g1, a1), blend(b1, a1))
        }
        if a2 < 255 {
            a2 /= 255
            (r2, g2, b2) = (blend(r2, a2), blend(g2, a2), blend(b2, a2))
        }
        let y1 = r1 * 0.29889531 + g1 * 0.58662247 + b1 * 0.11448223
        let y2 = r2 * 0.29889531 + g2 * 0.58662247 + b2 * 0.11448223
        let y = y1 - y2
        if brightnessOnly { return y }
        let i =
            (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189)
            - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let q2 =
            (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694)
            - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q2 * q2
        return y1 > y2 ? -delta : delta
    }

    /// Whether pixel (x, y) of `image` looks like anti-aliasing: among its 8 neighbours at most
    /// two equal it, some are darker and some brighter, and the darkest or the brightest has 3+
    /// equal neighbours in both images.
    static func isAntialiased(_ image: RGBA8Image, _ x1: Int, _ y1: Int, other: RGBA8Image) -> Bool {
        let (x0, y0) = (max(x1 - 1, 0), max(y1 - 1, 0))
        let (x2, y2) = (min(x1 + 1, image.width - 1), min(y1 + 1, image.height - 1))
        let center = y1 * image.width + x1
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var darkest = 0.0
        var brightest = 0.0
        var darkestPixel = (0, 0)
        var brightestPixel = (0, 0)
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let delta = colorDelta(image, image, center, y * image.width + x, brightnessOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestPixel = (x, y)
                } else if delta > brightest {
                    brightest = delta
                    brightestPixel = (x, y)
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManySiblings(image, darkestPixel) && hasManySiblings(other, darkestPixel))
            || (hasManySiblings(image, brightestPixel) && hasManySiblings(other, brightestPixel))
    }

    /// Whether a pixel has 3 or more neighbours of exactly its colour (the image edge counts as one).
    static func hasManySiblings(_ image: RGBA8Image, _ pixel: (Int, Int)) -> Bool {
        let (x1, y1) = pixel
        let (x0, y0) = (max(x1 - 1, 0), max(y1 - 1, 0))
        let (x2, y2) = (min(x1 + 1, image.width - 1), min(y1 + 1, image.height - 1))
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        let center = (y1 * image.width + x1) * 4
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let other = (y * image.width + x) * 4
                if image.pixels[center..<center + 4].elementsEqual(image.pixels[other..<other + 4]) { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
