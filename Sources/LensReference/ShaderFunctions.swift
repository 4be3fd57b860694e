import LensModel
import LensResolve

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// The buffers a shader invocation reads, and the functions of `Shaders/lens_common.glsl` with the
/// same names, arguments and fp32 operation order. Read the two side by side. The GLSL
/// specialisation constants (`SHAPE_KINDS`, `SINGLE_SHAPE`) only let the driver drop code a group
/// does not use; they never change a result, so the reference has no counterpart.
/// One file on purpose (over 400 lines), like its GLSL twin: the two are read side by side.
struct ShaderContext {
    let frame: FrameParams
    let tables: [Float]
    let backdrop: [UInt32]
    let labelBytes: [UInt32]
    let shapes: [ShapeParams]
    let tiles: [SIMD4<UInt32>]
    let tileShapes: [UInt32]
    let foregroundPixels: [UInt32]
    let scratch: UnsafeMutableBufferPointer<SIMD4<Float>>
    let frosted: UnsafeMutableBufferPointer<SIMD4<Float>>
    let outputPixels: UnsafeMutableBufferPointer<UInt32>
    let compositePixels: UnsafeMutableBufferPointer<UInt32>
    /// The candidate shapes of the tile being shaded: offset and count in `tileShapes`.
    var tileCandidates = SIMD2<UInt32>(0, 0)
    /// The shader's `REACHES_LABEL` variant: whether the tile's samples can reach a label glyph;
    /// when not, sampling the label is skipped.
    var tileReachesLabel = true
    /// Whether no pixel of the tile being shaded shows glass (the resolver's glass-free mark):
    /// its pixels draw only the drop shadow.
    var tileIsGlassFree = false

    // ---- Polynomial log2/exp2: identical on both backends (no driver approximations). ----

    func log2Polynomial(_ value: Float) -> Float {
        let bits = Int32(bitPattern: value.bitPattern)
        let exponent = Float(((bits >> 23) & 255) - 127)
        let mantissa = Float(bitPattern: UInt32(bitPattern: (bits & 8_388_607) | 1_065_353_216))
        let t = (mantissa - 1) / (mantissa + 1)
        let t2 = t * t
        let series = t * (2 + t2 * (0.6666667 + t2 * (0.4 + t2 * (0.2857143 + t2 * (0.2222222 + t2 * 0.1818182)))))
        return exponent + series * 1.442695
    }

    func exp2Polynomial(_ value: Float) -> Float {
        let clamped = clamp(value, -126, 126)
        let whole = clamped.rounded(.down)
        let f = (clamped - whole) * 0.6931472
        let fraction =
            1 + f
            * (1 + f
                * (0.5 + f * (0.1666667 + f * (0.04166667 + f * (0.008333333 + f * (0.001388889 + f * 0.0001984127))))))
        return fraction * Float(bitPattern: UInt32(bitPattern: (Int32(whole) + 127) << 23))
    }

    func powerPolynomial(_ base: Float, _ exponent: Float) -> Float {
        if base <= 0 { return 0 }
        return exp2Polynomial(exponent * log2Polynomial(base))
    }

    // ---- Colour ----

    func srgbDecode(_ code: UInt32) -> Float {
        tables[TableLayout.srgbDecodeOffset + Int(code)]
    }

    func srgbEncode(_ value: Float) -> UInt32 {
        if !(value > 0) { return 0 }
        if value >= 1 { return 255 }
        let word = tables[TableLayout.srgbEncodeBucketOffset + Int(value.bitPattern >> 16)].bitPattern
        return (word & 255) + ((value.bitPattern & 0xFFFF) >= (word >> 8) ? 1 : 0)
    }

    func encodeCodes(_ color: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(Float(srgbEncode(color.x)), Float(srgbEncode(color.y)), Float(srgbEncode(color.z)))
    }

    func decodeCodes(_ codes: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(srgbDecode(UInt32(codes.x)), srgbDecode(UInt32(codes.y)), srgbDecode(UInt32(codes.z)))
    }

    func unpackColor(_ packed: UInt32) -> SIMD3<Float> {
        SIMD3(srgbDecode(packed & 255), srgbDecode((packed >> 8) & 255), srgbDecode((packed >> 16) & 255))
    }

    func packColor(_ color: SIMD3<Float>) -> UInt32 {
        srgbEncode(color.x) | (srgbEncode(color.y) << 8) | (srgbEncode(color.z) << 16) | (255 << 24)
    }

    func blendCode(_ code: Float, _ layerCode: Float, _ alpha: Float) -> Float {
        let blended = clamp((code * (1 - alpha) + layerCode + 0.5).rounded(.down), 0, 255)
        return srgbDecode(UInt32(blended))
    }

    func blendCodes(_ below: SIMD3<Float>, _ layerCodes: SIMD3<Float>, _ alpha: Float, _ channels: SIMD3<Float>)
        -> SIMD3<Float>
    {
        SIMD3(
            channels.x != 0 ? blendCode(Float(srgbEncode(below.x)), layerCodes.x, alpha) : below.x,
            channels.y != 0 ? blendCode(Float(srgbEncode(below.y)), layerCodes.y, alpha) : below.y,
            channels.z != 0 ? blendCode(Float(srgbEncode(below.z)), layerCodes.z, alpha) : below.z)
    }

