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
    /// ``weights`` where the filter passes read them without checks: one table for the process,
    /// never written after it is made (so shared freely).
    nonisolated(unsafe) static let weightTable: UnsafeBufferPointer<Double> = {
        let table = UnsafeMutableBufferPointer<Double>.allocate(capacity: weights.count)
        _ = table.initialize(from: weights)
        return UnsafeBufferPointer(table)
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
        let near = mask.nearness(reach: radius)
        for tile in mask.tiles(reach: radius, bounds: interior) {
            for channel in 0..<3 {
                sums[channel] += workspace.sum(tile, channel: channel, actual, expected, near: near)
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
    /// beside it. Each output of a pass sums its 11 taps in registers and is written once; four
    /// neighbouring outputs are summed side by side, each lane the same arithmetic as alone, so
    /// the additions run as independent chains.
    private struct Workspace {
        /// x, y, x², y² and x·y for one channel over the run and the window's margin.
        var products = Quantities()
        /// The same after the horizontal pass, over the run's columns.
        var rows = Quantities()

        /// A pixel's x, y, x², y² (`squares`) and x·y (`cross`), in two arrays.
        struct Quantities {
            var squares: [SIMD4<Double>] = []
            var cross: [Double] = []

            /// Room for `count` pixels, and for the three past the end that four outputs at a
            /// time read and write; every pass writes each pixel before it is read.
            mutating func reserve(_ count: Int) {
                guard squares.count < count + 3 else { return }
                squares = [SIMD4<Double>](repeating: .zero, count: count + 3)
                cross = [Double](repeating: 0, count: count + 3)
            }
        }

        /// The sum of the SSIM map over `tile` for one channel; the window stays inside the image.
        mutating func sum(
            _ tile: PixelRect, channel: Int, _ actual: RGBA8Image, _ expected: RGBA8Image, near: Nearness
        ) -> Double {
            let radius = SSIMMetric.radius
            let bandWidth = tile.width + 2 * radius
            let bandHeight = tile.height + 2 * radius
            products.reserve(bandWidth * bandHeight)
            rows.reserve(tile.width * bandHeight)
            fillProducts(tile, channel: channel, actual, expected)
            filterRows(tile)
            return filterColumnsAndSum(tile, near: near)
        }

        /// x, y and their products for the tile and the window's margin.
        private mutating func fillProducts(
            _ tile: PixelRect, channel: Int, _ actual: RGBA8Image, _ expected: RGBA8Image
        ) {
            let radius = SSIMMetric.radius
            let bandWidth = tile.width + 2 * radius
            actual.pixels.withUnsafeBufferPointer { x in
                expected.pixels.withUnsafeBufferPointer { y in
                    products.squares.withUnsafeMutableBufferPointer { squares in
                        products.cross.withUnsafeMutableBufferPointer { cross in
                            for band in 0..<tile.height + 2 * radius {
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
        }

        /// The horizontal pass, over every row of the band.
        private mutating func filterRows(_ tile: PixelRect) {
            let bandWidth = tile.width + 2 * SSIMMetric.radius
            let width = tile.width
            let weights = SSIMMetric.weightTable
            products.squares.withUnsafeBufferPointer { squares in
                products.cross.withUnsafeBufferPointer { cross in
                    rows.squares.withUnsafeMutableBufferPointer { rowSquares in
                        rows.cross.withUnsafeMutableBufferPointer { rowCross in
                            for band in 0..<tile.height + 2 * SSIMMetric.radius {
                                for column in stride(from: 0, to: width, by: 4) {
                                    let (filtered, filteredCross) = Self.filterFour(
                                        squares, cross, by: weights, from: band * bandWidth + column, stride: 1)
                                    let output = band * width + column
                                    UnsafeMutableRawPointer(rowSquares.baseAddress! + output).storeBytes(
                                        of: filtered, as: SIMD16<Double>.self)
                                    UnsafeMutableRawPointer(rowCross.baseAddress! + output).storeBytes(
                                        of: filteredCross, as: SIMD4<Double>.self)
                                }
                            }
                        }
                    }
                }
            }
        }

        /// The vertical pass and the SSIM of each pixel, summed in raster order; pixels whose window
        /// holds no difference (four at a time) are exactly 1 without the pass.
        private func filterColumnsAndSum(_ tile: PixelRect, near: Nearness) -> Double {
            let width = tile.width
            let weights = SSIMMetric.weightTable
            return rows.squares.withUnsafeBufferPointer { rowSquares in
                rows.cross.withUnsafeBufferPointer { rowCross in
                    // A local of the closure, so that the sum stays in a register.
                    var total = 0.0
                    for row in 0..<tile.height {
                        for column in stride(from: 0, to: width, by: 4) {
                            let lanes = min(4, width - column)
                            guard near.any(x: tile.x + column, y: tile.y + row, count: lanes) else {
                                for _ in 0..<lanes { total += 1 }
                                continue
                            }
                            let (filtered, filteredCross) = Self.filterFour(
                                rowSquares, rowCross, by: weights, from: row * width + column, stride: width)
                            for lane in 0..<lanes {
                                total += Self.similarity(filtered, filteredCross, lane: lane)
                            }
                        }
                    }
                    return total
                }
            }
        }

        /// Four neighbouring outputs of a pass, `stride` apart from `start` (1 along a row, the
        /// width down a column): x, y, x², y² of the four pixels, then their x·y.
        @inline(__always)
        private static func filterFour(
            _ squares: UnsafeBufferPointer<SIMD4<Double>>, _ cross: UnsafeBufferPointer<Double>,
            by weights: UnsafeBufferPointer<Double>, from start: Int, stride: Int
        ) -> (SIMD16<Double>, SIMD4<Double>) {
            func squaresAt(_ index: Int) -> SIMD16<Double> {
                UnsafeRawPointer(squares.baseAddress! + index).loadUnaligned(as: SIMD16<Double>.self)
            }
            func crossAt(_ index: Int) -> SIMD4<Double> {
                UnsafeRawPointer(cross.baseAddress! + index).loadUnaligned(as: SIMD4<Double>.self)
            }
            var filtered = SIMD16<Double>.zero
            var filteredCross = SIMD4<Double>.zero
            // The window is symmetric (tap k weighs as tap 10 − k, to the bit): each weight
            // multiplies the sum of its two taps, outermost first, then the centre.
            let radius = SSIMMetric.radius
            for tap in 0..<radius {
                let (outer, mirrored) = (start + tap * stride, start + (2 * radius - tap) * stride)
                filtered += weights[tap] * (squaresAt(outer) + squaresAt(mirrored))
                filteredCross += weights[tap] * (crossAt(outer) + crossAt(mirrored))
            }
            filtered += weights[radius] * squaresAt(start + radius * stride)
            filteredCross += weights[radius] * crossAt(start + radius * stride)
            return (filtered, filteredCross)
        }

        /// SSIM of pixel `lane` of four, from their Gaussian-weighted x, y, x², y² and x·y.
        @inline(__always)
        private static func similarity(_ filtered: SIMD16<Double>, _ cross: SIMD4<Double>, lane: Int) -> Double {
            let pixel = filtered.pixel(lane)
            let (ux, uy, uxx, uyy) = (pixel[0], pixel[1], pixel[2], pixel[3])
            let uxy = cross[lane]
            let vx = uxx - ux * ux
            let vy = uyy - uy * uy
            let vxy = uxy - ux * uy
            let numerator = (2 * ux * uy + SSIMMetric.c1) * (2 * vxy + SSIMMetric.c2)
            let denominator = (ux * ux + uy * uy + SSIMMetric.c1) * (vx + vy + SSIMMetric.c2)
            return numerator / denominator
        }
    }
}
