import Foundation

/// The silhouette of a glass element inside its frame.
/// JSON: `"circle"`, `"capsule"`, or `{"type": "roundedRectangle", "cornerRadii": [tl, tr, br, bl]}`
/// (or `"cornerRadius": r` for all four), radii in points.
public enum Shape: Codable, Sendable, Equatable {
    /// The largest circle centred in the frame.
    case circle
    /// Fully rounded ends along the frame's long side.
    case capsule
    /// Top-left, top-right, bottom-right, bottom-left radii in points (clamped to half the short side).
    case roundedRectangle(cornerRadii: [Double])

    enum CodingKeys: String, CodingKey, CaseIterable { case type, cornerRadii, cornerRadius }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            switch name {
            case "circle": self = .circle
            case "capsule": self = .capsule
            default:
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "unknown shape \"\(name)\" (expected circle, capsule or a roundedRectangle object)"))
            }
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "circle": self = .circle
        case "capsule": self = .capsule
        case "roundedRectangle":
            if let radii = try container.decodeIfPresent([Double].self, forKey: .cornerRadii) {
                guard radii.count == 4, radii.allSatisfy({ $0.isFinite && Limits.cornerRadius.contains($0) }) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .cornerRadii, in: container,
                        debugDescription: "expected 4 radii in 0…10000 (tl, tr, br, bl)")
                }
                self = .roundedRectangle(cornerRadii: radii)
            } else {
                let radius = try container.number(.cornerRadius, default: 12, in: Limits.cornerRadius)
                self = .roundedRectangle(cornerRadii: [radius, radius, radius, radius])
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown shape type \"\(type)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .circle:
            var container = encoder.singleValueContainer()
            try container.encode("circle")
        case .capsule:
            var container = encoder.singleValueContainer()
            try container.encode("capsule")
        case .roundedRectangle(let radii):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("roundedRectangle", forKey: .type)
            try container.encode(radii, forKey: .cornerRadii)
        }
    }
}

/// One lens of glass: a shape in a frame and its optics.
public struct GlassElement: Codable, Sendable {
    public var shape: Shape
    public var frame: Rect
    public var optics: Optics

    public init(shape: Shape, frame: Rect, optics: Optics = Optics()) {
        self.shape = shape
        self.frame = frame
        self.optics = optics
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case shape, frame, optics }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shape = try container.decode(Shape.self, forKey: .shape)
        frame = try container.decode(Rect.self, forKey: .frame)
        optics = try container.value(.optics, default: Optics())
    }
}

/// Key or fill light on the rim.
public struct RimLobe: Codable, Sendable, Equatable {
    /// Direction the light comes from, degrees, screen axes (x right, y down): −45° is up-right.
    public var angle: Double
    public var amount: Double

    public init(angle: Double, amount: Double) {
        self.angle = angle
        self.amount = amount
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case angle, amount }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        angle = try container.number(.angle, default: 0, in: Limits.angle)
        amount = try container.number(.amount, default: 0.5, in: Limits.rimAmount)
    }
}

/// Rim light: two lobes `max(n·L, 0)^falloff` in a band `width` points wide inside the silhouette.
public struct RimLight: Codable, Sendable, Equatable {
    public var key: RimLobe
    public var fill: RimLobe
    public var width: Double
    public var falloff: Int

    /// Apple's glass: key at −45° and fill at 135°, 0.5 each, a 1 pt band.
    public static let standard = RimLight(
        key: RimLobe(angle: -45, amount: 0.5), fill: RimLobe(angle: 135, amount: 0.5), width: 1, falloff: 2)
    public static let off = RimLight(
        key: RimLobe(angle: -45, amount: 0), fill: RimLobe(angle: 135, amount: 0), width: 0, falloff: 2)

    public init(key: RimLobe, fill: RimLobe, width: Double, falloff: Int) {
        self.key = key
        self.fill = fill
        self.width = width
        self.falloff = falloff
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case key, fill, width, falloff }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.value(.key, default: Self.standard.key)
        fill = try container.value(.fill, default: Self.standard.fill)
        width = try container.number(.width, default: 1, in: Limits.rimWidth)
        falloff = Int(try container.number(.falloff, default: 2, in: Limits.rimFalloff).rounded())
    }
}

/// Drop shadow: the shape offset and blurred, cut out under the glass.
public struct DropShadow: Codable, Sendable, Equatable {
    public var offset: Point
    public var radius: Double
    public var opacity: Double

    /// Apple's glass: offset (0, 8), radius 24, opacity 0.25.
    public static let standard = DropShadow(offset: Point(x: 0, y: 8), radius: 24, opacity: 0.25)
    public static let off = DropShadow(offset: Point(x: 0, y: 0), radius: 0, opacity: 0)

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

/// How the glass bends, blurs, colours and lights what is under it. Lengths in points.
public struct Optics: Codable, Sendable, Equatable {
    /// H: depth of the bevel band at the rim (capped to ¼ of the short side).
    public var bevelWidth: Double = 20
    /// A: inward displacement at the silhouette (capped to half the short side).
    public var bevelAmount: Double = 60
    /// Sampling scale about the lens centre (Apple's lifted lens ≈ 1.22).
    public var magnification: Double = 1
    /// Per-channel spread k of the displacement (red 1−k, blue 1+k); skipped under ¼ px.
    public var dispersion: Double = 0
    /// Gaussian σ of the backdrop under the glass.
    public var frost: Double = 0
    public var saturation: Double = 1
    /// Colour laid over the glass (premultiplied "over"); alpha is the amount.
    public var tint: RGBAColor = .clear
    /// Width of the tint-mask feather inside the rim.
    public var softness: Double = 10
    /// Share of the ellipse normal in the refraction direction (Apple: 0.5).
    public var ovalization: Double = 0.5
    public var rimLight: RimLight = .standard
    public var shadow: DropShadow = .standard

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case bevelWidth, bevelAmount, magnification, dispersion, frost, saturation, tint, softness,
            ovalization, rimLight, shadow
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bevelWidth = try container.number(.bevelWidth, default: bevelWidth, in: Limits.bevel)
        bevelAmount = try container.number(.bevelAmount, default: bevelAmount, in: Limits.bevel)
        magnification = try container.number(.magnification, default: magnification, in: Limits.magnification)
        dispersion = try container.number(.dispersion, default: dispersion, in: Limits.dispersion)
        frost = try container.number(.frost, default: frost, in: Limits.frost)
        saturation = try container.number(.saturation, default: saturation, in: Limits.saturation)
        tint = try container.value(.tint, default: tint)
        softness = try container.number(.softness, default: softness, in: Limits.softness)
        ovalization = try container.number(.ovalization, default: ovalization, in: Limits.unit)
        rimLight = try container.value(.rimLight, default: rimLight)
        shadow = try container.value(.shadow, default: shadow)
    }
}
