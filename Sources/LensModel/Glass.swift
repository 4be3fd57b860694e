import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// The silhouette of a glass shape inside its frame.
/// JSON: `"circle"`, `"ellipse"`, `"capsule"`, `{"type": "roundedRectangle", "cornerRadii": [tl, tr, br, bl]}`
/// (or `"cornerRadius": r`), or `{"type": "squircle", "cornerRadius": r, "exponent": 4.5}`; radii in points.
public enum Shape: Codable, Sendable, Equatable {
    /// The largest circle centred in the frame.
    case circle
    /// The ellipse inscribed in the frame.
    case ellipse
    /// Fully rounded ends along the frame's long side.
    case capsule
    /// Top-left, top-right, bottom-right, bottom-left radii in points (clamped to half the short side).
    case roundedRectangle(cornerRadii: [Double])
    /// Continuous-corner rectangle: each corner follows the superellipse |x|ⁿ + |y|ⁿ = rⁿ.
    case squircle(cornerRadii: [Double], exponent: Double)

    enum CodingKeys: String, CodingKey, CaseIterable { case type, cornerRadii, cornerRadius, exponent }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            switch name {
            case "circle": self = .circle
            case "ellipse": self = .ellipse
            case "capsule": self = .capsule
            default:
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "unknown shape \"\(name)\" (expected circle, ellipse, capsule, or a roundedRectangle or squircle object)"
                    ))
            }
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "circle", "ellipse", "capsule":
            for key in [CodingKeys.cornerRadii, .cornerRadius, .exponent] where container.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "not a key of a \(type)")
            }
            self = type == "circle" ? .circle : type == "ellipse" ? .ellipse : .capsule
        case "roundedRectangle":
            if container.contains(.exponent) {
                throw DecodingError.dataCorruptedError(
                    forKey: .exponent, in: container, debugDescription: "only squircles have an exponent")
            }
            self = .roundedRectangle(cornerRadii: try Self.radii(container))
        case "squircle":
            self = .squircle(
                cornerRadii: try Self.radii(container),
                exponent: try container.number(.exponent, default: 4.5, in: Limits.squircleExponent))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown shape type \"\(type)\"")
        }
    }

    private static func radii(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [Double] {
        if let radii = try container.decodeIfPresent([Double].self, forKey: .cornerRadii) {
            guard radii.count == 4, radii.allSatisfy({ $0.isFinite && Limits.cornerRadius.contains($0) }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .cornerRadii, in: container,
                    debugDescription: "expected 4 radii in 0…10000 (tl, tr, br, bl)")
            }
            return radii
        }
        let radius = try container.number(.cornerRadius, default: 12, in: Limits.cornerRadius)
        return [radius, radius, radius, radius]
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .circle, .ellipse, .capsule:
            var container = encoder.singleValueContainer()
            try container.encode(self == .circle ? "circle" : self == .ellipse ? "ellipse" : "capsule")
        case .roundedRectangle(let radii):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("roundedRectangle", forKey: .type)
            try container.encode(radii, forKey: .cornerRadii)
        case .squircle(let radii, let exponent):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("squircle", forKey: .type)
            try container.encode(radii, forKey: .cornerRadii)
            try container.encode(exponent, forKey: .exponent)
        }
    }
}

/// One shape of a glass group, placed by its frame.
public struct PlacedShape: Codable, Sendable, Equatable {
    /// The silhouette inside `frame`.
    public var shape: Shape
    /// Where the shape sits, in points.
    public var frame: Rect

    /// `shape` placed in `frame`.
    public init(shape: Shape, frame: Rect) {
        self.shape = shape
        self.frame = frame
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case shape, frame }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shape = try container.decode(Shape.self, forKey: .shape)
        frame = try container.decode(Rect.self, forKey: .frame)
    }
}