    func blendChannelsOver(_ below: SIMD3<Float>, _ layer: SIMD4<Float>, _ channels: SIMD3<Float>) -> SIMD3<Float> {
        if !(layer.w > 0) { return below }
        let rgb = SIMD3(layer.x, layer.y, layer.z)
        if frame.linearBlending != 0 { return below * (1 - layer.w) + rgb }
        return blendCodes(below, rgb * 255, layer.w, channels)
    }

    func blendOver(_ below: SIMD3<Float>, _ layer: SIMD4<Float>) -> SIMD3<Float> {
        blendChannelsOver(below, layer, SIMD3(repeating: 1))
    }

    func composeLabel(
        _ background: SIMD3<Float>, _ glyph: Float, _ labelColor: SIMD4<Float>, _ channels: SIMD3<Float>
    ) -> SIMD3<Float> {
        blendChannelsOver(
            background, SIMD4(SIMD3(labelColor.x, labelColor.y, labelColor.z) * glyph, glyph * labelColor.w), channels)
    }

    func composeForeground(_ color: SIMD3<Float>, _ foreground: UInt32) -> SIMD3<Float> {
        let alpha = Float(foreground >> 24) / 255
        if frame.linearBlending != 0 { return blendOver(color, SIMD4(unpackColor(foreground) * alpha, alpha)) }
        let codes = SIMD3(Float(foreground & 255), Float((foreground >> 8) & 255), Float((foreground >> 16) & 255))
        return blendCodes(color, codes * alpha, alpha, SIMD3(repeating: 1))
    }

    func applySaturation(_ color: SIMD3<Float>, _ saturation: Float) -> SIMD3<Float> {
        let luma = color.x * 0.2126 + color.y * 0.7152 + color.z * 0.0722
        return pointwiseMax(SIMD3(repeating: luma) + (color - SIMD3(repeating: luma)) * saturation, SIMD3(repeating: 0))
    }

    func applyBrightnessContrast(_ color: SIMD3<Float>, _ brightness: Float, _ contrast: Float) -> SIMD3<Float> {
        pointwiseMax(
            (color - SIMD3(repeating: 0.5)) * contrast + SIMD3(repeating: 0.5 + brightness), SIMD3(repeating: 0))
    }

    func applyTint(_ color: SIMD3<Float>, _ tint: SIMD4<Float>) -> SIMD3<Float> {
        blendOver(color, tint)
    }

    func yccLevels(_ color: SIMD3<Float>, _ levels: SIMD4<Float>) -> SIMD3<Float> {
        let luma = color.x * 0.2126 + color.y * 0.7152 + color.z * 0.0722
        let mapped = luma * (levels.x - levels.y) + levels.y
        return SIMD3(repeating: mapped) + (color - SIMD3(repeating: luma)) * levels.z
    }

    func recolorOver(_ color: SIMD3<Float>, _ levels: SIMD4<Float>, _ alpha: Float) -> SIMD3<Float> {
        if frame.linearBlending != 0 {
            return color + (yccLevels(color, levels).clamped(lowerBound: .zero, upperBound: .one) - color) * alpha
        }
        let codes = encodeCodes(color)
        let layerCodes = yccLevels(codes / 255, levels).clamped(lowerBound: .zero, upperBound: .one) * 255 * alpha
        return SIMD3(
            blendCode(codes.x, layerCodes.x, alpha), blendCode(codes.y, layerCodes.y, alpha),
            blendCode(codes.z, layerCodes.z, alpha))
    }

    func axisPosition(_ p: SIMD2<Float>, _ axis: SIMD4<Float>) -> Float {
        (p.x - axis.x) * axis.z + (p.y - axis.y) * axis.w
    }

    // ---- Sampling ----

    func mirrorIndex(_ index: Int32, _ count: Int32) -> Int32 {
        var mirrored = index
        if mirrored < 0 { mirrored = -mirrored - 1 }
        if mirrored >= count { mirrored = 2 * count - 1 - mirrored }
        return clamp(mirrored, 0, count - 1)
    }

    func labelCoverage(_ x: Int32, _ y: Int32, _ wordOffset: UInt32) -> Float {
        let byteIndex = UInt32(y) * frame.labelWordsPerRow * 4 + UInt32(x)
        return Float((labelBytes[Int(wordOffset + (byteIndex >> 2))] >> ((byteIndex & 3) * 8)) & 255) / 255
    }

