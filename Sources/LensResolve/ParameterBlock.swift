import LensModel

/// The parameter block the shaders read, declared once here and once in `Shaders/lens_common.glsl`.
///
/// Field order, types and padding follow GLSL std430: `SIMD4` members first (16-byte aligned), then
/// 4-byte scalars, so Swift's natural layout equals the GLSL one. `LayoutTests` proves it against the
/// offsets glslang wrote into the SPIR-V.

/// GLSL twin: `struct FrameParams`.
package struct FrameParams: Sendable, Equatable {
    /// Frame width in pixels.
    package var width: UInt32
    /// Frame height in pixels.
    package var height: UInt32
    /// Number of glass groups in the `lenses` array that follows the frame.
    package var lensCount: UInt32
    /// Label coverage is one byte per pixel, packed four to a `uint`; rows start on a word.
    package var labelWordsPerRow: UInt32
    /// Where the lifted (selected-appearance) label starts in the label buffer, in words.
    package var liftedLabelWordOffset: UInt32
    /// The foreground's tiles in the tile list: the first and how many (0: no foreground).
    package var foregroundTileOffset: UInt32 = 0
    /// Number of foreground tiles; 0: the frame has no foreground.
    package var foregroundTileCount: UInt32 = 0
    /// 1: layers blend in linear light; 0: on gamma-encoded sRGB values, as Core Animation does.
    package var linearBlending: UInt32 = 0
    /// Resting label colour, premultiplied in the blend space (`linearBlending`).
    package var restingColor: SIMD4<Float>
    /// Accent label colour, premultiplied in the blend space.
    package var accentColor: SIMD4<Float>
    /// Lifted label colour, premultiplied in the blend space.
    package var liftedLabelColor: SIMD4<Float>

    /// A frame of `width` × `height` pixels with no foreground tiles; the lifted label's offset and colour
    /// default to 0 (no lifted label).
    package init(
        width: UInt32, height: UInt32, lensCount: UInt32, labelWordsPerRow: UInt32, liftedLabelWordOffset: UInt32 = 0,
        restingColor: SIMD4<Float>, accentColor: SIMD4<Float>, liftedLabelColor: SIMD4<Float> = .zero
    ) {
        self.width = width
        self.height = height
        self.lensCount = lensCount
        self.labelWordsPerRow = labelWordsPerRow
        self.liftedLabelWordOffset = liftedLabelWordOffset
        self.restingColor = restingColor
        self.accentColor = accentColor
        self.liftedLabelColor = liftedLabelColor
    }

    /// Byte offsets of each field, named as in GLSL.
    package static let fieldOffsets: [(name: String, offset: Int)] = [
        ("width", MemoryLayout<Self>.offset(of: \.width)!),
        ("height", MemoryLayout<Self>.offset(of: \.height)!),
        ("lensCount", MemoryLayout<Self>.offset(of: \.lensCount)!),
        ("labelWordsPerRow", MemoryLayout<Self>.offset(of: \.labelWordsPerRow)!),
        ("liftedLabelWordOffset", MemoryLayout<Self>.offset(of: \.liftedLabelWordOffset)!),
        ("foregroundTileOffset", MemoryLayout<Self>.offset(of: \.foregroundTileOffset)!),
        ("foregroundTileCount", MemoryLayout<Self>.offset(of: \.foregroundTileCount)!),
        ("linearBlending", MemoryLayout<Self>.offset(of: \.linearBlending)!),
        ("restingColor", MemoryLayout<Self>.offset(of: \.restingColor)!),
        ("accentColor", MemoryLayout<Self>.offset(of: \.accentColor)!),
        ("liftedLabelColor", MemoryLayout<Self>.offset(of: \.liftedLabelColor)!),
    ]
}

