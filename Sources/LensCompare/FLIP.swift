import Foundation
import LensModel

/// The FLIP error between two images: LDR-FLIP (Andersson et al., "FLIP: A Difference Evaluator
/// for Alternating Images", HPG 2020) at NVIDIA's default viewing condition (0.7 m from a 0.7 m wide
/// 3840-pixel screen, 67 pixels per degree), computed as the reference implementation
/// (`flip-evaluator` 1.x) does: separable filters, clamped edges, fp32.
public struct FLIPError: Sendable, Equatable {
    /// Buckets of ``histogram``.
    public static let bucketCount = 20

    /// Mean FLIP error over every pixel: 0 for identical images, at most 1.
    public let mean: Double
    /// Pixels per error bucket: bucket `i` holds errors in `i/20 ..< (i+1)/20` (the last one
    /// includes 1).
    public let histogram: [Int]
}

/// LDR-FLIP's pipeline: colour (spatially filtered in YCxCz, compared with HyAB in Hunt-adjusted
/// L*a*b*) raised to a power set by the feature (edge and point) difference. Names and operation
/// order follow `FLIP.h` of the reference, so the fp32 results agree with it.
enum FLIPMetric {
    static let pi: Float = 3.14159265358979
    /// calculatePPD(0.7, 3840, 0.7), written as the reference evaluates it.
    static let pixelsPerDegree: Float = 0.7 * (3840 / 0.7) * (pi / 180)
    /// Radius of the colour filters: three standard deviations of the widest Gaussian (b = 0.04).
    static let spatialRadius = Int((3 * (0.04 / (2 * (pi * pi))).squareRoot() * pixelsPerDegree).rounded(.up))
    static let featureDeviation: Float = 0.5 * 0.082 * pixelsPerDegree
    static let featureRadius = Int((3 * featureDeviation).rounded(.up))
    /// How far a pixel's error looks: the wider of the two filters.
    static let reach = max(spatialRadius, featureRadius)

    static let colorExponent: Float = 0.7
    static let perceptualCutoff: Float = 0.4
    static let perceptualThreshold: Float = 0.95

    /// The error of `test` against `reference`, computed on the tiles `mask` says can differ.
    static func error(test: RGBA8Image, reference: RGBA8Image, mask: DifferenceMask) -> FLIPError {
        let tiles = mask.tiles(reach: reach, bounds: PixelRect(x: 0, y: 0, width: mask.width, height: mask.height))
        var tally = FLIPTile.Tally()
        var computed = 0
        let workspace = FLIPTile(filters: filters, near: mask.nearness(reach: reach))
        for tile in tiles {
            workspace.evaluate(tile, reference: reference, test: test, into: &tally)
            computed += tile.width * tile.height
        }
        // Every pixel outside the tiles sees identical windows in both images: error exactly 0.
        tally.histogram[0] += mask.width * mask.height - computed
        return FLIPError(mean: tally.sum / Double(max(1, mask.width * mask.height)), histogram: tally.histogram)
    }

    /// The separable filter taps, built once.
    static let filters = Filters()

    struct Filters {
        /// Per tap: the Y and Cx Gaussians, normalised to sum 1.
        var yCx: [SIMD2<Float>] = []
        /// Per tap: the two Gaussians of the Cz (blue-yellow) filter, separated as the reference does.
        var cz: [SIMD2<Float>] = []
        /// Per tap: Gaussian, first and second derivative (edge and point detectors).
        var feature: [SIMD3<Float>] = []
        /// The colour distance (HyAB, powered) that maps to error 1, and the knee below it.
        var maxDistance: Float = 0
        var cutoffDistance: Float = 0

        init() {
            let deltaX = 1 / pixelsPerDegree
            var sumYCx = SIMD2<Float>.zero
            var sumCz = SIMD2<Float>.zero
            for tap in 0..<(2 * spatialRadius + 1) {
                let ix = Float(tap - spatialRadius) * deltaX
                let ix2 = ix * ix
                let yCxTap = SIMD2(gaussian(ix2, a: 1, b: 0.0047), gaussian(ix2, a: 1, b: 0.0053))
                let czTap = SIMD2(gaussianRoot(ix2, a: 34.1, b: 0.04), gaussianRoot(ix2, a: 13.5, b: 0.025))
                yCx.append(yCxTap)
                cz.append(czTap)
                sumYCx += yCxTap
                sumCz += czTap
            }
            let czNorm = 1 / (sumCz.x * sumCz.x + sumCz.y * sumCz.y).squareRoot()
            yCx = yCx.map { SIMD2($0.x * (1 / sumYCx.x), $0.y * (1 / sumYCx.y)) }
            cz = cz.map { $0 * czNorm }

            var gaussianSum: Float = 0
            var firstPositive: Float = 0
            var firstNegative: Float = 0
            var secondPositive: Float = 0
            var secondNegative: Float = 0
            for tap in 0..<(2 * featureRadius + 1) {
                let x = Float(tap - featureRadius)
                let g = exp(-(x * x) / (2 * featureDeviation * featureDeviation))
                let dg = -x * g
                let ddg = (x * x / (featureDeviation * featureDeviation) - 1) * g
                gaussianSum += g
                if dg > 0 { firstPositive += dg } else { firstNegative -= dg }
                if ddg > 0 { secondPositive += ddg } else { secondNegative -= ddg }
                feature.append(SIMD3(g, dg, ddg))
            }
            feature = feature.map {
                SIMD3(
                    $0.x / gaussianSum, $0.y / ($0.y > 0 ? firstPositive : firstNegative),
                    $0.z / ($0.z > 0 ? secondPositive : secondNegative))
            }

            let green = FLIPColor.huntAdjusted(FLIPColor.lab(linear: SIMD3(0, 1, 0)))
            let blue = FLIPColor.huntAdjusted(FLIPColor.lab(linear: SIMD3(0, 0, 1)))
            maxDistance = pow(FLIPColor.hyab(green, blue), colorExponent)
            cutoffDistance = perceptualCutoff * maxDistance
        }

