import LensResolve

/// Which pipelines a frame needs and how it gets them: whether it runs on the device now, waits
/// for its compiles, or goes to the host stand-in, and which compiles the stand-in frames and
/// device frames have asked for since. Pure: it decides, ``PipelineCompiler`` compiles and
/// ``CompilePayback`` says what pays, so the rules are tested without a device.
struct PipelinePolicy {
    /// Where a frame goes.
    enum Route: Equatable {
        /// Every pipeline it needs is compiled.
        case device
        /// It waits for its compiles, then runs on the device.
        case waitForCompiles
        /// The host stand-in renders it; its pipelines compile later, as far as they pay.
        case standIn
    }

    /// A stand-in frame's pipelines and its size, which weighs what its compiles would save.
    struct StandInFrame: Equatable {
        var variants: [PipelineVariant]
        var pixels: Int
    }

    /// The stand-in frames since the last frame.
    private(set) var standInWanted: [StandInFrame] = []
    /// Every pipeline a stand-in frame needed since ``takeAllWanted()``: those that have not paid
    /// for their compile yet are still wanted when every compile is asked for.
    private(set) var standInNeeded: Set<PipelineVariant> = []
    /// The label-free variants device frames could have run, compiled or not.
    private(set) var labelFreeWanted: Set<PipelineVariant> = []

    /// A frame's route. Without a stand-in, or when every pipeline missing is already compiling
    /// (waiting leaves the cores to the compile, and the device frame is the faster one), the
    /// frame waits. `missingAllStarted` is asked only for a frame not compiled.
    static func route(compiled: Bool, hasStandIn: Bool, missingAllStarted: @autoclosure () -> Bool) -> Route {
        if compiled { return .device }
        return !hasStandIn || missingAllStarted() ? .waitForCompiles : .standIn
    }

    /// Notes the pipelines a stand-in frame of `pixels` needed.
    mutating func noteStandIn(needing variants: [PipelineVariant], pixels: Int) {
        standInWanted.append(StandInFrame(variants: variants, pixels: pixels))
        standInNeeded.formUnion(variants)
    }

    /// Notes the label-free variants a device frame could have run. Asked only by frames the
    /// device renders: an optional compile never queues ahead of a stand-in's.
    mutating func noteLabelFree(_ asks: [(variant: LensVariant, tiles: Int)]) {
        labelFreeWanted.formUnion(asks.map { .lens($0.variant) })
    }

    /// The stand-in frames, forgotten here: the caller starts their compiles.
    mutating func takeStandInWanted() -> [StandInFrame] {
        defer { standInWanted = [] }
        return standInWanted
    }

    /// Everything asked for (every stand-in frame's pipelines and the label-free variants),
    /// forgotten here: the caller compiles all of it that is not compiled yet.
    mutating func takeAllWanted() -> (required: [PipelineVariant], optional: Set<PipelineVariant>) {
        defer {
            standInWanted = []
            standInNeeded = []
            labelFreeWanted = []
        }
        return (Array(standInNeeded), labelFreeWanted)
    }

    /// How a lens's tiles are dispatched: the first `labelTileCount` (or all, without a compiled
    /// label-free variant) with its own variant, the rest with the label-free one. The two write
    /// disjoint tiles.
    static func lensDispatches(
        tileOffset: UInt32, tileCount: UInt32, labelTileCount: UInt32, hasLabelFree: Bool
    ) -> [(firstTile: UInt32, count: UInt32, labelFree: Bool)] {
        let split = hasLabelFree ? labelTileCount : tileCount
        let own = (firstTile: tileOffset, count: split, labelFree: false)
        guard hasLabelFree else { return [own] }
        return [own, (firstTile: tileOffset + split, count: tileCount - split, labelFree: true)]
    }
}

/// The specialised pipelines a frame needs: per lens its lens variant over every tile (nil where
/// it has none) and its frost passes (two, three on a stored level). A lens whose tiles reach the label runs all of them
/// with the label variant (the others read zero coverage, so the pixels are the same) until its
/// label-free variant is compiled. That one is optional: compiled in the background once it has
/// paid for itself (``CompilePayback``), so a still or a short batch never pays its compile, and
/// then run on the other tiles.
struct FramePipelines {
    var lens: [LensVariant?]
    /// Per lens, the variant for its tiles that cannot reach a glyph and how many they are,
    /// where it has tiles of both kinds.
    var labelFree: [(variant: LensVariant, tiles: Int)?]
    var frost: [[FrostVariant]]

    init(_ parameters: FrameParameters) {
        let linearBlending = parameters.frame.linearBlending != 0
        let variants = parameters.lenses.map { lens in
            let group = parameters.shapes[Int(lens.shapeOffset)..<Int(lens.shapeOffset + lens.shapeCount)]
            return { (reachesLabel: Bool) in
                LensVariant(lens: lens, shapes: group, reachesLabel: reachesLabel, linearBlending: linearBlending)
            }
        }
        lens = zip(parameters.lenses, variants).map { lens, variant in
            lens.tileCount > 0 ? variant(lens.labelTileCount > 0) : nil
        }
        labelFree = zip(parameters.lenses, variants).map { lens, variant in
            lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount
                ? (variant(false), Int(lens.tileCount - lens.labelTileCount)) : nil
        }
        frost = parameters.lenses.map(FrostVariant.passes)
    }

    /// The variants the frame cannot do without.
    var all: [PipelineVariant] {
        lens.compactMap { $0.map(PipelineVariant.lens) } + frost.joined().map(PipelineVariant.frost)
    }

    /// Each lens's pipelines, out of `compiled` and the optional ones compiled so far.
    func pipelines(
        _ compiled: [PipelineVariant: ComputePipeline], labelFree optional: [PipelineVariant: ComputePipeline]
    ) -> [LensPipelines] {
        (0..<lens.count).map { index in
            LensPipelines(
                frost: frost[index].map { compiled[.frost($0)]! },
                lens: lens[index].map { compiled[.lens($0)]! },
                labelFree: labelFree[index].flatMap { optional[.lens($0.variant)] })
        }
    }
}

/// A lens's pipelines in one frame: its frost passes, its lens pass over every tile (nil
/// where it has none), and, once compiled, the variant without the label for its tiles that
/// cannot reach one.
struct LensPipelines {
    var frost: [ComputePipeline]
    var lens: ComputePipeline?
    var labelFree: ComputePipeline?
}
