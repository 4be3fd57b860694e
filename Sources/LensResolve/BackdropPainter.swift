import Foundation
import LensModel

/// Rasterises background layers into 8-bit sRGB pixels. Layers blend on their sRGB values (as
/// Core Animation, CSS and design tools do), or in linear light when the scene asks; the lens
/// then works in linear light on the result.
struct BackdropPainter {
    let width: Int
    let height: Int
    let scale: Double
    let blending: Blending
    let loadImage: (_ path: String, _ keyPath: String) throws -> RGBA8Image
    /// Shapes and rasterises text layers; nil when the scene has none.
    let text: (any TextRasterizer)?
    /// Keeps image layers resampled to the canvas, so frames that repaint the backdrop (another
    /// layer changed) do not resample them again.
    let cache: ResolveCache?

    init(
        width: Int, height: Int, scale: Double, blending: Blending = .srgb,
        loadImage: @escaping (_ path: String, _ keyPath: String) throws -> RGBA8Image,
        text: (any TextRasterizer)? = nil, cache: ResolveCache? = nil
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.blending = blending
        self.loadImage = loadImage
        self.text = text
        self.cache = cache
    }

    /// Every pixel of the canvas.
    private var canvas: PixelRegion { PixelRegion(x0: 0, y0: 0, x1: width, y1: height) }

    func paint(_ layers: [BackgroundLayer]) throws -> [UInt32] {
        paint(try shaders(layers), within: canvas)
    }

    /// `layers` painted over `kept`, the pixels of `previous`, repainting only where the layers
    /// that changed lie, before and after (a held control's rail and wash in a sweep): the same
    /// pixels as ``paint(_:)``, since every pixel is shaded on its own; the whole canvas when that
    /// region is most of it. Nil when the list changed length or `kept` is not the canvas's size.
    func repaint(_ layers: [BackgroundLayer], over kept: [UInt32], previous: [BackgroundLayer]) throws -> [UInt32]? {
        guard layers.count == previous.count, kept.count == width * height else { return nil }
        let changed = layers.indices.filter { layers[$0] != previous[$0] }
        guard !changed.isEmpty else { return kept }
        let current = try shaders(layers)
        var dirty: PixelRegion?
        for index in changed {
            let before = try shader(for: previous[index].kind, keyPath: "background[\(index)]").1
            let region = current[index].region.union(before)
            dirty = dirty.map { $0.union(region) } ?? region
        }
        guard let dirty else { return kept }
        guard !dirty.isEmpty else { return kept }
        guard dirty.width * dirty.height * 2 < width * height else {
            return paint(current, within: canvas)
        }
        let patch = paint(current, within: dirty)
        var pixels = kept
        let patchWidth = dirty.x1 - dirty.x0
        for y in dirty.y0..<dirty.y1 {
            let row = (y - dirty.y0) * patchWidth
            pixels.replaceSubrange(
                (y * width + dirty.x0)..<(y * width + dirty.x1), with: patch[row..<(row + patchWidth)])
        }
        return pixels
    }

    /// A layer ready to paint: its shader, the pixels it can touch and its opacity.
    private struct LayerShader {
        let shade: (Int, Int) -> SIMD4<Double>
        let region: PixelRegion
        let opacity: Double
    }

    /// Each layer's shader, built once (text shaped, images looked up) for every window it paints.
    private func shaders(_ layers: [BackgroundLayer]) throws -> [LayerShader] {
        try layers.indices.map { index in
            let (shade, region) = try shader(for: layers[index].kind, keyPath: "background[\(index)]")
            return LayerShader(shade: shade, region: region, opacity: layers[index].opacity)
        }
    }

    /// The layers painted over black within `window`: its pixels, row by row. Bands of rows are
    /// painted on all cores; each pixel still takes the layers in order, so the result does not
    /// depend on how the rows are split.
    private func paint(_ layers: [LayerShader], within window: PixelRegion) -> [UInt32] {
        let windowWidth = window.x1 - window.x0
        let windowHeight = window.y1 - window.y0
        let shaders = layers.compactMap { layer -> LayerShader? in
            let region = layer.region.intersection(window)
            return region.isEmpty ? nil : LayerShader(shade: layer.shade, region: region, opacity: layer.opacity)
        }
        var pixels = [UInt32](repeating: 0, count: windowWidth * windowHeight)
        let bandHeight = 16
        pixels.withUnsafeMutableBufferPointer { pixels in
            nonisolated(unsafe) let pixels = pixels
            nonisolated(unsafe) let shaders = shaders
            nonisolated(unsafe) let painter = self
            DispatchQueue.concurrentPerform(iterations: (windowHeight + bandHeight - 1) / bandHeight) { band in
                var row = [SIMD3<Double>](repeating: SIMD3(0, 0, 0), count: windowWidth)
                for y in window.y0 + band * bandHeight..<min(window.y1, window.y0 + (band + 1) * bandHeight) {
                    row.withUnsafeMutableBufferPointer { $0.update(repeating: SIMD3(0, 0, 0)) }
                    for layer in shaders where layer.region.y0 <= y && y < layer.region.y1 {
                        for x in layer.region.x0..<layer.region.x1 {
                            let color = layer.shade(x, y)
                            let amount = color.w * layer.opacity
                            guard amount > 0 else { continue }
                            let below = row[x - window.x0]
                            row[x - window.x0] =
                                below + (painter.toBlendSpace(SIMD3(color.x, color.y, color.z)) - below) * amount
                        }
                    }
                    let start = (y - window.y0) * windowWidth
                    for column in 0..<windowWidth {
                        pixels[start + column] = painter.packed(row[column], alpha: 255)
                    }
                }
            }
        }
        return pixels
    }

