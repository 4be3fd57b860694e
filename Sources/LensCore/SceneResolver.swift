import Foundation

/// Turns a ``Scene`` into ``FrameParameters``: points to pixels, colours to linear light, optics
/// capped to the shape, background and label rasterised.
public struct SceneResolver: Sendable {
    /// Most pixels a frame may have (8192 × 8192).
    public static let maxPixels = 8192 * 8192

    /// Loads images named by the scene (background images, label masks), relative paths already
    /// resolved against the scene file by the caller.
    public var loadImage: @Sendable (String) throws -> RGBA8Image

    public init(loadImage: @escaping @Sendable (String) throws -> RGBA8Image) {
        self.loadImage = loadImage
    }

    /// Resolves `scene`; `scale` overrides the canvas scale when given.
    public func resolve(_ scene: Scene, scale: Double? = nil) throws -> FrameParameters {
        try scene.validate()
        let scale = scale ?? scene.canvas.scale
        try check(scale, Limits.scale, "canvas.scale")
        let width = Int((scene.canvas.width * scale).rounded())
        let height = Int((scene.canvas.height * scale).rounded())
        guard width >= 1, height >= 1, width <= 8192, height <= 8192, width * height <= Self.maxPixels else {
            throw SceneError(
                keyPath: "canvas",
                message: "\(width)×\(height) px is outside 1…8192 px per side at scale \(scale.formatted)")
        }

        let backdrop = try BackdropPainter(width: width, height: height, scale: scale, loadImage: loadImage(_:keyPath:))
            .paint(scene.background)
        let wordsPerRow = (width + 3) / 4
        var labelWords = [UInt32](repeating: 0, count: wordsPerRow * height)
        var resting = LabelLayer.restingLight.linearPremultiplied
        var accent = LabelLayer.defaultAccent.linearPremultiplied
        if let label = scene.label {
            let mask = try labelMask(label)
            rasterizeLabel(
                mask, label: label, scale: scale, width: width, height: height, wordsPerRow: wordsPerRow,
                into: &labelWords)
            resting = label.resting.linearPremultiplied
            accent = label.accent.linearPremultiplied
        }

        var tables = ColorTables.srgbDecode + ColorTables.srgbEncodeThresholds
        var lenses: [LensParams] = []
        var regions: [LensRegions] = []
        for element in scene.glass {
            let kernel = Self.gaussianKernel(sigma: element.optics.frost * scale)
            var lens = Self.lensParams(element, scale: scale)
            lens.kernelOffset = UInt32(tables.count)
            lens.kernelRadius = UInt32(kernel.count - 1)
            tables += kernel
            let lensRegions = Self.regions(of: lens, width: width, height: height)
            lens.sourceRegion = SIMD4(
                UInt32(lensRegions.source.x0), UInt32(lensRegions.source.y0),
                UInt32(lensRegions.source.x1), UInt32(lensRegions.source.y1))
            lenses.append(lens)
            regions.append(lensRegions)
        }

        let frame = FrameParams(
            width: UInt32(width), height: UInt32(height), lensCount: UInt32(lenses.count),
            labelWordsPerRow: UInt32(wordsPerRow), restingColor: resting, accentColor: accent)
        return FrameParameters(
            backdrop: backdrop, labelWords: labelWords, frame: frame, lenses: lenses, regions: regions, tables: tables)
    }

    /// Loads an image the scene names; a failure becomes a ``SceneError`` at `keyPath`.
    private func loadImage(_ path: String, keyPath: String) throws -> RGBA8Image {
        do {
            return try loadImage(path)
        } catch {
            throw SceneError(keyPath: keyPath, message: "\(error)")
        }
    }

