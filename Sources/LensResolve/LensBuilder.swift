import Foundation
import LensModel

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// The shapes, tiles and tables the lenses of one frame share, in the order the shaders read them.
struct LensLists {
    var lenses: [LensParams] = []
    var regions: [LensRegions] = []
    var shapes: [ShapeParams] = []
    var tiles: [SIMD4<UInt32>] = []
    var tileShapes: [UInt32] = []
    var tables = OpticsTables.fixedTables
}

/// Writes the `LensParams` of each glass element, the one place they are made: geometry in
/// pixels, optics capped to the shape and lifted, the element's look (theme, material,
/// accessibility, highlight), its frost kernel and refraction profile, its regions and tiles.
struct LensBuilder {
    let scene: Scene
    let scale: Double
    let width: Int
    let height: Int
    /// The scene has a lifted label row that lifted lenses show.
    let liftedContent: Bool
    let labelPresence: LabelPresence

    /// Appends `element`'s lens, shapes, tiles and tables to `lists`; returns its shapes in
    /// pixels as drawn and the optics its look resolved to (for annotations).
    @discardableResult
    func add(_ element: GlassElement, to lists: inout LensLists) -> (geometry: [ShapeGeometry], optics: Optics) {
        let progress = element.lift?.progress ?? 1
        let growth =
            element.lift.map { (x: $0.growth.x * scale * progress, y: $0.growth.y * scale * progress) } ?? (0, 0)
        let geometry = element.shapes.map {
            ShapeGeometry(shape: $0.shape, frame: $0.frame, scale: scale, growth: growth)
        }
        // Apple's size laws read S, the minor dimension of the (grown) shape.
        let minor = 2 * (geometry.map { min($0.halfWidth, $0.halfHeight) }.min() ?? 0) / scale
        let look = GlassLook(element, scene: scene, minor: minor)
        var styled = element
        styled.optics = look.optics
        var lens = opticsParameters(styled, geometry: geometry)
        lens.shapeOffset = UInt32(lists.shapes.count)
        lists.shapes += shapeParameters(element, geometry: geometry, lens: &lens)

        let restingFrost = element.lift?.restingFrost ?? styled.optics.frost
        let sigma = (restingFrost + (styled.optics.frost - restingFrost) * progress) * scale
        frost(sigma: sigma, deepest: FrostPyramid.deepestLevel, into: &lens, tables: &lists.tables)
        if styled.optics.model == .physical {
            lens.profileOffset = UInt32(lists.tables.count)
            lists.tables += OpticsTables.physicalProfile(
                styled.optics, bandWidth: Double(lens.bevelWidth), scale: scale)
        }
        write(look, to: &lens, geometry: geometry, tables: &lists.tables)

        place(lens, geometry: geometry, in: &lists)
        return (geometry, styled.optics)
    }

    /// Sets `lens`'s pyramid level (down to `deepest`) and frost kernel for a blur of `sigma`
    /// pixels, the kernel appended to `tables`.
    func frost(sigma: Double, deepest: Int, into lens: inout LensParams, tables: inout [Float]) {
        let level = FrostPyramid.level(sigma: sigma, deepest: deepest)
        lens.frostLevel = UInt32(level)
        let kernel = OpticsTables.gaussianKernel(sigma: FrostPyramid.levelSigma(sigma: sigma, level: level))
        lens.kernelOffset = UInt32(tables.count)
        lens.kernelRadius = UInt32(kernel.count - 1)
        tables += kernel
    }

