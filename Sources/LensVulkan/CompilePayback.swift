/// Which pipelines a renderer with a host stand-in compiles, by the ski-rental rule: a lens
/// variant is compiled once the frames that needed it would have paid for its compile had the
/// device rendered them: the sum over those frames of megapixels × (stand-in − device ms a
/// megapixel) ≥ compile ms, all three measured as the renderer goes. However the frames to come
/// use it, that spends at most twice what knowing the future would have. Frames are weighed by
/// their size, so a renderer that meets frames of many sizes does not take a small frame's saving
/// for a large one's. Each time is the least seen: compiles, stand-in frames and device frames
/// slow each other down while they overlap, a device frame after a stand-in redoes the work the
/// slot's reuse would have skipped, and a small frame's fixed costs weigh more on each of its
/// pixels, so the least is the closest to what each costs alone. For the same reason the
/// device's rate is not taken for a frame larger than any it has timed (the device only times
/// frames whose variants are compiled; a run of small ones would overstate it for a large one).
/// Where the device has not timed a frame that large, it is taken to cost nothing (the most a
/// compile could save), and until a lens compile is timed, a compile is taken to cost
/// ``assumedLensCompileMs``: so on lavapipe a variant compiles no later than the rule would have
/// it with every time known, and a still or a short batch of small frames (a contact sheet)
/// compiles nothing it would not pay for; a driver that compiles much faster waits a few frames
/// longer than it needed to, once. Every variant a frame needs compiles on a device whose frames
/// cannot be timed; frost variants (cheap to compile) always do.
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
    /// The least seen, milliseconds a megapixel.
    private(set) var standInMsPerMegapixel: Double?
    private(set) var deviceMsPerMegapixel: Double?
    /// The largest frame the device has timed, pixels.
    private(set) var largestDeviceFrame = 0
    /// The least seen, milliseconds.
    private(set) var lensCompileMs: Double?
    /// What device frames would have saved on the stand-in frames that needed each lens variant
    /// before it was compiled, milliseconds.
    private var savings: [LensVariant: Double] = [:]
    /// The least device time of one lens tile seen, milliseconds.
    private(set) var lensTileMs: Double?
    /// The device time each label-free variant would have saved so far, milliseconds.
    private var labelFreeSavings: [LensVariant: Double] = [:]
    /// The share of a label tile's time its label sampling takes, from lens-heavy's lens pass
    /// with and without the label-free variant on lavapipe (WhatIsMeasured).
    static let labelShareOfTile = 0.2
    /// What a lens compile is taken to cost before one is timed: the least lavapipe took with
    /// Mesa's shader cache warm (WhatIsMeasured), the device this rule had to get right first.
    static let assumedLensCompileMs = 200.0
    /// Whether device frames are timed (the queue has timestamps); where they are not, the
    /// saving cannot be measured and every variant a frame needs compiles, as without a stand-in.
    var deviceIsTimed = true

    mutating func noteStandIn(milliseconds: Double, pixels: Int) {
        Self.keepLeast(&standInMsPerMegapixel, milliseconds / Self.megapixels(pixels))
    }
    mutating func noteDevice(milliseconds: Double, pixels: Int) {
        Self.keepLeast(&deviceMsPerMegapixel, milliseconds / Self.megapixels(pixels))
        largestDeviceFrame = max(largestDeviceFrame, pixels)
    }
    mutating func noteLensCompile(milliseconds: Double) {
        Self.keepLeast(&lensCompileMs, milliseconds)
    }
    /// A device frame's lens passes (the foreground overlay not counted) took `milliseconds` over
    /// `tiles` lens tiles. A frame that did not measure its stages times its frost with them: the
    /// least seen drops that once a frame blurs no frost, and where every frame blurs some (glass
    /// on glass, blur bands) the label-free variant compiles somewhat sooner than it pays.
    mutating func noteLensPass(milliseconds: Double, tiles: Int) {
        guard tiles > 0 else { return }
        Self.keepLeast(&lensTileMs, milliseconds / Double(tiles))
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

    /// The variants among `missing` (those of a stand-in frame of `pixels`, neither compiled nor
    /// compiling) to compile now, counting the frame as a use of each lens variant.
    mutating func toCompile(_ missing: [PipelineVariant], pixels: Int) -> [PipelineVariant] {
        let saving = saving(onFrameOf: pixels)
        var due: [PipelineVariant] = []
        for variant in missing {
            guard case .lens(let lens) = variant else {
                due.append(variant)
                continue
            }
            let saved = savings[lens, default: 0] + saving
            savings[lens] = saved
            if !deviceIsTimed || saved >= lensCompileMs ?? Self.assumedLensCompileMs { due.append(variant) }
        }
        return due
    }

    /// What the device would have saved on a stand-in frame of `pixels`, milliseconds: the
    /// stand-in's rate less the device's (where it has timed a frame at least as large; else
    /// nothing), never below 0; nothing before a stand-in frame is timed.
    private func saving(onFrameOf pixels: Int) -> Double {
        guard let standInMsPerMegapixel else { return 0 }
        let device = pixels <= largestDeviceFrame ? deviceMsPerMegapixel ?? 0 : 0
        return max(0, standInMsPerMegapixel - device) * Self.megapixels(pixels)
    }

    private static func megapixels(_ pixels: Int) -> Double { Double(max(pixels, 1)) / 1e6 }

    private static func keepLeast(_ least: inout Double?, _ value: Double) { least = min(least ?? value, value) }
}