/// GLSL twin: `struct ShapeParams`. One shape of a glass group, in pixels.
package struct ShapeParams: Sendable, Equatable {
    /// Centre x, y and half width, half height.
    package var centerHalfSize: SIMD4<Float>
    /// Top-left, top-right, bottom-right, bottom-left.
    package var cornerRadii: SIMD4<Float>
    /// 0 rounded box (circle, capsule, rounded rectangle), 1 ellipse, 2 squircle.
    package var kind: UInt32
    /// Squircle superellipse exponent.
    package var exponent: Float
    var padding0: Float = 0
    var padding1: Float = 0
    /// This shape's tint, premultiplied in the blend space; read where the group's
    /// ``LensParams/shapeTints`` is 1.
    package var tint: SIMD4<Float> = .zero

    /// A shape from its pixel geometry, with `kind` and `exponent` as the fields describe.
    package init(centerHalfSize: SIMD4<Float>, cornerRadii: SIMD4<Float>, kind: UInt32, exponent: Float) {
        self.centerHalfSize = centerHalfSize
        self.cornerRadii = cornerRadii
        self.kind = kind
        self.exponent = exponent
    }

    /// Byte offsets of each field, named as in GLSL.
    package static let fieldOffsets: [(name: String, offset: Int)] = [
        ("centerHalfSize", MemoryLayout<Self>.offset(of: \.centerHalfSize)!),
        ("cornerRadii", MemoryLayout<Self>.offset(of: \.cornerRadii)!),
        ("kind", MemoryLayout<Self>.offset(of: \.kind)!),
        ("exponent", MemoryLayout<Self>.offset(of: \.exponent)!),
        ("padding0", MemoryLayout<Self>.offset(of: \.padding0)!),
        ("padding1", MemoryLayout<Self>.offset(of: \.padding1)!),
        ("tint", MemoryLayout<Self>.offset(of: \.tint)!),
    ]
}