    private func labelMask(_ label: LabelLayer) throws -> AlphaImage {
        switch label.mask {
        case .image(let image):
            return image
        case .file(let path):
            let image = try loadImage(path, keyPath: "label.mask")
            let hasAlpha = stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] != 255 }
            let coverage = (0..<image.width * image.height).map { index -> UInt8 in
                if hasAlpha { return image.pixels[index * 4 + 3] }
                let sum =
                    Int(image.pixels[index * 4]) + Int(image.pixels[index * 4 + 1]) + Int(image.pixels[index * 4 + 2])
                return UInt8((sum + 1) / 3)
            }
            return AlphaImage(width: image.width, height: image.height, coverage: coverage)
        }
    }

    /// Places the mask on the canvas, resampling bilinearly from the mask's scale to the canvas's.
    private func rasterizeLabel(
        _ mask: AlphaImage, label: LabelLayer, scale: Double, width: Int, height: Int, wordsPerRow: Int,
        into words: inout [UInt32]
    ) {
        func maskValue(_ x: Int, _ y: Int) -> Double {
            guard x >= 0, y >= 0, x < mask.width, y < mask.height else { return 0 }
            return Double(mask.coverage[y * mask.width + x])
        }
        let minX = max(0, Int((label.origin.x * scale).rounded(.down)) - 1)
        let minY = max(0, Int((label.origin.y * scale).rounded(.down)) - 1)
        let maxX = min(width, Int(((label.origin.x + Double(mask.width) / label.scale) * scale).rounded(.up)) + 1)
        let maxY = min(height, Int(((label.origin.y + Double(mask.height) / label.scale) * scale).rounded(.up)) + 1)
        guard minX < maxX, minY < maxY else { return }
        for y in minY..<maxY {
            let v = ((Double(y) + 0.5) / scale - label.origin.y) * label.scale - 0.5
            let y0 = Int(v.rounded(.down))
            let ty = v - Double(y0)
            for x in minX..<maxX {
                let u = ((Double(x) + 0.5) / scale - label.origin.x) * label.scale - 0.5
                let x0 = Int(u.rounded(.down))
                let tx = u - Double(x0)
                let top = maskValue(x0, y0) + (maskValue(x0 + 1, y0) - maskValue(x0, y0)) * tx
                let bottom = maskValue(x0, y0 + 1) + (maskValue(x0 + 1, y0 + 1) - maskValue(x0, y0 + 1)) * tx
                let value = UInt32(max(0, min(255, (top + (bottom - top) * ty).rounded())))
                guard value > 0 else { continue }
                words[y * wordsPerRow + x / 4] |= value << UInt32((x % 4) * 8)
            }
        }
    }

    /// Normalised Gaussian weights w[0…r] for σ in pixels, r = ⌈3σ⌉; σ under ¼ px gives [1].
    public static func gaussianKernel(sigma: Double) -> [Float] {
        guard sigma >= 0.25 else { return [1] }
        let radius = Int((3 * sigma).rounded(.up))
        let raw = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        return raw.map { Float($0 / total) }
    }

    /// One glass element in pixels, with H and A capped to fit the shape.
    static func lensParams(_ element: GlassElement, scale: Double) -> LensParams {
        let box = RoundedBox(shape: element.shape, frame: element.frame, scale: scale)
        let halfWidth = box.halfWidth
        let halfHeight = box.halfHeight
        let radii = box.radii
        let shortHalf = min(halfWidth, halfHeight)
        let optics = element.optics
        let bevelWidth = min(optics.bevelWidth * scale, shortHalf / 2)
        let bevelAmount = min(optics.bevelAmount * scale, shortHalf)
        let magnification = optics.magnification
        // Largest sample offset: the bevel shift plus the magnification's pull at the far corner.
        let maxOffset =
            bevelAmount + (halfWidth * halfWidth + halfHeight * halfHeight).squareRoot() * abs(1 - 1 / magnification)
        let dispersion = optics.dispersion * maxOffset >= 0.25 ? optics.dispersion : 0
        let rim = optics.rimLight
        func direction(_ degrees: Double) -> (Float, Float) {
            let radians = degrees * .pi / 180
            return (Float(cos(radians)), Float(sin(radians)))
        }
        let key = direction(rim.key.angle)
        let fill = direction(rim.fill.angle)
        let shadow = optics.shadow
        return LensParams(
            centerHalfSize: SIMD4(Float(box.centerX), Float(box.centerY), Float(halfWidth), Float(halfHeight)),
            cornerRadii: SIMD4(Float(radii[0]), Float(radii[1]), Float(radii[2]), Float(radii[3])),
            tint: optics.tint.linearPremultiplied,
            keyLight: SIMD4(key.0, key.1, Float(rim.key.amount), 0),
            fillLight: SIMD4(fill.0, fill.1, Float(rim.fill.amount), 0),
            shadow: SIMD4(
                Float(shadow.offset.x * scale), Float(shadow.offset.y * scale), Float(shadow.radius * scale),
                Float(shadow.opacity)),
            sourceRegion: .zero,
            bevelWidth: Float(bevelWidth),
            bevelAmount: Float(bevelAmount),
            inverseMagnification: Float(1 / magnification),
            dispersion: Float(dispersion),
            saturation: Float(optics.saturation),
            softness: Float(optics.softness * scale),
            rimWidth: Float(rim.width * scale),
            rimFalloff: UInt32(rim.falloff),
            kernelOffset: 0,
            kernelRadius: 0,
            normalSmoothing: Float(max(1, bevelWidth / 2)),
            ovalization: Float(optics.ovalization))
    }

    /// The lens pass covers the shape and its shadow; the source covers the shape and the fringe
    /// dispersion can push past it.
    static func regions(of lens: LensParams, width: Int, height: Int) -> LensRegions {
        let center = SIMD2<Double>(Double(lens.centerHalfSize.x), Double(lens.centerHalfSize.y))
        let half = SIMD2<Double>(Double(lens.centerHalfSize.z), Double(lens.centerHalfSize.w))
        let offset = SIMD2<Double>(Double(lens.shadow.x), Double(lens.shadow.y))
        let shadowReach = lens.shadow.w > 0 ? Double(lens.shadow.z) : 0
        var minCorner = center - half
        var maxCorner = center + half
        if lens.shadow.w > 0 {
            minCorner = pointwiseMin(minCorner, center + offset - half - shadowReach)
            maxCorner = pointwiseMax(maxCorner, center + offset + half + shadowReach)
        }
        let lensRegion = PixelRegion(
            covering: minCorner.x, minCorner.y, maxCorner.x, maxCorner.y, margin: 1, width: width, height: height)
        let fringe = 2 + Double(lens.dispersion) * Double(lens.bevelAmount)
        let source = PixelRegion(
            covering: center.x - half.x, center.y - half.y, center.x + half.x, center.y + half.y, margin: fringe,
            width: width, height: height)
        return LensRegions(
            lens: lensRegion, source: source, frostRows: source.growingRows(by: Int(lens.kernelRadius), height: height))
    }
}