/// A glass element: one shape, or a group of shapes merged with a smooth minimum of radius `blend`
/// (like a glass effect container: nearby shapes grow a liquid bridge), with its optics and lift.
/// JSON: `"shape"` and `"frame"`, or `"shapes": [{"shape", "frame"}, …]` and `"blend"`.
public struct GlassElement: Codable, Sendable {
    /// The group's shapes, each placed by its frame (1…64 when decoded).
    public var shapes: [PlacedShape]
    /// Smooth-minimum radius in points; 0 is a plain union.
    public var blend: Double
    /// How the glass bends, blurs and lights; material, theme, rendering path and accessibility adjust it.
    public var optics: Optics
    /// Resting/lifted state; nil renders the lens fully lifted.
    public var lift: LensLift?
    /// Sets the frost, tint, saturation and shadow (overriding the theme's material); nil: the
    /// theme's material, or none (the optics alone).
    public var material: Material?
    /// This element's theme; nil: the scene's.
    public var theme: Theme?
    /// nil: the theme's (automatic when there is none).
    public var renderingPath: RenderingPath?
    /// nil: the theme's (on the fallback path) or none.
    public var edgeHighlight: EdgeHighlight?
    /// nil: the theme's, or the flat tint.
    public var gradientTint: GradientTint?
    /// An animated highlight (shimmer, pulse, breathe); nil: none.
    public var highlight: AnimatedHighlight?
    /// The light a finger makes on interactive glass; nil: none.
    public var touchGlow: TouchGlow?

    /// A single-shape element; default optics, fully lifted, and the theme's material, if any.
    public init(
        shape: Shape, frame: Rect, optics: Optics = Optics(), lift: LensLift? = nil, material: Material? = nil,
        theme: Theme? = nil
    ) {
        self.init(
            shapes: [PlacedShape(shape: shape, frame: frame)], blend: 0, optics: optics, lift: lift, material: material,
            theme: theme)
    }

    /// A group of `shapes` merged with a smooth minimum of radius `blend` points.
    public init(
        shapes: [PlacedShape], blend: Double, optics: Optics = Optics(), lift: LensLift? = nil,
        material: Material? = nil, theme: Theme? = nil
    ) {
        self.shapes = shapes
        self.blend = blend
        self.optics = optics
        self.lift = lift
        self.material = material
        self.theme = theme
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case shape, frame, shapes, blend, optics, lift, material, theme, renderingPath, edgeHighlight, gradientTint,
            highlight, touchGlow
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.shapes) {
            for key in [CodingKeys.shape, .frame] where container.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "give either \"shape\" and \"frame\" or \"shapes\"")
            }
            shapes = try container.decode([PlacedShape].self, forKey: .shapes)
            guard Limits.groupShapes.contains(Double(shapes.count)) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .shapes, in: container,
                    debugDescription:
                        "a group holds 1 to \(Int(Limits.groupShapes.upperBound)) shapes, got \(shapes.count)")
            }
        } else {
            shapes = [
                PlacedShape(
                    shape: try container.decode(Shape.self, forKey: .shape),
                    frame: try container.decode(Rect.self, forKey: .frame))
            ]
        }
        blend = try container.number(.blend, default: 0, in: Limits.blend)
        optics = try container.value(.optics, default: Optics())
        lift = try container.decodeIfPresent(LensLift.self, forKey: .lift)
        material = try container.decodeIfPresent(Material.self, forKey: .material)
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme)
        renderingPath = try container.choice(RenderingPath.self, .renderingPath)
        edgeHighlight = try container.decodeIfPresent(EdgeHighlight.self, forKey: .edgeHighlight)
        gradientTint = try container.decodeIfPresent(GradientTint.self, forKey: .gradientTint)
        highlight = try container.decodeIfPresent(AnimatedHighlight.self, forKey: .highlight)
        touchGlow = try container.decodeIfPresent(TouchGlow.self, forKey: .touchGlow)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if shapes.count == 1 && blend == 0 {
            try container.encode(shapes[0].shape, forKey: .shape)
            try container.encode(shapes[0].frame, forKey: .frame)
        } else {
            try container.encode(shapes, forKey: .shapes)
            try container.encode(blend, forKey: .blend)
        }
        try container.encode(optics, forKey: .optics)
        try container.encodeIfPresent(lift, forKey: .lift)
        try container.encodeIfPresent(material, forKey: .material)
        try container.encodeIfPresent(theme, forKey: .theme)
        try container.encodeIfPresent(renderingPath, forKey: .renderingPath)
        try container.encodeIfPresent(edgeHighlight, forKey: .edgeHighlight)
        try container.encodeIfPresent(gradientTint, forKey: .gradientTint)
        try container.encodeIfPresent(highlight, forKey: .highlight)
        try container.encodeIfPresent(touchGlow, forKey: .touchGlow)
    }
}

