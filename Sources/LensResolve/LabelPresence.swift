import LensModel

/// Where the label rows (regular and lifted) have any coverage, as a summed-area table, so the
/// resolver can tell in constant time whether a lens tile's samples can reach a glyph. Tiles that
/// cannot skip the label sampling; the pixels come out the same.
struct LabelPresence {
    private let width: Int
    private let height: Int
    /// (width + 1) × (height + 1) prefix counts of covered pixels; empty when there is no label.
    private let sums: [Int32]

    init(words: [UInt32], wordsPerRow: Int, width: Int, height: Int) {
        self.width = width
        self.height = height
        let rowWords = wordsPerRow * height
        guard words.contains(where: { $0 != 0 }) else {
            sums = []
            return
        }
        var sums = [Int32](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row: Int32 = 0
            for x in 0..<width {
                let word = y * wordsPerRow + x / 4
                let shift = UInt32(x % 4) * 8
                var covered = (words[word] >> shift) & 0xFF != 0
                if words.count >= 2 * rowWords { covered = covered || (words[rowWords + word] >> shift) & 0xFF != 0 }
                row += covered ? 1 : 0
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row
            }
        }
        self.sums = sums
    }

    /// Whether any label pixel in `region` is covered.
    func any(_ region: PixelRegion) -> Bool {
        guard !sums.isEmpty, !region.isEmpty else { return false }
        let stride = width + 1
        let total =
            sums[region.y1 * stride + region.x1] - sums[region.y0 * stride + region.x1]
            - sums[region.y1 * stride + region.x0] + sums[region.y0 * stride + region.x0]
        return total > 0
    }
}
