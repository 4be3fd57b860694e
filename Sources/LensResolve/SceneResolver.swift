import Foundation
import LensControls
import LensModel

/// Turns a `Scene` into ``FrameParameters``: points to pixels, colours to linear light, optics
/// capped to the shape, background and label rasterised.
package struct SceneResolver: Sendable {
    /// Loads images named by the scene (background images, label masks, icons), relative paths
    /// already resolved against the scene file by the caller; `scale` is the pixels per point an
    /// SVG is drawn at.
    package var loadImage: @Sendable (_ path: String, _ scale: Double) throws -> RGBA8Image

    /// Shapes and rasterises the controls' text; scenes without controls need none.
    package var text: (any TextRasterizer)?

    /// Keeps the last backdrop and label raster, so frames of one scene paint them once.
    package var cache: ResolveCache?

    /// Most pixels a frame may have, checked before anything is allocated (at most
    /// `Limits.maxPixels`).
    package var pixelBudget: Int

    /// Whether frames carry their ``FrameAnnotations``.
    package var annotates = false

    /// A resolver that loads images with `loadImage`; without `text`, scenes with controls or text layers fail;
    /// without `cache`, every frame paints its own backdrop and label; `pixelBudget` lowers the
    /// largest frame allowed.
    package init(
        loadImage: @escaping @Sendable (_ path: String, _ scale: Double) throws -> RGBA8Image,
        text: (any TextRasterizer)? = nil,
        cache: ResolveCache? = nil, pixelBudget: Int = Limits.maxPixels
    ) {
        self.loadImage = loadImage
        self.text = text
        self.cache = cache
        self.pixelBudget = min(pixelBudget, Limits.maxPixels)
    }

    /// Resolves `scene`; `scale` overrides the canvas scale when given.
    package func resolve(_ scene: Scene, scale: Double? = nil) throws -> FrameParameters {
        try scene.validate()
        // A still of a scene whose glass goes through transitions, or whose content scrolls, is the
        // scene at its `time`.
        let still = scene.applyingTimeline(at: scene.time)
        let scale = scale ?? still.canvas.scale
        let (width, height) = try pixelSize(of: still, scale: scale)
        let painter = BackdropPainter(
            width: width, height: height, scale: scale, blending: still.blending,
            loadImage: { try loadImage($0, scale: scale, keyPath: $1) }, text: text, cache: cache)
        let (adapted, painted) = try adaptGlass(still, painter: painter)
        let (scene, controls) = try expandControls(adapted, scale: scale, width: width, height: height)
        // Controls that add no layers leave the backdrop adaptive glass was judged by.
        let backdrop =
            try painted.flatMap { scene.background == adapted.background ? $0 : nil }
            ?? paint(scene.background, with: painter)
        let wordsPerRow = (width + 3) / 4
        var frame = FrameParams(
            width: UInt32(width), height: UInt32(height), lensCount: 0,
            labelWordsPerRow: UInt32(wordsPerRow),
            restingColor: LabelLayer.restingLight.premultiplied(for: scene.blending),
            accentColor: LabelLayer.defaultAccent.premultiplied(for: scene.blending))
        frame.linearBlending = scene.blending == .linear ? 1 : 0
        let labelWords = try rasterizeLabel(scene, scale: scale, width: width, height: height)
        let hasLiftedLabel = scene.label?.liftedMask != nil
        if let label = scene.label { colorLabel(label, of: scene, wordsPerRow: wordsPerRow, in: &frame) }

        let builder = LensBuilder(
            scene: scene, scale: scale, width: width, height: height, liftedContent: hasLiftedLabel,
            labelPresence: presence(of: labelWords, wordsPerRow: wordsPerRow, width: width, height: height))
        var lists = LensLists()
        let blurBandCount = builder.addBlurs(of: scene, to: &lists)
        let drawn = scene.glass.map { builder.add($0, to: &lists) }
        frame.lensCount = UInt32(lists.lenses.count)
        let foregroundKey = ResolveCache.LayersKey(
            width: width, height: height, scale: scale, layers: scene.foreground, blending: scene.blending)
        func paintForeground() throws -> (pixels: [UInt32], tiles: [SIMD4<UInt32>]) {
            try painter.paintForeground(scene.foreground)
        }
        let foreground = try cache?.foreground(for: foregroundKey, paint: paintForeground) ?? paintForeground()
        frame.foregroundTileOffset = UInt32(lists.tiles.count)
        frame.foregroundTileCount = UInt32(foreground.tiles.count)
        lists.tiles += foreground.tiles
        var parameters = FrameParameters(
            backdrop: backdrop, labelWords: labelWords, frame: frame, lenses: lists.lenses, shapes: lists.shapes,
            tiles: lists.tiles, tileShapes: lists.tileShapes, regions: lists.regions, tables: lists.tables,
            foreground: foreground.pixels)
        parameters.blurBandCount = blurBandCount
        if annotates {
            let annotator = FrameAnnotator(
                scene: scene, ownGlass: still.glass.count, scale: scale, width: width, height: height,
                backdrop: backdrop)
            parameters.annotations = annotator.annotations(drawn: drawn, controls: controls)
        }
        return parameters
    }

    /// The backdrop `layers` paint (kept by the cache while they are the same).
    private func paint(_ layers: [BackgroundLayer], with painter: BackdropPainter) throws -> [UInt32] {
        let key = ResolveCache.LayersKey(
            width: painter.width, height: painter.height, scale: painter.scale, layers: layers,
            blending: painter.blending)
        func paintAll() throws -> [UInt32] { try painter.paint(layers) }
        return try cache?.backdrop(for: key, paint: paintAll) { previous, kept in
            try painter.repaint(layers, over: kept, previous: previous)
        } ?? paintAll()
    }

    /// `scene` with its adaptive glass and tab bars in the appearance the backdrop under them
    /// asks for (its own background, before the controls add theirs), and that backdrop;
    /// unchanged, and nothing painted, when it has none.
    private func adaptGlass(_ scene: Scene, painter: BackdropPainter) throws -> (Scene, [UInt32]?) {
        guard scene.hasAdaptiveGlass else { return (scene, nil) }
        let backdrop = try paint(scene.background, with: painter)
        let luminance = BackdropLuminance(backdrop: backdrop, width: painter.width, height: painter.height)
        return (AdaptiveGlass(luminance: luminance, scale: painter.scale, cache: cache).adapt(scene), backdrop)
    }

    /// Which tiles of the label row hold glyphs (kept by the cache while the row is the same).
    private func presence(of labelWords: [UInt32], wordsPerRow: Int, width: Int, height: Int) -> LabelPresence {
        func make() -> LabelPresence {
            LabelPresence(words: labelWords, wordsPerRow: wordsPerRow, width: width, height: height)
        }
        return cache?.presence(of: labelWords, make: make) ?? make()
    }

    /// The label row's colours in `frame`, and where its lifted coverage starts when it has one.
    private func colorLabel(_ label: LabelLayer, of scene: Scene, wordsPerRow: Int, in frame: inout FrameParams) {
        frame.restingColor = label.resting.premultiplied(for: scene.blending)
        frame.accentColor = label.accent.premultiplied(for: scene.blending)
        if label.liftedMask != nil {
            frame.liftedLabelWordOffset = UInt32(wordsPerRow * Int(frame.height))
            frame.liftedLabelColor = label.liftedColor.premultiplied(for: scene.blending)
        }
    }

    /// The frame's size in pixels at `scale`, within the per-side limits and the pixel budget.
    private func pixelSize(of scene: Scene, scale: Double) throws -> (width: Int, height: Int) {
        try check(scale, Limits.scale, "canvas.scale")
        let width = Int((scene.canvas.width * scale).rounded())
        let height = Int((scene.canvas.height * scale).rounded())
        let side = Limits.pixelSide
        guard side.contains(width), side.contains(height) else {
            throw SceneError(
                keyPath: "canvas",
                message:
                    "\(width)×\(height) px is outside \(side.lowerBound)…\(side.upperBound) px per side at scale \(scale.formatted)"
            )
        }
        guard width * height <= pixelBudget else {
            throw SceneError(
                keyPath: "canvas", message: "\(width)×\(height) px exceeds the pixel budget of \(pixelBudget)")
        }
        return (width, height)
    }

    /// The label row's coverage words (kept by the cache while the label is the same).
    private func rasterizeLabel(_ scene: Scene, scale: Double, width: Int, height: Int) throws -> [UInt32] {
        let labelKey = ResolveCache.LabelKey(width: width, height: height, scale: scale, label: scene.label)
        func rasterize() throws -> [UInt32] {
            try labelRaster.words(scene.label, scale: scale, width: width, height: height)
        }
        return try cache?.labelWords(for: labelKey, rasterize: rasterize) ?? rasterize()
    }

    /// The scene with its controls laid out as backdrop layers, glass, foreground and a label row.
    private func expandControls(
        _ scene: Scene, scale: Double, width: Int, height: Int
    ) throws -> (Scene, [ControlAnnotation]) {
        guard !scene.controls.isEmpty else { return (scene, []) }
        guard let text else {
            throw SceneError(
                keyPath: "controls", message: "controls need a text renderer (LensRenderer.resolve provides one)")
        }
        let layout = ControlLayout(scale: scale, width: width, height: height, text: text) { path, keyPath in
            try labelRaster.mask(.file(path), scale: scale, keyPath: keyPath)
        }
        let (expanded, controls) = try layout.expandAnnotated(scene)
        try expanded.validate()
        return (expanded, controls)
    }

    private var labelRaster: LabelRaster { LabelRaster(loadImage: loadImage(_:scale:keyPath:)) }

    /// Loads an image the scene names; a failure becomes a ``SceneError`` at `keyPath`.
    private func loadImage(_ path: String, scale: Double, keyPath: String) throws -> RGBA8Image {
        do {
            return try loadImage(path, scale)
        } catch {
            throw SceneError(keyPath: keyPath, message: "\(error)")
        }
    }
}
