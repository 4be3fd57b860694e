import Foundation
import LensModel

/// Mean structural similarity (Wang et al. 2004) as scikit-image's `structural_similarity`
/// computes it with `gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
/// data_range=255`: per RGB channel, local statistics under an 11-tap Gaussian window (σ 1.5,
/// truncated at 3.5σ), K1 0.01, K2 0.03, averaged over the pixels at least 5 from the border (the
/// window's radius), then over the channels. Alpha is not compared.
enum SSIMMetric {
    static let radius = 5
    static let weights: [Double] = {
        let sigma = 1.5
        let raw = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }()
    static let c1 = (0.01 * 255) * (0.01 * 255)
    static let c2 = (0.03 * 255) * (0.03 * 255)

    /// The mean SSIM over RGB; nil when an image side is under the 11-pixel window.
    static func similarity(_ actual: RGBA8Image, _ expected: RGBA8Image, mask: DifferenceMask) -> Double? {
        let interior = PixelRect(
            x: radius, y: radius, width: actual.width - 2 * radius, height: actual.height - 2 * radius)
        guard interior.width > 0, interior.height > 0 else { return nil }
        var sums = SIMD3<Double>(repeating: 0)
        var computed = 0
        var workspace = Workspace()
        for tile in mask.tiles(reach: radius, bounds: interior) {
            for channel in 0..<3 {
                sums[channel] += workspace.sum(tile, channel: channel, actual, expected)
            }
            computed += tile.width * tile.height
        }
        // Outside the tiles both windows are identical, where SSIM is exactly 1.
        let count = Double(interior.width * interior.height)
        let perChannel = (sums + SIMD3(repeating: count - Double(computed))) / count
        return (perChannel.x + perChannel.y + perChannel.z) / 3
    }

    /// Buffers for one run of tiles, reused run after run (fresh megabyte arrays would cost a
    /// page fault per page). The five quantities of a pixel sit in one SIMD8, so each filter tap
    /// is one vector multiply-add; both passes run tap by tap across a row, reading memory in order.
    private struct Workspace {
        /// x, y, x², y², x·y for one channel over the run and the window's margin.
        var products: [SIMD8<Double>] = []
        /// The same after the horizontal pass, over the run's columns.
        var rows: [SIMD8<Double>] = []
        /// The vertical pass's running sums for one row.
        var sums: [SIMD8<Double>] = []

        /// The sum of the SSIM map over `tile` for one channel; the window stays inside the image.
        mutating func sum(_ tile: PixelRect, channel: Int, _ actual: RGBA8Image, _ expected: RGBA8Image) -> Double {
            let radius = SSIMMetric.radius
            let width = tile.width
            let bandWidth = width + 2 * radius
            let bandHeight = tile.height + 2 * radius
            Self.clear(&products, bandWidth * bandHeight)
            Self.clear(&rows, width * bandHeight)
            Self.clear(&sums, width)
            var total = 0.0
            actual.pixels.withUnsafeBufferPointer { x in
                expected.pixels.withUnsafeBufferPointer { y in
                    products.withUnsafeMutableBufferPointer { products in
                        for band in 0..<bandHeight {
                            let start = ((tile.y - radius + band) * actual.width + tile.x - radius) * 4 + channel
                            for column in 0..<bandWidth {
                                let a = Double(x[start + column * 4])
                                let b = Double(y[start + column * 4])
                                products[band * bandWidth + column] = SIMD8(a, b, a * a, b * b, a * b, 0, 0, 0)
                            }
                        }
                    }
                }
            }
            SSIMMetric.weights.withUnsafeBufferPointer { weights in
                products.withUnsafeBufferPointer { products in
                    rows.withUnsafeMutableBufferPointer { rows in
                        for band in 0..<bandHeight {
                            for tap in 0..<weights.count {
                                let (input, output) = (band * bandWidth + tap, band * width)
                                for column in 0..<width {
                                    rows[output + column] += weights[tap] * products[input + column]
                                }
                            }
                        }
                    }
                }
                rows.withUnsafeBufferPointer { rows in
                    sums.withUnsafeMutableBufferPointer { sums in
                        for row in 0..<tile.height {
                            sums.update(repeating: .zero)
                            for tap in 0..<weights.count {
                                let input = (row + tap) * width
                                for column in 0..<width { sums[column] += weights[tap] * rows[input + column] }
                            }
                            for column in 0..<width { total += Self.similarity(sums[column]) }
                        }
                    }
                }
            }
            return total
        }

        /// Makes `buffer` `count` zeros, keeping its storage when the size is unchanged.
        private static func clear(_ buffer: inout [SIMD8<Double>], _ count: Int) {
            if buffer.count == count {
                buffer.withUnsafeMutableBufferPointer { $0.update(repeating: .zero) }
            } else {
                buffer = [SIMD8<Double>](repeating: .zero, count: count)
            }
        }

        /// SSIM from the Gaussian-weighted x, y, x², y², x·y of a window.
        private static func similarity(_ filtered: SIMD8<Double>) -> Double {
            let (ux, uy, uxx, uyy, uxy) = (filtered[0], filtered[1], filtered[2], filtered[3], filtered[4])
            let vx = uxx - ux * ux
            let vy = uyy - uy * uy
            let vxy = uxy - ux * uy
            let numerator = (2 * ux * uy + SSIMMetric.c1) * (2 * vxy + SSIMMetric.c2)
            let denominator = (ux * ux + uy * uy + SSIMMetric.c1) * (vx + vy + SSIMMetric.c2)
            return numerator / denominator
        }
    }
}
