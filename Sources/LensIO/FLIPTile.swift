import Foundation
import LensModel

/// A buffer of `Element`s that grows on demand and is indexed without bounds checks: the FLIP
/// filters read each element up to 21 times, so checked array access would dominate.
private final class ScratchBuffer<Element> {
    private(set) var pointer = UnsafeMutablePointer<Element>.allocate(capacity: 0)
    private var capacity = 0

    /// Room for `count` elements (their values are whatever the last tile left).
    func reserve(_ count: Int, zero: Element) {
        guard count > capacity else { return }
        pointer.deallocate()
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: zero, count: count)
        capacity = count
    }

    deinit { pointer.deallocate() }
}

/// The FLIP error of one run of tiles: both images converted to YCxCz over the run plus a margin
/// of the filters' reach (edge pixels repeated, as the reference clamps coordinates), then the
/// colour and feature filters, each a horizontal then a vertical pass. Buffers are reused.
final class FLIPTile {
    private let filters: FLIPMetric.Filters
    private let margin = FLIPMetric.reach
    private let referenceColor = ScratchBuffer<SIMD3<Float>>()
    private let testColor = ScratchBuffer<SIMD3<Float>>()
    /// Horizontal colour pass, per pixel: Y and Cx filtered, then Cz by its two Gaussians.
    private let referenceYCx = ScratchBuffer<SIMD2<Float>>()
    private let referenceCz = ScratchBuffer<SIMD2<Float>>()
    private let testYCx = ScratchBuffer<SIMD2<Float>>()
    private let testCz = ScratchBuffer<SIMD2<Float>>()
    /// Horizontal feature pass, per pixel: first and second x-derivative, Gaussian.
    private let referenceFeatures = ScratchBuffer<SIMD3<Float>>()
    private let testFeatures = ScratchBuffer<SIMD3<Float>>()
    private let colorDifference = ScratchBuffer<Float>()
    /// The achromatic channel of each padded pixel, normalised to 0…1.
    private let referenceGrey = ScratchBuffer<Float>()
    private let testGrey = ScratchBuffer<Float>()
    /// Running sums of the vertical passes, four per column of a row.
    private let accumulators = ScratchBuffer<SIMD2<Float>>()

    /// The colour error of two identical colours: HyAB 0, powered and remapped as any other.
    private let sameColorError: Float

    init(filters: FLIPMetric.Filters) {
        self.filters = filters
        sameColorError = filters.remap(pow(FLIPColor.hyab(.zero, .zero), FLIPMetric.colorExponent))
    }

