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
    /// page fault per page). Four of a pixel's five quantities sit in one SIMD4 and the fifth
    /// beside it, so each filter tap is one vector and one scalar multiply-add (each lane the same
    /// arithmetic as alone). Each output of a pass sums its 11 taps in registers, from 0 in tap
    /// order (the order of a per-pixel loop, as before), and is written once.
    private struct Workspace {
        /// x, y, x², y² and x·y for one channel over the run and the window's margin.
        var products = Quantities()
        /// The same after the horizontal pass, over the run's columns.
        var rows = Quantities()

        /// A pixel's x, y, x², y² (`squares`) and x·y (`cross`), in two arrays.
        struct Quantities {
            var squares: [SIMD4<Double>] = []
            var cross: [Double] = []

            /// Room for `count` pixels; every pass writes each of them before it is read.
            mutating func reserve(_ count: Int) {
                guard squares.count < count else { return }
                squares = [SIMD4<Double>](repeating: .zero, count: count)
                cross = [Double](repeating: 0, count: count)
            }
        }

        /// The sum of the SSIM map over `tile` for one channel; the window stays inside the image.
        // Over 60 lines on purpose: the diff's hot loop, its box sums in locals and in scratch
        // buffers it owns, which a split would pass around per row.
        mutating func sum(_ tile: PixelRect, channel: Int, _ actual: RGBA8Image, _ expected: RGBA8Image) -> Double {
            let radius = SSIMMetric.radius
            let width = tile.width
            let bandWidth = width + 2 * radius
            let bandHeight = tile.height + 2 * radius
            products.reserve(bandWidth * bandHeight)
            rows.reserve(width * bandHeight)
            actual.pixels.withUnsafeBufferPointer { x in
                expected.pixels.withUnsafeBufferPointer { y in
                    products.squares.withUnsafeMutableBufferPointer { squares in
                        products.cross.withUnsafeMutableBufferPointer { cross in
                            for band in 0..<bandHeight {
                                let start = ((tile.y - radius + band) * actual.width + tile.x - radius) * 4 + channel
                                for column in 0..<bandWidth {
                                    let a = Double(x[start + column * 4])
                                    let b = Double(y[start + column * 4])
                                    squares[band * bandWidth + column] = SIMD4(a, b, a * a, b * b)
                                    cross[band * bandWidth + column] = a * b
                                }
                            }
                        }
                    }
                }
            }
            var total = 0.0
            SSIMMetric.weights.withUnsafeBufferPointer { weights in
                products.squares.withUnsafeBufferPointer { squares in
                    products.cross.withUnsafeBufferPointer { cross in
                        rows.squares.withUnsafeMutableBufferPointer { rowSquares in
                            rows.cross.withUnsafeMutableBufferPointer { rowCross in
                                for band in 0..<bandHeight {
                                    for column in 0..<width {
                                        let input = band * bandWidth + column
                                        var filtered = SIMD4<Double>.zero
                                        var filteredCross = 0.0
                                        for tap in 0..<weights.count {
                                            filtered += weights[tap] * squares[input + tap]
                                            filteredCross += weights[tap] * cross[input + tap]
                                        }
                                        rowSquares[band * width + column] = filtered
                                        rowCross[band * width + column] = filteredCross
                                    }
                                }
                            }
                        }
                    }
                }
                rows.squares.withUnsafeBufferPointer { rowSquares in
                    rows.cross.withUnsafeBufferPointer { rowCross in
                        for row in 0..<tile.height {
                            for column in 0..<width {
                                var filtered = SIMD4<Double>.zero
                                var filteredCross = 0.0
                                for tap in 0..<weights.count {
                                    filtered += weights[tap] * rowSquares[(row + tap) * width + column]
                                    filteredCross += weights[tap] * rowCross[(row + tap) * width + column]
                                }
                                total += Self.similarity(filtered, filteredCross)
                            }
                        }
                    }
                }
            }
            return total
        }

        /// SSIM from the Gaussian-weighted x, y, x², y² and x·y of a window.
        private static func similarity(_ filtered: SIMD4<Double>, _ uxy: Double) -> Double {
            let (ux, uy, uxx, uyy) = (filtered[0], filtered[1], filtered[2], filtered[3])
            let vx = uxx - ux * ux
            let vy = uyy - uy * uy
            let vxy = uxy - ux * uy
            let numerator = (2 * ux * uy + SSIMMetric.c1) * (2 * vxy + SSIMMetric.c2)
            let denominator = (ux * ux + uy * uy + SSIMMetric.c1) * (vx + vy + SSIMMetric.c2)
            return numerator / denominator
        }
    }
}