    /// Appends `lens` (its shapes already in `lists`) with its regions and tile lists, and marks
    /// the glass below whose pixels its frost reads; lenses in `siblings` (bands of the same
    /// progressive blur) are not below it: each band blurs what lies under the whole blur.
    func place(
        _ lens: LensParams, geometry: [ShapeGeometry], in lists: inout LensLists, siblings: Range<Int> = 0..<0
    ) {
        var lens = lens
        let regions = Tiling.regions(of: lens, geometry: geometry, width: width, height: height)
        lens.sourceRegion = regions.source.bounds
        let lensTiles = Tiling.tiles(of: lens, geometry: geometry, region: regions.lens)
        let frost = Tiling.frostTiles(
            for: lens, lensTiles: lensTiles, geometry: geometry, source: regions.source,
            shift: max(Tiling.maxShift(lens, tables: lists.tables), Tiling.stageReach(lens, geometry)),
            tables: lists.tables, width: width, height: height,
            labelIn: labelPresence.any)
        var entries: [SIMD4<UInt32>] = []
        for tile in lensTiles {
            entries.append(tile.entry(candidatesAt: lists.tileShapes.count))
            lists.tileShapes += tile.candidates.map { lens.shapeOffset + UInt32($0) }
        }
        // Tiles whose samples reach a label glyph first, so each half is one dispatch of its variant.
        let ordered = zip(entries, frost.reachesLabel)
        let tileLists = LensTileLists(
            lens: ordered.filter { $0.1 }.map(\.0) + ordered.filter { !$0.1 }.map(\.0),
            labelTileCount: frost.reachesLabel.filter { $0 }.count,
            frost: frost.frost.map { SIMD4($0.x, $0.y, 0, 0) },
            rows: frost.rows.map { SIMD4($0.x, $0.y, 0, 0) })
        stack(&lens, over: &lists, apartFrom: siblings)
        tileLists.append(to: &lists.tiles, pointing: &lens)
        lists.lenses.append(lens)
        lists.regions.append(regions)
    }

    /// The group's shapes for the shaders; where any has its own tint, each carries one (its own
    /// or the element's) and the group blends them in place of its tint.
    private func shapeParameters(
        _ element: GlassElement, geometry: [ShapeGeometry], lens: inout LensParams
    ) -> [ShapeParams] {
        let tinted = element.shapes.contains { $0.tint != nil }
        lens.shapeTints = tinted ? 1 : 0
        return zip(element.shapes, geometry).map { placed, geometry in
            var parameters = geometry.parameters
            if tinted { parameters.tint = placed.tint?.premultiplied(for: scene.blending) ?? lens.tint }
            return parameters
        }
    }

    /// Glass on glass: where the frost the new lens's samples see depends on pixels that glass
    /// already in `lists` draws, the new lens blurs the composite, and each glass below writes the
    /// composite over those pixels (only there: the extra work stays where glass lies on glass).
    /// Glass whose samples see none of it blurs the backdrop, which frames keep.
    private func stack(_ lens: inout LensParams, over lists: inout LensLists, apartFrom siblings: Range<Int>) {
        let footprint = Tiling.frostFootprint(of: lens, width: width, height: height)
        for below in lists.lenses.indices where !siblings.contains(below) {
            let overlap = lists.regions[below].lens.intersection(footprint)
            guard !overlap.isEmpty else { continue }
            lens.readsComposite = 1
            let written = PixelRegion(bounds: lists.lenses[below].compositeRegion)
            lists.lenses[below].compositeRegion = written.union(overlap).bounds
        }
    }

    /// One glass group in pixels, with H and A capped to fit its smallest shape and the lift applied.
    private func opticsParameters(_ element: GlassElement, geometry: [ShapeGeometry]) -> LensParams {
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
        // Fresnel and the contour come with the lift, as the rim does (see lightAndShadow).
        let lit = Float(progress)
        var lens = LensParams()
        lens.tint = optics.tint.premultiplied(for: scene.blending)
        lightAndShadow(element, progress: progress, into: &lens)
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
        lens.fresnel = Float(optics.fresnel) * lit
        lens.contourWidth = Float(optics.contour.width * scale)
        lens.contourOpacity = Float(optics.contour.opacity) * lit
        lens.normalSmoothing = Float(max(1, bevelWidth / 2))
        lens.ovalization = Float(optics.ovalization)
        lens.liftedContentAlpha = liftedContent ? Float(progress) : 0
        lens.warpsContentBelow = optics.warpsContentBelow ? 1 : 0
        lens.accentStrength = optics.tintsLabel ? 1 : 0
        // Glass that does not tint the label is a platter: the label lies in its content view.
        lens.labelOnFace = optics.tintsLabel ? 0 : 1
        lens.darkening = optics.appearance == .dark ? 0.3 : 0
        lens.rimCurvature = Float(rim.curvature)
        if let recolor = rim.recolor { lens.rimRecolor = Self.levels(recolor) }
        if optics.face != .identity { lens.faceLevels = Self.levels(optics.face) }
        if optics.model == .stages && optics.warpsContentBelow {
            stages(optics, progress: progress, magnification: magnification, geometry: geometry, into: &lens)
        }
        return lens
    }

