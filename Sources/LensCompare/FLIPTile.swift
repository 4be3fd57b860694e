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
///
/// Every buffer holds a pixel's quantities for the reference and the test side by side in one
/// SIMD4, so each pass is one loop shape (``filterFour``): four neighbouring outputs at once.
final class FLIPTile {
    private let filters: FLIPMetric.Filters
    private let margin = FLIPMetric.reach
    /// The pixels whose windows can hold a difference; the others err by exactly 0, and the
    /// vertical passes skip them four at a time.
    private let near: Nearness
    /// Per padded pixel: Y and Cx, reference then test.
    private let colorYCx = ScratchBuffer<SIMD4<Float>>()
    /// Per padded pixel: Cz twice (its filter is a sum of two Gaussians), reference then test.
    private let colorCz = ScratchBuffer<SIMD4<Float>>()
    /// Per padded pixel: the achromatic channel normalised to 0…1, twice each, reference then test.
    private let grey = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal colour pass, per pixel: Y and Cx filtered, reference then test.
    private let filteredYCx = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal colour pass, per pixel: Cz by its two Gaussians, reference then test.
    private let filteredCz = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal feature pass, per pixel: first and second x-derivative, reference then test.
    private let derivatives = ScratchBuffer<SIMD4<Float>>()
    /// Horizontal feature pass, per pixel: the Gaussian, twice for the reference, twice for the test.
    private let smoothed = ScratchBuffer<SIMD4<Float>>()
    private let colorDifference = ScratchBuffer<Float>()

    /// The filters' taps laid out as the passes multiply them, lane by lane: a pixel's pair of
    /// quantities for the reference, then the test.
    private let yCxWeights: [SIMD4<Float>]
    private let czWeights: [SIMD4<Float>]
    private let derivativeWeights: [SIMD4<Float>]
    private let gaussianWeights: [SIMD4<Float>]

    /// The colour error of two identical colours: HyAB 0, powered and remapped as any other.
    private let sameColorError: Float

    init(filters: FLIPMetric.Filters, near: Nearness) {
        self.filters = filters
        self.near = near
        yCxWeights = filters.yCx.map { SIMD4($0.x, $0.y, $0.x, $0.y) }
        czWeights = filters.cz.map { SIMD4($0.x, $0.y, $0.x, $0.y) }
        derivativeWeights = filters.feature.map { SIMD4($0.y, $0.z, $0.y, $0.z) }
        gaussianWeights = filters.feature.map { SIMD4(repeating: $0.x) }
        sameColorError = filters.remap(pow(FLIPColor.hyab(.zero, .zero), FLIPMetric.colorExponent))
    }

    /// The errors of the pixels evaluated so far: their sum, in raster order run by run, and how
    /// many fall in each of the ``FLIPError/bucketCount`` buckets.
    struct Tally {
        var sum = 0.0
        var histogram = [Int](repeating: 0, count: FLIPError.bucketCount)
    }