    /// An sRGB-encoded colour in the space layers blend in.
    private func toBlendSpace(_ color: SIMD3<Double>) -> SIMD3<Double> {
        guard blending == .linear else { return color }
        return SIMD3(
            ColorTables.srgbToLinear(color.x), ColorTables.srgbToLinear(color.y), ColorTables.srgbToLinear(color.z))
    }

    /// A blended colour back to sRGB encoding.
    private func fromBlendSpace(_ color: SIMD3<Double>) -> SIMD3<Double> {
        guard blending == .linear else { return color }
        return SIMD3(
            ColorTables.linearToSRGB(color.x), ColorTables.linearToSRGB(color.y), ColorTables.linearToSRGB(color.z))
    }

    /// A blended colour as 8-bit sRGB with `alpha`, packed `r | g << 8 | b << 16 | alpha << 24`.
    private func packed(_ color: SIMD3<Double>, alpha: UInt32) -> UInt32 {
        let bytes = (fromBlendSpace(color) * 255).rounded(.toNearestOrEven)
        let clamped = bytes.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
        return UInt32(clamped.x) | UInt32(clamped.y) << 8 | UInt32(clamped.z) << 16 | alpha << 24
    }

    /// Foreground layers over a transparent canvas: straight-alpha sRGB pixels packed
    /// `r | g << 8 | b << 16 | a << 24`, and the 16-px tiles holding any of them (x, y, 0, 0).
    func paintForeground(_ layers: [BackgroundLayer]) throws -> (pixels: [UInt32], tiles: [SIMD4<UInt32>]) {
        guard !layers.isEmpty else { return ([], []) }
        let shaders = try layers.indices.map { try shader(for: layers[$0].kind, keyPath: "foreground[\($0)]") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        // Colour and coverage are blended only over the box the layers can touch (a button's
        // title, a badge), not the whole canvas.
        let box = shaders.map(\.1).reduce(PixelRegion?.none) { box, region in box?.union(region) ?? region }
        guard let box, !box.isEmpty else { return (pixels, []) }
        let boxWidth = box.width
        var color = [SIMD3<Double>](repeating: SIMD3(0, 0, 0), count: boxWidth * box.height)
        var alpha = [Double](repeating: 0, count: boxWidth * box.height)
        for (layer, (shade, region)) in zip(layers, shaders) {
            for y in region.y0..<region.y1 {
                let row = (y - box.y0) * boxWidth - box.x0
                for x in region.x0..<region.x1 {
                    let value = shade(x, y)
                    let amount = value.w * layer.opacity
                    guard amount > 0 else { continue }
                    let pixel = row + x
                    let below = alpha[pixel] * (1 - amount)
                    let total = amount + below
                    color[pixel] =
                        (toBlendSpace(SIMD3(value.x, value.y, value.z)) * amount + color[pixel] * below) / total
                    alpha[pixel] = total
                }
            }
        }
        let size = TableLayout.tileSize
        let columns = (width + size - 1) / size
        var marked = [Bool](repeating: false, count: columns * ((height + size - 1) / size))
        for y in box.y0..<box.y1 {
            let row = (y - box.y0) * boxWidth - box.x0
            for x in box.x0..<box.x1 {
                let a = UInt32((min(max(alpha[row + x], 0), 1) * 255).rounded(.toNearestOrEven))
                guard a > 0 else { continue }
                marked[(y / size) * columns + x / size] = true
                pixels[y * width + x] = packed(color[row + x], alpha: a)
            }
        }
        let tiles = marked.indices.filter { marked[$0] }.map {
            SIMD4(UInt32($0 % columns), UInt32($0 / columns), 0, 0)
        }
        return (pixels, tiles)
    }

    /// sRGB colour with alpha of the layer at pixel (x, y), and the pixels it can touch.
    private func shader(for kind: BackgroundLayer.Kind, keyPath: String) throws -> (
        (Int, Int) -> SIMD4<Double>, PixelRegion
    ) {
        if case .text(let string, let center, let size, let weight, let color) = kind {
            return try shader(
                for: textMask(string, center: center, size: size, weight: weight, color: color, keyPath: keyPath),
                keyPath: keyPath)
        }
        let shade = try shaderEverywhere(for: kind, keyPath: keyPath)
        func around(_ frame: Rect, margin: Double) -> PixelRegion {
            PixelRegion(
                covering: frame.x * scale, frame.y * scale, (frame.x + frame.width) * scale,
                (frame.y + frame.height) * scale, margin: margin, width: width, height: height)
        }
        switch kind {
        case .fill(_, let frame, _):
            return (shade, around(frame, margin: 2))
        case .stroke(_, let frame, let lineWidth, _):
            return (shade, around(frame, margin: lineWidth * scale + 2))
        case .mask(let mask, let left, let top, _):
            return (
                shade,
                PixelRegion(
                    x0: min(width, max(0, left)), y0: min(height, max(0, top)),
                    x1: max(0, min(width, left + mask.width)), y1: max(0, min(height, top + mask.height)))
            )
        default:
            return (shade, canvas)
        }
    }

    /// A text layer as the mask layer of its shaped line, centred at `center`.
    private func textMask(
        _ string: String, center: Point, size: Double, weight: FontWeight, color: RGBAColor, keyPath: String
    ) throws -> BackgroundLayer.Kind {
        guard let text else {
            throw SceneError(keyPath: keyPath, message: "text layers need the text renderer")
        }
        let line = try text.line(string, font: FontSpec(weight: weight), pixelSize: size * scale)
        let penX = center.x * scale - line.advance / 2
        let baseline = center.y * scale + (line.ascent - line.descent) / 2
        return .mask(
            line.mask, left: Int((penX - line.originX).rounded()), top: Int((baseline - line.baseline).rounded()),
            color: color)
    }

    private func shaderEverywhere(for kind: BackgroundLayer.Kind, keyPath: String) throws -> (Int, Int) -> SIMD4<Double>
    {
        switch kind {
        case .solid(let color):
            let value = Self.vector(color)
            return { _, _ in value }
        case .gradient(let colors, let angle):
            return gradientShader(colors, angle: angle)
        case .checker(let size, let colors):
            let cell = size * scale
            let first = Self.vector(colors[0])
            let second = Self.vector(colors[1])
            return { x, y in
                let parity = Int((Double(x) / cell).rounded(.down)) + Int((Double(y) / cell).rounded(.down))
                return parity & 1 == 0 ? first : second
            }
        case .lines(let spacing, let lineWidth, let angle, let color):
            return linesShader(spacing: spacing, lineWidth: lineWidth, angle: angle, color: color)
        case .fill(let shape, let frame, let color):
            let value = Self.vector(color)
            let box = ShapeGeometry(shape: shape, frame: frame, scale: scale)
            return { x, y in
                let coverage = min(max(0.5 - box.distance(Double(x) + 0.5, Double(y) + 0.5), 0), 1)
                return SIMD4(value.x, value.y, value.z, value.w * coverage)
            }
        case .stroke(let shape, let frame, let lineWidth, let color):
            let value = Self.vector(color)
            let box = ShapeGeometry(shape: shape, frame: frame, scale: scale)
            let half = lineWidth * scale / 2
            return { x, y in
                let distance = box.distance(Double(x) + 0.5, Double(y) + 0.5)
                let coverage = min(max(half + 0.5 - abs(distance - half), 0), 1)
                return SIMD4(value.x, value.y, value.z, value.w * coverage)
            }
        case .image(let path):
            let image = try loadImage(path, "\(keyPath).path")
            let filled =
                cache?.aspectFilled(image, width: width, height: height) { aspectFill(image) } ?? aspectFill(image)
            let width = width
            return { x, y in SIMD4<Double>(filled[y * width + x]) }
        case .probe(let probe):
            return probeShader(probe)
        case .text(let string, let center, let size, let weight, let color):
            return try shaderEverywhere(
                for: textMask(string, center: center, size: size, weight: weight, color: color, keyPath: keyPath),
                keyPath: keyPath)
        case .mask(let mask, let left, let top, let color):
            let value = Self.vector(color)
            return { x, y in
                let mx = x - left
                let my = y - top
                guard mx >= 0, my >= 0, mx < mask.width, my < mask.height else { return .zero }
                return SIMD4(value.x, value.y, value.z, value.w * Double(mask.coverage[my * mask.width + mx]) / 255)
            }
        }
    }

    /// A linear gradient through `colors` at `angle` degrees, spanning the frame corner to corner.
    private func gradientShader(_ colors: [RGBAColor], angle: Double) -> (Int, Int) -> SIMD4<Double> {
        let stops = colors.map(Self.vector)
        let direction = SIMD2(cos(angle * .pi / 180), sin(angle * .pi / 180))
        let corners = [
            SIMD2<Double>(0, 0), SIMD2(Double(width), 0), SIMD2(0, Double(height)),
            SIMD2(Double(width), Double(height)),
        ]
        let projections = corners.map { ($0 * direction).sum() }
        let start = projections.min()!
        let span = max(projections.max()! - start, 1e-9)
        return { x, y in
            let t = ((SIMD2(Double(x) + 0.5, Double(y) + 0.5) * direction).sum() - start) / span
            let position = min(max(t, 0), 1) * Double(stops.count - 1)
            let index = min(Int(position), stops.count - 2)
            let fraction = position - Double(index)
            return stops[index] + (stops[index + 1] - stops[index]) * fraction
        }
    }

    /// Parallel lines `spacing` points apart at `angle` degrees, antialiased across their width.
    private func linesShader(spacing: Double, lineWidth: Double, angle: Double, color: RGBAColor)
        -> (Int, Int) -> SIMD4<Double>
    {
        let period = spacing * scale
        let halfWidth = lineWidth * scale / 2
        let across = SIMD2(-sin(angle * .pi / 180), cos(angle * .pi / 180))
        let value = Self.vector(color)
        return { x, y in
            let u = (SIMD2(Double(x) + 0.5, Double(y) + 0.5) * across).sum()
            let phase = u - (u / period).rounded(.down) * period
            let distance = min(phase, period - phase)
            let coverage = min(max(halfWidth + 0.5 - distance, 0), 1)
            return SIMD4(value.x, value.y, value.z, value.w * coverage)
        }
    }

    private func probeShader(_ probe: ProbeBackground) -> (Int, Int) -> SIMD4<Double> {
        switch probe {
        case .black:
            return { _, _ in SIMD4(0, 0, 0, 1) }
        case .white:
            return { _, _ in SIMD4(1, 1, 1, 1) }
        case .ramp:
            return { x, y in SIMD4(Double((4 * x) & 255) / 255, Double((4 * y) & 255) / 255, 0, 1) }
        case .grid:
            let minor = max(1, Int((10 * scale).rounded()))
            let major = minor * 5
            return { x, y in
                if x % major == 0 || y % major == 0 { return SIMD4(0, 0, 0, 1) }
                if x % minor == 0 || y % minor == 0 { return SIMD4(0.6, 0.6, 0.6, 1) }
                return SIMD4(1, 1, 1, 1)
            }
        }
    }

    /// `image` scaled to cover the canvas, centred, sampled bilinearly: straight RGBA in 0…1, a
    /// canvas pixel each, row by row.
    private func aspectFill(_ image: RGBA8Image) -> [SIMD4<Float>] {
        let ratio = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let offsetX = (Double(image.width) * ratio - Double(width)) / 2
        let offsetY = (Double(image.height) * ratio - Double(height)) / 2
        /// Where each canvas column (or row) samples: the two texels, clamped, and the weight.
        func taps(_ count: Int, offset: Double, size: Int) -> [(Int, Int, Double)] {
            (0..<count).map { index in
                let position = (Double(index) + 0.5 + offset) / ratio - 0.5
                let first = Int(position.rounded(.down))
                return (min(max(first, 0), size - 1), min(max(first + 1, 0), size - 1), position - Double(first))
            }
        }
        let columns = taps(width, offset: offsetX, size: image.width)
        let rows = taps(height, offset: offsetY, size: image.height)
        var filled = [SIMD4<Float>](repeating: .zero, count: width * height)
        image.pixels.withUnsafeBufferPointer { pixels in
            func texel(_ x: Int, _ y: Int) -> SIMD4<Double> {
                let index = (y * image.width + x) * 4
                return SIMD4(
                    Double(pixels[index]), Double(pixels[index + 1]), Double(pixels[index + 2]),
                    Double(pixels[index + 3])) / 255
            }
            for (y, (y0, y1, ty)) in rows.enumerated() {
                for (x, (x0, x1, tx)) in columns.enumerated() {
                    let top = texel(x0, y0) + (texel(x1, y0) - texel(x0, y0)) * tx
                    let bottom = texel(x0, y1) + (texel(x1, y1) - texel(x0, y1)) * tx
                    filled[y * width + x] = SIMD4<Float>(top + (bottom - top) * ty)
                }
            }
        }
        return filled
    }

    private static func vector(_ color: RGBAColor) -> SIMD4<Double> {
        SIMD4(color.red, color.green, color.blue, color.alpha)
    }
}
