import Foundation
import LensIO
import LensModel

/// How two images of the same size differ, per channel (R, G, B, A) in 8-bit levels.
public struct ImageDiff: Sendable {
    /// Width of both images, in pixels.
    public let width: Int
    /// Height of both images, in pixels.
    public let height: Int
    /// Largest difference per channel, in 8-bit levels.
    public let maxError: SIMD4<Int>
    /// Mean absolute difference per channel, in 8-bit levels.
    public let meanError: SIMD4<Double>
    /// Peak signal-to-noise ratio over RGB in dB; infinite for identical images.
    public let psnr: Double
    /// Pixels with any channel differing by more than `threshold`.
    public let pixelsOverThreshold: Int
    /// Levels a channel may differ by before its pixel counts as over the threshold.
    public let threshold: Int
    /// Pixels with all four channels equal.
    public let identicalPixels: Int

    /// Pixels compared.
    public var pixelCount: Int { width * height }
    /// Share of pixels with all four channels equal, 0…1.
    public var identicalFraction: Double { Double(identicalPixels) / Double(max(1, pixelCount)) }

    /// Mean structural similarity over RGB (Wang et al.'s Gaussian-window SSIM, as scikit-image
    /// computes it): 1 for identical images; nil when a side is under the 11-pixel window.
    public let ssim: Double?
    /// CIEDE2000 colour difference: mean and 99th percentile over every pixel.
    public let deltaE: ColorDifference
    /// Visibly differing and anti-aliased pixels, as pixelmatch counts them.
    public let pixelmatch: PixelmatchCount
    /// The FLIP error: mean and histogram.
    public let flip: FLIPError

    /// Compares `actual` with `expected`; throws when their sizes differ. `threshold` (levels) sets
    /// ``pixelsOverThreshold``; `pixelmatchThreshold` (0…1) sets what ``pixelmatch`` counts.
    ///
    /// The windowed metrics (SSIM, FLIP) are computed only near differing pixels (elsewhere they
    /// are exactly 1 and 0), so comparing near-identical frames costs little.
    public init(_ actual: RGBA8Image, _ expected: RGBA8Image, threshold: Int = 1, pixelmatchThreshold: Double = 0.1)
        throws
    {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw ImageFileError(
                description:
                    "images differ in size: \(actual.width)×\(actual.height) vs \(expected.width)×\(expected.height)")
        }
        width = actual.width
        height = actual.height
        self.threshold = threshold
        let mask = DifferenceMask(actual, expected)
        var maxError = SIMD4<Int>(repeating: 0)
        var sums = SIMD4<Int>(repeating: 0)
        var squaredRGB = 0
        var over = 0
        for index in mask.differingPixels {
            let base = Int(index) * 4
            var pixelMax = 0
            for channel in 0..<4 {
                let difference = abs(Int(actual.pixels[base + channel]) - Int(expected.pixels[base + channel]))
                maxError[channel] = max(maxError[channel], difference)
                sums[channel] += difference
                if channel < 3 { squaredRGB += difference * difference }
                pixelMax = max(pixelMax, difference)
            }
            if pixelMax > threshold { over += 1 }
        }
        let count = Double(max(1, actual.width * actual.height))
        self.maxError = maxError
        meanError = SIMD4<Double>(sums) / count
        let mse = Double(squaredRGB) / (count * 3)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        pixelsOverThreshold = over
        identicalPixels = actual.width * actual.height - mask.differingPixels.count
        ssim = SSIMMetric.similarity(actual, expected, mask: mask)
        deltaE = CIEDE2000.difference(actual, expected, mask: mask)
        pixelmatch = Pixelmatch.count(actual, expected, mask: mask, threshold: pixelmatchThreshold)
        flip = FLIPMetric.error(test: actual, reference: expected, mask: mask)
    }

    /// A picture of where the images differ: the expected image dimmed to grey, differing pixels
    /// red (1 level) through yellow to white (16 levels or more).
    public static func heatmap(_ actual: RGBA8Image, _ expected: RGBA8Image) -> RGBA8Image {
        var pixels = [UInt8](repeating: 255, count: expected.pixels.count)
        for pixel in 0..<expected.width * expected.height {
            var difference = 0
            for channel in 0..<4 {
                difference = max(
                    difference, abs(Int(actual.pixels[pixel * 4 + channel]) - Int(expected.pixels[pixel * 4 + channel]))
                )
            }
            let base = pixel * 4
            if difference == 0 {
                let luma =
                    (Int(expected.pixels[base]) * 54 + Int(expected.pixels[base + 1]) * 183 + Int(
                        expected.pixels[base + 2]) * 19) >> 8
                let grey = UInt8(luma / 4)
                pixels[base] = grey
                pixels[base + 1] = grey
                pixels[base + 2] = grey
            } else {
                let t = min(1.0, Double(difference - 1) / 15)
                pixels[base] = 255
                pixels[base + 1] = UInt8(min(255, 255 * 2 * t))
                pixels[base + 2] = UInt8(max(0, 255 * (2 * t - 1)))
            }
        }
        return RGBA8Image(width: expected.width, height: expected.height, pixels: pixels)
    }

    /// The report `liquidlens diff` prints.
    public var report: String {
        func channels<T>(_ values: SIMD4<T>, _ format: (T) -> String) -> String {
            "R \(format(values[0]))  G \(format(values[1]))  B \(format(values[2]))  A \(format(values[3]))"
        }
        func percent(_ count: Int) -> String {
            String(format: "%.4f", 100 * Double(count) / Double(max(1, pixelCount)))
        }
        let psnrText = psnr.isInfinite ? "inf (identical)" : String(format: "%.2f dB", psnr)
        return """
            size:        \(width)×\(height)
            max error:   \(channels(maxError) { String($0) })
            mean error:  \(channels(meanError) { String(format: "%.4f", $0) })
            PSNR:        \(psnrText)
            over \(threshold)/255: \(pixelsOverThreshold) px (\(percent(pixelsOverThreshold))%)
            identical:   \(String(format: "%.4f", 100 * identicalFraction))%
            SSIM:        \(ssim.map { String(format: "%.6f", $0) } ?? "n/a (under 11 px)")
            ΔE2000:      mean \(String(format: "%.4f", deltaE.mean)), 99th percentile \(String(format: "%.4f", deltaE.percentile99))
            pixelmatch:  \(pixelmatch.differentPixels) px differ (\(percent(pixelmatch.differentPixels))%), \(pixelmatch.antialiasedPixels) anti-aliased (threshold \(pixelmatch.threshold.formatted))
            FLIP:        mean \(String(format: "%.6f", flip.mean))
            """
    }
}