    /// Adds the FLIP error of every pixel of `tile`, row by row, to `tally`.
    func evaluate(_ tile: PixelRect, reference: RGBA8Image, test: RGBA8Image, into tally: inout Tally) {
        let paddedWidth = tile.width + 2 * margin
        let paddedHeight = tile.height + 2 * margin
        // Four outputs at a time read and write up to three pixels past a buffer's last row.
        let slack = 3
        for buffer in [colorYCx, colorCz, grey] { buffer.reserve(paddedWidth * paddedHeight + slack, zero: .zero) }
        for buffer in [filteredYCx, filteredCz, derivatives, smoothed] {
            buffer.reserve(tile.width * paddedHeight + slack, zero: .zero)
        }
        colorDifference.reserve(tile.width * tile.height, zero: 0)
        load(reference, test, tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        filterHorizontally(
            colorYCx, by: yCxWeights, into: filteredYCx, colorCz, by: czWeights, into: filteredCz,
            radius: FLIPMetric.spatialRadius, tile: tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        colorDifferences(tile)
        filterHorizontally(
            grey, by: derivativeWeights, into: derivatives, grey, by: gaussianWeights, into: smoothed,
            radius: FLIPMetric.featureRadius, tile: tile, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        finalErrors(tile, into: &tally)
    }

    /// The run and its margin in YCxCz and grey, both images side by side, coordinates clamped to
    /// the image.
    private func load(
        _ reference: RGBA8Image, _ test: RGBA8Image, _ tile: PixelRect, paddedWidth: Int, paddedHeight: Int
    ) {
        let oneOver116: Float = 1 / 116
        let sixteenOver116: Float = 16 / 116
        FLIPColor.linearTable.withUnsafeBufferPointer { table in
            func yCxCz(_ pixels: UnsafeBufferPointer<UInt8>, _ base: Int) -> SIMD3<Float> {
                FLIPColor.yCxCz(
                    linear: SIMD3(table[Int(pixels[base])], table[Int(pixels[base + 1])], table[Int(pixels[base + 2])]))
            }
            reference.pixels.withUnsafeBufferPointer { referencePixels in
                test.pixels.withUnsafeBufferPointer { testPixels in
                    for row in 0..<paddedHeight {
                        let y = min(max(tile.y - margin + row, 0), reference.height - 1)
                        for column in 0..<paddedWidth {
                            let x = min(max(tile.x - margin + column, 0), reference.width - 1)
                            let base = (y * reference.width + x) * 4
                            let (r, t) = (yCxCz(referencePixels, base), yCxCz(testPixels, base))
                            let index = row * paddedWidth + column
                            colorYCx.pointer[index] = SIMD4(r.x, r.y, t.x, t.y)
                            colorCz.pointer[index] = SIMD4(r.z, r.z, t.z, t.z)
                            let (referenceGrey, testGrey) = (
                                r.x * oneOver116 + sixteenOver116, t.x * oneOver116 + sixteenOver116
                            )
                            grey.pointer[index] = SIMD4(referenceGrey, referenceGrey, testGrey, testGrey)
                        }
                    }
                }
            }
        }
    }

    /// A horizontal pass: two padded buffers, each filtered along its rows by its own taps (a
    /// filter of `radius`) into a buffer of the run's width.
    private func filterHorizontally(
        _ first: ScratchBuffer<SIMD4<Float>>, by firstWeights: [SIMD4<Float>],
        into firstOutput: ScratchBuffer<SIMD4<Float>>,
        _ second: ScratchBuffer<SIMD4<Float>>, by secondWeights: [SIMD4<Float>],
        into secondOutput: ScratchBuffer<SIMD4<Float>>, radius: Int, tile: PixelRect, paddedWidth: Int,
        paddedHeight: Int
    ) {
        let offset = margin - radius
        let width = tile.width
        firstWeights.withUnsafeBufferPointer { firstWeights in
            secondWeights.withUnsafeBufferPointer { secondWeights in
                for row in 0..<paddedHeight {
                    for column in stride(from: 0, to: width, by: 4) {
                        let (firstSum, secondSum) = Self.filterFour(
                            first.pointer, by: firstWeights, and: second.pointer, by: secondWeights,
                            from: row * paddedWidth + offset + column, stride: 1)
                        Self.store(firstSum, at: firstOutput.pointer + row * width + column)
                        Self.store(secondSum, at: secondOutput.pointer + row * width + column)
                    }
                }
            }
        }
    }

    /// The vertical colour pass, clamped to linear RGB 0…1, then HyAB in Hunt-adjusted L*a*b*.
    private func colorDifferences(_ tile: PixelRect) {
        let offset = margin - FLIPMetric.spatialRadius
        let width = tile.width
        yCxWeights.withUnsafeBufferPointer { yCxWeights in
            czWeights.withUnsafeBufferPointer { czWeights in
                for row in 0..<tile.height {
                    for column in stride(from: 0, to: width, by: 4)
                    where near.any(x: tile.x + column, y: tile.y + row, count: min(4, width - column)) {
                        let (yCx, cz) = Self.filterFour(
                            filteredYCx.pointer, by: yCxWeights, and: filteredCz.pointer, by: czWeights,
                            from: (row + offset) * width + column, stride: width)
                        for lane in 0..<min(4, width - column) {
                            colorDifference.pointer[row * width + column + lane] = colorError(
                                yCx.pixel(lane), cz.pixel(lane))
                        }
                    }
                }
            }
        }
    }

    /// The colour error of a pixel from its filtered Y, Cx and both Cz, reference then test.
    @inline(__always)
    private func colorError(_ yCx: SIMD4<Float>, _ cz: SIMD4<Float>) -> Float {
        // The same filtered colour, to the bit, converts to the same L*a*b*: HyAB is then exactly
        // 0, and so is its error (most pixels near a difference).
        if Self.sameBits(yCx, cz) { return sameColorError }
        let ref = Self.huntLab(SIMD3(yCx[0], yCx[1], cz[0] + cz[1]))
        let tst = Self.huntLab(SIMD3(yCx[2], yCx[3], cz[2] + cz[3]))
        return filters.remap(pow(FLIPColor.hyab(ref, tst), FLIPMetric.colorExponent))
    }

    /// Four neighbouring outputs of two buffers, each filtered by its own taps, `stride` apart
    /// from `start` (1 along a row, the width down a column). Each lane sums its taps from 0 in
    /// tap order, the reference's sum in its order; the four pixels make independent chains of
    /// additions, which keeps the pipeline busy where one pixel alone would wait on each add.
    @inline(__always)
    private static func filterFour(
        _ first: UnsafeMutablePointer<SIMD4<Float>>, by firstWeights: UnsafeBufferPointer<SIMD4<Float>>,
        and second: UnsafeMutablePointer<SIMD4<Float>>, by secondWeights: UnsafeBufferPointer<SIMD4<Float>>,
        from start: Int, stride: Int
    ) -> (SIMD16<Float>, SIMD16<Float>) {
        var (first0, first1, first2, first3) = (
            SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero
        )
        var (second0, second1, second2, second3) = (first0, first1, first2, first3)
        for tap in 0..<firstWeights.count {
            let (index, weight, otherWeight) = (start + tap * stride, firstWeights[tap], secondWeights[tap])
            first0 += weight * first[index]
            first1 += weight * first[index + 1]
            first2 += weight * first[index + 2]
            first3 += weight * first[index + 3]
            second0 += otherWeight * second[index]
            second1 += otherWeight * second[index + 1]
            second2 += otherWeight * second[index + 2]
            second3 += otherWeight * second[index + 3]
        }
        return (
            SIMD16(
                lowHalf: SIMD8(lowHalf: first0, highHalf: first1), highHalf: SIMD8(lowHalf: first2, highHalf: first3)),
            SIMD16(
                lowHalf: SIMD8(lowHalf: second0, highHalf: second1),
                highHalf: SIMD8(lowHalf: second2, highHalf: second3))
        )
    }

    @inline(__always)
    private static func store(_ four: SIMD16<Float>, at pointer: UnsafeMutablePointer<SIMD4<Float>>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: four, as: SIMD16<Float>.self)
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

    /// The vertical feature pass, the edge and point difference, and error = colour^(1 − feature).
    private func finalErrors(_ tile: PixelRect, into tally: inout Tally) {
        let offset = margin - FLIPMetric.featureRadius
        let width = tile.width
        let start = tally.sum
        tally.sum = derivativeWeights.withUnsafeBufferPointer { derivativeWeights in
            gaussianWeights.withUnsafeBufferPointer { gaussianWeights in
                tally.histogram.withUnsafeMutableBufferPointer { histogram in
                    // A local of the closure, so that the sum stays in a register.
                    var sum = start
                    for row in 0..<tile.height {
                        for column in stride(from: 0, to: width, by: 4) {
                            let lanes = min(4, width - column)
                            guard near.any(x: tile.x + column, y: tile.y + row, count: lanes) else {
                                histogram[0] += lanes
                                continue
                            }
                            // Lanes: x-derivatives (first, second), then y-derivatives, reference then test.
                            let (alongX, alongY) = Self.filterFour(
                                derivatives.pointer, by: gaussianWeights, and: smoothed.pointer, by: derivativeWeights,
                                from: (row + offset) * width + column, stride: width)
                            for lane in 0..<lanes {
                                let color = colorDifference.pointer[row * width + column + lane]
                                let error = Self.error(color: color, alongX.pixel(lane), alongY.pixel(lane))
                                sum += Double(error)
                                histogram[min(histogram.count - 1, Int(error * Float(histogram.count)))] += 1
                            }
                        }
                    }
                    return sum
                }
            }
        }
    }

    /// A pixel's error from its colour error and its filtered derivatives.
    @inline(__always)
    private static func error(color: Float, _ alongX: SIMD4<Float>, _ alongY: SIMD4<Float>) -> Float {
        let normalization: Float = 1 / Float(2).squareRoot()
        let edgeReference = (alongX[0] * alongX[0] + alongY[0] * alongY[0]).squareRoot()
        let edgeTest = (alongX[2] * alongX[2] + alongY[2] * alongY[2]).squareRoot()
        let pointReference = (alongX[1] * alongX[1] + alongY[1] * alongY[1]).squareRoot()
        let pointTest = (alongX[3] * alongX[3] + alongY[3] * alongY[3]).squareRoot()
        let featureDifference = normalization * max(abs(edgeReference - edgeTest), abs(pointReference - pointTest))
        // 0 to any power over 0 is 0: under 1 the feature (its square root) stays under 1, so
        // both powers can be skipped, to the same bits.
        if color.bitPattern == 0, featureDifference < 1 { return 0 }
        // LDR-FLIP raises the feature difference to ½: a square root, within rounding of powf.
        let feature = featureDifference.squareRoot()
        return pow(color, 1 - feature)
    }
}

extension SIMD16 {
    /// Lanes 4·`index` …: pixel `index` of four neighbouring pixels' SIMD4s side by side (the
    /// windowed metrics' passes compute four outputs at once).
    @inline(__always)
    func pixel(_ index: Int) -> SIMD4<Scalar> {
        switch index {
        case 0: lowHalf.lowHalf
        case 1: lowHalf.highHalf
        case 2: highHalf.lowHalf
        default: highHalf.highHalf
        }
    }
}
