/// A 16-pixel tile of a lens pass: its candidate shapes (indices into the group's geometry) and
/// whether no pixel of it can show glass.
struct LensTile {
    var tile: SIMD2<UInt32>
    var candidates: [Int]
    var glassFree: Bool

    /// The tile as it sits in ``FrameParameters/tiles``: x, y, the candidates' offset in
    /// `tileShapes`, and their count with ``TableLayout/glassFreeTileBit`` set where glass-free.
    func entry(candidatesAt offset: Int) -> SIMD4<UInt32> {
        let flag: UInt32 = glassFree ? 1 << TableLayout.glassFreeTileBit : 0
        return SIMD4(tile.x, tile.y, UInt32(offset), UInt32(candidates.count) | flag)
    }
}

/// One lens's tile lists as they sit in ``FrameParameters/tiles``: the lens tiles (those whose
/// samples reach a label glyph first), the frost tiles and the row tiles.
struct LensTileLists {
    var lens: [SIMD4<UInt32>]
    var labelTileCount: Int
    var frost: [SIMD4<UInt32>]
    var rows: [SIMD4<UInt32>]

    init(lens: [SIMD4<UInt32>], labelTileCount: Int, frost: [SIMD4<UInt32>], rows: [SIMD4<UInt32>]) {
        self.lens = lens
        self.labelTileCount = labelTileCount
        self.frost = frost
        self.rows = rows
    }

    /// The lists `lens` points at in `tiles`.
    init(of lens: LensParams, in tiles: [SIMD4<UInt32>]) {
        func list(_ offset: UInt32, _ count: UInt32) -> [SIMD4<UInt32>] {
            Array(tiles[Int(offset)..<Int(offset + count)])
        }
        self.lens = list(lens.tileOffset, lens.tileCount)
        labelTileCount = Int(lens.labelTileCount)
        frost = list(lens.frostTileOffset, lens.frostTileCount)
        rows = list(lens.rowTileOffset, lens.rowTileCount)
    }

    /// Appends the lists to `tiles` and points `lens` at them: the one place a lens's tile
    /// offsets and counts are written.
    func append(to tiles: inout [SIMD4<UInt32>], pointing lens: inout LensParams) {
        lens.tileOffset = UInt32(tiles.count)
        lens.tileCount = UInt32(self.lens.count)
        lens.labelTileCount = UInt32(labelTileCount)
        tiles += self.lens
        lens.frostTileOffset = UInt32(tiles.count)
        lens.frostTileCount = UInt32(frost.count)
        tiles += frost
        lens.rowTileOffset = UInt32(tiles.count)
        lens.rowTileCount = UInt32(rows.count)
        tiles += rows
    }
}