/// The lens between resting (progress 0) and lifted (1): the size grows by bounds, refraction,
/// magnification and frost fade in, the resting background fades out, lifted content fades in.
/// At rest a lens is flat, its resting background under the label row: its rim light, Fresnel,
/// contour and inner shadow fade in with the progress, and its drop shadow from `restingShadow`.
public struct LensLift: Codable, Sendable, Equatable {
    /// 0 resting … 1 lifted.
    public var progress: Double
    /// Points added to width and height when fully lifted (e.g. 196×28 → 220×44 is [24, 16]).
    public var growth: Point
    /// Drawn over the glass while resting; its alpha fades out with the progress.
    public var restingBackground: RGBAColor
    /// Bevel amount A while resting (Apple's Large style: 0).
    public var restingBevelAmount: Double
    /// Frost σ while resting.
    public var restingFrost: Double
    /// Share of the drop shadow cast while resting (0…1), full when lifted: 0 for a segment or tab
    /// lens, 1 for a switch or slider knob (iOS's resting knob casts its shadow).
    public var restingShadow: Double

    /// A lift at `progress`; by default no growth, a clear resting background, no resting bevel,
    /// frost or shadow.
    public init(
        progress: Double, growth: Point = Point(x: 0, y: 0), restingBackground: RGBAColor = .clear,
        restingBevelAmount: Double = 0, restingFrost: Double = 0, restingShadow: Double = 0
    ) {
        self.progress = progress
        self.growth = growth
        self.restingBackground = restingBackground
        self.restingBevelAmount = restingBevelAmount
        self.restingFrost = restingFrost
        self.restingShadow = restingShadow
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case progress, growth, restingBackground, restingBevelAmount, restingFrost, restingShadow
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        progress = try container.number(.progress, in: Limits.unit)
        growth = try container.value(.growth, default: Point(x: 0, y: 0))
        restingBackground = try container.value(.restingBackground, default: .clear)
        restingBevelAmount = try container.number(.restingBevelAmount, default: 0, in: Limits.bevel)
        restingFrost = try container.number(.restingFrost, default: 0, in: Limits.frost)
        restingShadow = try container.number(.restingShadow, default: 0, in: Limits.unit)
    }
}

/// The light under a finger on `.interactive()` glass: white added to the face, `amount` at
/// `center` and fading smoothly to nothing `radius` points away. Glass below a lens glows too, and
/// the lens shows it (capture `union-lens-lifted`: the touched bar brightens from 36 to 53 levels
/// about the lifted lens, back to 36 about 130 pt from the finger, on both sides of the lens's rim alike).
public struct TouchGlow: Codable, Sendable, Equatable {
    /// Where the finger is, in points.
    public var center: Point
    /// Distance in points at which the glow has faded to nothing.
    public var radius: Double
    /// Share of white added at the centre, in linear light (0…1).
    public var amount: Double

    /// A glow of `amount` white at `center`, gone `radius` points away.
    public init(center: Point, radius: Double, amount: Double) {
        self.center = center
        self.radius = radius
        self.amount = amount
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case center, radius, amount }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        center = try container.decode(Point.self, forKey: .center)
        radius = try container.number(.radius, in: Limits.touchGlowRadius)
        amount = try container.number(.amount, in: Limits.unit)
    }
}

