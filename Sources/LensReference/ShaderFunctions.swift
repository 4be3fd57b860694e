import LensCore

/// The buffers a shader invocation reads, and the functions of `Shaders/lens_common.glsl` with the
/// same names, arguments and fp32 operation order. Read the two side by side.
struct ShaderContext {
    let frame: FrameParams
    let tables: UnsafeBufferPointer<Float>
    let backdrop: UnsafeBufferPointer<UInt32>
    let labelBytes: UnsafeBufferPointer<UInt32>
    let scratch: UnsafeMutableBufferPointer<SIMD4<Float>>
    let frosted: UnsafeMutableBufferPointer<SIMD4<Float>>
    let outputPixels: UnsafeMutableBufferPointer<UInt32>

    // ---- Colour ----

    func srgbDecode(_ code: UInt32) -> Float {
        tables[TableLayout.srgbDecodeOffset + Int(code)]
    }

    func srgbEncode(_ value: Float) -> UInt32 {
        var code: UInt32 = 0
        var step: UInt32 = 128
        while step > 0 {
            if value >= tables[TableLayout.srgbEncodeOffset + Int(code + step - 1)] {
                code = code + step
            }
            step = step >> 1
        }
        return code
    }

    func unpackColor(_ packed: UInt32) -> SIMD3<Float> {
        SIMD3(srgbDecode(packed & 255), srgbDecode((packed >> 8) & 255), srgbDecode((packed >> 16) & 255))
    }

    func packColor(_ color: SIMD3<Float>) -> UInt32 {
        srgbEncode(color.x) | (srgbEncode(color.y) << 8) | (srgbEncode(color.z) << 16) | (255 << 24)
    }

    func composeLabel(_ background: SIMD3<Float>, _ glyph: Float, _ labelColor: SIMD4<Float>) -> SIMD3<Float> {
        background * (1 - glyph * labelColor.w) + SIMD3(labelColor.x, labelColor.y, labelColor.z) * glyph
    }

    func applySaturation(_ color: SIMD3<Float>, _ saturation: Float) -> SIMD3<Float> {
        let luma = color.x * 0.2126 + color.y * 0.7152 + color.z * 0.0722
        return pointwiseMax(SIMD3(repeating: luma) + (color - SIMD3(repeating: luma)) * saturation, SIMD3(repeating: 0))
    }

    func applyTint(_ color: SIMD3<Float>, _ tint: SIMD4<Float>) -> SIMD3<Float> {
        color * (1 - tint.w) + SIMD3(tint.x, tint.y, tint.z)
    }

    // ---- Sampling ----

    func mirrorIndex(_ index: Int32, _ count: Int32) -> Int32 {
        var mirrored = index
        if mirrored < 0 { mirrored = -mirrored - 1 }
        if mirrored >= count { mirrored = 2 * count - 1 - mirrored }
        return clamp(mirrored, 0, count - 1)
    }

    func labelCoverage(_ x: Int32, _ y: Int32) -> Float {
        let byteIndex = UInt32(y) * frame.labelWordsPerRow * 4 + UInt32(x)
        return Float((labelBytes[Int(byteIndex >> 2)] >> ((byteIndex & 3) * 8)) & 255) / 255
    }

    func sampleLabel(_ position: SIMD2<Float>) -> Float {
        let texel = position - SIMD2(repeating: 0.5)
        let base = texel.rounded(.down)
        let t = texel - base
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        let x0 = mirrorIndex(Int32(base.x), w)
        let x1 = mirrorIndex(Int32(base.x) + 1, w)
        let y0 = mirrorIndex(Int32(base.y), h)
        let y1 = mirrorIndex(Int32(base.y) + 1, h)
        let top = labelCoverage(x0, y0) + (labelCoverage(x1, y0) - labelCoverage(x0, y0)) * t.x
        let bottom = labelCoverage(x0, y1) + (labelCoverage(x1, y1) - labelCoverage(x0, y1)) * t.x
        return top + (bottom - top) * t.y
    }

    func sampleFrosted(_ position: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        let texel = position - SIMD2(repeating: 0.5)
        let base = texel.rounded(.down)
        let t = texel - base
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        let region = SIMD4<Int32>(truncatingIfNeeded: lens.sourceRegion)
        let x0 = clamp(mirrorIndex(Int32(base.x), w), region.x, region.z - 1)
        let x1 = clamp(mirrorIndex(Int32(base.x) + 1, w), region.x, region.z - 1)
        let y0 = clamp(mirrorIndex(Int32(base.y), h), region.y, region.w - 1)
        let y1 = clamp(mirrorIndex(Int32(base.y) + 1, h), region.y, region.w - 1)
        let a = rgb(frosted[Int(y0 * w + x0)])
        let b = rgb(frosted[Int(y0 * w + x1)])
        let c = rgb(frosted[Int(y1 * w + x0)])
        let d = rgb(frosted[Int(y1 * w + x1)])
        let top = a + (b - a) * t.x
        let bottom = c + (d - c) * t.x
        return top + (bottom - top) * t.y
    }

