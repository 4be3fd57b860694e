/// Which pipelines a renderer with a host stand-in compiles, by the ski-rental rule: a lens
/// variant is compiled once the frames that needed it would have paid for its compile had the
/// device rendered them, uses × (stand-in ms − device ms) ≥ compile ms, all three measured as the
/// renderer goes. However the frames to come use it, that spends at most twice what knowing the
/// future would have. Each time is the least seen: compiles, stand-in frames and device frames
/// slow each other down while they overlap, and a device frame after a stand-in redoes the work
/// the slot's reuse would have skipped, so the least is the closest to what each costs alone.
/// The first frame's variants compile at once (nothing is measured yet), and every variant the
/// frame needs on a device whose frames cannot be timed; frost variants (cheap to compile)
/// always do.
///
/// A lens's label-free variant (for its tiles that cannot reach a glyph) is optional: the label
/// variant does its work, more slowly. With or without a stand-in it is compiled by the same rule
/// once the device time it would have saved reaches a compile: tiles × the least time of a lens
/// tile seen × the label sampling's share of a tile, so a long batch compiles it and a still or a
/// short batch never pays for it. On an untimed device it is never compiled by the rule (nothing
/// says it pays).
///
/// So many distinct small frames (the thumbnails workload) stay on a fast stand-in, and a variant
/// a large frame needs again is compiled within a few uses; the WhatIsMeasured article has the
/// numbers.
struct CompilePayback {
    /// The least seen, milliseconds.
    private(set) var standInMs: Double?
    private(set) var deviceMs: Double?
    private(set) var lensCompileMs: Double?
    /// Frames that needed each lens variant before it was compiled.
    private var uses: [LensVariant: Int] = [:]
    /// The least device time of one lens tile seen, milliseconds.
    private(set) var lensTileMs: Double?
    /// The device time each label-free variant would have saved so far, milliseconds.
    private var labelFreeSavings: [LensVariant: Double] = [:]
    /// The share of a label tile's time its label sampling takes, from lens-heavy's lens pass
    /// with and without the label-free variant on lavapipe (WhatIsMeasured).
    static let labelShareOfTile = 0.2
    /// Whether device frames are timed (the queue has timestamps); where they are not, the
    /// saving cannot be measured and every variant a frame needs compiles, as without a stand-in.
    var deviceIsTimed = true

    mutating func noteStandIn(milliseconds: Double) { standInMs = min(standInMs ?? milliseconds, milliseconds) }
    mutating func noteDevice(milliseconds: Double) { deviceMs = min(deviceMs ?? milliseconds, milliseconds) }
    mutating func noteLensCompile(milliseconds: Double) {
        lensCompileMs = min(lensCompileMs ?? milliseconds, milliseconds)
    }
    /// A device frame's lens passes (the foreground overlay not counted) took `milliseconds` over
    /// `tiles` lens tiles. A frame that did not measure its stages times its frost with them: the
    /// least seen drops that once a frame blurs no frost, and where every frame blurs some (glass
    /// on glass, blur bands) the label-free variant compiles somewhat sooner than it pays.
    mutating func noteLensPass(milliseconds: Double, tiles: Int) {
        guard tiles > 0 else { return }
        let perTile = milliseconds / Double(tiles)
        lensTileMs = min(lensTileMs ?? perTile, perTile)
    }

    /// Whether label-free `variant`, which a device frame could have run on `tiles` tiles, has
    /// now saved its compile. Never before the times are measured, nor on an untimed device. Once
    /// it has, its count starts again from zero: a compile that fails is retried only when the
    /// variant has paid for it once more.
    mutating func labelFreePays(_ variant: LensVariant, tiles: Int) -> Bool {
        guard deviceIsTimed, let lensTileMs, let lensCompileMs else { return false }
        let saved = labelFreeSavings[variant, default: 0] + Double(tiles) * lensTileMs * Self.labelShareOfTile
        guard saved >= lensCompileMs else {
            labelFreeSavings[variant] = saved
            return false
        }
        labelFreeSavings[variant] = nil
        return true
    }

    /// The variants among `missing` (a frame's, neither compiled nor compiling) to compile now,
    /// counting the frame as a use of each lens variant; all of them for the renderer's first.
    mutating func toCompile(_ missing: [PipelineVariant], firstFrame: Bool) -> [PipelineVariant] {
        var due: [PipelineVariant] = []
        for variant in missing {
            guard case .lens(let lens) = variant else {
                due.append(variant)
                continue
            }
            let count = uses[lens, default: 0] + 1
            uses[lens] = count
            if firstFrame || pays(after: count) { due.append(variant) }
        }
        return due
    }

    /// Whether `count` device frames would have saved a lens variant's compile; not before the
    /// three times are measured.
    private func pays(after count: Int) -> Bool {
        guard deviceIsTimed else { return true }
        guard let standInMs, let deviceMs, let lensCompileMs else { return false }
        return Double(count) * (standInMs - deviceMs) >= lensCompileMs
    }
}
