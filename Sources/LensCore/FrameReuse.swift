/// What a backend keeps from one frame to the next, and the work a new frame can skip because of
/// it. A batch of frames over one backdrop (an animation, a parameter sweep) composes the base
/// layer once, blurs each frost tile once per kernel, and uploads the backdrop and label once.
///
/// The frosted and scratch buffers a backend keeps hold, per 16-px tile, the blur of the backdrop
/// with some kernel; the reuse records which kernel each tile holds. A frame then only blurs the
/// frost tiles whose kernel differs, and only the row tiles those need. The blur of a tile depends
/// on nothing but the backdrop, the kernel and the tile, so the result is bit-identical to
/// blurring everything again. Not thread-safe: one per backend buffer set.
public final class FrameReuse {
    /// What the backend must do for a frame.
    public struct Plan {
        /// The frame with each lens's frost and row tile lists cut to the tiles not already blurred.
        public var parameters: FrameParameters
        /// The backdrop or label changed: upload it again.
        public var uploadBackdrop: Bool
        public var uploadLabel: Bool
        /// The base layer (backdrop with the resting label) must be composed; otherwise the kept
        /// copy is current.
        public var composeBase: Bool
    }

    private var width = 0
    private var height = 0
    private var backdrop: [UInt32] = []
    private var labelWords: [UInt32] = []
    private var restingColor = SIMD4<Float>.zero
    private var baseIsCurrent = false
    private var kernelIDs: [[Float]: Int32] = [:]
    /// The kernel each tile of the scratch (horizontal pass) and frosted (vertical pass) buffers holds; −1: none.
    private var scratchKernel: [Int32] = []
    private var frostedKernel: [Int32] = []

    public init() {}

    /// Forgets everything, as after the buffers were reallocated.
    public func invalidate() {
        width = 0
        height = 0
        backdrop = []
        labelWords = []
        baseIsCurrent = false
        kernelIDs = [:]
        scratchKernel = []
        frostedKernel = []
    }

    /// Compares `parameters` with what the buffers hold, records what they will hold once the plan
    /// has run, and returns the plan.
    public func plan(_ parameters: FrameParameters) -> Plan {
        let size = TableLayout.tileSize
        let columns = (parameters.width + size - 1) / size
        let rows = (parameters.height + size - 1) / size
        let sameSize = width == parameters.width && height == parameters.height
        let uploadBackdrop = !sameSize || backdrop != parameters.backdrop
        let uploadLabel = !sameSize || labelWords != parameters.labelWords
        if uploadBackdrop {
            kernelIDs = [:]
            scratchKernel = [Int32](repeating: -1, count: columns * rows)
            frostedKernel = scratchKernel
        }
        let composeBase =
            !baseIsCurrent || uploadBackdrop || uploadLabel || restingColor != parameters.frame.restingColor
        width = parameters.width
        height = parameters.height
        backdrop = parameters.backdrop
        labelWords = parameters.labelWords
        restingColor = parameters.frame.restingColor
        baseIsCurrent = true

        var trimmed = parameters
        trimmed.tiles = []
        for index in parameters.lenses.indices {
            var lens = parameters.lenses[index]
            let lensTiles = parameters.tiles[Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)]
            lens.tileOffset = UInt32(trimmed.tiles.count)
            trimmed.tiles += lensTiles

            let kernelStart = Int(lens.kernelOffset)
            let kernel = Array(parameters.tables[kernelStart...kernelStart + Int(lens.kernelRadius)])
            let id = kernelIDs[kernel] ?? Int32(kernelIDs.count)
            kernelIDs[kernel] = id
            let frost = parameters.tiles[Int(lens.frostTileOffset)..<Int(lens.frostTileOffset + lens.frostTileCount)]
                .filter { frostedKernel[Int($0.y) * columns + Int($0.x)] != id }
            let rowsNeeded = Self.rowTiles(
                feeding: frost, kernelRadius: Int(lens.kernelRadius), columns: columns, rows: rows)
            let rowTiles = parameters.tiles[Int(lens.rowTileOffset)..<Int(lens.rowTileOffset + lens.rowTileCount)]
                .filter { rowsNeeded.contains(Int($0.y) * columns + Int($0.x)) }
                .filter { scratchKernel[Int($0.y) * columns + Int($0.x)] != id }
            for tile in frost { frostedKernel[Int(tile.y) * columns + Int(tile.x)] = id }
            for tile in rowTiles { scratchKernel[Int(tile.y) * columns + Int(tile.x)] = id }
            lens.frostTileOffset = UInt32(trimmed.tiles.count)
            lens.frostTileCount = UInt32(frost.count)
            trimmed.tiles += frost
            lens.rowTileOffset = UInt32(trimmed.tiles.count)
            lens.rowTileCount = UInt32(rowTiles.count)
            trimmed.tiles += rowTiles
            trimmed.lenses[index] = lens
        }
        return Plan(
            parameters: trimmed, uploadBackdrop: uploadBackdrop, uploadLabel: uploadLabel, composeBase: composeBase)
    }

    /// The row tiles the vertical pass of `frost` reads: each tile's column, grown by the kernel
    /// radius in whole tiles (mirrored reads at the edges stay inside that range).
    private static func rowTiles(
        feeding frost: [SIMD4<UInt32>], kernelRadius: Int, columns: Int, rows: Int
    ) -> Set<Int> {
        let size = TableLayout.tileSize
        let grow = (kernelRadius + size - 1) / size
        var needed = Set<Int>()
        for tile in frost {
            let y = Int(tile.y)
            for row in max(0, y - grow)...min(rows - 1, y + grow) { needed.insert(row * columns + Int(tile.x)) }
        }
        return needed
    }
}