    // ---- Geometry ----

    func vectorLength(_ v: SIMD2<Float>) -> Float {
        (v.x * v.x + v.y * v.y).squareRoot()
    }

    func safeNormalize(_ v: SIMD2<Float>) -> SIMD2<Float> {
        let len = vectorLength(v)
        return len > 1e-6 ? v / len : SIMD2(repeating: 0)
    }

    func cornerRadius(_ local: SIMD2<Float>, _ lens: LensParams) -> Float {
        if local.x < 0 {
            return local.y < 0 ? lens.cornerRadii.x : lens.cornerRadii.w
        }
        return local.y < 0 ? lens.cornerRadii.y : lens.cornerRadii.z
    }

    func shapeDistance(_ local: SIMD2<Float>, _ lens: LensParams) -> Float {
        let radius = cornerRadius(local, lens)
        let q =
            SIMD2(abs(local.x), abs(local.y)) - SIMD2(lens.centerHalfSize.z, lens.centerHalfSize.w)
            + SIMD2(repeating: radius)
        let outside = pointwiseMax(q, SIMD2(repeating: 0))
        return min(max(q.x, q.y), 0) + vectorLength(outside) - radius
    }

    func coverage(_ distance: Float) -> Float {
        clamp(0.5 - distance, 0, 1)
    }

    func lightingNormal(_ local: SIMD2<Float>, _ lens: LensParams) -> SIMD2<Float> {
        let radius = cornerRadius(local, lens)
        let q =
            SIMD2(abs(local.x), abs(local.y)) - SIMD2(lens.centerHalfSize.z, lens.centerHalfSize.w)
            + SIMD2(repeating: radius)
        let outside = pointwiseMax(q, SIMD2(repeating: 0))
        let smoothing = lens.normalSmoothing
        let h = clamp(0.5 + (q.x - q.y) / (2 * smoothing), 0, 1)
        let interiorWeight = smoothing * clamp(1 - vectorLength(outside) / smoothing, 0, 1)
        let n = safeNormalize(outside + SIMD2(h, 1 - h) * interiorWeight)
        return SIMD2(local.x < 0 ? -n.x : n.x, local.y < 0 ? -n.y : n.y)
    }