    /// The rim's key and fill lights, the drop and inner shadows, the resting fill and the touch
    /// glow, in pixels, each as far as the lift has gone.
    private func lightAndShadow(_ element: GlassElement, progress: Double, into lens: inout LensParams) {
        let rim = element.optics.rimLight
        func direction(_ degrees: Double) -> (Float, Float) {
            let radians = degrees * .pi / 180
            return (Float(cos(radians)), Float(sin(radians)))
        }
        let key = direction(rim.key.angle)
        let fill = direction(rim.fill.angle)
        // A lens at rest is flat, a fill under the label row: its rim, Fresnel, contour and inner
        // shadow come with the lift, its drop shadow from its resting share (the captures
        // cn-segmented, cnb-segmented, union-resting and mecid-tabs show resting thumbs and pills
        // without any; cn-slider's resting knob casts its shadow).
        let lit = Float(progress)
        let restingShadow = element.lift?.restingShadow ?? 1
        func shadowVector(_ shadow: DropShadow, share: Float) -> SIMD4<Float> {
            SIMD4(
                Float(shadow.offset.x * scale), Float(shadow.offset.y * scale), Float(shadow.radius * scale),
                Float(shadow.opacity) * share)
        }
        var resting = element.lift?.restingBackground ?? .clear
        resting.alpha *= 1 - progress

        lens.keyLight = SIMD4(key.0, key.1, Float(rim.key.amount) * lit, 0)
        lens.fillLight = SIMD4(fill.0, fill.1, Float(rim.fill.amount) * lit, 0)
        lens.shadow = shadowVector(element.optics.shadow, share: Float(restingShadow + (1 - restingShadow) * progress))
        lens.innerShadow = shadowVector(element.optics.innerShadow, share: lit)
        lens.restingFill = resting.premultiplied(for: scene.blending)
        if let glow = element.touchGlow {
            lens.touchGlow = SIMD4(
                Float(glow.center.x * scale), Float(glow.center.y * scale), Float(glow.radius * scale),
                Float(glow.amount))
        }
    }

