import Foundation
import LensModel

/// The FLIP error of one tile: both images converted to YCxCz over the tile plus a margin of the
/// filters' reach (edge pixels repeated, as the reference clamps coordinates), then the colour and
/// feature filters, each a horizontal then a vertical pass. The buffers are reused tile after tile.
struct FLIPTile {
    private let filters: FLIPMetric.Filters
    private let margin = FLIPMetric.reach
    private var referenceColor: [SIMD3<Float>] = []
    private var testColor: [SIMD3<Float>] = []
    /// Horizontal colour pass, per pixel: Y and Cx filtered, then Cz by its two Gaussians.
    private var referenceYCx: [SIMD2<Float>] = []
    private var referenceCz: [SIMD2<Float>] = []
    private var testYCx: [SIMD2<Float>] = []
    private var testCz: [SIMD2<Float>] = []
    /// Horizontal feature pass, per pixel: first and second x-derivative, Gaussian.
    private var referenceFeatures: [SIMD3<Float>] = []
    private var testFeatures: [SIMD3<Float>] = []
    private var colorDifference: [Float] = []

    init(filters: FLIPMetric.Filters) {
        self.filters = filters
    }

    /// Calls `body` with the FLIP error of every pixel of `tile`, row by row.
    mutating func evaluate(
        _ tile: PixelRect, reference: RGBA8Image, test: RGBA8Image, _ body: (Float) -> Void
    ) {
        let paddedWidth = tile.width + 2 * margin
        let paddedHeight = tile.height + 2 * margin
        load(reference, tile, into: &referenceColor, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        load(test, tile, into: &testColor, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        filterColorHorizontally(tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        colorDifferences(tile)
        filterFeaturesHorizontally(tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        finalErrors(tile, body)
    }

    /// The tile and its margin in YCxCz, coordinates clamped to the image.
    private func load(
        _ image: RGBA8Image, _ tile: PixelRect, into buffer: inout [SIMD3<Float>], paddedWidth: Int, paddedHeight: Int
    ) {
        buffer.removeAll(keepingCapacity: true)
        let table = FLIPColor.linearTable
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<paddedHeight {
                let y = min(max(tile.y - margin + row, 0), image.height - 1)
                for column in 0..<paddedWidth {
                    let x = min(max(tile.x - margin + column, 0), image.width - 1)
                    let base = (y * image.width + x) * 4
                    let linear = SIMD3(
                        table[Int(pixels[base])], table[Int(pixels[base + 1])], table[Int(pixels[base + 2])])
                    buffer.append(FLIPColor.yCxCz(linear: linear))
                }
            }
        }
    }

    private mutating func filterColorHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let radius = FLIPMetric.spatialRadius
        let count = tile.width * paddedHeight
        referenceYCx = [SIMD2<Float>](repeating: .zero, count: count)
        referenceCz = referenceYCx
        testYCx = referenceYCx
        testCz = referenceYCx
        for row in 0..<paddedHeight {
            for column in 0..<tile.width {
                var refYCx = SIMD2<Float>.zero
                var refCz = SIMD2<Float>.zero
                var tstYCx = SIMD2<Float>.zero
                var tstCz = SIMD2<Float>.zero
                for tap in 0..<(2 * radius + 1) {
                    let source = row * paddedWidth + column + margin - radius + tap
                    let weightsYCx = filters.yCx[tap]
                    let weightsCz = filters.cz[tap]
                    let ref = referenceColor[source]
                    let tst = testColor[source]
                    refYCx += SIMD2(weightsYCx.x * ref.x, weightsYCx.y * ref.y)
                    tstYCx += SIMD2(weightsYCx.x * tst.x, weightsYCx.y * tst.y)
                    refCz += SIMD2(weightsCz.x * ref.z, weightsCz.y * ref.z)
                    tstCz += SIMD2(weightsCz.x * tst.z, weightsCz.y * tst.z)
                }
                let index = row * tile.width + column
                referenceYCx[index] = refYCx
                referenceCz[index] = refCz
                testYCx[index] = tstYCx
                testCz[index] = tstCz
            }
        }
    }

    /// The vertical colour pass, clamped to linear RGB 0…1, then HyAB in Hunt-adjusted L*a*b*.
    private mutating func colorDifferences(_ tile: PixelRect) {
        let radius = FLIPMetric.spatialRadius
        colorDifference.removeAll(keepingCapacity: true)
        for row in 0..<tile.height {
            for column in 0..<tile.width {
                var refYCx = SIMD2<Float>.zero
                var refCz = SIMD2<Float>.zero
                var tstYCx = SIMD2<Float>.zero
                var tstCz = SIMD2<Float>.zero
                for tap in 0..<(2 * radius + 1) {
                    let source = (row + margin - radius + tap) * tile.width + column
                    let weightsYCx = filters.yCx[tap]
                    let weightsCz = filters.cz[tap]
                    refYCx += SIMD2(weightsYCx.x * referenceYCx[source].x, weightsYCx.y * referenceYCx[source].y)
                    tstYCx += SIMD2(weightsYCx.x * testYCx[source].x, weightsYCx.y * testYCx[source].y)
                    refCz += SIMD2(weightsCz.x * referenceCz[source].x, weightsCz.y * referenceCz[source].y)
                    tstCz += SIMD2(weightsCz.x * testCz[source].x, weightsCz.y * testCz[source].y)
                }
                let ref = Self.huntLab(SIMD3(refYCx.x, refYCx.y, refCz.x + refCz.y))
                let tst = Self.huntLab(SIMD3(tstYCx.x, tstYCx.y, tstCz.x + tstCz.y))
                let distance = pow(FLIPColor.hyab(ref, tst), FLIPMetric.colorExponent)
                colorDifference.append(filters.remap(distance))
            }
        }
    }

    private static func huntLab(_ filtered: SIMD3<Float>) -> SIMD3<Float> {
        let linear = FLIPColor.linear(xyz: FLIPColor.xyz(yCxCz: filtered))
        let clamped = SIMD3(min(max(linear.x, 0), 1), min(max(linear.y, 0), 1), min(max(linear.z, 0), 1))
        return FLIPColor.huntAdjusted(FLIPColor.lab(linear: clamped))
    }

    private mutating func filterFeaturesHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let radius = FLIPMetric.featureRadius
        let oneOver116: Float = 1 / 116
        let sixteenOver116: Float = 16 / 116
        referenceFeatures = [SIMD3<Float>](repeating: .zero, count: tile.width * paddedHeight)
        testFeatures = referenceFeatures
        for row in 0..<paddedHeight {
            for column in 0..<tile.width {
                var ref = SIMD3<Float>.zero
                var tst = SIMD3<Float>.zero
                for tap in 0..<(2 * radius + 1) {
                    let source = row * paddedWidth + column + margin - radius + tap
                    let weights = filters.feature[tap]
                    // The achromatic channel normalised to 0…1.
                    let refY = referenceColor[source].x * oneOver116 + sixteenOver116
                    let tstY = testColor[source].x * oneOver116 + sixteenOver116
                    ref += SIMD3(weights.y * refY, weights.z * refY, weights.x * refY)
                    tst += SIMD3(weights.y * tstY, weights.z * tstY, weights.x * tstY)
                }
                referenceFeatures[row * tile.width + column] = ref
                testFeatures[row * tile.width + column] = tst
            }
        }
    }

    /// The vertical feature pass, the edge and point difference, and error = colour^(1 − feature).
    private func finalErrors(_ tile: PixelRect, _ body: (Float) -> Void) {
        let radius = FLIPMetric.featureRadius
        let normalization: Float = 1 / Float(2).squareRoot()
        for row in 0..<tile.height {
            for column in 0..<tile.width {
                var refX = SIMD2<Float>.zero
                var tstX = SIMD2<Float>.zero
                var refY = SIMD2<Float>.zero
                var tstY = SIMD2<Float>.zero
                for tap in 0..<(2 * radius + 1) {
                    let source = (row + margin - radius + tap) * tile.width + column
                    let weights = filters.feature[tap]
                    let ref = referenceFeatures[source]
                    let tst = testFeatures[source]
                    refX += SIMD2(weights.x * ref.x, weights.x * ref.y)
                    tstX += SIMD2(weights.x * tst.x, weights.x * tst.y)
                    refY += SIMD2(weights.y * ref.z, weights.z * ref.z)
                    tstY += SIMD2(weights.y * tst.z, weights.z * tst.z)
                }
                let edgeReference = (refX.x * refX.x + refY.x * refY.x).squareRoot()
                let edgeTest = (tstX.x * tstX.x + tstY.x * tstY.x).squareRoot()
                let pointReference = (refX.y * refX.y + refY.y * refY.y).squareRoot()
                let pointTest = (tstX.y * tstX.y + tstY.y * tstY.y).squareRoot()
                let feature = pow(
                    normalization * max(abs(edgeReference - edgeTest), abs(pointReference - pointTest)),
                    FLIPMetric.featureExponent)
                body(pow(colorDifference[row * tile.width + column], 1 - feature))
            }
        }
    }
}
