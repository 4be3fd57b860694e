import Foundation
import LensModel

/// What a backend keeps from one frame to the next, and the work a new frame can skip because of
/// it. A batch of frames over one backdrop (an animation, a parameter sweep) composes the base
/// layer once, blurs each frost tile once per kernel, and uploads the backdrop and label once.
///
/// The frosted and scratch buffers a backend keeps hold, per 16-px tile, the blur of the backdrop
/// with some kernel; the reuse records which kernel each tile holds. A frame then only blurs the
/// frost tiles whose kernel differs, and only the row tiles those need. When the backdrop changes
/// in part (a control's rail growing under a drag), only the tiles that changed are composed
/// again, and only the frost tiles within a kernel radius of them are forgotten. The blur of a
/// tile depends on nothing but the backdrop within the kernel's reach, the kernel and the tile, so
/// the result is bit-identical to doing everything again. Not thread-safe: one per buffer set.
package final class FrameReuse {
    /// What the backend must do for a frame.
    package struct Plan {
        /// The frame with each lens's frost and row tile lists cut to the tiles not already blurred.
        package var parameters: FrameParameters
        /// The backdrop or label changed: upload it again.
        package var uploadBackdrop: Bool
        /// The label coverage (or the frame size) changed: upload it again.
        package var uploadLabel: Bool
        /// The foreground (or the frame size) changed: upload it again.
        package var uploadForeground: Bool
        /// The base layer (backdrop with the resting label) starts over as a copy of the backdrop:
        /// off the label it is the backdrop itself, so only the label's ink box is composed.
        package var baseFromBackdrop: Bool
        /// Where the compose pass runs: with ``baseFromBackdrop``, the box of the label's ink
        /// (nil without ink); otherwise the damaged part of the kept base (nil when it is current).
        package var composeRegion: PixelRegion?
    }

    private var width = 0
    private var height = 0
    private var backdrop: [UInt32] = []
    private var labelWords: [UInt32] = []
    private var foreground: [UInt32] = []
    private var restingColor = SIMD4<Float>.zero
    private var linearBlending: UInt32 = 0
    private var baseIsCurrent = false
    private var kernelIDs: [[Float]: Int32] = [:]
    /// The pyramid level of each kernel id's blur.
    private var levelOfID: [Int32: Int] = [:]
    /// The largest kernel radius any tile may hold, in pixels.
    private var largestRadius = 0
    /// The kernel each tile of the scratch (horizontal pass) and frosted (vertical pass) buffers holds; −1: none.
    private var scratchKernel: [Int32] = []
    private var frostedKernel: [Int32] = []

    /// A reuse that holds nothing yet, so the first frame does all the work.
    package init() {}

    /// Forgets everything, as after the buffers were reallocated.
    package func invalidate() {
        width = 0
        height = 0
        backdrop = []
        labelWords = []
        foreground = []
        baseIsCurrent = false
        kernelIDs = [:]
        levelOfID = [:]
        largestRadius = 0
        scratchKernel = []
        frostedKernel = []
    }

    /// Compares `parameters` with what the buffers hold, records what they will hold once the plan
    /// has run, and returns the plan.
    package func plan(_ parameters: FrameParameters) -> Plan {
        let size = TableLayout.tileSize
        let columns = (parameters.width + size - 1) / size
        let rows = (parameters.height + size - 1) / size
        let sameSize = width == parameters.width && height == parameters.height
        let backdropChanged = !sameSize || backdrop != parameters.backdrop
        let labelChanged = !sameSize || labelWords != parameters.labelWords
        let foregroundChanged = !sameSize || foreground != parameters.foreground
        var composeRegion: PixelRegion?
        var baseFromBackdrop = false
        if !sameSize || !baseIsCurrent {
            kernelIDs = [:]
            levelOfID = [:]
            largestRadius = 0
            scratchKernel = [Int32](repeating: -1, count: columns * rows)
            frostedKernel = scratchKernel
            baseFromBackdrop = true
        } else if backdropChanged {
            let damaged = Self.damagedTiles(
                backdrop, parameters.backdrop, width: parameters.width, height: parameters.height, columns: columns)
            forgetFrost(near: damaged, columns: columns, rows: rows)
            composeRegion = Self.bounds(
                of: damaged, columns: columns, width: parameters.width, height: parameters.height)
        }
        // The base layer blends the label over the backdrop in the frame's blend space.
        if labelChanged || restingColor != parameters.frame.restingColor
            || linearBlending != parameters.frame.linearBlending
        {
            baseFromBackdrop = true
        }
        if baseFromBackdrop {
            composeRegion = Self.inkBounds(
                parameters.labelWords, wordsPerRow: Int(parameters.frame.labelWordsPerRow), width: parameters.width,
                height: parameters.height)
        }
        width = parameters.width
        height = parameters.height
        backdrop = parameters.backdrop
        labelWords = parameters.labelWords
        foreground = parameters.foreground
        restingColor = parameters.frame.restingColor
        linearBlending = parameters.frame.linearBlending
        baseIsCurrent = true

        let trimmed = withoutKeptFrost(parameters, columns: columns, rows: rows)
        return Plan(
            parameters: trimmed, uploadBackdrop: backdropChanged, uploadLabel: labelChanged,
            uploadForeground: foregroundChanged, baseFromBackdrop: baseFromBackdrop, composeRegion: composeRegion)
    }

    /// `parameters` without the frost and row tiles the scratch and frosted buffers already hold
    /// blurred with the same kernel, and the buffers' record of what they will hold. Glass lying
    /// on glass blurs the composite, which is the backdrop except where glass below it writes: its
    /// tiles whose blur reads none of those pixels hold the backdrop's blur to the bit, so they are
    /// kept and reused like any other; the rest are blurred again every frame.
    private func withoutKeptFrost(_ parameters: FrameParameters, columns: Int, rows: Int) -> FrameParameters {
        var trimmed = parameters
        trimmed.tiles = []
        // Where the lenses so far write the composite (for any glass above them, so more than a
        // later lens may see: a tile counted as touched is only blurred again).
        var compositeWrites: [PixelRegion] = []
        for index in parameters.lenses.indices {
            var lens = parameters.lenses[index]
            var lists = LensTileLists(of: lens, in: parameters.tiles)
            let id = kernelID(of: lens, in: parameters.tables)
            let touched = lens.readsComposite != 0 ? compositeWrites : []
            func keeps(_ tile: SIMD4<UInt32>, down: Bool) -> Bool {
                !Self.blurReaches(touched, from: tile, of: lens, down: down)
            }
            largestRadius = max(largestRadius, Int(lens.kernelRadius))
            // Each tile to blur, with whether what it will hold is the kept kind.
            let frost = lists.frost.map { (tile: $0, kept: keeps($0, down: true)) }
                .filter { !$0.kept || frostedKernel[Self.index($0.tile, columns)] != id }
            let rowsNeeded = Tiling.rowTiles(
                feeding: frost.map { SIMD2($0.tile.x, $0.tile.y) }, kernelRadius: Int(lens.kernelRadius),
                columns: columns, rows: rows)
            let rowTiles = lists.rows.filter { rowsNeeded.contains(Self.index($0, columns)) }
                .map { (tile: $0, kept: keeps($0, down: false)) }
                .filter { !$0.kept || scratchKernel[Self.index($0.tile, columns)] != id }
            (lists.frost, lists.rows) = (frost.map(\.tile), rowTiles.map(\.tile))
            for (tile, kept) in frost { frostedKernel[Self.index(tile, columns)] = kept ? id : -1 }
            for (tile, kept) in rowTiles { scratchKernel[Self.index(tile, columns)] = kept ? id : -1 }
            lists.append(to: &trimmed.tiles, pointing: &lens)
            trimmed.lenses[index] = lens
            let written = PixelRegion(bounds: lens.compositeRegion)
            if !written.isEmpty { compositeWrites.append(written) }
        }
        let foregroundStart = Int(parameters.frame.foregroundTileOffset)
        trimmed.frame.foregroundTileOffset = UInt32(trimmed.tiles.count)
        trimmed.tiles += parameters.tiles[foregroundStart..<foregroundStart + Int(parameters.frame.foregroundTileCount)]
        return trimmed
    }

    /// The id of `lens`'s blur (its kernel at its pyramid level: the level's texels share the
    /// tile's memory), registered on first sight.
    private func kernelID(of lens: LensParams, in tables: [Float]) -> Int32 {
        let kernelStart = Int(lens.kernelOffset)
        let kernel = Array(tables[kernelStart...kernelStart + Int(lens.kernelRadius)]) + [Float(lens.frostLevel)]
        if let id = kernelIDs[kernel] { return id }
        let id = Int32(kernelIDs.count)
        kernelIDs[kernel] = id
        levelOfID[id] = Int(lens.frostLevel)
        return id
    }

    /// Whether the blur of `tile` (a row tile: along its rows; a frost tile, `down`: both ways) at
    /// `lens`'s level reads a pixel of `regions`: the tile's texels widened by the kernel radius,
    /// each texel the box of pixels it averages (mirrored and clamped reads stay inside it).
    private static func blurReaches(
        _ regions: [PixelRegion], from tile: SIMD4<UInt32>, of lens: LensParams, down: Bool
    ) -> Bool {
        guard !regions.isEmpty else { return false }
        let (size, radius, level) = (TableLayout.tileSize, Int(lens.kernelRadius), Int(lens.frostLevel))
        let (x, y) = (Int(tile.x) * size, Int(tile.y) * size)
        let widening = down ? radius : 0
        let reach = PixelRegion(
            x0: (x - radius) << level, y0: (y - widening) << level, x1: (x + size + radius) << level,
            y1: (y + size + widening) << level)
        return regions.contains { !$0.intersection(reach).isEmpty }
    }

    private static func index(_ tile: SIMD4<UInt32>, _ columns: Int) -> Int { Int(tile.y) * columns + Int(tile.x) }

    /// The box of the regular label row's ink (the first `wordsPerRow × height` words, 4 pixels a
    /// word), whole words wide; nil without ink.
    package static func inkBounds(_ words: [UInt32], wordsPerRow: Int, width: Int, height: Int) -> PixelRegion? {
        guard wordsPerRow > 0, words.count >= wordsPerRow * height else { return nil }
        var x0 = Int.max
        var x1 = 0
        var y0 = Int.max
        var y1 = 0
        for y in 0..<height {
            let row = y * wordsPerRow
            guard let first = (0..<wordsPerRow).first(where: { words[row + $0] != 0 }) else { continue }
            let last = (0..<wordsPerRow).last { words[row + $0] != 0 }!
            x0 = min(x0, first * 4)
            x1 = max(x1, min(width, last * 4 + 4))
            y0 = min(y0, y)
            y1 = y + 1
        }
        return y0 == Int.max ? nil : PixelRegion(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Tiles where two backdrops of the same size differ.
    private static func damagedTiles(_ old: [UInt32], _ new: [UInt32], width: Int, height: Int, columns: Int)
        -> [Bool]
    {
        let size = TableLayout.tileSize
        var damaged = [Bool](repeating: false, count: columns * ((height + size - 1) / size))
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                for y in 0..<height {
                    for column in 0..<columns where !damaged[(y / size) * columns + column] {
                        let start = y * width + column * size
                        let count = min(size, width - column * size)
                        if memcmp(old.baseAddress! + start, new.baseAddress! + start, count * 4) != 0 {
                            damaged[(y / size) * columns + column] = true
                        }
                    }
                }
            }
        }
        return damaged
    }

    /// Forgets the blur of every tile within the largest kernel radius of a damaged tile, each at
    /// the pyramid level its blur was made at (a damaged 16-px tile lies inside level tile
    /// `tile >> level`, since a level tile spans 16 texels of 2^level pixels).
    private func forgetFrost(near damaged: [Bool], columns: Int, rows: Int) {
        let reach = (largestRadius + TableLayout.tileSize - 1) / TableLayout.tileSize
        func forget(_ records: inout [Int32], at index: Int, level: Int) {
            if records[index] >= 0, levelOfID[records[index]] == level { records[index] = -1 }
        }
        for index in damaged.indices where damaged[index] {
            for level in 0...FrostPyramid.deepestBlurLevel {
                let column = (index % columns) >> level
                let row = (index / columns) >> level
                for y in max(0, row - reach)...min(rows - 1, row + reach) {
                    for x in max(0, column - reach)...min(columns - 1, column + reach) {
                        forget(&scratchKernel, at: y * columns + x, level: level)
                        forget(&frostedKernel, at: y * columns + x, level: level)
                    }
                }
            }
        }
    }

    /// The pixels of the damaged tiles' bounding box; nil when nothing is damaged.
    private static func bounds(of damaged: [Bool], columns: Int, width: Int, height: Int) -> PixelRegion? {
        let indices = damaged.indices.filter { damaged[$0] }
        guard !indices.isEmpty else { return nil }
        let size = TableLayout.tileSize
        let xs = indices.map { $0 % columns }
        let ys = indices.map { $0 / columns }
        return PixelRegion(
            x0: xs.min()! * size, y0: ys.min()! * size, x1: min(width, (xs.max()! + 1) * size),
            y1: min(height, (ys.max()! + 1) * size))
    }
}
