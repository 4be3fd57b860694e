import Foundation
import LensModel
import LensResolve

/// `FrameMasks` from a resolved frame: not a shader twin, but the shader functions run over the
/// tiles the lens pass shades, so the masks hold for either backend (the two agree bit for bit).
extension ReferenceRenderer {
    /// The glass and accent-label masks of `parameters`' frame.
    package static func masks(_ parameters: FrameParameters) -> FrameMasks {
        let count = parameters.width * parameters.height
        var glass = [Float](repeating: 0, count: count)
        var tint = [Float](repeating: 0, count: count)
        glass.withUnsafeMutableBufferPointer { glass in
            tint.withUnsafeMutableBufferPointer { tint in
                accumulateMasks(parameters, glass: glass, tint: tint)
            }
        }
        for (index, pixel) in parameters.foreground.enumerated() where pixel >> 24 != 0 {
            let shown = 1 - Float(pixel >> 24) / 255
            glass[index] *= shown
            tint[index] *= shown
        }
        return FrameMasks(
            glass: AlphaImage(width: parameters.width, height: parameters.height, coverage: glass.map(maskByte)),
            tint: AlphaImage(width: parameters.width, height: parameters.height, coverage: tint.map(maskByte)))
    }

    /// Lays each lens's coverage and accent share over the masks, in drawing order: a later lens
    /// hides what lies under it by its coverage.
    private static func accumulateMasks(
        _ parameters: FrameParameters, glass: UnsafeMutableBufferPointer<Float>, tint: UnsafeMutableBufferPointer<Float>
    ) {
        let black: UnsafeMutableBufferPointer<SIMD4<Float>> = zeroed(parameters.width * parameters.height)
        defer { free(black.baseAddress) }
        let context = accentContext(parameters, black: black)
        let width = parameters.width
        // Progressive blurs are not glass: their bands leave both masks alone.
        let glassLenses = zip(parameters.lenses, parameters.regions).dropFirst(parameters.blurBandCount)
        for (lens, regions) in glassLenses {
            for run in lensTileRuns(lens) {
                forEachTile(run.first, run.count, clippedTo: regions.lens, context, reachesLabel: run.reachesLabel) {
                    tileContext, x, y in
                    let sample = tileContext.maskSample(x, y, lens)
                    guard sample.x > 0 else { return }
                    let index = y * width + x
                    glass[index] += (1 - glass[index]) * sample.x
                    tint[index] = tint[index] * (1 - sample.x) + sample.y
                }
            }
        }
    }

    /// The frame's shader context with its content black (`black`, zeroed, stands for the frosted
    /// backdrop and the composite) and its labels blended in linear light, black at rest, white in
    /// the accent colour and black lifted, each with its own alpha (the colours are premultiplied):
    /// the colour `lensContent` and `labelOver` return is then each channel's accent share, through
    /// the same taps and sample positions as the frame's.
    private static func accentContext(_ parameters: FrameParameters, black: UnsafeMutableBufferPointer<SIMD4<Float>>)
        -> ShaderContext
    {
        var accent = parameters
        let frame = parameters.frame
        accent.frame.linearBlending = 1
        accent.frame.restingColor = SIMD4(0, 0, 0, frame.restingColor.w)
        accent.frame.accentColor = SIMD4(repeating: frame.accentColor.w)
        accent.frame.liftedLabelColor = SIMD4(0, 0, 0, frame.liftedLabelColor.w)
        let noPixels = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
        return context(accent, scratch: black, frosted: black, output: noPixels, composite: noPixels)
    }

    private static func maskByte(_ value: Float) -> UInt8 {
        UInt8(clamp(value * 255, 0, 255).rounded())
    }
}

extension ShaderContext {
    /// Pixel (x, y)'s glass coverage under `lens` (its edge coverage times its opacity) and the
    /// share of the pixel that is the label in the accent colour, both as `lens` draws them; in
    /// the context `ReferenceRenderer.accentContext` makes.
    func maskSample(_ x: Int, _ y: Int, _ lens: LensParams) -> SIMD2<Float> {
        let p = SIMD2(Float(x), Float(y)) + SIMD2(repeating: 0.5)
        let group = groupSample(p, lens, true)
        let glass = coverage(group.distance) * lens.opacity
        guard glass > 0 else { return .zero }
        return SIMD2(glass, glass * accentShare(p, group, lens))
    }

    /// The accent label's share of the glass's colour at `p`, its largest over the channels (a
    /// fringe where one channel's tap alone sees a glyph is accent-coloured too), as
    /// `glassColor` draws the label: seen through the face (every tap of `lensContent`), then
    /// drawn at `p` over a resting fill as much as the fill covers, or on the face.
    func accentShare(_ p: SIMD2<Float>, _ group: GroupSample, _ lens: LensParams) -> Float {
        let black = SIMD3<Float>(repeating: 0)
        var share = lens.labelOnFace != 0 ? black : lensContent(p, group, lens, true)
        let drawnAtP: Float = lens.labelOnFace != 0 ? 1 : lens.restingFill.w
        if drawnAtP > 0 {
            share = share + (labelOver(black, p, lens, SIMD3(repeating: 1)) - share) * drawnAtP
        }
        return max(share.x, share.y, share.z)
    }
}