    func refractionNormal(_ local: SIMD2<Float>, _ boxNormal: SIMD2<Float>, _ lens: LensParams) -> SIMD2<Float> {
        let halfSize = SIMD2(lens.centerHalfSize.z, lens.centerHalfSize.w)
        let ellipseNormal = safeNormalize(
            SIMD2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)))
        return safeNormalize(boxNormal + (ellipseNormal - boxNormal) * lens.ovalization)
    }

    func bevelDisplacement(_ distance: Float, _ lens: LensParams) -> Float {
        if lens.bevelWidth <= 0 { return 0 }
        let x = clamp(1 + distance / lens.bevelWidth, 0, 1)
        return lens.bevelAmount * (1 - (1 - x * x).squareRoot())
    }

    func smoothStep01(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = clamp((x - edge0) / (edge1 - edge0), 0, 1)
        return t * t * (3 - 2 * t)
    }

    func dropShadow(_ local: SIMD2<Float>, _ lens: LensParams) -> Float {
        let opacity = lens.shadow.w
        if opacity <= 0 { return 0 }
        let distance = shapeDistance(local - SIMD2(lens.shadow.x, lens.shadow.y), lens)
        let radius = lens.shadow.z
        if radius < 0.5 { return opacity * coverage(distance) }
        return opacity * (1 - smoothStep01(-radius, radius, distance))
    }

    func featherMask(_ distance: Float, _ lens: LensParams) -> Float {
        if lens.softness < 0.5 { return coverage(distance) }
        return clamp(-distance / lens.softness, 0, 1)
    }

    func sampleContent(_ position: SIMD2<Float>, _ lens: LensParams) -> SIMD3<Float> {
        let background = sampleFrosted(position, lens)
        let glyph = sampleLabel(position)
        let accentShare = featherMask(
            shapeDistance(position - SIMD2(lens.centerHalfSize.x, lens.centerHalfSize.y), lens), lens)
        let labelColor = frame.restingColor + (frame.accentColor - frame.restingColor) * accentShare
        return composeLabel(background, glyph, labelColor)
    }

    func integerPower(_ base: Float, _ exponent: UInt32) -> Float {
        var result: Float = 1
        for _ in 0..<exponent { result = result * base }
        return result
    }

    func rimLight(_ color: SIMD3<Float>, _ normal: SIMD2<Float>, _ distance: Float, _ lens: LensParams) -> SIMD3<Float>
    {
        if lens.rimWidth <= 0 { return color }
        let band = clamp(1 + distance / lens.rimWidth, 0, 1)
        let key =
            integerPower(max(normal.x * lens.keyLight.x + normal.y * lens.keyLight.y, 0), lens.rimFalloff)
            * lens.keyLight.z
        let fill =
            integerPower(max(normal.x * lens.fillLight.x + normal.y * lens.fillLight.y, 0), lens.rimFalloff)
            * lens.fillLight.z
        let light = min((key + fill) * band, 1)
        return color + (SIMD3(repeating: 1) - color) * light
    }

    func glassColor(_ p: SIMD2<Float>, _ local: SIMD2<Float>, _ distance: Float, _ lens: LensParams) -> SIMD3<Float> {
        let boxNormal = lightingNormal(local, lens)
        let normal = refractionNormal(local, boxNormal, lens)
        let displaced = p - normal * bevelDisplacement(distance, lens)
        let center = SIMD2(lens.centerHalfSize.x, lens.centerHalfSize.y)
        let source = center + (displaced - center) * lens.inverseMagnification
        var color: SIMD3<Float>
        if lens.dispersion > 0 {
            let offset = source - p
            color = SIMD3(
                sampleContent(p + offset * (1 - lens.dispersion), lens).x,
                sampleContent(source, lens).y,
                sampleContent(p + offset * (1 + lens.dispersion), lens).z)
        } else {
            color = sampleContent(source, lens)
        }
        color = applySaturation(color, lens.saturation)
        color = applyTint(color, lens.tint)
        return rimLight(color, boxNormal, distance, lens)
    }

    // ---- Kernels: the `main` of compose.comp, frost.comp and lens.comp for one pixel ----

    func compose(_ x: Int, _ y: Int) {
        let index = y * Int(frame.width) + x
        let glyph = labelCoverage(Int32(x), Int32(y))
        if glyph == 0 {
            outputPixels[index] = backdrop[index]
            return
        }
        let background = unpackColor(backdrop[index])
        outputPixels[index] = packColor(composeLabel(background, glyph, frame.restingColor))
    }

    func frost(_ x: Int, _ y: Int, _ lens: LensParams, axis: UInt32) {
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        let radius = Int32(lens.kernelRadius)
        var sum = SIMD3<Float>(repeating: 0)
        for i in -radius...radius {
            let weight = tables[Int(lens.kernelOffset) + Int(abs(i))]
            if axis == 0 {
                let sx = mirrorIndex(Int32(x) + i, w)
                sum = sum + unpackColor(backdrop[Int(Int32(y) * w + sx)]) * weight
            } else {
                let sy = mirrorIndex(Int32(y) + i, h)
                sum = sum + rgb(scratch[Int(sy * w + Int32(x))]) * weight
            }
        }
        let index = y * Int(frame.width) + x
        if axis == 0 {
            scratch[index] = SIMD4(sum, 1)
        } else {
            frosted[index] = SIMD4(sum, 1)
        }
    }

    func lens(_ x: Int, _ y: Int, _ lens: LensParams) {
        let p = SIMD2(Float(x), Float(y)) + SIMD2(repeating: 0.5)
        let local = p - SIMD2(lens.centerHalfSize.x, lens.centerHalfSize.y)
        let distance = shapeDistance(local, lens)
        let glassCoverage = coverage(distance)
        let shadow = dropShadow(local, lens) * (1 - glassCoverage)
        if glassCoverage <= 0 && shadow <= 0 { return }
        let index = y * Int(frame.width) + x
        var color = unpackColor(outputPixels[index]) * (1 - shadow)
        if glassCoverage > 0 {
            let glass = glassColor(p, local, distance, lens)
            color = color + (glass - color) * glassCoverage
        }
        outputPixels[index] = packColor(color)
    }
}

@inline(__always) func clamp<T: Comparable>(_ value: T, _ low: T, _ high: T) -> T {
    min(max(value, low), high)
}

@inline(__always) func rgb(_ value: SIMD4<Float>) -> SIMD3<Float> {
    SIMD3(value.x, value.y, value.z)
}