    func sampleLabel(_ position: SIMD2<Float>, _ wordOffset: UInt32) -> Float {
        let texel = position - SIMD2(repeating: 0.5)
        let base = texel.rounded(.down)
        let t = texel - base
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        let x0 = mirrorIndex(Int32(base.x), w)
        let x1 = mirrorIndex(Int32(base.x) + 1, w)
        let y0 = mirrorIndex(Int32(base.y), h)
        let y1 = mirrorIndex(Int32(base.y) + 1, h)
        let top =
            labelCoverage(x0, y0, wordOffset) + (labelCoverage(x1, y0, wordOffset) - labelCoverage(x0, y0, wordOffset))
            * t.x
        let bottom =
            labelCoverage(x0, y1, wordOffset) + (labelCoverage(x1, y1, wordOffset) - labelCoverage(x0, y1, wordOffset))
            * t.x
        return top + (bottom - top) * t.y
    }

    func sourceColor(_ index: Int, _ lens: LensParams) -> SIMD3<Float> {
        unpackColor(lens.readsComposite != 0 ? compositePixels[index] : backdrop[index])
    }

    func levelSize(_ extent: UInt32, _ level: UInt32) -> Int32 {
        Int32((extent + (1 << level) - 1) >> level)
    }

    func levelTexelIndex(_ x: Int32, _ y: Int32) -> Int {
        Int(frame.width) * Int(frame.height) + Int(y) * Int(levelSize(frame.width, FrostPyramid.firstStoredLevel))
            + Int(x)
    }

    func levelTexel(_ x: Int32, _ y: Int32, _ lens: LensParams) -> SIMD3<Float> {
        let size = Int32(1) << lens.frostLevel
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        var sum = SIMD3<Float>(repeating: 0)
        for dy in 0..<size {
            let sy = min(y * size + dy, h - 1)
            for dx in 0..<size {
                let sx = min(x * size + dx, w - 1)
                sum = sum + sourceColor(Int(sy * w + sx), lens)
            }
        }
        return sum * (1 / Float(size * size))
    }

    func sampleFrosted(_ position: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        let level = lens.frostLevel
        let texel = position * (1 / Float(UInt32(1) << level)) - SIMD2(repeating: 0.5)
        let base = texel.rounded(.down)
        let t = texel - base
        let stride = Int32(frame.width)
        let w = levelSize(frame.width, level)
        let h = levelSize(frame.height, level)
        let roundUp = (UInt32(1) << level) - 1
        let region = SIMD4<Int32>(
            Int32(lens.sourceRegion.x >> level), Int32(lens.sourceRegion.y >> level),
            Int32((lens.sourceRegion.z + roundUp) >> level), Int32((lens.sourceRegion.w + roundUp) >> level))
        let x0 = clamp(mirrorIndex(Int32(base.x), w), region.x, region.z - 1)
        let x1 = clamp(mirrorIndex(Int32(base.x) + 1, w), region.x, region.z - 1)
        let y0 = clamp(mirrorIndex(Int32(base.y), h), region.y, region.w - 1)
        let y1 = clamp(mirrorIndex(Int32(base.y) + 1, h), region.y, region.w - 1)
        let a = rgb(frosted[Int(y0 * stride + x0)])
        let b = rgb(frosted[Int(y0 * stride + x1)])
        let c = rgb(frosted[Int(y1 * stride + x0)])
        let d = rgb(frosted[Int(y1 * stride + x1)])
        let top = a + (b - a) * t.x
        let bottom = c + (d - c) * t.x
        return top + (bottom - top) * t.y
    }

    // ---- Geometry of one shape ----

    func vectorLength(_ v: SIMD2<Float>) -> Float {
        (v.x * v.x + v.y * v.y).squareRoot()
    }

    func safeNormalize(_ v: SIMD2<Float>) -> SIMD2<Float> {
        let len = vectorLength(v)
        return len > 1e-6 ? v / len : SIMD2(repeating: 0)
    }

    func cornerRadius(_ local: SIMD2<Float>, _ shape: ShapeParams) -> Float {
        if local.x < 0 {
            return local.y < 0 ? shape.cornerRadii.x : shape.cornerRadii.w
        }
        return local.y < 0 ? shape.cornerRadii.y : shape.cornerRadii.z
    }

    func cornerVector(_ q: SIMD2<Float>, _ shape: ShapeParams) -> SIMD2<Float> {
        let outside = pointwiseMax(q, SIMD2(repeating: 0))
        if shape.kind != 2 { return outside }
        let n = shape.exponent
        let px = powerPolynomial(outside.x, n)
        let py = powerPolynomial(outside.y, n)
        let norm = powerPolynomial(px + py, 1 / n)
        let direction = safeNormalize(SIMD2(powerPolynomial(outside.x, n - 1), powerPolynomial(outside.y, n - 1)))
        return direction * norm
    }

