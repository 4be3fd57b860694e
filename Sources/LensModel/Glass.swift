import Foundation

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
    /// This shape's own tint in place of the element's (a tinted button in a container with
    /// plain glass): across a bridge the shapes' tints blend by the shapes' weights times their
    /// opacities squared, so the denser colour holds more of the bridge and fades into the rest.
    /// Once one shape of a group has a tint, every shape without one takes the element's tint,
    /// and the element's gradient tint is not drawn. nil: the element's.
    public var tint: RGBAColor?
    /// The name a press finds this one shape of a group by (a member of a glass container): it
    /// swells alone and the group's bridge reaches from it to its neighbours. Unique among the
    /// scene's glass and shape ids. nil: none.
    public var id: String?

    /// `shape` placed in `frame`, tinted `tint` and named `id` where given.
    public init(shape: Shape, frame: Rect, tint: RGBAColor? = nil, id: String? = nil) {
        self.shape = shape
        self.frame = frame
        self.tint = tint
        self.id = id
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case shape, frame, tint, id }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shape = try container.decode(Shape.self, forKey: .shape)
        frame = try container.decode(Rect.self, forKey: .frame)
        tint = try container.decodeIfPresent(RGBAColor.self, forKey: .tint)
        id = try container.identifier(.id)
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
    /// The name an animation's transitions find this glass by (SwiftUI's `glassEffectID`);
    /// unique in a scene. nil: none.
    public var id: String?
    /// How far the glass has materialised, 0…1: its bending and frost grow with it, and the glass
    /// and its shadow lie over what is below at that share (``GlassTransition/Kind/materialize``
    /// animates it). 1: whole; 0 draws nothing.
    public var presence: Double = 1
    /// Takes its appearance (``Optics/appearance``, and Apple's regular glass its dark variant)
    /// from the backdrop under it; nil: pinned to the appearance it is given.
    public var adaptive: AdaptiveAppearance?
    /// Which iOS release's glass this element draws; nil: the scene's (``Scene/generation``).
    public var generation: GlassGeneration?

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
            highlight, touchGlow, id, presence, adaptive, generation
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
        id = try container.identifier(.id)
        presence = try container.number(.presence, default: 1, in: Limits.unit)
        adaptive = try container.decodeIfPresent(AdaptiveAppearance.self, forKey: .adaptive)
        generation = try container.choice(GlassGeneration.self, .generation)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if shapes.count == 1 && blend == 0 && shapes[0].tint == nil && shapes[0].id == nil {
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
        try container.encodeIfPresent(id, forKey: .id)
        if presence != 1 { try container.encode(presence, forKey: .presence) }
        try container.encodeIfPresent(adaptive, forKey: .adaptive)
        try container.encodeIfPresent(generation, forKey: .generation)
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
