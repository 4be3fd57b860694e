import LensModel

/// A rectangle of pixels: columns `x..<x + width`, rows `y..<y + height`.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// Where two images of the same size differ: the index of every differing pixel and a coarse grid
/// of cells holding one. The windowed metrics (SSIM, FLIP) are exactly their "identical" value at
/// a pixel whose whole window is identical in both images, so they compute only the tiles within
/// a window's reach of a differing cell — a diff of near-identical frames then costs what differs,
/// not the frame.
struct DifferenceMask {
    /// Side of a cell of the coarse grid, in pixels.
    static let cellSize = 16
    /// Side of the tiles the windowed metrics compute, in pixels: large enough that the window
    /// margin around a tile is small against it.
    static let tileSize = 64
    /// The widest run of neighbouring tiles computed at once: wide enough to make the margin
    /// small, narrow enough that a run's buffers stay in cache.
    static let maxRunWidth = 512

    let width: Int
    let height: Int
    /// `y * width + x` of every pixel with any channel differing, in raster order.
    private(set) var differingPixels: [Int32] = []
    /// Whether every cell is marked (the metrics compute the whole frame).
    private let everywhere: Bool
    private let columns: Int
    private let rows: Int
    private var cells: [Bool]

    /// Scans both images (which must have the same size) a pixel word at a time; `everywhere`
    /// marks every cell, so the windowed metrics compute the whole frame (to check the shortcut).
    init(_ actual: RGBA8Image, _ expected: RGBA8Image, everywhere: Bool = false) {
        width = expected.width
        height = expected.height
        self.everywhere = everywhere
        columns = (width + Self.cellSize - 1) / Self.cellSize
        rows = (height + Self.cellSize - 1) / Self.cellSize
        cells = [Bool](repeating: everywhere, count: columns * rows)
        var differing: [Int32] = []
        let width = width
        actual.pixels.withUnsafeBytes { actualBytes in
            expected.pixels.withUnsafeBytes { expectedBytes in
                let a = actualBytes.bindMemory(to: UInt32.self)
                let e = expectedBytes.bindMemory(to: UInt32.self)
                for index in 0..<a.count where a[index] != e[index] {
                    differing.append(Int32(index))
                }
            }
        }
        for index in differing {
            let pixel = Int(index)
            cells[(pixel / width / Self.cellSize) * columns + (pixel % width) / Self.cellSize] = true
        }
        differingPixels = differing
    }

    /// The tiles (clipped to `bounds`) within `reach` pixels of a differing pixel, at cell
    /// precision; neighbours in a row are merged into runs up to ``maxRunWidth`` wide, so the
    /// filters' margin is paid once per run rather than once per tile.
    func tiles(reach: Int, bounds: PixelRect) -> [PixelRect] {
        guard bounds.width > 0, bounds.height > 0 else { return [] }
        var runs: [PixelRect] = []
        let size = Self.tileSize
        for tileY in stride(from: bounds.y, to: bounds.y + bounds.height, by: size) {
            let height = min(size, bounds.y + bounds.height - tileY)
            for tileX in stride(from: bounds.x, to: bounds.x + bounds.width, by: size) {
                let tile = PixelRect(
                    x: tileX, y: tileY, width: min(size, bounds.x + bounds.width - tileX), height: height)
                guard touchesDifference(tile, reach: reach) else { continue }
                if let last = runs.last, last.y == tileY, last.x + last.width == tileX,
                    last.width + tile.width <= Self.maxRunWidth
                {
                    runs[runs.count - 1].width += tile.width
                } else {
                    runs.append(tile)
                }
            }
        }
        return runs
    }

    private func touchesDifference(_ tile: PixelRect, reach: Int) -> Bool {
        let firstColumn = max(0, tile.x - reach) / Self.cellSize
        let lastColumn = min(width - 1, tile.x + tile.width - 1 + reach) / Self.cellSize
        let firstRow = max(0, tile.y - reach) / Self.cellSize
        let lastRow = min(height - 1, tile.y + tile.height - 1 + reach) / Self.cellSize
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn where cells[row * columns + column] { return true }
        }
        return false
    }

    /// The pixels within `reach` of a differing pixel (every pixel, for a mask marked everywhere):
    /// a windowed metric of that reach computes these and knows the rest exactly.
    func nearness(reach: Int) -> Nearness {
        // Where a quarter of the frame differs, the map would save little beyond the tiles:
        // marking it all costs nothing and changes no result (a far pixel computes to the same
        // exact value it is given).
        let mostly = differingPixels.count >= width * height / 4
        var near = Nearness(width: width, height: height, everywhere: everywhere || mostly)
        guard !everywhere, !mostly else { return near }
        for index in differingPixels {
            let pixel = Int(index)
            near.mark(x: pixel % width, y: pixel / width)
        }
        near.dilate(by: reach)
        return near
    }
}

/// A bit per pixel, a row at a time in 64-bit words: which pixels lie near a difference.
struct Nearness {
    private let width: Int
    private let height: Int
    private let wordsPerRow: Int
    private var words: [UInt64]

    fileprivate init(width: Int, height: Int, everywhere: Bool) {
        self.width = width
        self.height = height
        wordsPerRow = (width + 63) / 64
        words = [UInt64](repeating: everywhere ? .max : 0, count: wordsPerRow * height)
    }

    fileprivate mutating func mark(x: Int, y: Int) { words[y * wordsPerRow + x / 64] |= 1 << UInt64(x % 64) }

    /// Marks every pixel within `reach` (at most 63: carries cross one word) of a marked one,
    /// along rows and then columns.
    fileprivate mutating func dilate(by reach: Int) {
        precondition((0...63).contains(reach), "a reach of 0…63 pixels")
        guard reach > 0 else { return }
        var along = words
        // Rows up to each one holding a mark, so that the empty stretches (most of a frame with
        // few differences) are passed over.
        var markedRows = [0]
        for row in 0..<height {
            let start = row * wordsPerRow
            let marked = words[start..<start + wordsPerRow].contains { $0 != 0 }
            markedRows.append(markedRows[row] + (marked ? 1 : 0))
            guard marked else { continue }
            for word in 0..<wordsPerRow {
                let (here, before) = (words[start + word], word > 0 ? words[start + word - 1] : 0)
                let after = word + 1 < wordsPerRow ? words[start + word + 1] : 0
                var spread = here
                for shift in UInt64(1)...UInt64(reach) {
                    spread |= here << shift | here >> shift | before >> (64 - shift) | after << (64 - shift)
                }
                along[start + word] = spread
            }
        }
        for row in 0..<height {
            let (first, last) = (max(0, row - reach), min(height - 1, row + reach))
            guard markedRows[last + 1] > markedRows[first] else { continue }
            for word in 0..<wordsPerRow {
                var spread: UInt64 = 0
                for source in first...last {
                    spread |= along[source * wordsPerRow + word]
                }
                words[row * wordsPerRow + word] = spread
            }
        }
    }

    /// Whether any of the `count` pixels from (`x`, `y`) along the row is near a difference.
    @inline(__always)
    func any(x: Int, y: Int, count: Int) -> Bool {
        for column in x..<min(width, x + count)
        where words[y * wordsPerRow + column / 64] >> UInt64(column % 64) & 1 != 0 {
            return true
        }
        return false
    }
}
