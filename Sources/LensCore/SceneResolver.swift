import Foundation

/// Turns a ``Scene`` into ``FrameParameters``: points to pixels, colours to linear light, optics
/// capped to the shape, background and label rasterised.
public struct SceneResolver: Sendable {
    /// Loads images named by the scene (background images, label masks), relative paths already
    /// resolved against the scene file by the caller.
    public var loadImage: @Sendable (String) throws -> RGBA8Image

    /// Shapes and rasterises the controls' text; scenes without controls need none.
    public var text: (any TextRasterizer)?

    /// Keeps the last backdrop and label raster, so frames of one scene paint them once.
    public var cache: ResolveCache?

    public init(
        loadImage: @escaping @Sendable (String) throws -> RGBA8Image, text: (any TextRasterizer)? = nil,
        cache: ResolveCache? = nil
    ) {
        self.loadImage = loadImage
        self.text = text
        self.cache = cache
    }

    /// Resolves `scene`; `scale` overrides the canvas scale when given.
    public func resolve(_ scene: Scene, scale: Double? = nil) throws -> FrameParameters {
        try scene.validate()
        let scale = scale ?? scene.canvas.scale
        try check(scale, Limits.scale, "canvas.scale")
        let width = Int((scene.canvas.width * scale).rounded())
        let height = Int((scene.canvas.height * scale).rounded())
        guard width >= 1, height >= 1, width <= 8192, height <= 8192 else {
            throw SceneError(
                keyPath: "canvas",
                message: "\(width)×\(height) px is outside 1…8192 px per side at scale \(scale.formatted)")
        }
        guard width * height <= Limits.maxPixels else {
            throw SceneError(
                keyPath: "canvas",
                message: "\(width)×\(height) px exceeds the pixel budget of \(Limits.maxPixels) (LIQUIDLENS_MAX_PIXELS)"
            )
        }

        let scene = try expandControls(scene, scale: scale, width: width, height: height)
        let backdropKey = ResolveCache.BackdropKey(
            width: width, height: height, scale: scale, layers: scene.background)
        func paintBackdrop() throws -> [UInt32] {
            try BackdropPainter(
                width: width, height: height, scale: scale, loadImage: loadImage(_:keyPath:), text: text
            )
            .paint(scene.background)
        }
        let backdrop = try cache?.backdrop(for: backdropKey, paint: paintBackdrop) ?? paintBackdrop()
        let wordsPerRow = (width + 3) / 4
        var frame = FrameParams(
            width: UInt32(width), height: UInt32(height), lensCount: UInt32(scene.glass.count),
            labelWordsPerRow: UInt32(wordsPerRow), restingColor: LabelLayer.restingLight.linearPremultiplied,
            accentColor: LabelLayer.defaultAccent.linearPremultiplied)
        let labelKey = ResolveCache.LabelKey(width: width, height: height, scale: scale, label: scene.label)
        func rasterize() throws -> [UInt32] {
            try rasterizeLabels(scene.label, scale: scale, width: width, height: height)
        }
        let labelWords = try cache?.labelWords(for: labelKey, rasterize: rasterize) ?? rasterize()
        let hasLiftedLabel = scene.label?.liftedMask != nil
        if let label = scene.label {
            frame.restingColor = label.resting.linearPremultiplied
            frame.accentColor = label.accent.linearPremultiplied
            if hasLiftedLabel {
                frame.liftedLabelWordOffset = UInt32(wordsPerRow * height)
                frame.liftedLabelColor = label.liftedColor.linearPremultiplied
            }
        }

        func presence() -> LabelPresence {
            LabelPresence(words: labelWords, wordsPerRow: wordsPerRow, width: width, height: height)
        }
        let labelPresence = cache?.presence(of: labelWords, make: presence) ?? presence()
        var tables = Self.fixedTables
        var shapes: [ShapeParams] = []
        var tiles: [SIMD4<UInt32>] = []
        var tileShapes: [UInt32] = []
        var lenses: [LensParams] = []
        var regions: [LensRegions] = []
        for element in scene.glass {
            let progress = element.lift?.progress ?? 1
            let growth =
                element.lift.map { (x: $0.growth.x * scale * progress, y: $0.growth.y * scale * progress) } ?? (0, 0)
            let geometry = element.shapes.map {
                ShapeGeometry(shape: $0.shape, frame: $0.frame, scale: scale, growth: growth)
            }
            let look = GlassLook(element, scene: scene)
            var styled = element
            styled.optics = look.optics
            var lens = Self.lensParams(styled, geometry: geometry, scale: scale, liftedContent: hasLiftedLabel)
            lens.shapeOffset = UInt32(shapes.count)
            shapes += geometry.map(\.parameters)

            let restingFrost = element.lift?.restingFrost ?? styled.optics.frost
            let kernel = Self.gaussianKernel(
                sigma: (restingFrost + (styled.optics.frost - restingFrost) * progress) * scale)
            lens.kernelOffset = UInt32(tables.count)
            lens.kernelRadius = UInt32(kernel.count - 1)
            tables += kernel
            if styled.optics.model == .physical {
                lens.profileOffset = UInt32(tables.count)
                tables += Self.physicalProfile(styled.optics, bandWidth: Double(lens.bevelWidth), scale: scale)
            }
            look.apply(to: &lens, geometry: geometry, scale: scale, tables: &tables)
            let lensRegions = Self.regions(of: lens, geometry: geometry, width: width, height: height)
            lens.sourceRegion = SIMD4(
                UInt32(lensRegions.source.x0), UInt32(lensRegions.source.y0),
                UInt32(lensRegions.source.x1), UInt32(lensRegions.source.y1))
            let lensTiles = Self.tiles(of: lens, geometry: geometry, region: lensRegions.lens)
            lens.tileOffset = UInt32(tiles.count)
            lens.tileCount = UInt32(lensTiles.count)
            for (tile, candidates) in lensTiles {
                tiles.append(SIMD4(tile.x, tile.y, UInt32(tileShapes.count), UInt32(candidates.count)))
                tileShapes += candidates.map { lens.shapeOffset + UInt32($0) }
            }
            let frost = Self.frostTiles(
                for: lens, lensTiles: lensTiles, geometry: geometry, source: lensRegions.source,
                shift: Self.maxShift(lens, tables: tables), width: width, height: height, labelIn: labelPresence.any)
            // Tiles whose samples reach a label glyph first, so each half is one dispatch of its variant.
            let lensTileRange = Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)
            let ordered = zip(tiles[lensTileRange], frost.reachesLabel)
            tiles.replaceSubrange(
                lensTileRange, with: ordered.filter { $0.1 }.map(\.0) + ordered.filter { !$0.1 }.map(\.0))
            lens.labelTileCount = UInt32(frost.reachesLabel.filter { $0 }.count)
            lens.frostTileOffset = UInt32(tiles.count)
            lens.frostTileCount = UInt32(frost.frost.count)
            tiles += frost.frost.map { SIMD4($0.x, $0.y, 0, 0) }
            lens.rowTileOffset = UInt32(tiles.count)
            lens.rowTileCount = UInt32(frost.rows.count)
            tiles += frost.rows.map { SIMD4($0.x, $0.y, 0, 0) }
            lenses.append(lens)
            regions.append(lensRegions)
        }
        let foreground = try BackdropPainter(
            width: width, height: height, scale: scale, loadImage: loadImage(_:keyPath:), text: text
        ).paintForeground(scene.foreground)
        frame.foregroundTileOffset = UInt32(tiles.count)
        frame.foregroundTileCount = UInt32(foreground.tiles.count)
        tiles += foreground.tiles
        return FrameParameters(
            backdrop: backdrop, labelWords: labelWords, frame: frame, lenses: lenses, shapes: shapes, tiles: tiles,
            tileShapes: tileShapes, regions: regions, tables: tables, foreground: foreground.pixels)
    }

    /// The scene with its controls laid out as backdrop layers, glass and a label row.
    private func expandControls(_ scene: Scene, scale: Double, width: Int, height: Int) throws -> Scene {
        guard !scene.controls.isEmpty else { return scene }
        guard let text else {
            throw SceneError(
                keyPath: "controls", message: "controls need a text renderer (LensRenderer.resolve provides one)")
        }
        let layout = ControlLayout(scale: scale, width: width, height: height, text: text) { path, keyPath in
            try labelMask(.file(path), keyPath: keyPath)
        }
        // The scene's Reduce Motion covers its controls (no rail growth).
        let controls = scene.controls.map { control -> Control in
            guard scene.accessibility.reduceMotion, case .segmented(var segmented) = control else { return control }
            segmented.reduceMotion = true
            return .segmented(segmented)
        }
        let parts: ControlLayout.Parts
        do {
            parts = try layout.layout(controls)
        } catch let error as SceneError {
            throw error
        } catch {
            throw SceneError(keyPath: "controls", message: "\(error)")
        }
        var expanded = scene
        expanded.controls = []
        expanded.background += parts.background
        expanded.glass += parts.glass
        if scene.controls.contains(where: \.usesLabelRow) {
            expanded.label = LabelLayer(
                mask: .image(parts.mask), scale: scale, resting: parts.resting, accent: parts.accent)
        }
        addGlassControls(scene, to: &expanded)
        try expanded.validate()
        return expanded
    }

    /// Draws the glass controls (buttons, switches, cards, bars, sheets) in order: their glass
    /// after the scene's, their labels in the foreground; a presented sheet dims the backdrop.
    private func addGlassControls(_ scene: Scene, to expanded: inout Scene) {
        var panel = PanelBuilder(origin: Point(x: 0, y: 0), scale: 1)
        for control in scene.controls {
            guard case .glass(let glass) = control else { continue }
            if glass.kind == .bottomSheet && glass.presented {
                panel.fill(
                    .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height), GlassControl.dimming)
            }
            glass.draw(into: &panel, sceneTheme: scene.theme)
        }
        expanded.background += panel.background
        expanded.glass += panel.glass
        expanded.foreground += panel.foreground
    }

    /// Loads an image the scene names; a failure becomes a ``SceneError`` at `keyPath`.
    private func loadImage(_ path: String, keyPath: String) throws -> RGBA8Image {
        do {
            return try loadImage(path)
        } catch {
            throw SceneError(keyPath: keyPath, message: "\(error)")
        }
    }

    /// The label row's coverage packed four bytes per word, followed by the lifted row when there is one.
    private func rasterizeLabels(_ label: LabelLayer?, scale: Double, width: Int, height: Int) throws -> [UInt32] {
        let wordsPerRow = (width + 3) / 4
        let labelWordCount = wordsPerRow * height
        var labelWords = [UInt32](repeating: 0, count: labelWordCount)
        guard let label else { return labelWords }
        rasterizeLabel(
            try labelMask(label.mask, keyPath: "label.mask"), label: label, scale: scale, width: width,
            height: height, wordsPerRow: wordsPerRow, into: &labelWords[...])
        if let liftedMask = label.liftedMask {
            labelWords += [UInt32](repeating: 0, count: labelWordCount)
            rasterizeLabel(
                try labelMask(liftedMask, keyPath: "label.liftedMask"), label: label, scale: scale, width: width,
                height: height, wordsPerRow: wordsPerRow, into: &labelWords[labelWordCount...])
        }
        return labelWords
    }

    private func labelMask(_ mask: LabelMask, keyPath: String) throws -> AlphaImage {
        switch mask {
        case .image(let image):
            return image
        case .file(let path):
            let image = try loadImage(path, keyPath: keyPath)
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
        into words: inout ArraySlice<UInt32>
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
                words[words.startIndex + y * wordsPerRow + x / 4] |= value << UInt32((x % 4) * 8)
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

    /// One glass group in pixels, with H and A capped to fit its smallest shape and the lift applied.
    static func lensParams(_ element: GlassElement, geometry: [ShapeGeometry], scale: Double, liftedContent: Bool)
        -> LensParams
    {
        let optics = element.optics
        let progress = element.lift?.progress ?? 1
        let shortHalf = geometry.map { min($0.halfWidth, $0.halfHeight) }.min() ?? 0
        let longest =
            geometry.map { ($0.halfWidth * $0.halfWidth + $0.halfHeight * $0.halfHeight).squareRoot() }.max() ?? 0
        let bevelWidth = min(optics.bevelWidth * scale, shortHalf / 2)
        let restingAmount = element.lift?.restingBevelAmount ?? optics.bevelAmount
        let bevelAmount = min((restingAmount + (optics.bevelAmount - restingAmount) * progress) * scale, shortHalf)
        let magnification = 1 + (optics.magnification - 1) * progress
        let maxShift = optics.model == .bevel ? bevelAmount : bevelWidth
        // Largest sample offset: the surface shift plus the magnification's pull at the far corner.
        let maxOffset = maxShift + longest * abs(1 - 1 / magnification)
        let rim = optics.rimLight
        func direction(_ degrees: Double) -> (Float, Float) {
            let radians = degrees * .pi / 180
            return (Float(cos(radians)), Float(sin(radians)))
        }
        let key = direction(rim.key.angle)
        let fill = direction(rim.fill.angle)
        func shadowVector(_ shadow: DropShadow) -> SIMD4<Float> {
            SIMD4(
                Float(shadow.offset.x * scale), Float(shadow.offset.y * scale), Float(shadow.radius * scale),
                Float(shadow.opacity))
        }
        var resting = element.lift?.restingBackground ?? .clear
        resting.alpha *= 1 - progress

        var lens = LensParams()
        lens.tint = optics.tint.linearPremultiplied
        lens.keyLight = SIMD4(key.0, key.1, Float(rim.key.amount), 0)
        lens.fillLight = SIMD4(fill.0, fill.1, Float(rim.fill.amount), 0)
        lens.shadow = shadowVector(optics.shadow)
        lens.innerShadow = shadowVector(optics.innerShadow)
        lens.restingFill = resting.linearPremultiplied
        lens.shapeCount = UInt32(geometry.count)
        lens.blend = Float(element.blend * scale)
        lens.bevelWidth = Float(bevelWidth)
        lens.bevelAmount = Float(bevelAmount)
        lens.inverseMagnification = Float(1 / magnification)
        lens.dispersion = optics.dispersion * maxOffset >= 0.25 ? Float(optics.dispersion) : 0
        lens.spectralTaps = optics.dispersionMode == .spectral ? UInt32(TableLayout.spectralTaps) : 0
        lens.saturation = Float(optics.saturation)
        lens.brightness = Float(optics.brightness)
        lens.contrast = Float(optics.contrast)
        lens.softness = Float(optics.softness * scale)
        lens.rimWidth = Float(rim.width * scale)
        lens.rimFalloff = UInt32(rim.falloff)
        lens.fresnel = Float(optics.fresnel)
        lens.contourWidth = Float(optics.contour.width * scale)
        lens.contourOpacity = Float(optics.contour.opacity)
        lens.normalSmoothing = Float(max(1, bevelWidth / 2))
        lens.ovalization = Float(optics.ovalization)
        lens.liftedContentAlpha = liftedContent ? Float(progress) : 0
        lens.warpsContentBelow = optics.warpsContentBelow ? 1 : 0
        lens.accentStrength = optics.tintsLabel ? 1 : 0
        lens.darkening = optics.appearance == .dark ? 0.3 : 0
        return lens
    }

    /// Inward displacement (pixels) across the band for the physical model, x = 0 at depth H to
    /// x = 1 at the silhouette: the vertical view ray refracted by the surface (Snell) and carried
    /// down to the backdrop plane. Computed once in `Double`; both backends interpolate it.
    public static func physicalProfile(_ optics: Optics, bandWidth: Double, scale: Double) -> [Float] {
        let samples = TableLayout.profileSamples
        // Air on both sides of the surface bends nothing; skip the rounding of the Snell terms.
        guard optics.ior > 1 else { return [Float](repeating: 0, count: samples) }
        let thickness = optics.thickness * scale
        let ratio = 1 / optics.ior
        return (0..<samples).map { index in
            let x = Double(index) / Double(samples - 1)
            guard bandWidth > 0 else { return 0 }
            let s = 1 - x
            let height = thickness * optics.profile.height(s)
            // Slope along the outward direction (x grows outward, s shrinks), by central difference;
            // past s = 1 the surface mirrors, as the flat face continues it, so the slope there is 0.
            let step = 1e-4
            func mirroredHeight(_ s: Double) -> Double { optics.profile.height(s > 1 ? 2 - s : s) }
            let lower = max(s - step, 0)
            let rise = mirroredHeight(s + step) - mirroredHeight(lower)
            let slope = -thickness * rise / ((s + step - lower) * bandWidth)
            // Surface normal (outward r, up z), refracted view ray going down.
            let normalLength = (slope * slope + 1).squareRoot()
            let normalR = -slope / normalLength
            let normalZ = 1 / normalLength
            let cosine = normalZ
            let radicand = 1 - ratio * ratio * (1 - cosine * cosine)
            guard radicand >= 0 else { return 0 }
            let factor = ratio * cosine - radicand.squareRoot()
            let rayR = factor * normalR
            let rayZ = -ratio + factor * normalZ
            guard rayZ < -1e-9 else { return 0 }
            return Float(-rayR * height / -rayZ)
        }
    }

    /// Seven spectral taps from the red end (scale 1−k) to the blue end (1+k), each weighted into
    /// red, green and blue by a Gaussian response; each channel's weights sum to 1.
    /// The tables every frame starts with, in ``TableLayout`` order: sRGB decode, encode
    /// thresholds, spectral taps, encode buckets.
    public static let fixedTables =
        ColorTables.srgbDecode + ColorTables.srgbEncodeThresholds + spectralTable() + ColorTables.srgbEncodeBuckets

    static func spectralTable() -> [Float] {
        let taps = TableLayout.spectralTaps
        let positions = (0..<taps).map { -1 + 2 * Double($0) / Double(taps - 1) }
        let centres = [-0.66, 0.0, 0.66]
        let responses = centres.map { centre in positions.map { exp(-($0 - centre) * ($0 - centre) / (2 * 0.25)) } }
        let sums = responses.map { $0.reduce(0, +) }
        return (0..<taps).flatMap { tap in
            [Float(positions[tap])] + (0..<3).map { Float(responses[$0][tap] / sums[$0]) }
        }
    }

    /// The 16-pixel tiles of `region` that some shape can reach (its box grown by the antialiasing,
    /// the blend bridge and the drop shadow), each with its candidate shapes: those whose box lies
    /// within the blend radius plus the farthest a lens evaluation looks from its pixel (the
    /// sample shift and magnification pull, the shadow offsets and radii). A shape beyond that
    /// only changes group distances already past every visible threshold, so leaving it out keeps
    /// the picture and makes the per-pixel cost independent of far shapes.
    static func tiles(
        of lens: LensParams, geometry: [ShapeGeometry], region: PixelRegion
    ) -> [(tile: SIMD2<UInt32>, candidates: [Int])] {
        guard !region.isEmpty else { return [] }
        let blend = Double(lens.blend)
        let shadowReach =
            lens.shadow.w > 0
            ? (Double(lens.shadow.x * lens.shadow.x + lens.shadow.y * lens.shadow.y)).squareRoot()
                + Double(lens.shadow.z) : 0
        let innerReach =
            lens.innerShadow.w > 0
            ? (Double(lens.innerShadow.x * lens.innerShadow.x + lens.innerShadow.y * lens.innerShadow.y)).squareRoot()
                + Double(lens.innerShadow.z) : 0
        let sampleReach = Self.sampleReach(lens, geometry)
        let influence = 1 + blend / 4 + shadowReach
        let candidateReach = 2 + blend + max(influence, sampleReach, innerReach)
        let size = Double(TableLayout.tileSize)
        var result: [(tile: SIMD2<UInt32>, candidates: [Int])] = []
        for tileY in (region.y0 / TableLayout.tileSize)...((region.y1 - 1) / TableLayout.tileSize) {
            for tileX in (region.x0 / TableLayout.tileSize)...((region.x1 - 1) / TableLayout.tileSize) {
                let minX = Double(tileX) * size
                let minY = Double(tileY) * size
                func gap(_ shape: ShapeGeometry) -> Double {
                    let dx = max(
                        shape.centerX - shape.halfWidth - (minX + size), minX - (shape.centerX + shape.halfWidth), 0)
                    let dy = max(
                        shape.centerY - shape.halfHeight - (minY + size), minY - (shape.centerY + shape.halfHeight), 0)
                    return (dx * dx + dy * dy).squareRoot()
                }
                let gaps = geometry.map(gap)
                guard gaps.contains(where: { $0 <= influence }) else { continue }
                let candidates = gaps.indices.filter { gaps[$0] <= candidateReach }
                result.append((SIMD2(UInt32(tileX), UInt32(tileY)), candidates))
            }
        }
        return result
    }

    /// The farthest a lens sample lands from its pixel: the surface shift (with the dispersion
    /// spread) plus the magnification's pull at the far corner of the largest shape.
    static func sampleReach(_ lens: LensParams, _ geometry: [ShapeGeometry]) -> Double {
        let longest =
            geometry.map { ($0.halfWidth * $0.halfWidth + $0.halfHeight * $0.halfHeight).squareRoot() }.max() ?? 0
        let pull = longest * abs(1 - Double(lens.inverseMagnification))
        return Double(max(lens.bevelAmount, lens.bevelWidth)) * (1 + Double(lens.dispersion)) + pull
    }

    /// The largest surface shift of the lens, either way along the normal, in pixels.
    static func maxShift(_ lens: LensParams, tables: [Float]) -> Double {
        guard lens.profileOffset != 0 else { return Double(lens.bevelAmount) }
        let profile = tables[Int(lens.profileOffset)..<Int(lens.profileOffset) + TableLayout.profileSamples]
        return Double(profile.map(abs).max() ?? 0)
    }

    /// The tiles the frost passes write. For each lens tile the box its samples can land in is
    /// bounded exactly: a sample is c + (q − c)/m with q the pixel moved at most `shift` along the
    /// normal and c a blend of the candidate shapes' centres, so its extremes come from the
    /// centres and the corners of the grown tile; dispersion scales the offset by 1 ± k; then the
    /// box is mirrored at the canvas edge and clamped into the source box, as `sampleFrosted`
    /// does. The vertical pass writes every tile those boxes touch; the horizontal pass writes
    /// them grown by the kernel radius in rows.
    static func frostTiles(
        for lens: LensParams, lensTiles: [(tile: SIMD2<UInt32>, candidates: [Int])], geometry: [ShapeGeometry],
        source: PixelRegion, shift: Double, width: Int, height: Int, labelIn: (PixelRegion) -> Bool = { _ in true }
    ) -> (frost: [SIMD2<UInt32>], rows: [SIMD2<UInt32>], reachesLabel: [Bool]) {
        let size = TableLayout.tileSize
        let columns = (width + size - 1) / size
        let rows = (height + size - 1) / size
        var frost = [Bool](repeating: false, count: columns * rows)
        var reachesLabel: [Bool] = []
        let scale = Double(lens.inverseMagnification)
        let spread = Double(lens.dispersion)
        for (tile, candidates) in lensTiles {
            let pixelMin = SIMD2(Double(tile.x), Double(tile.y)) * Double(size)
            let pixelCorners = [
                pixelMin, pixelMin + SIMD2(Double(size), 0), pixelMin + SIMD2(0, Double(size)), pixelMin + Double(size),
            ]
            var samples = pixelCorners
            if lens.warpsContentBelow != 0 {
                let low: SIMD2<Double> = pixelMin - shift
                let high: SIMD2<Double> = pixelMin + (Double(size) + shift)
                let moved: [SIMD2<Double>] = [low, SIMD2(high.x, low.y), SIMD2(low.x, high.y), high]
                var sources: [SIMD2<Double>] = []
                for index in candidates {
                    let centre = SIMD2(geometry[index].centerX, geometry[index].centerY)
                    for corner in moved { sources.append(centre + (corner - centre) * scale) }
                }
                samples = sources
                for p in pixelCorners {
                    for sample in sources {
                        let offset: SIMD2<Double> = sample - p
                        samples.append(p + offset * (1 + spread))
                        samples.append(p + offset * (1 - spread))
                    }
                }
            }
            var lower = samples.reduce(SIMD2(repeating: Double.infinity)) { pointwiseMin($0, $1) } - 2
            var upper = samples.reduce(SIMD2(repeating: -Double.infinity)) { pointwiseMax($0, $1) } + 2
            for (axis, extent) in [(0, Double(width)), (1, Double(height))] {
                if lower[axis] < 0 { upper[axis] = max(upper[axis], -lower[axis]) }
                if upper[axis] > extent { lower[axis] = min(lower[axis], 2 * extent - upper[axis]) }
            }
            // The label is sampled at the same positions, mirrored but not held inside the source.
            reachesLabel.append(
                labelIn(
                    PixelRegion(covering: lower.x, lower.y, upper.x, upper.y, margin: 1, width: width, height: height)))
            lower = pointwiseMax(lower, SIMD2(Double(source.x0), Double(source.y0)))
            upper = pointwiseMin(upper, SIMD2(Double(source.x1), Double(source.y1)))
            guard lower.x < upper.x, lower.y < upper.y else { continue }
            for y in Int(lower.y) / size...min(rows - 1, Int(upper.y.rounded(.up)) / size) {
                for x in Int(lower.x) / size...min(columns - 1, Int(upper.x.rounded(.up)) / size) {
                    frost[y * columns + x] = true
                }
            }
        }
        let frostList = frost.indices.filter { frost[$0] }.map { SIMD2(UInt32($0 % columns), UInt32($0 / columns)) }
        let horizontal = rowTiles(
            feeding: frostList, kernelRadius: Int(lens.kernelRadius), columns: columns, rows: rows
        )
        .sorted().map { SIMD2(UInt32($0 % columns), UInt32($0 / columns)) }
        return (frostList, horizontal, reachesLabel)
    }

    /// The row tiles (indices `y * columns + x`) the vertical frost pass of `frost` reads: each
    /// tile's column, grown by the kernel radius in whole tiles (mirrored reads at the edges stay
    /// inside that range). The resolver lists them; ``FrameReuse`` recomputes them for the frost
    /// tiles a frame still has to blur.
    static func rowTiles(feeding frost: [SIMD2<UInt32>], kernelRadius: Int, columns: Int, rows: Int) -> Set<Int> {
        let size = TableLayout.tileSize
        let grow = (kernelRadius + size - 1) / size
        var needed = Set<Int>()
        for tile in frost {
            let y = Int(tile.y)
            for row in max(0, y - grow)...min(rows - 1, y + grow) { needed.insert(row * columns + Int(tile.x)) }
        }
        return needed
    }

    /// The lens pass covers the group and its shadow; the source covers the group and the fringe
    /// dispersion can push past it.
    static func regions(of lens: LensParams, geometry: [ShapeGeometry], width: Int, height: Int) -> LensRegions {
        let bridge = Double(lens.blend) / 4
        let minX = geometry.map { $0.centerX - $0.halfWidth }.min()! - bridge
        let minY = geometry.map { $0.centerY - $0.halfHeight }.min()! - bridge
        let maxX = geometry.map { $0.centerX + $0.halfWidth }.max()! + bridge
        let maxY = geometry.map { $0.centerY + $0.halfHeight }.max()! + bridge
        var lower = SIMD2(minX, minY)
        var upper = SIMD2(maxX, maxY)
        if lens.shadow.w > 0 {
            let offset = SIMD2(Double(lens.shadow.x), Double(lens.shadow.y))
            let reach = Double(lens.shadow.z)
            lower = pointwiseMin(lower, SIMD2(minX, minY) + offset - reach)
            upper = pointwiseMax(upper, SIMD2(maxX, maxY) + offset + reach)
        }
        let lensRegion = PixelRegion(
            covering: lower.x, lower.y, upper.x, upper.y, margin: 1, width: width, height: height)
        let fringe = 2 + Double(lens.dispersion) * Double(max(lens.bevelAmount, lens.bevelWidth))
        let source = PixelRegion(covering: minX, minY, maxX, maxY, margin: fringe, width: width, height: height)
        return LensRegions(lens: lensRegion, source: source)
    }
}
