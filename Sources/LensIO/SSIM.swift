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

    /// Buffers for one tile's horizontal pass, reused tile after tile.
    private struct Workspace {
        /// Per pixel of the tile's columns and its rows plus the window: the five Gaussian-filtered
        /// quantities x, y, x², y², x·y.
        var rows: [SIMD8<Double>] = []

        /// The sum of the SSIM map over `tile` for one channel; the window stays inside the image.
        mutating func sum(_ tile: PixelRect, channel: Int, _ actual: RGBA8Image, _ expected: RGBA8Image) -> Double {
            let width = actual.width
            let bandHeight = tile.height + 2 * SSIMMetric.radius
            rows = [SIMD8<Double>](repeating: .zero, count: tile.width * bandHeight)
            let weights = SSIMMetric.weights
            actual.pixels.withUnsafeBufferPointer { x in
                expected.pixels.withUnsafeBufferPointer { y in
                    for band in 0..<bandHeight {
                        let row = tile.y - SSIMMetric.radius + band
                        for column in 0..<tile.width {
                            var filtered = SIMD8<Double>.zero
                            for tap in 0..<weights.count {
                                let index = (row * width + tile.x + column - SSIMMetric.radius + tap) * 4 + channel
                                let a = Double(x[index])
                                let b = Double(y[index])
                                filtered += weights[tap] * SIMD8(a, b, a * a, b * b, a * b, 0, 0, 0)
                            }
                            rows[band * tile.width + column] = filtered
                        }
                    }
                }
            }
            var total = 0.0
            for row in 0..<tile.height {
                for column in 0..<tile.width {
                    var filtered = SIMD8<Double>.zero
                    for tap in 0..<weights.count {
                        filtered += weights[tap] * rows[(row + tap) * tile.width + column]
                    }
                    let (ux, uy, uxx, uyy, uxy) = (filtered[0], filtered[1], filtered[2], filtered[3], filtered[4])
                    let vx = uxx - ux * ux
                    let vy = uyy - uy * uy
                    let vxy = uxy - ux * uy
                    let numerator = (2 * ux * uy + SSIMMetric.c1) * (2 * vxy + SSIMMetric.c2)
                    let denominator = (ux * ux + uy * uy + SSIMMetric.c1) * (vx + vy + SSIMMetric.c2)
                    total += numerator / denominator
                }
            }
            return total
        }
    }
}