/// GLSL twin: `struct LensParams`. One glass group; all lengths in pixels.
package struct LensParams: Sendable, Equatable {
    /// The tint's rgb and alpha, premultiplied in the blend space.
    package var tint: SIMD4<Float> = .zero
    /// Direction x, y (unit, y down); amount; unused.
    package var keyLight: SIMD4<Float> = .zero
    /// Direction x, y (unit, y down); amount; unused.
    package var fillLight: SIMD4<Float> = .zero
    /// Offset x, y; radius; opacity.
    package var shadow: SIMD4<Float> = .zero
    /// Offset x, y; radius; opacity.
    package var innerShadow: SIMD4<Float> = .zero
    /// Resting background, premultiplied in the blend space, alpha already faded by the lift progress.
    package var restingFill: SIMD4<Float> = .zero
    /// x0, y0, x1, y1 of the frosted backdrop the lens may sample.
    package var sourceRegion: SIMD4<UInt32> = .zero
    /// First shape of the group in the `shapes` buffer.
    package var shapeOffset: UInt32 = 0
    /// Number of shapes in the group, from `shapeOffset` on.
    package var shapeCount: UInt32 = 0
    /// Smooth-minimum radius k of the group.
    package var blend: Float = 0
    /// Physical model: where its displacement table starts in `tables`; 0 selects the bevel model.
    package var profileOffset: UInt32 = 0
    /// H: depth of the refracting band inside the silhouette.
    package var bevelWidth: Float = 0
    /// A: inward displacement at the silhouette (bevel model).
    package var bevelAmount: Float = 0
    /// 1 / magnification: sample offsets from the group's centre are scaled by it (1: no magnification).
    package var inverseMagnification: Float = 1
    /// Spread k: red samples at 1−k of the offset, blue at 1+k. Zero when under ¼ px.
    package var dispersion: Float = 0
    /// 0 for per-channel dispersion, else the number of spectral taps.
    package var spectralTaps: UInt32 = 0
    /// Saturation of what the glass shows, about its Rec. 709 luma: 1 unchanged, 0 grey.
    package var saturation: Float = 1
    /// Added to every channel, linear light (0: unchanged).
    package var brightness: Float = 0
    /// Scale of the distance from mid grey, linear light (1: unchanged).
    package var contrast: Float = 1
    /// Tint-mask feather inside the rim; under ½ px the mask is the antialiased silhouette.
    package var softness: Float = 0
    /// Width of the rim-light band inside the silhouette (0: no rim light).
    package var rimWidth: Float = 0
    /// Integer exponent of the rim lobes: higher narrows each highlight about its light direction.
    package var rimFalloff: UInt32 = 1
    /// Amount of the ambient Fresnel-like term (1 − n_z)³ over the band (0: off).
    package var fresnel: Float = 0
    /// Width of the dark contour inside the silhouette.
    package var contourWidth: Float = 0
    /// Share of the colour the contour removes at the silhouette, fading to 0 at `contourWidth` (0: off).
    package var contourOpacity: Float = 0
    /// Where the frost kernel starts in `tables`: the centre weight, then one weight per pixel of distance.
    package var kernelOffset: UInt32 = 0
    /// Frost kernel radius: it spans 2·radius + 1 pixels (0: the backdrop is copied unblurred).
    package var kernelRadius: UInt32 = 0
    /// Width over which edge normals blend across the medial axis (at least 1).
    package var normalSmoothing: Float = 1
    /// Share of the ellipse normal in the refraction direction, 0…1.
    package var ovalization: Float = 0
    /// How much the lifted label replaces the regular one under the glass.
    package var liftedContentAlpha: Float = 0
    /// 0: the glass shows what is below it without refraction.
    package var warpsContentBelow: UInt32 = 1
    /// Dark appearance: share of the content dimmed under the glass.
    package var darkening: Float = 0
    /// This group's tiles in the tile list: the first and how many.
    package var tileOffset: UInt32 = 0
    /// Number of this group's tiles, from `tileOffset` on.
    package var tileCount: UInt32 = 0
    /// Tiles the vertical frost writes: every tile a lens sample can land in.
    package var frostTileOffset: UInt32 = 0
    /// Number of tiles the vertical frost writes, from `frostTileOffset` on.
    package var frostTileCount: UInt32 = 0
    /// Tiles the horizontal frost writes: the frost tiles grown by the kernel radius in rows.
    package var rowTileOffset: UInt32 = 0
    /// Number of tiles the horizontal frost writes, from `rowTileOffset` on.
    package var rowTileCount: UInt32 = 0
    /// 1: the label turns accent under this glass (LensTint); 0: it keeps its resting colour.
    package var accentStrength: Float = 1
    /// Edge highlight stroke: width; alpha at the top-leading corner, the middle, the bottom-trailing corner.
    package var edgeHighlight: SIMD4<Float> = .zero
    /// Origin x, y and axis x, y of the top-leading → bottom-trailing diagonal: u = (p − origin)·axis runs 0…1.
    package var highlightAxis: SIMD4<Float> = .zero
    /// Origin and axis of the gradient tint, as `highlightAxis`.
    package var gradientAxis: SIMD4<Float> = .zero
    /// Shimmer band: centre u, half width in u, alpha (0: off), unused.
    package var shimmer: SIMD4<Float> = .zero
    /// Gradient tint stops in `tables` (rgba premultiplied in the blend space); count 0: the flat `tint`.
    package var gradientOffset: UInt32 = 0
    /// Number of gradient tint stops (0: the flat `tint`).
    package var gradientCount: UInt32 = 0
    /// Share of the glass laid over what is below it (custom materials).
    package var opacity: Float = 1
    /// The first `labelTileCount` of this group's tiles are those whose samples can reach a label
    /// glyph; the reference skips sampling the label in the others, and the GPU compiles it out
    /// of a group none of whose tiles reach it.
    package var labelTileCount: UInt32 = 0
    /// x0, y0, x1, y1 of the pixels where the lens pass also writes, into the composite, what the
    /// glass shows without the label row: the content glass above it sees. Empty: no glass above.
    package var compositeRegion = SIMD4<UInt32>(repeating: 0)
    /// 1: glass lies below this group, so its frost blurs the composite instead of the backdrop.
    package var readsComposite: UInt32 = 0
    /// 1: the label row lies on this glass's face (a platter's content view): drawn over its tint
    /// and resting fill, not refracted; 0: under the glass, refracted and magnified with the content.
    package var labelOnFace: UInt32 = 0
    /// The frost pyramid level: the frost works on the canvas at 1/2^level (`FrostPyramid`).
    package var frostLevel: UInt32 = 0
    /// Pads the struct to a whole vec4, as std140 and std430 pad it in GLSL.
    package var padding2: UInt32 = 0
    /// Stage model: the backdrop's two stages in sampling order: amount (positive samples outward)
    /// and height of the first, then of the second; amount 0 skips a stage.
    package var backdropStages: SIMD4<Float> = .zero
    /// Stage model: the label row's two stages, as `backdropStages`.
    package var labelStages: SIMD4<Float> = .zero
    /// Stage model: x0, y0, x1, y1 of the group's box, the texture every stage samples (held half a
    /// pixel inside it).
    package var stageBox: SIMD4<Float> = .zero
    /// Stage model: the fringe's spread at the silhouette (0: off); cosine and sine of its turn from
    /// the refraction normal; the depth where it fades to 0.
    package var aberration: SIMD4<Float> = .zero
    /// The face's YCbCr composite: white, black, saturation; 1 when on (0: the face is left as it is).
    package var faceLevels: SIMD4<Float> = .zero
    /// The rim's vibrant recolour: white, black, saturation; 1 when on (0: the rim lightens to white).
    package var rimRecolor: SIMD4<Float> = .zero
    /// 1: the stage model (backdrop and label through their stages, the fringe); 0: bevel or physical.
    package var stageModel: UInt32 = 0
    /// Stage model: 1 / magnification of the label row about the group's centre.
    package var labelInverseMagnification: Float = 1
    /// Share of the rim light the band loses from the silhouette to its inner edge (1: linear to 0).
    package var rimCurvature: Float = 1
    /// 1: each shape carries its own tint (``ShapeParams/tint``), blended across the group's
    /// bridges in place of `tint`; 0: the group's `tint`.
    package var shapeTints: UInt32 = 0
    /// The touch glow: centre x, y; the radius where it has faded out; the white added at the centre (0: off).
    package var touchGlow: SIMD4<Float> = .zero
    /// A blur band's coverage ramp: origin x, y and axis x, y; its coverage is
    /// clamp((p − origin)·axis, 0, 1) (a progressive blur is a stack of bands). Axis 0: off.
    package var coverageRamp: SIMD4<Float> = .zero

    /// A group with neutral values: no shapes, tint, lights, shadows, frost or refraction; saturation,
    /// contrast and opacity 1.
    package init() {}

    /// Byte offsets of each field, named as in GLSL.
    package static let fieldOffsets: [(name: String, offset: Int)] = [
        ("tint", MemoryLayout<Self>.offset(of: \.tint)!),
        ("keyLight", MemoryLayout<Self>.offset(of: \.keyLight)!),
        ("fillLight", MemoryLayout<Self>.offset(of: \.fillLight)!),
        ("shadow", MemoryLayout<Self>.offset(of: \.shadow)!),
        ("innerShadow", MemoryLayout<Self>.offset(of: \.innerShadow)!),
        ("restingFill", MemoryLayout<Self>.offset(of: \.restingFill)!),
        ("sourceRegion", MemoryLayout<Self>.offset(of: \.sourceRegion)!),
        ("shapeOffset", MemoryLayout<Self>.offset(of: \.shapeOffset)!),
        ("shapeCount", MemoryLayout<Self>.offset(of: \.shapeCount)!),
        ("blend", MemoryLayout<Self>.offset(of: \.blend)!),
        ("profileOffset", MemoryLayout<Self>.offset(of: \.profileOffset)!),
        ("bevelWidth", MemoryLayout<Self>.offset(of: \.bevelWidth)!),
        ("bevelAmount", MemoryLayout<Self>.offset(of: \.bevelAmount)!),
        ("inverseMagnification", MemoryLayout<Self>.offset(of: \.inverseMagnification)!),
        ("dispersion", MemoryLayout<Self>.offset(of: \.dispersion)!),
        ("spectralTaps", MemoryLayout<Self>.offset(of: \.spectralTaps)!),
        ("saturation", MemoryLayout<Self>.offset(of: \.saturation)!),
        ("brightness", MemoryLayout<Self>.offset(of: \.brightness)!),
        ("contrast", MemoryLayout<Self>.offset(of: \.contrast)!),
        ("softness", MemoryLayout<Self>.offset(of: \.softness)!),
        ("rimWidth", MemoryLayout<Self>.offset(of: \.rimWidth)!),
        ("rimFalloff", MemoryLayout<Self>.offset(of: \.rimFalloff)!),
        ("fresnel", MemoryLayout<Self>.offset(of: \.fresnel)!),
        ("contourWidth", MemoryLayout<Self>.offset(of: \.contourWidth)!),
        ("contourOpacity", MemoryLayout<Self>.offset(of: \.contourOpacity)!),
        ("kernelOffset", MemoryLayout<Self>.offset(of: \.kernelOffset)!),
        ("kernelRadius", MemoryLayout<Self>.offset(of: \.kernelRadius)!),
        ("normalSmoothing", MemoryLayout<Self>.offset(of: \.normalSmoothing)!),
        ("ovalization", MemoryLayout<Self>.offset(of: \.ovalization)!),
        ("liftedContentAlpha", MemoryLayout<Self>.offset(of: \.liftedContentAlpha)!),
        ("warpsContentBelow", MemoryLayout<Self>.offset(of: \.warpsContentBelow)!),
        ("darkening", MemoryLayout<Self>.offset(of: \.darkening)!),
        ("tileOffset", MemoryLayout<Self>.offset(of: \.tileOffset)!),
        ("tileCount", MemoryLayout<Self>.offset(of: \.tileCount)!),
        ("frostTileOffset", MemoryLayout<Self>.offset(of: \.frostTileOffset)!),
        ("frostTileCount", MemoryLayout<Self>.offset(of: \.frostTileCount)!),
        ("rowTileOffset", MemoryLayout<Self>.offset(of: \.rowTileOffset)!),
        ("rowTileCount", MemoryLayout<Self>.offset(of: \.rowTileCount)!),
        ("accentStrength", MemoryLayout<Self>.offset(of: \.accentStrength)!),
        ("edgeHighlight", MemoryLayout<Self>.offset(of: \.edgeHighlight)!),
        ("highlightAxis", MemoryLayout<Self>.offset(of: \.highlightAxis)!),
        ("gradientAxis", MemoryLayout<Self>.offset(of: \.gradientAxis)!),
        ("shimmer", MemoryLayout<Self>.offset(of: \.shimmer)!),
        ("gradientOffset", MemoryLayout<Self>.offset(of: \.gradientOffset)!),
        ("gradientCount", MemoryLayout<Self>.offset(of: \.gradientCount)!),
        ("opacity", MemoryLayout<Self>.offset(of: \.opacity)!),
        ("labelTileCount", MemoryLayout<Self>.offset(of: \.labelTileCount)!),
        ("compositeRegion", MemoryLayout<Self>.offset(of: \.compositeRegion)!),
        ("readsComposite", MemoryLayout<Self>.offset(of: \.readsComposite)!),
        ("labelOnFace", MemoryLayout<Self>.offset(of: \.labelOnFace)!),
        ("frostLevel", MemoryLayout<Self>.offset(of: \.frostLevel)!),
        ("padding2", MemoryLayout<Self>.offset(of: \.padding2)!),
        ("backdropStages", MemoryLayout<Self>.offset(of: \.backdropStages)!),
        ("labelStages", MemoryLayout<Self>.offset(of: \.labelStages)!),
        ("stageBox", MemoryLayout<Self>.offset(of: \.stageBox)!),
        ("aberration", MemoryLayout<Self>.offset(of: \.aberration)!),
        ("faceLevels", MemoryLayout<Self>.offset(of: \.faceLevels)!),
        ("rimRecolor", MemoryLayout<Self>.offset(of: \.rimRecolor)!),
        ("stageModel", MemoryLayout<Self>.offset(of: \.stageModel)!),
        ("labelInverseMagnification", MemoryLayout<Self>.offset(of: \.labelInverseMagnification)!),
        ("rimCurvature", MemoryLayout<Self>.offset(of: \.rimCurvature)!),
        ("shapeTints", MemoryLayout<Self>.offset(of: \.shapeTints)!),
        ("touchGlow", MemoryLayout<Self>.offset(of: \.touchGlow)!),
        ("coverageRamp", MemoryLayout<Self>.offset(of: \.coverageRamp)!),
    ]
}