    /// The stage model's fields (pixel units): each target's stages in sampling order, their amounts
    /// and the fringe faded in with the lift, the label row's magnification, the box the stages
    /// sample. Bevel and dispersion are off; the bevel width is kept as the band the Fresnel term
    /// and the normal smoothing read: the deepest stage, capped as the bevel is.
    private func stages(
        _ optics: Optics, progress: Double, magnification: Double, geometry: [ShapeGeometry],
        into lens: inout LensParams
    ) {
        func vector(_ target: StageTarget) -> SIMD4<Float> {
            var values = SIMD4<Float>.zero
            for (index, stage) in optics.stages.filter({ $0.target == target }).enumerated() {
                values[2 * index] = Float(stage.amount * scale * progress)
                values[2 * index + 1] = Float(stage.height * scale)
            }
            return values
        }
        let shortHalf = geometry.map { min($0.halfWidth, $0.halfHeight) }.min() ?? 0
        let deepest = optics.stages.map(\.height).max() ?? 0
        lens.stageModel = 1
        lens.backdropStages = vector(.backdrop)
        lens.labelStages = vector(.label)
        lens.bevelAmount = 0
        lens.bevelWidth = Float(min(deepest * scale, shortHalf / 2))
        lens.normalSmoothing = max(1, lens.bevelWidth / 2)
        lens.inverseMagnification = 1
        lens.labelInverseMagnification = Float(1 / magnification)
        lens.dispersion = 0
        // The box of the group and its blend bridge, as the lens region has it.
        let bridge = Double(lens.blend) / 4
        lens.stageBox = SIMD4(
            Float(geometry.map { $0.centerX - $0.halfWidth }.min()! - bridge),
            Float(geometry.map { $0.centerY - $0.halfHeight }.min()! - bridge),
            Float(geometry.map { $0.centerX + $0.halfWidth }.max()! + bridge),
            Float(geometry.map { $0.centerY + $0.halfHeight }.max()! + bridge))
        let fringe = optics.aberration
        if fringe.amount > 0 && fringe.band > 0 {
            let radians = fringe.angle * .pi / 180
            lens.aberration = SIMD4(
                Float(fringe.amount * scale * progress), Float(cos(radians)), Float(sin(radians)),
                Float(fringe.band * scale))
        }
    }

    /// White, black and saturation of a YCbCr composite, and 1: on.
    private static func levels(_ levels: ColorLevels) -> SIMD4<Float> {
        SIMD4(Float(levels.white), Float(levels.black), Float(levels.saturation), 1)
    }

    /// Sets the look's fields of `lens` (pixel units) and appends the gradient stops to `tables`.
    private func write(_ look: GlassLook, to lens: inout LensParams, geometry: [ShapeGeometry], tables: inout [Float]) {
        let minX = geometry.map { $0.centerX - $0.halfWidth }.min()!
        let minY = geometry.map { $0.centerY - $0.halfHeight }.min()!
        let maxX = geometry.map { $0.centerX + $0.halfWidth }.max()!
        let maxY = geometry.map { $0.centerY + $0.halfHeight }.max()!
        let diagonal = SIMD2(maxX - minX, maxY - minY)
        let squared = max(1e-6, diagonal.x * diagonal.x + diagonal.y * diagonal.y)
        lens.highlightAxis = SIMD4(Float(minX), Float(minY), Float(diagonal.x / squared), Float(diagonal.y / squared))
        lens.edgeHighlight = SIMD4(
            Float(look.edgeHighlight.width * scale), Float(look.edgeHighlight.alphas[0]),
            Float(look.edgeHighlight.alphas[1]),
            Float(look.edgeHighlight.alphas[2]))
        if let shimmerPosition = look.shimmerPosition {
            lens.shimmer = SIMD4(Float(shimmerPosition), 0.18, Float(look.shimmerAlpha), 0)
        }
        lens.opacity = Float(look.opacity)
        // Shapes with their own tints replace the group's tint, a theme's gradient included.
        if let gradientTint = look.gradientTint, lens.shapeTints == 0 {
            let radians = gradientTint.angle * .pi / 180
            let direction = SIMD2(cos(radians), sin(radians))
            let corners = [SIMD2(minX, minY), SIMD2(maxX, minY), SIMD2(minX, maxY), SIMD2(maxX, maxY)]
            let projections = corners.map { ($0 * direction).sum() }
            let length = max(1e-6, projections.max()! - projections.min()!)
            let origin = corners[projections.firstIndex(of: projections.min()!)!]
            lens.gradientAxis = SIMD4(
                Float(origin.x), Float(origin.y), Float(direction.x / length), Float(direction.y / length))
            lens.gradientOffset = UInt32(tables.count)
            lens.gradientCount = UInt32(gradientTint.colors.count)
            for color in gradientTint.colors {
                let stop = RGBAColor(
                    red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * gradientTint.intensity)
                let premultiplied = stop.premultiplied(for: scene.blending)
                tables += [premultiplied.x, premultiplied.y, premultiplied.z, premultiplied.w]
            }
        }
    }
}