/// Key or fill light on the rim.
public struct RimLobe: Codable, Sendable, Equatable {
    /// Direction the light comes from, degrees, screen axes (x right, y down): −45° is up-right.
    public var angle: Double
    /// Strength of the lobe (0…4; 0 turns it off).
    public var amount: Double

    /// A lobe lit from `angle` degrees with strength `amount`.
    public init(angle: Double, amount: Double) {
        self.angle = angle
        self.amount = amount
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case angle, amount }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, over: RimLobe(angle: 0, amount: 0.5))
    }

    /// A lobe spelled out in a scene file over `base`: keys left out keep `base`'s values.
    init(from decoder: any Decoder, over base: RimLobe) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        angle = try container.number(.angle, default: base.angle, in: Limits.angle)
        amount = try container.number(.amount, default: base.amount, in: Limits.rimAmount)
    }
}

/// Rim light: two lobes `max(n·L, 0)^falloff` in a band `width` points wide inside the silhouette,
/// fading by `curvature` of its depth; the lit band turns white, or is recoloured as Apple's
/// vibrant matrix does.
public struct RimLight: Codable, Sendable, Equatable {
    /// The key lobe (default: from −45°, up-right; Apple's glass: from 45°, down-right — Apple's
    /// −π/4 with y up).
    public var key: RimLobe
    /// The fill lobe, usually opposite the key (default: 135°; Apple's glass: −135°, up-left).
    public var fill: RimLobe
    /// Width of the lit band inside the silhouette, in points (0: no rim light).
    public var width: Double
    /// Exponent of both lobes (1…16): higher narrows each highlight about its direction.
    public var falloff: Int
    /// Share of the light the band loses from the silhouette to its inner edge (1: a linear fade to
    /// 0; Apple: 0.7, so the band ends at 0.3 with a 1 px antialiased edge).
    public var curvature: Double
    /// Apple's vibrant matrix the lit band is recoloured by, laid over the glass with the light as
    /// alpha on the values Core Animation blends; nil: the band lightens towards white.
    public var recolor: ColorLevels?

    /// Key at −45° and fill at 135°, 0.5 each, a 1 pt band, lobes squared, lightening to white.
    public static let standard = RimLight(
        key: RimLobe(angle: -45, amount: 0.5), fill: RimLobe(angle: 135, amount: 0.5), width: 1, falloff: 2)
    /// Apple's glass (`CASDFKeyFillHighlightEffect`): key at −π/4 and fill at 3π/4, a 1 pt band,
    /// cosine lobes (spread π/2), curvature 0.7, recoloured by the light vibrant matrix. Two of
    /// Apple's numbers are read against the iOS captures (`cn-buttons`, the prominent capsule):
    /// - the angles are measured with y up: on screen the key is at 45° (down-right) and the fill
    ///   at −135° (up-left); the capture's rim peaks up-left and down-right and is dark up-right
    ///   and down-left;
    /// - each lobe's amount is 1.15, not Apple's 0.5: the capture's top rim rows (54, 219, 255),
    ///   (40, 193, 255), (26, 167, 255) over its (0, 121, 254) face have the vibrant recolour's
    ///   colour and the band's fade, at 2.3× the light.
    public static let apple = RimLight(
        key: RimLobe(angle: 45, amount: 1.15), fill: RimLobe(angle: -135, amount: 1.15), width: 1, falloff: 1,
        curvature: 0.7, recolor: .vibrantLight)
    /// No rim light: zero amounts and band width.
    public static let off = RimLight(
        key: RimLobe(angle: -45, amount: 0), fill: RimLobe(angle: 135, amount: 0), width: 0, falloff: 2)

    /// A rim light from its two lobes, its band width in points, its integer falloff, its
    /// curvature and the recolouring of the lit band (nil: towards white).
    public init(
        key: RimLobe, fill: RimLobe, width: Double, falloff: Int, curvature: Double = 1, recolor: ColorLevels? = nil
    ) {
        self.key = key
        self.fill = fill
        self.width = width
        self.falloff = falloff
        self.curvature = curvature
        self.recolor = recolor
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case key, fill, width, falloff, curvature, recolor }