    func ellipseDistance(_ local: SIMD2<Float>, _ halfSize: SIMD2<Float>) -> Float {
        let k0 = vectorLength(SIMD2(local.x / halfSize.x, local.y / halfSize.y))
        let k1 = vectorLength(SIMD2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)))
        return k1 > 1e-6 ? k0 * (k0 - 1) / k1 : -min(halfSize.x, halfSize.y)
    }

    func shapeDistance(_ local: SIMD2<Float>, _ shape: ShapeParams) -> Float {
        let halfSize = SIMD2(shape.centerHalfSize.z, shape.centerHalfSize.w)
        if shape.kind == 1 { return ellipseDistance(local, halfSize) }
        let radius = cornerRadius(local, shape)
        let q = SIMD2(abs(local.x), abs(local.y)) - halfSize + SIMD2(repeating: radius)
        return min(max(q.x, q.y), 0) + vectorLength(cornerVector(q, shape)) - radius
    }

    func ellipseNormal(_ local: SIMD2<Float>, _ shape: ShapeParams) -> SIMD2<Float> {
        let halfSize = SIMD2(shape.centerHalfSize.z, shape.centerHalfSize.w)
        return safeNormalize(SIMD2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)))
    }

    func lightingNormal(_ local: SIMD2<Float>, _ shape: ShapeParams, _ smoothing: Float) -> SIMD2<Float> {
        if shape.kind == 1 { return ellipseNormal(local, shape) }
        let radius = cornerRadius(local, shape)
        let q =
            SIMD2(abs(local.x), abs(local.y)) - SIMD2(shape.centerHalfSize.z, shape.centerHalfSize.w)
            + SIMD2(repeating: radius)
        let outside = cornerVector(q, shape)
        let h = clamp(0.5 + (q.x - q.y) / (2 * smoothing), 0, 1)
        let interiorWeight = smoothing * clamp(1 - vectorLength(outside) / smoothing, 0, 1)
        let n = safeNormalize(outside + SIMD2(h, 1 - h) * interiorWeight)
        return SIMD2(local.x < 0 ? -n.x : n.x, local.y < 0 ? -n.y : n.y)
    }

    func boundsDistance(_ local: SIMD2<Float>, _ shape: ShapeParams) -> Float {
        let halfSize = SIMD2(shape.centerHalfSize.z, shape.centerHalfSize.w)
        let beyond = SIMD2(abs(local.x), abs(local.y)) - halfSize
        if beyond.x <= 0 && beyond.y <= 0 { return -max(halfSize.x, halfSize.y) }
        let box = vectorLength(pointwiseMax(beyond, SIMD2(repeating: 0)))
        if shape.kind == 0 { return box }
        let longShort = max(halfSize.x, halfSize.y) / min(halfSize.x, halfSize.y)
        let shortfall: Float = shape.kind == 1 ? 1.5 * longShort : 1.5
        return box / shortfall
    }

    // ---- Geometry of a glass group: shapes merged with a smooth minimum ----

    struct GroupSample {
        var distance: Float
        var lightNormal: SIMD2<Float>
        var ellipseNormal: SIMD2<Float>
        var center: SIMD2<Float>
        var tint: SIMD4<Float>

        /// All zero: where the group's fold starts, and a glass-free pixel's group.
        static let zero = GroupSample(distance: 0, lightNormal: .zero, ellipseNormal: .zero, center: .zero, tint: .zero)
    }

    func tintDensity(_ a: Float) -> Float {
        a * a
    }

    func groupSample(_ p: SIMD2<Float>, _ lens: LensParams, _ withNormals: Bool) -> GroupSample {
        var group = GroupSample.zero
        for i in 0..<tileCandidates.y {
            let shape = shapes[Int(tileShapes[Int(tileCandidates.x + i)])]
            let local = p - SIMD2(shape.centerHalfSize.x, shape.centerHalfSize.y)
            if i > 0 && boundsDistance(local, shape) > group.distance + lens.blend { continue }
            let distance = shapeDistance(local, shape)
            var lightNormal = SIMD2<Float>.zero
            var ellipse = SIMD2<Float>.zero
            if withNormals {
                lightNormal = lightingNormal(local, shape, lens.normalSmoothing)
                ellipse = ellipseNormal(local, shape)
            }
            var h: Float = 1
            if i > 0 {
                if lens.blend > 0 {
                    h = clamp(0.5 + 0.5 * (group.distance - distance) / lens.blend, 0, 1)
                } else {
                    h = distance < group.distance ? 1 : 0
                }
            }
            group.distance = group.distance + (distance - group.distance) * h - lens.blend * h * (1 - h)
            group.lightNormal = group.lightNormal + (lightNormal - group.lightNormal) * h
            group.ellipseNormal = group.ellipseNormal + (ellipse - group.ellipseNormal) * h
            group.center = group.center + (SIMD2(shape.centerHalfSize.x, shape.centerHalfSize.y) - group.center) * h
            if lens.shapeTints != 0 {
                let claim = h * tintDensity(shape.tint.w)
                let total = claim + (1 - h) * tintDensity(group.tint.w)
                let share = total > 0 ? claim / total : h
                group.tint = group.tint + (shape.tint - group.tint) * share
            }
        }
        group.lightNormal = safeNormalize(group.lightNormal)
        group.ellipseNormal = safeNormalize(group.ellipseNormal)
        return group
    }

    func groupDistance(_ p: SIMD2<Float>, _ lens: LensParams) -> Float {
        groupSample(p, lens, false).distance
    }

    func rampCoverage(_ p: SIMD2<Float>, _ lens: LensParams) -> Float {
        guard lens.coverageRamp.z != 0 || lens.coverageRamp.w != 0 else { return 1 }
        return clamp(axisPosition(p, lens.coverageRamp), 0, 1)
    }

    func coverage(_ distance: Float) -> Float {
        clamp(0.5 - distance, 0, 1)
    }

    func refractionNormal(_ group: GroupSample, _ lens: LensParams) -> SIMD2<Float> {
        safeNormalize(group.lightNormal + (group.ellipseNormal - group.lightNormal) * lens.ovalization)
    }

    func bandPosition(_ distance: Float, _ lens: LensParams) -> Float {
        if lens.bevelWidth <= 0 { return 0 }
        return clamp(1 + distance / lens.bevelWidth, 0, 1)
    }

    func surfaceDisplacement(_ distance: Float, _ lens: LensParams) -> Float {
        let x = bandPosition(distance, lens)
        if lens.profileOffset == 0 {
            return lens.bevelAmount * (1 - (1 - x * x).squareRoot())
        }
        let t = x * Float(TableLayout.profileSamples - 1)
        let index = min(UInt32(t.rounded(.down)), UInt32(TableLayout.profileSamples - 2))
        let f = t - Float(index)
        let a = tables[Int(lens.profileOffset + index)]
        let b = tables[Int(lens.profileOffset + index + 1)]
        return a + (b - a) * f
    }

    func smoothStep01(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = clamp((x - edge0) / (edge1 - edge0), 0, 1)
        return t * t * (3 - 2 * t)
    }

    func dropShadow(_ p: SIMD2<Float>, _ lens: LensParams) -> Float {
        let opacity = lens.shadow.w
        if opacity <= 0 { return 0 }
        let distance = groupDistance(p - SIMD2(lens.shadow.x, lens.shadow.y), lens)
        let radius = lens.shadow.z
        if radius < 0.5 { return opacity * coverage(distance) }
        return opacity * (1 - smoothStep01(-radius, radius, distance))
    }

    func innerShadow(_ p: SIMD2<Float>, _ lens: LensParams) -> Float {
        let opacity = lens.innerShadow.w
        if opacity <= 0 { return 0 }
        let distance = groupDistance(p - SIMD2(lens.innerShadow.x, lens.innerShadow.y), lens)
        let radius = max(lens.innerShadow.z, 0.5)
        return opacity * smoothStep01(-radius, radius, distance)
    }

    func featherMask(_ distance: Float, _ lens: LensParams) -> Float {
        if lens.softness < 0.5 { return coverage(distance) }
        return clamp(-distance / lens.softness, 0, 1)
    }

    func labelOver(_ below: SIMD3<Float>, _ position: SIMD2<Float>, _ lens: LensParams, _ channels: SIMD3<Float>)
        -> SIMD3<Float>
    {
        var color = below
        if !tileReachesLabel { return color }
        let glyph = sampleLabel(position, 0)
        if glyph > 0 {
            let accentShare = featherMask(groupDistance(position, lens), lens) * lens.accentStrength
            let labelColor = frame.restingColor + (frame.accentColor - frame.restingColor) * accentShare
            color = composeLabel(color, glyph * (1 - lens.liftedContentAlpha), labelColor, channels)
        }
        if lens.liftedContentAlpha > 0 {
            let lifted = sampleLabel(position, frame.liftedLabelWordOffset)
            color = composeLabel(color, lifted * lens.liftedContentAlpha, frame.liftedLabelColor, channels)
        }
        return color
    }

    func sampleContent(
        _ backdrop: SIMD2<Float>, _ label: SIMD2<Float>, _ lens: LensParams, _ withLabel: Bool,
        _ channels: SIMD3<Float>
    ) -> SIMD3<Float> {
        let color = sampleFrosted(backdrop, lens)
        if !withLabel || lens.labelOnFace != 0 { return color }
        return labelOver(color, label, lens, channels)
    }

    // ---- Apple's lens, stage by stage (the stage model) ----

    func stageOffset(_ group: GroupSample, _ amount: Float, _ height: Float, _ lens: LensParams) -> SIMD2<Float> {
        let t = clamp(-group.distance / height, 0, 1)
        let rise = (1 - (1 - t) * (1 - t)).squareRoot()
        return refractionNormal(group, lens) * (amount * (1 - rise) * coverage(group.distance))
    }

    func clampToStageBox(_ q: SIMD2<Float>, _ lens: LensParams) -> SIMD2<Float> {
        q.clamped(
            lowerBound: SIMD2(lens.stageBox.x, lens.stageBox.y) + SIMD2(repeating: 0.5),
            upperBound: SIMD2(lens.stageBox.z, lens.stageBox.w) - SIMD2(repeating: 0.5))
    }

    func stagedPositions(
        _ q: SIMD2<Float>, _ known: GroupSample, _ knownAtQ: Bool, _ lens: LensParams, _ withLabel: Bool
    ) -> SIMD4<Float> {
        var landed = SIMD4(q.x, q.y, q.x, q.y)
        var atQ = known
        var haveAtQ = knownAtQ
        let count: UInt32 = withLabel && lens.labelOnFace == 0 ? 4 : 2
        for stage in 0..<count {
            let chain = stage < 2 ? lens.backdropStages : lens.labelStages
            let first = stage & 1 == 0
            let amount = first ? chain.x : chain.z
            if amount == 0 { continue }
            var r = stage < 2 ? SIMD2(landed.x, landed.y) : SIMD2(landed.z, landed.w)
            var at = atQ
            if !first || !haveAtQ {
                at = groupSample(r, lens, true)
                if first {
                    atQ = at
                    haveAtQ = true
                }
            }
            r = clampToStageBox(r + stageOffset(at, amount, first ? chain.y : chain.w, lens), lens)
            if stage < 2 {
                landed.x = r.x
                landed.y = r.y
            } else {
                landed.z = r.x
                landed.w = r.y
            }
        }
        return landed
    }

    func integerPower(_ base: Float, _ exponent: UInt32) -> Float {
        var result: Float = 1
        for _ in 0..<exponent { result = result * base }
        return result
    }

    func rimLight(_ color: SIMD3<Float>, _ normal: SIMD2<Float>, _ distance: Float, _ lens: LensParams) -> SIMD3<Float>
    {
        if lens.rimWidth <= 0 { return color }
        let fade = 1 - lens.rimCurvature * clamp(-distance / lens.rimWidth, 0, 1)
        let band = fade * clamp(lens.rimWidth + distance + 0.5, 0, 1)
        let key =
            integerPower(max(normal.x * lens.keyLight.x + normal.y * lens.keyLight.y, 0), lens.rimFalloff)
            * lens.keyLight.z
        let fill =
            integerPower(max(normal.x * lens.fillLight.x + normal.y * lens.fillLight.y, 0), lens.rimFalloff)
            * lens.fillLight.z
        let light = min((key + fill) * band, 1)
        if lens.rimRecolor.w == 0 { return color + (SIMD3(repeating: 1) - color) * light }
        return recolorOver(color, lens.rimRecolor, light)
    }

    func edgeShading(_ color: SIMD3<Float>, _ distance: Float, _ lens: LensParams) -> SIMD3<Float> {
        var result = color
        if lens.fresnel > 0 {
            let x = bandPosition(distance, lens)
            let tilt = 1 - (1 - x * x).squareRoot()
            result = result + (SIMD3(repeating: 1) - result) * min(lens.fresnel * tilt * tilt * tilt, 1)
        }
        if lens.contourOpacity > 0 && lens.contourWidth > 0 {
            result = result * (1 - lens.contourOpacity * clamp(1 + distance / lens.contourWidth, 0, 1))
        }
        return result
    }

    func tintAt(_ p: SIMD2<Float>, _ lens: LensParams) -> SIMD4<Float> {
        if lens.gradientCount == 0 { return lens.tint }
        let u = clamp(axisPosition(p, lens.gradientAxis), 0, 1)
        let f = u * Float(lens.gradientCount - 1)
        let index = min(UInt32(f.rounded(.down)), lens.gradientCount - 2)
        let t = f - Float(index)
        let base = Int(lens.gradientOffset + index * 4)
        let a = SIMD4(tables[base], tables[base + 1], tables[base + 2], tables[base + 3])
        let b = SIMD4(tables[base + 4], tables[base + 5], tables[base + 6], tables[base + 7])
        return a + (b - a) * t
    }

    func edgeHighlightStroke(_ color: SIMD3<Float>, _ p: SIMD2<Float>, _ distance: Float, _ lens: LensParams)
        -> SIMD3<Float>
    {
        let width = lens.edgeHighlight.x
        if width <= 0 { return color }
        let stroke = clamp(distance + width + 0.5, 0, 1)
        let u = clamp(axisPosition(p, lens.highlightAxis), 0, 1)
        let alpha =
            u < 0.5
            ? lens.edgeHighlight.y + (lens.edgeHighlight.z - lens.edgeHighlight.y) * (u * 2)
            : lens.edgeHighlight.z + (lens.edgeHighlight.w - lens.edgeHighlight.z) * (u * 2 - 1)
        let amount = alpha * stroke
        return blendOver(color, SIMD4(SIMD3(repeating: amount), amount))
    }

    func touchGlowLight(_ color: SIMD3<Float>, _ p: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        if lens.touchGlow.w <= 0 { return color }
        let fade =
            1 - smoothStep01(0, lens.touchGlow.z, vectorLength(p - SIMD2(lens.touchGlow.x, lens.touchGlow.y)))
        return color + (SIMD3(repeating: 1) - color) * (lens.touchGlow.w * fade)
    }

    func shimmerBand(_ color: SIMD3<Float>, _ p: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        if lens.shimmer.z <= 0 { return color }
        let x = abs(axisPosition(p, lens.highlightAxis) - lens.shimmer.x) / lens.shimmer.y
        let band = 1 - smoothStep01(0, 1, x)
        return color + (SIMD3(repeating: 1) - color) * (lens.shimmer.z * band)
    }

    func samplePosition(_ p: SIMD2<Float>, _ group: GroupSample, _ lens: LensParams) -> SIMD2<Float> {
        if lens.warpsContentBelow == 0 { return p }
        let normal = refractionNormal(group, lens)
        let displaced = p - normal * surfaceDisplacement(group.distance, lens)
        return group.center + (displaced - group.center) * lens.inverseMagnification
    }

    // ---- What the glass shows ----

    func lensContent(_ p: SIMD2<Float>, _ group: GroupSample, _ lens: LensParams, _ withLabel: Bool)
        -> SIMD3<Float>
    {
        let staged = lens.stageModel != 0
        let source = staged ? p : samplePosition(p, group, lens)
        let offset = source - p
        let spread =
            staged && lens.aberration.x > 0
            ? lens.aberration.x * clamp(1 + group.distance / lens.aberration.w, 0, 1) : 0
        let spectral = !staged && lens.dispersion > 0 && lens.spectralTaps != 0
        let taps: UInt32 =
            staged
            ? (spread > 0 ? 7 : 1) : lens.dispersion <= 0 ? 1 : spectral ? UInt32(TableLayout.spectralTaps) : 3
        let n = staged ? refractionNormal(group, lens) : SIMD2<Float>(repeating: 0)
        let turned = SIMD2(
            n.x * lens.aberration.y - n.y * lens.aberration.z, n.x * lens.aberration.z + n.y * lens.aberration.y)
        var sum = SIMD3<Float>(repeating: 0)
        for tap in 0..<taps {
            var backdrop = source
            var label = source
            var weight = SIMD3<Float>(repeating: 1)
            if staged {
                let k: Float = taps == 1 ? 0 : Float(3 - Int32(tap)) / 3
                if taps != 1 { weight = SIMD3(max(k, 0) * 0.5, (1 - abs(k)) / 3, max(-k, 0) * 0.5) }
                let q = k == 0 ? p : p + turned * (spread * k)
                let landed = stagedPositions(q, group, k == 0, lens, withLabel)
                backdrop = SIMD2(landed.x, landed.y)
                label = group.center + (SIMD2(landed.z, landed.w) - group.center) * lens.labelInverseMagnification
            } else if spectral {
                let base = Int(UInt32(TableLayout.spectralOffset) + tap * 4)
                backdrop = p + offset * (1 + lens.dispersion * tables[base])
                label = backdrop
                weight = SIMD3(tables[base + 1], tables[base + 2], tables[base + 3])
            } else if taps == 3 {
                if tap != 1 { backdrop = p + offset * (tap == 0 ? 1 - lens.dispersion : 1 + lens.dispersion) }
                label = backdrop
                weight = SIMD3(tap == 0 ? 1 : 0, tap == 1 ? 1 : 0, tap == 2 ? 1 : 0)
            }
            sum = sum + sampleContent(backdrop, label, lens, withLabel, weight) * weight
        }
        return sum
    }

    func labelOverRestingFill(_ color: SIMD3<Float>, _ p: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        let alpha = lens.restingFill.w
        let straight = SIMD3(lens.restingFill.x, lens.restingFill.y, lens.restingFill.z) / alpha
        if frame.linearBlending != 0 {
            return color + (labelOver(straight, p, lens, SIMD3(repeating: 1)) - straight) * alpha
        }
        let fillCodes = pointwiseMin((straight * 255 + 0.5).rounded(.down), SIMD3(repeating: 255))
        let labelled = labelOver(decodeCodes(fillCodes), p, lens, SIMD3(repeating: 1))
        let codes = encodeCodes(color) + (encodeCodes(labelled) - fillCodes) * alpha
        return decodeCodes((codes + 0.5).rounded(.down).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)))
    }

    func glassColor(_ p: SIMD2<Float>, _ group: GroupSample, _ lens: LensParams, _ withLabel: Bool) -> SIMD3<Float> {
        var color = lensContent(p, group, lens, withLabel) * (1 - lens.darkening)
        color = applySaturation(color, lens.saturation)
        color = applyBrightnessContrast(color, lens.brightness, lens.contrast)
        if lens.faceLevels.w != 0 { color = recolorOver(color, lens.faceLevels, 1) }
        color = applyTint(color, lens.shapeTints != 0 ? group.tint : tintAt(p, lens))
        color = touchGlowLight(color, p, lens)
        // A resting thumb or pill is a fill under the label row: iOS draws the titles over it, so
        // over a translucent pill they keep their colour (cn-tab-bar: systemBlue to the level).
        if lens.restingFill.w > 0 {
            color = blendOver(color, lens.restingFill)
            if withLabel && lens.labelOnFace == 0 { color = labelOverRestingFill(color, p, lens) }
        }
        if withLabel && lens.labelOnFace != 0 { color = labelOver(color, p, lens, SIMD3(repeating: 1)) }
        color = rimLight(color, group.lightNormal, group.distance, lens)
        color = edgeHighlightStroke(color, p, group.distance, lens)
        color = shimmerBand(color, p, lens)
        color = edgeShading(color, group.distance, lens)
        return color * (1 - innerShadow(p, lens))
    }

    // ---- Kernels: the `main` of compose.comp, frost.comp and lens.comp for one pixel ----

    func compose(_ x: Int, _ y: Int) {
        let index = y * Int(frame.width) + x
        let glyph = labelCoverage(Int32(x), Int32(y), 0)
        if glyph == 0 {
            outputPixels[index] = backdrop[index]
            return
        }
        let background = unpackColor(backdrop[index])
        outputPixels[index] = packColor(composeLabel(background, glyph, frame.restingColor, SIMD3(repeating: 1)))
    }

    func overlay(_ x: Int, _ y: Int) {
        let index = y * Int(frame.width) + x
        let foreground = foregroundPixels[index]
        if foreground >> 24 == 0 { return }
        outputPixels[index] = packColor(composeForeground(unpackColor(outputPixels[index]), foreground))
    }

    /// Axis 2 for one lane of a row tile's workgroup: the level texels of the tile's rows across
    /// the tile widened by the kernel radius, mirrored at the level's sides.
    func storeLevelTexels(_ tile: SIMD4<UInt32>, lane: SIMD2<Int32>, _ lens: LensParams) {
        let w = levelSize(frame.width, lens.frostLevel)
        let h = levelSize(frame.height, lens.frostLevel)
        let tileSize = Int32(TableLayout.tileSize)
        let y = Int32(tile.y) * tileSize + lane.y
        if y >= h { return }
        let radius = Int32(lens.kernelRadius)
        let end = Int32(tile.x) * tileSize + tileSize + radius
        var x = Int32(tile.x) * tileSize - radius + lane.x
        while x < end {
            let stored = mirrorIndex(x, w)
            let texel = levelTexel(stored, y, lens)
            scratch[levelTexelIndex(stored, y)] = SIMD4(texel, 1)
            x += tileSize
        }
    }

    func frost(_ x: Int, _ y: Int, _ lens: LensParams, axis: UInt32) {
        let w = levelSize(frame.width, lens.frostLevel)
        let h = levelSize(frame.height, lens.frostLevel)
        if Int32(x) >= w || Int32(y) >= h { return }
        let stride = Int32(frame.width)
        let radius = Int32(lens.kernelRadius)
        var sum = SIMD3<Float>(repeating: 0)
        for i in -radius...radius {
            let weight = tables[Int(lens.kernelOffset) + Int(abs(i))]
            if axis == 0 {
                let sx = mirrorIndex(Int32(x) + i, w)
                let level =
                    lens.frostLevel >= FrostPyramid.firstStoredLevel
                    ? rgb(scratch[levelTexelIndex(sx, Int32(y))]) : levelTexel(sx, Int32(y), lens)
                sum = sum + level * weight
            } else {
                let sy = mirrorIndex(Int32(y) + i, h)
                sum = sum + rgb(scratch[Int(sy * stride + Int32(x))]) * weight
            }
        }
        let index = y * Int(frame.width) + x
        if axis == 0 {
            scratch[index] = SIMD4(sum, 1)
        } else {
            frosted[index] = SIMD4(sum, 1)
        }
    }

    func layOver(
        _ below: SIMD3<Float>, _ shadow: Float, _ glass: SIMD3<Float>, _ glassCoverage: Float, _ lens: LensParams
    ) -> SIMD3<Float> {
        var color = below * (1 - shadow)
        if glassCoverage > 0 {
            color = color + (glass - color) * (glassCoverage * lens.opacity)
        }
        return color
    }

    func lens(_ x: Int, _ y: Int, _ lens: LensParams) {
        let p = SIMD2(Float(x), Float(y)) + SIMD2(repeating: 0.5)
        var group = GroupSample.zero
        var glassCoverage: Float = 0
        if !tileIsGlassFree {
            group = groupSample(p, lens, true)
            glassCoverage = coverage(group.distance) * rampCoverage(p, lens)
        }
        let shadow = glassCoverage < 1 ? dropShadow(p, lens) * (1 - glassCoverage) : 0
        if glassCoverage <= 0 && shadow <= 0 { return }
        let index = y * Int(frame.width) + x
        let glass = glassCoverage > 0 ? glassColor(p, group, lens, true) : SIMD3<Float>(repeating: 0)
        outputPixels[index] = packColor(layOver(unpackColor(outputPixels[index]), shadow, glass, glassCoverage, lens))
        let region = lens.compositeRegion
        if UInt32(x) < region.x || UInt32(y) < region.y || UInt32(x) >= region.z || UInt32(y) >= region.w { return }
        let unlabeled = glassCoverage > 0 && tileReachesLabel ? glassColor(p, group, lens, false) : glass
        compositePixels[index] = packColor(
            layOver(unpackColor(compositePixels[index]), shadow, unlabeled, glassCoverage, lens))
    }
}

@inline(__always) func clamp<T: Comparable>(_ value: T, _ low: T, _ high: T) -> T {
    min(max(value, low), high)
}

@inline(__always) func rgb(_ value: SIMD4<Float>) -> SIMD3<Float> {
    SIMD3(value.x, value.y, value.z)
}
