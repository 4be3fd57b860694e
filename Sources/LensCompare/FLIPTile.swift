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
    /// Horizontal colour pass, per pixel: Y and Cx filtered, reference then test.
    private let filteredYCx = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal colour pass, per pixel: Cz by its two Gaussians, reference then test.
    private let filteredCz = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal feature pass, per pixel: first and second x-derivative, reference then test.
    private let derivatives = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal feature pass, per pixel: the Gaussian, twice for the reference, twice for the test.
    private let smoothed = ScratchBuffer<SIMD4<Float>>()
    private let colorDifference = ScratchBuffer<Float>()
    /// The achromatic channel of each padded pixel, normalised to 0…1.
    private let referenceGrey = ScratchBuffer<Float>()
    private let testGrey = ScratchBuffer<Float>()

    /// The filters' taps laid out as the passes multiply them, lane by lane, with a pixel's pair
    /// of quantities for the reference and then the test.
    private let yCxWeights: [SIMD4<Float>]
    private let czWeights: [SIMD4<Float>]
    private let derivativeWeights: [SIMD4<Float>]
    private let gaussianWeights: [SIMD4<Float>]

    /// The colour error of two identical colours: HyAB 0, powered and remapped as any other.
    private let sameColorError: Float

    init(filters: FLIPMetric.Filters) {
        self.filters = filters
        yCxWeights = filters.yCx.map { SIMD4($0.x, $0.y, $0.x, $0.y) }
        czWeights = filters.cz.map { SIMD4($0.x, $0.y, $0.x, $0.y) }
        derivativeWeights = filters.feature.map { SIMD4($0.y, $0.z, $0.y, $0.z) }
        gaussianWeights = filters.feature.map { SIMD4(repeating: $0.x) }
        sameColorError = filters.remap(pow(FLIPColor.hyab(.zero, .zero), FLIPMetric.colorExponent))
    }

    /// Calls `body` with the FLIP error of every pixel of `tile`, row by row.
    func evaluate(_ tile: PixelRect, reference: RGBA8Image, test: RGBA8Image, _ body: (Float) -> Void) {
        let paddedWidth = tile.width + 2 * margin
        let paddedHeight = tile.height + 2 * margin
        for buffer in [referenceColor, testColor] { buffer.reserve(paddedWidth * paddedHeight, zero: .zero) }
        for buffer in [referenceGrey, testGrey] { buffer.reserve(paddedWidth * paddedHeight, zero: 0) }
        for buffer in [filteredYCx, filteredCz, derivatives, smoothed] {
            buffer.reserve(tile.width * paddedHeight, zero: .zero)
        }
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

    /// The horizontal colour pass. Each output sums its taps in registers, from 0 in tap order
    /// (per lane the reference's sum, in its order), the reference's pair of quantities and the
    /// test's side by side in one vector.
    private func filterColorHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let taps = 2 * FLIPMetric.spatialRadius + 1
        let offset = margin - FLIPMetric.spatialRadius
        let width = tile.width
        let (ref, tst) = (referenceColor.pointer, testColor.pointer)
        let (outYCx, outCz) = (filteredYCx.pointer, filteredCz.pointer)
        yCxWeights.withUnsafeBufferPointer { yCxWeights in
            czWeights.withUnsafeBufferPointer { czWeights in
                for row in 0..<paddedHeight {
                    for column in 0..<width {
                        let input = row * paddedWidth + offset + column
                        var yCx = SIMD4<Float>.zero
                        var cz = SIMD4<Float>.zero
                        for tap in 0..<taps {
                            let (r, t) = (ref[input + tap], tst[input + tap])
                            yCx += yCxWeights[tap] * SIMD4(r.x, r.y, t.x, t.y)
                            cz += czWeights[tap] * SIMD4(r.z, r.z, t.z, t.z)
                        }
                        outYCx[row * width + column] = yCx
                        outCz[row * width + column] = cz
                    }
                }
            }
        }
    }

    /// The vertical colour pass, clamped to linear RGB 0…1, then HyAB in Hunt-adjusted L*a*b*.
    /// Each output sums its taps in registers like the horizontal pass.
    private func colorDifferences(_ tile: PixelRect) {
        let taps = 2 * FLIPMetric.spatialRadius + 1
        let offset = margin - FLIPMetric.spatialRadius
        let width = tile.width
        let (inYCx, inCz) = (filteredYCx.pointer, filteredCz.pointer)
        yCxWeights.withUnsafeBufferPointer { yCxWeights in
            czWeights.withUnsafeBufferPointer { czWeights in
                for row in 0..<tile.height {
                    for column in 0..<width {
                        let (yCx, cz) = Self.filterDown(
                            inYCx, by: yCxWeights, and: inCz, by: czWeights, from: (row + offset) * width + column,
                            stride: width, taps: taps)
                        // The same filtered colour, to the bit, converts to the same L*a*b*: HyAB
                        // is then exactly 0, and so is its error (most pixels near a difference).
                        if Self.sameBits(yCx, cz) {
                            colorDifference.pointer[row * width + column] = sameColorError
                            continue
                        }
                        let ref = Self.huntLab(SIMD3(yCx[0], yCx[1], cz[0] + cz[1]))
                        let tst = Self.huntLab(SIMD3(yCx[2], yCx[3], cz[2] + cz[3]))
                        let distance = pow(FLIPColor.hyab(ref, tst), FLIPMetric.colorExponent)
                        colorDifference.pointer[row * width + column] = filters.remap(distance)
                    }
                }
            }
        }
    }

    /// Two buffers filtered down a column, each by its own taps, `stride` apart from `start`: each
    /// lane sums its taps in registers, from 0 in tap order.
    @inline(__always)
    private static func filterDown(
        _ first: UnsafeMutablePointer<SIMD4<Float>>, by firstWeights: UnsafeBufferPointer<SIMD4<Float>>,
        and second: UnsafeMutablePointer<SIMD4<Float>>, by secondWeights: UnsafeBufferPointer<SIMD4<Float>>,
        from start: Int, stride: Int, taps: Int
    ) -> (SIMD4<Float>, SIMD4<Float>) {
        var firstSum = SIMD4<Float>.zero
        var secondSum = SIMD4<Float>.zero
        for tap in 0..<taps {
            firstSum += firstWeights[tap] * first[start + tap * stride]
            secondSum += secondWeights[tap] * second[start + tap * stride]
        }
        return (firstSum, secondSum)
    }

    /// True when the reference's half of both vectors equals the test's to the bit.
    private static func sameBits(_ yCx: SIMD4<Float>, _ cz: SIMD4<Float>) -> Bool {
        yCx[0].bitPattern == yCx[2].bitPattern && yCx[1].bitPattern == yCx[3].bitPattern
            && cz[0].bitPattern == cz[2].bitPattern && cz[1].bitPattern == cz[3].bitPattern
    }

    private static func huntLab(_ filtered: SIMD3<Float>) -> SIMD3<Float> {
        let linear = FLIPColor.linear(xyz: FLIPColor.xyz(yCxCz: filtered))
        let clamped = SIMD3(min(max(linear.x, 0), 1), min(max(linear.y, 0), 1), min(max(linear.z, 0), 1))
        return FLIPColor.huntAdjusted(FLIPColor.lab(linear: clamped))
    }

    /// The horizontal feature pass over the achromatic channel normalised to 0…1, each output
    /// summing its taps in registers like the colour pass.
    private func filterFeaturesHorizontally(_ tile: PixelRect, paddedWidth: Int, paddedHeight: Int) {
        let taps = 2 * FLIPMetric.featureRadius + 1
        let offset = margin - FLIPMetric.featureRadius
        let width = tile.width
        let oneOver116: Float = 1 / 116
        let sixteenOver116: Float = 16 / 116
        let (refColors, tstColors) = (referenceColor.pointer, testColor.pointer)
        let (refGrey, tstGrey) = (referenceGrey.pointer, testGrey.pointer)
        let (outDerivatives, outSmoothed) = (derivatives.pointer, smoothed.pointer)
        for index in 0..<paddedWidth * paddedHeight {
            refGrey[index] = refColors[index].x * oneOver116 + sixteenOver116
            tstGrey[index] = tstColors[index].x * oneOver116 + sixteenOver116
        }
        derivativeWeights.withUnsafeBufferPointer { derivativeWeights in
            gaussianWeights.withUnsafeBufferPointer { gaussianWeights in
                for row in 0..<paddedHeight {
                    for column in 0..<width {
                        let input = row * paddedWidth + offset + column
                        var derivative = SIMD4<Float>.zero
                        var gaussian = SIMD4<Float>.zero
                        for tap in 0..<taps {
                            let grey = SIMD4(
                                refGrey[input + tap], refGrey[input + tap], tstGrey[input + tap], tstGrey[input + tap])
                            derivative += derivativeWeights[tap] * grey
                            gaussian += gaussianWeights[tap] * grey
                        }
                        outDerivatives[row * width + column] = derivative
                        outSmoothed[row * width + column] = gaussian
                    }
                }
            }
        }
    }

    /// The vertical feature pass, the edge and point difference, and error = colour^(1 − feature);
    /// each output sums its taps in registers like the colour pass.
    private func finalErrors(_ tile: PixelRect, _ body: (Float) -> Void) {
        let taps = 2 * FLIPMetric.featureRadius + 1
        let offset = margin - FLIPMetric.featureRadius
        let width = tile.width
        let normalization: Float = 1 / Float(2).squareRoot()
        let (inDerivatives, inSmoothed) = (derivatives.pointer, smoothed.pointer)
        derivativeWeights.withUnsafeBufferPointer { derivativeWeights in
            gaussianWeights.withUnsafeBufferPointer { gaussianWeights in
                for row in 0..<tile.height {
                    for column in 0..<width {
                        // Lanes: x-derivatives (first, second), then y-derivatives, reference then test.
                        let (alongX, alongY) = Self.filterDown(
                            inDerivatives, by: gaussianWeights, and: inSmoothed, by: derivativeWeights,
                            from: (row + offset) * width + column, stride: width, taps: taps)
                        let edgeReference = (alongX[0] * alongX[0] + alongY[0] * alongY[0]).squareRoot()
                        let edgeTest = (alongX[2] * alongX[2] + alongY[2] * alongY[2]).squareRoot()
                        let pointReference = (alongX[1] * alongX[1] + alongY[1] * alongY[1]).squareRoot()
                        let pointTest = (alongX[3] * alongX[3] + alongY[3] * alongY[3]).squareRoot()
                        let featureDifference =
                            normalization * max(abs(edgeReference - edgeTest), abs(pointReference - pointTest))
                        let color = colorDifference.pointer[row * width + column]
                        // 0 to any power over 0 is 0: under a quarter the feature (its square
                        // root) stays under 1, so both powers can be skipped, to the same bits.
                        if color.bitPattern == 0, featureDifference < 0.25 {
                            body(0)
                            continue
                        }
                        let feature = pow(featureDifference, FLIPMetric.featureExponent)
                        body(pow(color, 1 - feature))
                    }
                }
            }
        }
    }
}