    /// Calls `body` with the FLIP error of every pixel of `tile`, row by row.
    func evaluate(_ tile: PixelRect, reference: RGBA8Image, test: RGBA8Image, _ body: (Float) -> Void) {
        let paddedWidth = tile.width + 2 * margin
        let paddedHeight = tile.height + 2 * margin
        for buffer in [referenceColor, testColor] { buffer.reserve(paddedWidth * paddedHeight, zero: .zero) }
        for buffer in [referenceGrey, testGrey] { buffer.reserve(paddedWidth * paddedHeight, zero: 0) }
        for buffer in [referenceYCx, referenceCz, testYCx, testCz] {
            buffer.reserve(tile.width * paddedHeight, zero: .zero)
        }
        for buffer in [referenceFeatures, testFeatures] { buffer.reserve(tile.width * paddedHeight, zero: .zero) }
        colorDifference.reserve(tile.width * tile.height, zero: 0)
        load(reference, tile, into: referenceColor.pointer, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        load(test, tile, into: testColor.pointer, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        filterColorHorizontally(tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        colorDifferences(tile)
        filterFeaturesHorizontally(tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        finalErrors(tile, body)
    }

    /// The run and its margin in YCxCz, coordinates clamped to the image.
    private func load(
        _ image: RGBA8Image, _ tile: PixelRect, into buffer: UnsafeMutablePointer<SIMD3<Float>>, paddedWidth: Int,
        paddedHeight: Int
    ) {
        FLIPColor.linearTable.withUnsafeBufferPointer { table in
            image.pixels.withUnsafeBufferPointer { pixels in
                for row in 0..<paddedHeight {
                    let y = min(max(tile.y - margin + row, 0), image.height - 1)
                    for column in 0..<paddedWidth {
                        let x = min(max(tile.x - margin + column, 0), image.width - 1)
                        let base = (y * image.width + x) * 4
                        let linear = SIMD3(
                            table[Int(pixels[base])], table[Int(pixels[base + 1])], table[Int(pixels[base + 2])])
                        buffer[row * paddedWidth + column] = FLIPColor.yCxCz(linear: linear)
                    }
                }
            }
        }
    }

    /// The horizontal colour pass, accumulated tap by tap across each row straight into the
    /// intermediate buffers (per pixel the same sum in the same order as the reference).
    private func filterColorHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let taps = 2 * FLIPMetric.spatialRadius + 1
        let offset = margin - FLIPMetric.spatialRadius
        let width = tile.width
        let (ref, tst) = (referenceColor.pointer, testColor.pointer)
        let (refYCx, refCz, tstYCx, tstCz) = (
            referenceYCx.pointer, referenceCz.pointer, testYCx.pointer, testCz.pointer
        )
        for buffer in [refYCx, refCz, tstYCx, tstCz] { buffer.update(repeating: .zero, count: width * paddedHeight) }
        filters.yCx.withUnsafeBufferPointer { yCxWeights in
            filters.cz.withUnsafeBufferPointer { czWeights in
                for row in 0..<paddedHeight {
                    let output = row * width
                    for tap in 0..<taps {
                        let (weightsYCx, weightsCz) = (yCxWeights[tap], czWeights[tap])
                        let input = row * paddedWidth + offset + tap
                        for column in 0..<width {
                            let (r, t) = (ref[input + column], tst[input + column])
                            refYCx[output + column] += SIMD2(weightsYCx.x * r.x, weightsYCx.y * r.y)
                            tstYCx[output + column] += SIMD2(weightsYCx.x * t.x, weightsYCx.y * t.y)
                            refCz[output + column] += SIMD2(weightsCz.x * r.z, weightsCz.y * r.z)
                            tstCz[output + column] += SIMD2(weightsCz.x * t.z, weightsCz.y * t.z)
                        }
                    }
                }
            }
        }
    }

    /// The vertical colour pass, clamped to linear RGB 0…1, then HyAB in Hunt-adjusted L*a*b*. Each
    /// row accumulates tap by tap across the columns (the same sum per pixel, in the same order,
    /// as a per-pixel loop, but reading memory in order).
    private func colorDifferences(_ tile: PixelRect) {
        let taps = 2 * FLIPMetric.spatialRadius + 1
        let offset = margin - FLIPMetric.spatialRadius
        let width = tile.width
        let sources = [referenceYCx.pointer, referenceCz.pointer, testYCx.pointer, testCz.pointer]
        accumulators.reserve(4 * width, zero: .zero)
        let sums = accumulators.pointer
        filters.yCx.withUnsafeBufferPointer { yCxWeights in
            filters.cz.withUnsafeBufferPointer { czWeights in
                for row in 0..<tile.height {
                    sums.update(repeating: .zero, count: 4 * width)
                    for tap in 0..<taps {
                        let line = (row + offset + tap) * width
                        for (index, source) in sources.enumerated() {
                            let weights = index % 2 == 0 ? yCxWeights[tap] : czWeights[tap]
                            let sum = sums + index * width
                            for column in 0..<width { sum[column] += weights * source[line + column] }
                        }
                    }
                    for column in 0..<width {
                        let (refYCx, refCz) = (sums[column], sums[width + column])
                        let (tstYCx, tstCz) = (sums[2 * width + column], sums[3 * width + column])
                        // The same filtered colour, to the bit, converts to the same L*a*b*: HyAB
                        // is then exactly 0, and so is its error (most pixels near a difference).
                        if Self.sameBits(refYCx, tstYCx) && Self.sameBits(refCz, tstCz) {
                            colorDifference.pointer[row * width + column] = sameColorError
                            continue
                        }
                        let ref = Self.huntLab(SIMD3(refYCx.x, refYCx.y, refCz.x + refCz.y))
                        let tst = Self.huntLab(SIMD3(tstYCx.x, tstYCx.y, tstCz.x + tstCz.y))
                        let distance = pow(FLIPColor.hyab(ref, tst), FLIPMetric.colorExponent)
                        colorDifference.pointer[row * width + column] = filters.remap(distance)
                    }
                }
            }
        }
    }

    private static func sameBits(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
    }

    private static func huntLab(_ filtered: SIMD3<Float>) -> SIMD3<Float> {
        let linear = FLIPColor.linear(xyz: FLIPColor.xyz(yCxCz: filtered))
        let clamped = SIMD3(min(max(linear.x, 0), 1), min(max(linear.y, 0), 1), min(max(linear.z, 0), 1))
        return FLIPColor.huntAdjusted(FLIPColor.lab(linear: clamped))
    }

    /// The horizontal feature pass over the achromatic channel normalised to 0…1, accumulated tap
    /// by tap across each row like the colour pass.
    private func filterFeaturesHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let taps = 2 * FLIPMetric.featureRadius + 1
        let offset = margin - FLIPMetric.featureRadius
        let width = tile.width
        let oneOver116: Float = 1 / 116
        let sixteenOver116: Float = 16 / 116
        let (refColors, tstColors) = (referenceColor.pointer, testColor.pointer)
        let (refFeatures, tstFeatures) = (referenceFeatures.pointer, testFeatures.pointer)
        let (refGrey, tstGrey) = (referenceGrey.pointer, testGrey.pointer)
        for index in 0..<paddedWidth * paddedHeight {
            refGrey[index] = refColors[index].x * oneOver116 + sixteenOver116
            tstGrey[index] = tstColors[index].x * oneOver116 + sixteenOver116
        }
        refFeatures.update(repeating: .zero, count: width * paddedHeight)
        tstFeatures.update(repeating: .zero, count: width * paddedHeight)
        filters.feature.withUnsafeBufferPointer { weightsPerTap in
            for row in 0..<paddedHeight {
                let output = row * width
                for tap in 0..<taps {
                    let weights = weightsPerTap[tap]
                    let input = row * paddedWidth + offset + tap
                    for column in 0..<width {
                        let (refY, tstY) = (refGrey[input + column], tstGrey[input + column])
                        refFeatures[output + column] += SIMD3(weights.y * refY, weights.z * refY, weights.x * refY)
                        tstFeatures[output + column] += SIMD3(weights.y * tstY, weights.z * tstY, weights.x * tstY)
                    }
                }
            }
        }
    }

    /// The vertical feature pass, the edge and point difference, and error = colour^(1 − feature);
    /// accumulated row by row across the columns like the colour pass.
    private func finalErrors(_ tile: PixelRect, _ body: (Float) -> Void) {
        let taps = 2 * FLIPMetric.featureRadius + 1
        let offset = margin - FLIPMetric.featureRadius
        let width = tile.width
        let normalization: Float = 1 / Float(2).squareRoot()
        let (refFeatures, tstFeatures) = (referenceFeatures.pointer, testFeatures.pointer)
        // Per column: x-derivatives (first, second) and y-derivatives (first, second), reference then test.
        accumulators.reserve(4 * width, zero: .zero)
        let sums = accumulators.pointer
        filters.feature.withUnsafeBufferPointer { weightsPerTap in
            for row in 0..<tile.height {
                sums.update(repeating: .zero, count: 4 * width)
                for tap in 0..<taps {
                    let weights = weightsPerTap[tap]
                    let line = (row + offset + tap) * width
                    for column in 0..<width {
                        let (ref, tst) = (refFeatures[line + column], tstFeatures[line + column])
                        sums[column] += SIMD2(weights.x * ref.x, weights.x * ref.y)
                        sums[width + column] += SIMD2(weights.y * ref.z, weights.z * ref.z)
                        sums[2 * width + column] += SIMD2(weights.x * tst.x, weights.x * tst.y)
                        sums[3 * width + column] += SIMD2(weights.y * tst.z, weights.z * tst.z)
                    }
                }
                for column in 0..<width {
                    let (refX, refY) = (sums[column], sums[width + column])
                    let (tstX, tstY) = (sums[2 * width + column], sums[3 * width + column])
                    let edgeReference = (refX.x * refX.x + refY.x * refY.x).squareRoot()
                    let edgeTest = (tstX.x * tstX.x + tstY.x * tstY.x).squareRoot()
                    let pointReference = (refX.y * refX.y + refY.y * refY.y).squareRoot()
                    let pointTest = (tstX.y * tstX.y + tstY.y * tstY.y).squareRoot()
                    let feature = pow(
                        normalization * max(abs(edgeReference - edgeTest), abs(pointReference - pointTest)),
                        FLIPMetric.featureExponent)
                    body(pow(colorDifference.pointer[row * width + column], 1 - feature))
                }
            }
        }
    }
}
