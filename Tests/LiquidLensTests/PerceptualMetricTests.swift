import Foundation
import LiquidLens
import Testing

@testable import LensCompare

/// Image pairs with known kinds of difference, built from a rendered frame.
enum MetricPairs {
    /// The showcase on the CPU reference: edges, glyphs, gradients and glass.
    static let base: RGBA8Image = ReferenceRendererCache.showcase

    /// `image` with `change` applied to the RGB of every pixel in `rows` × `columns`.
    static func edited(
        _ image: RGBA8Image, rows: Range<Int>, columns: Range<Int>, _ change: (Int, Int, inout SIMD3<Int>) -> Void
    ) -> RGBA8Image {
        var edited = image
        for y in rows {
            for x in columns {
                let base = (y * image.width + x) * 4
                var rgb = SIMD3(Int(image.pixels[base]), Int(image.pixels[base + 1]), Int(image.pixels[base + 2]))
                change(x, y, &rgb)
                for channel in 0..<3 { edited.pixels[base + channel] = UInt8(clamping: rgb[channel]) }
            }
        }
        return edited
    }

    /// Named (actual, expected) pairs: a noise patch, the frame shifted by 2 px, a red cast, a
    /// dark blotch with a soft edge, the blotch and the noise cut off by the right edge of crops
    /// 203 and 197 wide (so that the metrics' runs of four neighbouring pixels end part-way inside
    /// the difference; the noise covers under a quarter of its crop, so the metrics skip pixels
    /// no difference reaches), and a single changed pixel.
    static var synthetic: [(name: String, actual: RGBA8Image, expected: RGBA8Image)] {
        var generator = SystemRandomNumberGenerator.seeded(7)
        let noise = edited(base, rows: 100..<160, columns: 200..<300) { _, _, rgb in
            rgb &+= SIMD3(Int.random(in: -30...30, using: &generator), Int.random(in: -30...30, using: &generator), 0)
        }
        let shifted = edited(base, rows: 0..<base.height, columns: 2..<base.width) { x, y, rgb in
            let source = (y * base.width + x - 2) * 4
            rgb = SIMD3(Int(base.pixels[source]), Int(base.pixels[source + 1]), Int(base.pixels[source + 2]))
        }
        let redCast = edited(base, rows: 0..<base.height, columns: 0..<base.width) { _, _, rgb in rgb.x += 12 }
        let blotch = edited(base, rows: 20..<120, columns: 500..<640) { x, y, rgb in
            let distance = (Double((x - 570) * (x - 570) + (y - 70) * (y - 70))).squareRoot()
            rgb = rgb &* Int(max(0, min(100, distance * 2))) / 100
        }
        let onePixel = edited(base, rows: 50..<51, columns: 50..<51) { _, _, rgb in rgb = SIMD3(255, 0, 255) }
        return [
            ("noise", noise, base), ("shift", shifted, base), ("red-cast", redCast, base), ("blotch", blotch, base),
            (
                "blotch-cropped", blotch.cropped(x: 420..<623, y: 10..<107),
                base.cropped(x: 420..<623, y: 10..<107)
            ),
            ("noise-cropped", noise.cropped(x: 100..<297, y: 0..<240), base.cropped(x: 100..<297, y: 0..<240)),
            ("one-pixel", onePixel, base),
        ]
    }
}

/// Renders once per test process.
enum ReferenceRendererCache {
    static let showcase: RGBA8Image = {
        let parameters = try! LensRenderer.resolve(BuiltInScene.segmented.scene())
        return try! render(parameters, on: .cpu)
    }()
}

extension SystemRandomNumberGenerator {
    /// A deterministic generator for test data (splitmix64), whatever the name says.
    static func seeded(_ seed: UInt64) -> SeededGenerator { SeededGenerator(state: seed) }
}

/// splitmix64: reproducible pseudo-random numbers for test images.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Perceptual metrics")
struct PerceptualMetricTests {
    @Test("Identical images: SSIM 1, ΔE 0, no pixelmatch pixels, FLIP 0 with every pixel in the first bucket")
    func identical() throws {
        let diff = try ImageDiff(MetricPairs.base, MetricPairs.base)
        #expect(diff.ssim == 1)
        #expect(diff.deltaE == ColorDifference(mean: 0, percentile99: 0))
        #expect(diff.pixelmatch.differentPixels == 0 && diff.pixelmatch.antialiasedPixels == 0)
        #expect(diff.flip.mean == 0)
        #expect(diff.flip.histogram[0] == diff.pixelCount && diff.flip.histogram.count == FLIPError.bucketCount)
    }

    @Test("Computing SSIM and FLIP only near differing pixels gives exactly the whole-frame result")
    func localComputationIsExact() throws {
        for pair in MetricPairs.synthetic where pair.name != "red-cast" {
            let mask = DifferenceMask(pair.actual, pair.expected)
            let everywhere = DifferenceMask(pair.actual, pair.expected, everywhere: true)
            func area(_ mask: DifferenceMask) -> Int {
                mask.tiles(
                    reach: FLIPMetric.reach, bounds: PixelRect(x: 0, y: 0, width: mask.width, height: mask.height)
                )
                .reduce(0) { $0 + $1.width * $1.height }
            }
            #expect(area(everywhere) == mask.width * mask.height)
            #expect(area(mask) < area(everywhere) || pair.name == "shift", "\(pair.name) computes less than the frame")
            let localSSIM = try #require(SSIMMetric.similarity(pair.actual, pair.expected, mask: mask))
            let wholeSSIM = try #require(SSIMMetric.similarity(pair.actual, pair.expected, mask: everywhere))
            #expect(abs(localSSIM - wholeSSIM) < 1e-12, "\(pair.name)")
            let local = FLIPMetric.error(test: pair.actual, reference: pair.expected, mask: mask)
            let whole = FLIPMetric.error(test: pair.actual, reference: pair.expected, mask: everywhere)
            #expect(local.histogram == whole.histogram, "\(pair.name)")
            #expect(abs(local.mean - whole.mean) < 1e-12, "\(pair.name)")
        }
    }

