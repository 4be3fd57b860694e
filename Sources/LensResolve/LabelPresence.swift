import LensModel

/// Where the label rows (regular and lifted) have any coverage, as a summed-area table, so the
/// resolver can tell in constant time whether a lens tile's samples can reach a glyph. Tiles that
/// cannot skip the label sampling; the pixels come out the same.
struct LabelPresence {
    private let width: Int
    /// Per row y (and y = height): how many rows above it have a covered pixel.
    private let inkRowsAbove: [Int32]
    /// (ink rows + 1) × (width + 1) prefix counts of covered pixels over the rows that have any,
    /// so a label row's mostly empty canvas costs nothing; empty when there is no label.
    private let sums: [Int32]

    init(words: [UInt32], wordsPerRow: Int, width: Int, height: Int) {
        self.width = width
        let rowWords = wordsPerRow * height
        let lifted = words.count >= 2 * rowWords
        func rowHasInk(_ y: Int) -> Bool {
            let row = y * wordsPerRow..<(y + 1) * wordsPerRow
            return words[row].contains { $0 != 0 }
                || lifted && words[row.lowerBound + rowWords..<row.upperBound + rowWords].contains { $0 != 0 }
        }
        var above = [Int32](repeating: 0, count: height + 1)
        var inkRows: [Int] = []
        for y in 0..<height {
            above[y] = Int32(inkRows.count)
            if rowHasInk(y) { inkRows.append(y) }
        }
        above[height] = Int32(inkRows.count)
        inkRowsAbove = above
        guard !inkRows.isEmpty else {
            sums = []
            return
        }
        var sums = [Int32](repeating: 0, count: (width + 1) * (inkRows.count + 1))
        for (index, y) in inkRows.enumerated() {
            var row: Int32 = 0
            for x in 0..<width {
                let word = y * wordsPerRow + x / 4
                let shift = UInt32(x % 4) * 8
                var covered = (words[word] >> shift) & 0xFF != 0
                if lifted { covered = covered || (words[rowWords + word] >> shift) & 0xFF != 0 }
                row += covered ? 1 : 0
                sums[(index + 1) * (width + 1) + x + 1] = sums[index * (width + 1) + x + 1] + row
            }
        }
        self.sums = sums
    }

    /// Whether any label pixel in `region` is covered.
    func any(_ region: PixelRegion) -> Bool {
        guard !sums.isEmpty, !region.isEmpty else { return false }
        let stride = width + 1
        let top = Int(inkRowsAbove[region.y0]) * stride
        let bottom = Int(inkRowsAbove[region.y1]) * stride
        let total = sums[bottom + region.x1] - sums[top + region.x1] - sums[bottom + region.x0] + sums[top + region.x0]
        return total > 0
    }
}