/// Where each table sits in the shaders' `tables` buffer (GLSL: the `*_OFFSET` constants).
package enum TableLayout {
    /// The 256 linear values of the 8-bit sRGB codes.
    package static let srgbDecodeOffset = 0
    /// Spectral dispersion: `spectralTaps` × (offset scale, red, green, blue weights).
    package static let spectralOffset = 256
    /// Taps of the spectral dispersion (GLSL: `SPECTRAL_TAPS`).
    package static let spectralTaps = 7
    /// The encode word of each float bucket of [0, 1) (`ColorTables.srgbEncodeBuckets`).
    package static let srgbEncodeBucketOffset = spectralOffset + spectralTaps * 4
    /// Frost kernels and physical displacement profiles follow, one run per lens.
    package static let perLensOffset = srgbEncodeBucketOffset + ColorTables.encodeBucketCount
    /// Samples of a physical displacement profile over the band, silhouette last.
    package static let profileSamples = 256
    /// Side of a lens tile in pixels (GLSL: `TILE_SIZE`, the workgroup size).
    package static let tileSize = 16
    /// Tiles one workgroup of a tile pass (lens, frost, foreground) shades in turn (GLSL:
    /// `TILES_PER_WORKGROUP`): lavapipe spends about 10 µs on a workgroup before its first pixel,
    /// more than most tiles' work; 8 keeps both of its threads busy on a small pane's frost.
    package static let tilesPerWorkgroup = 8
    /// The bit of a lens tile's candidate count that marks the tile glass-free: no pixel of it
    /// shows glass, so it draws only the drop shadow (GLSL: `GLASS_FREE_TILE_BIT`).
    package static let glassFreeTileBit = 31

    /// A lens tile entry's candidate count (its w) without the glass-free mark.
    package static func candidateCount(_ w: UInt32) -> UInt32 { w & ~(1 << glassFreeTileBit) }

    /// Whether a lens tile entry's candidate count (its w) carries the glass-free mark.
    package static func isGlassFree(_ w: UInt32) -> Bool { w >> glassFreeTileBit & 1 != 0 }
}

extension PixelRegion {
    /// x0, y0, x1, y1 as the parameter block stores a region.
    package var bounds: SIMD4<UInt32> { SIMD4(UInt32(x0), UInt32(y0), UInt32(x1), UInt32(y1)) }

    /// The region a parameter-block `bounds` holds.
    package init(bounds: SIMD4<UInt32>) {
        self.init(x0: Int(bounds.x), y0: Int(bounds.y), x1: Int(bounds.z), y1: Int(bounds.w))
    }
}