    @Test("Nearness marks exactly the pixels within reach of a difference, across words and edges")
    func nearness() {
        let (width, height, reach) = (150, 40, 3)
        let differing = [(0, 0), (63, 20), (64, 5), (149, 39), (100, 12)]
        let expected = RGBA8Image(
            width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
        var actual = expected
        for (x, y) in differing { actual.pixels[(y * width + x) * 4] = 9 }
        let near = DifferenceMask(actual, expected).nearness(reach: reach)
        for y in 0..<height {
            for x in 0..<width {
                let within = differing.contains { abs($0.0 - x) <= reach && abs($0.1 - y) <= reach }
                #expect(near.any(x: x, y: y, count: 1) == within, "(\(x), \(y))")
            }
        }
        #expect(near.any(x: 60, y: 20, count: 4) && !near.any(x: 56, y: 20, count: 4))
        let everywhere = DifferenceMask(actual, expected, everywhere: true).nearness(reach: reach)
        #expect(everywhere.any(x: 120, y: 30, count: 1))
    }

    @Test("CIEDE2000 matches Sharma, Wu and Dalal's published test pairs to 1e-4")
    func sharmaData() {
        // (L1, a1, b1, L2, a2, b2, ΔE00) from the paper's Table 1.
        let rows: [[Double]] = [
            [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
            [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
            [50, -1.3802, -84.2814, 50, 0, -82.7485, 1.0000],
            [50, 0, 0, 50, -1, 2, 2.3669],
            [50, 2.49, -0.001, 50, -2.49, 0.0011, 7.2195],
            [50, 2.5, 0, 73, 25, -18, 27.1492],
            [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
            [22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373],
            [2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082],
        ]
        for row in rows {
            let value = CIEDE2000.deltaE(SIMD3(row[0], row[1], row[2]), SIMD3(row[3], row[4], row[5]))
            #expect(abs(value - row[6]) < 1e-4, "\(row)")
        }
    }

    @Test("The 99th percentile interpolates between order statistics, zeros included, as NumPy does")
    func percentile() {
        // numpy.percentile([0]*7 + [1, 2, 3], 99) = 2.91
        #expect(abs(CIEDE2000.percentile(0.99, of: [3, 1, 2], zeros: 7) - 2.91) < 1e-12)
        #expect(CIEDE2000.percentile(0.99, of: [], zeros: 10) == 0)
        #expect(CIEDE2000.percentile(0.5, of: [4], zeros: 0) == 4)
    }

    @Test("Percentiles by selection equal those of a sorted list: duplicates, zeros, every quantile")
    func percentileBySelection() {
        var generator = SystemRandomNumberGenerator.seeded(5)
        for trial in 0..<300 {
            let count = Int.random(in: 0...40, using: &generator)
            // Few distinct values in some trials, so that ties meet the pivot.
            let distinct = trial % 3 == 0 ? 3 : 1000
            let values = (0..<count).map { _ in Double(Int.random(in: 1...distinct, using: &generator)) / 7 }
            let zeros = Int.random(in: 0...5, using: &generator)
            let sorted = values.sorted()
            let total = count + zeros
            for q in [0, 0.25, 0.5, 0.9, 0.99, 1] where total > 0 {
                let position = q * Double(total - 1)
                let lower = Int(position.rounded(.down))
                let upper = min(total - 1, lower + 1)
                func value(_ rank: Int) -> Double { rank < zeros ? 0 : sorted[rank - zeros] }
                let expected = value(lower) + (value(upper) - value(lower)) * (position - Double(lower))
                #expect(
                    CIEDE2000.percentile(q, of: values, zeros: zeros) == expected, "\(values), \(zeros) zeros, q \(q)")
            }
        }
    }

    @Test("pixelmatch: an anti-aliased edge moved by a pixel is anti-aliasing, a filled block is a difference")
    func pixelmatchAntialiasing() throws {
        // A dark square with a one-pixel grey ramp on its left edge, over white.
        func square(left: Int) -> RGBA8Image {
            var pixels = [UInt8](repeating: 255, count: 32 * 32 * 4)
            for y in 8..<24 {
                for x in left..<left + 12 {
                    let level: UInt8 = x == left ? 128 : 0
                    for channel in 0..<3 { pixels[(y * 32 + x) * 4 + channel] = level }
                }
            }
            return RGBA8Image(width: 32, height: 32, pixels: pixels)
        }
        let moved = try ImageDiff(square(left: 9), square(left: 8))
        #expect(moved.pixelmatch.antialiasedPixels > 0)
        var filled = square(left: 8)
        for y in 2..<6 { for x in 2..<6 { for channel in 0..<3 { filled.pixels[(y * 32 + x) * 4 + channel] = 0 } } }
        let block = try ImageDiff(filled, square(left: 8))
        #expect(block.pixelmatch.differentPixels == 16 && block.pixelmatch.antialiasedPixels == 0)
    }
}
