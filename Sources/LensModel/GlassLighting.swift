import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

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