    /// A rim light spelled out in a scene file; keys left out take ``standard``'s values.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, over: .standard)
    }

    /// A rim light spelled out in a scene file over `base` (a preset's rim): keys left out keep
    /// `base`'s values, so setting the width of Apple's rim keeps its lobes and recolouring.
    init(from decoder: any Decoder, over base: RimLight) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.nested(.key, over: base.key, RimLobe.init(from:over:))
        fill = try container.nested(.fill, over: base.fill, RimLobe.init(from:over:))
        width = try container.number(.width, default: base.width, in: Limits.rimWidth)
        falloff = Int(try container.number(.falloff, default: Double(base.falloff), in: Limits.rimFalloff).rounded())
        curvature = try container.number(.curvature, default: base.curvature, in: Limits.rimCurvature)
        // `null` asks for the white rim; left out, the base's recolouring stays.
        recolor =
            container.contains(.recolor)
            ? try container.decodeIfPresent(ColorLevels.self, forKey: .recolor) : base.recolor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(fill, forKey: .fill)
        try container.encode(width, forKey: .width)
        try container.encode(falloff, forKey: .falloff)
        try container.encode(curvature, forKey: .curvature)
        // Written even when nil: read back over a preset, a missing key would keep its recolouring.
        if let recolor {
            try container.encode(recolor, forKey: .recolor)
        } else {
            try container.encodeNil(forKey: .recolor)
        }
    }
}

/// A shadow: the shape offset and blurred. As a drop shadow it is cut out under the glass; as an
/// inner shadow it darkens the glass where the offset shape does not cover it.
public struct DropShadow: Codable, Sendable, Equatable {
    /// Where the shadow's shape is moved, in points (y down).
    public var offset: Point
    /// Softness in points: the shadow fades across ± radius about the moved silhouette.
    public var radius: Double
    /// Darkness where the shadow is full, 0…1 (0: off).
    public var opacity: Double

    /// The default drop shadow, Apple's table's numbers: offset (0, 8), radius 24, opacity 0.25.
    /// Apple's regular glass follows its size law instead (`GlassSizeLaw`, fitted to iOS captures).
    public static let standard = DropShadow(offset: Point(x: 0, y: 8), radius: 24, opacity: 0.25)
    /// Apple's lens inner shadow: offset (0, 7), radius 3, opacity 0.12.
    public static let appleInner = DropShadow(offset: Point(x: 0, y: 7), radius: 3, opacity: 0.12)
    /// No shadow.
    public static let off = DropShadow(offset: Point(x: 0, y: 0), radius: 0, opacity: 0)

    /// The shape moved by `offset`, softened by `radius` points, at `opacity`.
    public init(offset: Point, radius: Double, opacity: Double) {
        self.offset = offset
        self.radius = radius
        self.opacity = opacity
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case offset, radius, opacity }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offset = try container.value(.offset, default: Self.standard.offset)
        radius = try container.number(.radius, default: 24, in: Limits.shadowRadius)
        opacity = try container.number(.opacity, default: 0.25, in: Limits.unit)
    }
}

/// A thin dark line just inside the silhouette.
public struct Contour: Codable, Sendable, Equatable {
    /// Depth inside the silhouette, in points, over which the line fades out.
    public var width: Double
    /// How much the line darkens at the silhouette, 0…1 (0: off).
    public var opacity: Double

    /// No contour.
    public static let off = Contour(width: 0, opacity: 0)

    /// A contour `width` points deep at `opacity`.
    public init(width: Double, opacity: Double) {
        self.width = width
        self.opacity = opacity
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case width, opacity }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.number(.width, default: 0.5, in: Limits.rimWidth)
        opacity = try container.number(.opacity, default: 0.2, in: Limits.unit)
    }
}