        /// The reference's Gaussian in its alternative form, a·√(π/b)·e^(−π²x²/b).
        private func gaussian(_ x2: Float, a: Float, b: Float) -> Float {
            a * (pi / b).squareRoot() * exp(-(pi * pi) * x2 / b)
        }

        /// The square-rooted amplitude that lets a sum of two Gaussians be filtered separably.
        private func gaussianRoot(_ x2: Float, a: Float, b: Float) -> Float {
            (a * (pi / b).squareRoot()).squareRoot() * exp(-(pi * pi) * x2 / b)
        }

        /// A colour distance (HyAB, powered) remapped to 0…1: the part under the cutoff to
        /// 0…0.95, the rest to 0.95…1.
        func remap(_ distance: Float) -> Float {
            if distance < cutoffDistance { return distance * (perceptualThreshold / cutoffDistance) }
            return perceptualThreshold + ((distance - cutoffDistance) / (maxDistance - cutoffDistance))
                * (1 - perceptualThreshold)
        }
    }
}

/// The colour conversions of the reference, in fp32 with its constants.
enum FLIPColor {
    /// sRGB 8-bit levels to linear light, as the reference decodes `float(level) / 255`.
    static let linearTable: [Float] = (0..<256).map { level in
        let encoded = Float(level) / 255
        return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    static func xyz(linear c: SIMD3<Float>) -> SIMD3<Float> {
        let a11: Float = 10135552 / 24577794
        let a12: Float = 8788810 / 24577794
        let a13: Float = 4435075 / 24577794
        let a21: Float = 2613072 / 12288897
        let a22: Float = 8788810 / 12288897
        let a23: Float = 887015 / 12288897
        // 73733382 and 70074185 rounded to fp32, as the reference's float literals are.
        let a31: Float = 1425312 / 73733384
        let a32: Float = 8788810 / 73733384
        let a33: Float = 70074184 / 73733384
        return SIMD3(
            a11 * c.x + a12 * c.y + a13 * c.z, a21 * c.x + a22 * c.y + a23 * c.z, a31 * c.x + a32 * c.y + a33 * c.z)
    }

    static func linear(xyz c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(
            3.241003275 * c.x + -1.537398934 * c.y + -0.498615861 * c.z,
            -0.969224334 * c.x + 1.875930071 * c.y + 0.041554224 * c.z,
            0.055639423 * c.x + -0.204011202 * c.y + 1.057148933 * c.z)
    }

    static let whitePoint = SIMD3<Float>(0.950428545, 1, 1.088900371)
    static let inverseWhitePoint = SIMD3<Float>(1.052156925, 1, 0.918357670)

    static func yCxCz(linear c: SIMD3<Float>) -> SIMD3<Float> {
        let scaled = xyz(linear: c) * inverseWhitePoint
        return SIMD3(116 * scaled.y - 16, 500 * (scaled.x - scaled.y), 200 * (scaled.y - scaled.z))
    }

    static func xyz(yCxCz c: SIMD3<Float>) -> SIMD3<Float> {
        let y = (c.x + 16) / 116
        let cx = c.y / 500
        let cz = c.z / 200
        return SIMD3(y + cx, y, y - cz) * whitePoint
    }

    static func lab(linear c: SIMD3<Float>) -> SIMD3<Float> {
        let delta: Float = 6 / 29
        let deltaSquare = delta * delta
        let deltaCube = delta * deltaSquare
        let factor = 1 / (3 * deltaSquare)
        let term: Float = 4 / 29
        let scaled = xyz(linear: c) * inverseWhitePoint
        func f(_ t: Float) -> Float { t > deltaCube ? pow(t, 1 / 3) : factor * t + term }
        let fx = f(scaled.x)
        let fy = f(scaled.y)
        let fz = f(scaled.z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// Hunt effect: chroma scaled by lightness, 0.01·L·C.
    static func huntAdjusted(_ lab: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(lab.x, 0.01 * lab.x * lab.y, 0.01 * lab.x * lab.z)
    }

    /// HyAB distance: city-block in lightness plus Euclidean in a*b*.
    static func hyab(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        abs(a.x - b.x) + ((a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)).squareRoot()
    }
}
