import Foundation

/// The `_UILiquidLensView` article's circular three-item menu, as its demo builds it: a round
/// platter of regular glass 310 pt across; three items 104 × 62 pt at −90°, 150° and 30° on a
/// radius of 0.27 × the diameter about a centre 5 pt above the platter's, each a 23 pt semibold
/// symbol over a 13 pt semibold title (y 39–59 in the item) in `.label`, `.systemIndigo` under the
/// lens; and a lens, 96 pt resting (white 0.38 with a 1 px white 0.55 border) and 116 pt lifted.
public struct LensMenu: Codable, Sendable {
    /// Which lens the menu shows: the private `_UILiquidLensView`, or the demo's public fallback.
    public enum LensStyle: String, Codable, Sendable, CaseIterable {
        /// The private lens: glass that lifts on a spring; resting, white 0.38 with a 1 px white 0.55 border.
        case liquidLens
        /// The demo's fallback for systems without the private lens: a plain circle of white 0.3
        /// with a 1 pt white 0.55 border, growing and shrinking over 0.25 s.
        case fallback
    }

    /// Centre of the menu, in points.
    public var center: Point
    /// Diameter of the round platter, in points (150…2000 when decoded, default 310).
    public var diameter: Double
    /// The three items, at the ``itemAngles``.
    public var items: [ControlItem]
    /// Lens centre relative to the menu centre, in points.
    public var lensOffset: Point
    /// Lift progress of the lens, 0 resting (96 pt) … 1 lifted (116 pt).
    public var lift: Double
    /// Colour of the symbols and titles under the lens; nil: `.systemIndigo` for the appearance.
    public var accent: RGBAColor?
    /// Light or dark: platter tint and the `.label` colour of the items.
    public var appearance: ControlAppearance
    /// Font of the titles (default the UI face, semibold).
    public var font: FontSpec
    /// Font of the items' symbols, an icon font such as ``FontSpec/symbols``; nil draws them with `font`.
    public var symbolFont: FontSpec?
    /// The private lens (default) or the public fallback.
    public var lensStyle: LensStyle

    /// The item angles of the article's demo, in degrees (screen axes).
    public static let itemAngles = [-90.0, 150, 30]
    /// Radius of the item ring as a share of the diameter.
    public static let itemRadiusRatio = 0.27
    /// How far the item ring's centre sits above the platter's centre, in points.
    public static let itemRaise = 5.0
    /// Size of an item's frame, in points.
    public static let itemSize = Point(x: 104, y: 62)
    /// Point size of an item's symbol (semibold).
    public static let symbolSize = 23.0
    /// Centre of the symbol below the item's top, in points: the middle of the band above the title.
    public static let symbolCenterY = 18.0
    /// Point size of an item's title (semibold).
    public static let titleSize = 13.0
    /// The title's line box inside the item, from its top, in points.
    public static let titleBand = 39.0...59.0
    /// Lens diameter resting, in points.
    public static let restingLensDiameter = 96.0
    /// Lens diameter lifted, in points.
    public static let liftedLensDiameter = 116.0
    /// The private lens's resting background.
    public static let restingLensFill = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.38)
    /// The resting lens's border, 1 px wide (and the fallback lens's, 1 pt wide).
    public static let lensBorder = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.55)
    /// The fallback lens's fill.
    public static let fallbackLensFill = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.3)
    /// How long the fallback lens takes to grow or shrink, in seconds.
    public static let fallbackLiftDuration = 0.25

    /// `.label`: black in light, white in dark.
    public static func labelColor(_ appearance: ControlAppearance) -> RGBAColor {
        appearance == .dark ? .white : .black
    }

    /// `.systemIndigo`: (88, 86, 214) in light, (94, 92, 230) in dark.
    public static func systemIndigo(_ appearance: ControlAppearance) -> RGBAColor {
        appearance == .dark ? RGBAColor(94, 92, 230) : RGBAColor(88, 86, 214)
    }

    /// A menu 310 pt across by default, with the lens at `lensOffset`, fully lifted unless given.
    public init(
        center: Point, diameter: Double = 310, items: [ControlItem], lensOffset: Point, lift: Double = 1,
        accent: RGBAColor? = nil, appearance: ControlAppearance = .light, font: FontSpec = FontSpec(weight: .semibold),
        symbolFont: FontSpec? = nil, lensStyle: LensStyle = .liquidLens
    ) {
        self.center = center
        self.diameter = diameter
        self.items = items
        self.lensOffset = lensOffset
        self.lift = lift
        self.accent = accent
        self.appearance = appearance
        self.font = font
        self.symbolFont = symbolFont
        self.lensStyle = lensStyle
    }

    /// Offset of item `index`'s centre from the menu centre: on the ring, raised by ``itemRaise``.
    public func itemOffset(_ index: Int) -> SIMD2<Double> { Self.itemOffset(index, diameter: diameter) }

    static func itemOffset(_ index: Int, diameter: Double) -> SIMD2<Double> {
        let angle = itemAngles[index] * .pi / 180
        return SIMD2(cos(angle), sin(angle)) * itemRadiusRatio * diameter - SIMD2(0, itemRaise)
    }

    /// The item whose centre is nearest `offset` (from the menu centre).
    public func nearestItem(to offset: SIMD2<Double>) -> Int {
        func distance(_ index: Int) -> Double {
            let delta = itemOffset(index) - offset
            return (delta * delta).sum().squareRoot()
        }
        return Self.itemAngles.indices.min { distance($0) < distance($1) }!
    }

    /// The dragged lens stays inside the circle: radius − lifted size / 2 − 10 from the centre.
    public var maxLensDistance: Double { diameter / 2 - Self.liftedLensDiameter / 2 - 10 }

    /// The colour of the symbols and titles under the lens.
    public var resolvedAccent: RGBAColor { accent ?? Self.systemIndigo(appearance) }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, center, diameter, items, lensOffset, lift, accent, appearance, font, symbolFont, lensStyle
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        center = try container.decode(Point.self, forKey: .center)
        diameter = try container.number(.diameter, default: 310, in: Limits.lensMenuDiameter)
        items = try container.decode([ControlItem].self, forKey: .items)
        guard items.count == 3 else {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: container, debugDescription: "the lens menu has exactly 3 items")
        }
        let firstItem = Self.itemOffset(0, diameter: diameter)
        lensOffset = try container.value(.lensOffset, default: Point(x: firstItem.x, y: firstItem.y))
        lift = try container.number(.lift, default: 1, in: Limits.unit)
        accent = try container.decodeIfPresent(RGBAColor.self, forKey: .accent)
        appearance = try container.value(.appearance, default: .light)
        font = try container.value(.font, default: FontSpec(weight: .semibold))
        symbolFont = try container.decodeIfPresent(FontSpec.self, forKey: .symbolFont)
        lensStyle = try container.value(.lensStyle, default: .liquidLens)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("lensMenu", forKey: .type)
        try container.encode(center, forKey: .center)
        try container.encode(diameter, forKey: .diameter)
        try container.encode(items, forKey: .items)
        try container.encode(lensOffset, forKey: .lensOffset)
        try container.encode(lift, forKey: .lift)
        try container.encodeIfPresent(accent, forKey: .accent)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(font, forKey: .font)
        try container.encodeIfPresent(symbolFont, forKey: .symbolFont)
        try container.encode(lensStyle, forKey: .lensStyle)
    }
}
