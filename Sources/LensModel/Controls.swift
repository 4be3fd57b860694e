import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// Light or dark appearance of a control (title colours, rail fill, glass tint).
public enum ControlAppearance: String, Codable, Sendable, CaseIterable {
    case light, dark
}

/// A Health-style segmented control with a LensTint glass thumb (the `LensTintSegmentedControl`
/// package): titles centred in segments on a capsule rail, the thumb lens over `thumbPosition`,
/// titles under the lens in the accent colour, split at the rim.
public struct SegmentedControl: Codable, Sendable {
    /// Centre of the rail in points.
    public var center: Point
    /// Rail width in points (its height follows Dynamic Type: 32 pt at the stock size).
    public var width: Double
    /// Segment titles, left to right (1…12 of at most 64 characters when decoded).
    public var titles: [String]
    /// The thumb's position in segments (0 = first segment); fractional mid-drag.
    public var thumbPosition: Double
    /// Lift progress of the thumb lens.
    public var lift: Double
    /// Touch presence 0…1: grows the whole control by 1 + railGrowth·held and darkens the rail.
    public var held: Double
    /// Colour of the titles under the thumb lens (default systemBlue).
    public var accent: RGBAColor
    /// Nil picks secondaryLabel for the appearance.
    public var restingTitleColor: RGBAColor?
    /// Alpha of the settled thumb's fill, under the titles (default 1: iOS's resting thumb is
    /// opaque, white in light appearance, in the captures cn-segmented and cnb-segmented).
    public var restingFillAlpha: Double
    /// The settled thumb's fill, UIKit's `selectedSegmentTintColor` (cnb-segmented's "Colored"
    /// control: an opaque (254, 43, 77) pill); nil picks white in light appearance and grey
    /// (99, 99, 102) in dark. Its alpha is multiplied by `restingFillAlpha`.
    public var restingFill: RGBAColor?
    /// Growth of the whole control while held: scale 1 + railGrowth·held (default 0.10).
    public var railGrowth: Double
    /// Alpha of the black wash over the rail while held, times `held` (default 0.25).
    public var railDensify: Double
    /// Tint-mask feather in points, clamped to half the thumb height minus 1.
    public var softness: Double
    /// Dynamic Type size: sets the title size and, through it, the rail height.
    public var contentSize: ContentSizeCategory
    /// Light or dark: rail fill, thumb tint and the default resting title colour.
    public var appearance: ControlAppearance
    /// Reduce Motion: no rail growth.
    public var reduceMotion: Bool
    /// Font of the title the thumb rests on, UIKit's `.selected` title attributes (default
    /// medium: Inter is a weight heavier than SF Pro, and its medium carries the ink of UIKit's
    /// selected title in the captures cn-segmented and cnb-segmented).
    public var font: FontSpec
    /// Font of the other titles, UIKit's `.normal` title attributes; nil picks ``font`` one weight
    /// lighter (medium → regular): the captures cn-segmented and cnb-segmented both show the
    /// selected title a weight step heavier than the others.
    public var restingFont: FontSpec?
    /// Squash and stretch of the thumb: width × s, height ÷ s (drag velocity; 1 at rest).
    public var thumbStretch: Double = 1

    /// A control with the thumb at `thumbPosition`, fully lifted and held by default, in the package's stock
    /// colours and proportions.
    public init(
        center: Point, width: Double, titles: [String], thumbPosition: Double, lift: Double = 1, held: Double = 1,
        accent: RGBAColor = LabelLayer.defaultAccent, restingTitleColor: RGBAColor? = nil,
        restingFillAlpha: Double = 1, restingFill: RGBAColor? = nil, railGrowth: Double = 0.10,
        railDensify: Double = 0.25, softness: Double = 10,
        contentSize: ContentSizeCategory = .large, appearance: ControlAppearance = .light, reduceMotion: Bool = false,
        font: FontSpec = FontSpec(weight: .medium), restingFont: FontSpec? = nil
    ) {
        self.center = center
        self.width = width
        self.titles = titles
        self.thumbPosition = thumbPosition
        self.lift = lift
        self.held = held
        self.accent = accent
        self.restingTitleColor = restingTitleColor
        self.restingFillAlpha = restingFillAlpha
        self.restingFill = restingFill
        self.railGrowth = railGrowth
        self.railDensify = railDensify
        self.softness = softness
        self.contentSize = contentSize
        self.appearance = appearance
        self.reduceMotion = reduceMotion
        self.font = font
        self.restingFont = restingFont
    }

    /// The segment the thumb is nearest, whose title is drawn in ``font``: halfway between two,
    /// the later one (as `rounded()` takes 0.5 up); 0 for a position that is not finite.
    public var selectedIndex: Int {
        guard thumbPosition.isFinite else { return 0 }
        return Int(min(max(thumbPosition.rounded(), 0), Double(titles.count - 1)))
    }

    /// The font title `index` is drawn in: ``font`` for the selected segment, else ``restingFont``
    /// or, without one, ``font`` a weight lighter.
    public func titleFont(at index: Int) -> FontSpec {
        if index == selectedIndex { return font }
        if let restingFont { return restingFont }
        var lighter = font
        lighter.weight = font.weight.lighter
        return lighter
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, center, width, titles, thumbPosition, lift, held, accent, restingTitleColor, restingFillAlpha,
            restingFill, railGrowth, railDensify, softness, contentSize, appearance, reduceMotion, font, restingFont,
            thumbStretch
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        center = try container.decode(Point.self, forKey: .center)
        width = try container.number(.width, in: Limits.extent)
        titles = try container.decode([String].self, forKey: .titles)
        let counts = Limits.segmentTitles
        guard counts.contains(titles.count), titles.allSatisfy({ $0.count <= Limits.titleLength }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .titles, in: container,
                debugDescription:
                    "expected \(counts.lowerBound) to \(counts.upperBound) titles of at most \(Limits.titleLength) characters"
            )
        }
        thumbPosition = try container.number(.thumbPosition, default: 0, in: -1...Double(titles.count))
        lift = try container.number(.lift, default: 1, in: Limits.unit)
        held = try container.number(.held, default: 1, in: Limits.unit)
        accent = try container.value(.accent, default: LabelLayer.defaultAccent)
        restingTitleColor = try container.decodeIfPresent(RGBAColor.self, forKey: .restingTitleColor)
        restingFillAlpha = try container.number(.restingFillAlpha, default: 1, in: Limits.unit)
        restingFill = try container.decodeIfPresent(RGBAColor.self, forKey: .restingFill)
        railGrowth = try container.number(.railGrowth, default: 0.10, in: Limits.unit)
        railDensify = try container.number(.railDensify, default: 0.25, in: Limits.unit)
        softness = try container.number(.softness, default: 10, in: Limits.softness)
        contentSize = try container.value(.contentSize, default: .large)
        appearance = try container.value(.appearance, default: .light)
        reduceMotion = try container.value(.reduceMotion, default: false)
        font = try container.value(.font, default: FontSpec(weight: .medium))
        restingFont = try container.decodeIfPresent(FontSpec.self, forKey: .restingFont)
        thumbStretch = try container.number(.thumbStretch, default: 1, in: Limits.thumbStretch)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("segmented", forKey: .type)
        try container.encode(center, forKey: .center)
        try container.encode(width, forKey: .width)
        try container.encode(titles, forKey: .titles)
        try container.encode(thumbPosition, forKey: .thumbPosition)
        try container.encode(lift, forKey: .lift)
        try container.encode(held, forKey: .held)
        try container.encode(accent, forKey: .accent)
        try container.encodeIfPresent(restingTitleColor, forKey: .restingTitleColor)
        try container.encode(restingFillAlpha, forKey: .restingFillAlpha)
        try container.encodeIfPresent(restingFill, forKey: .restingFill)
        try container.encode(railGrowth, forKey: .railGrowth)
        try container.encode(railDensify, forKey: .railDensify)
        try container.encode(softness, forKey: .softness)
        try container.encode(contentSize, forKey: .contentSize)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(reduceMotion, forKey: .reduceMotion)
        try container.encode(font, forKey: .font)
        try container.encodeIfPresent(restingFont, forKey: .restingFont)
        try container.encode(thumbStretch, forKey: .thumbStretch)
    }
}

/// An item of a tab bar or lens menu: a title, a monochrome icon and an optional badge count.
public struct ControlItem: Codable, Sendable, Equatable {
    /// Text under the icon (at most 64 characters when decoded).
    public var title: String
    /// A symbol character drawn with the control's symbol font (SF Symbols do not exist on Linux):
    /// an icon font's codepoint such as Material Design Icons' U+F361, or a character such as "★".
    public var symbol: String?
    /// A monochrome PNG icon (alpha, or grey when opaque), relative to the scene file.
    public var icon: String?
    /// Count in a red badge by the icon (0…9999; the tab bars draw it); nil: no badge.
    public var badge: Int?

    /// An item titled `title`; an `icon` is drawn in place of the `symbol` when both are given.
    public init(title: String, symbol: String? = nil, icon: String? = nil, badge: Int? = nil) {
        self.title = title
        self.symbol = symbol
        self.icon = icon
        self.badge = badge
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case title, symbol, icon, badge }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        guard title.count <= Limits.titleLength else {
            throw DecodingError.dataCorruptedError(
                forKey: .title, in: container, debugDescription: "at most \(Limits.titleLength) characters")
        }
        symbol = try container.decodeIfPresent(String.self, forKey: .symbol)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        badge = try container.decodeIfPresent(Int.self, forKey: .badge)
        if let badge, !Limits.badge.contains(badge) {
            throw DecodingError.dataCorruptedError(
                forKey: .badge, in: container,
                debugDescription: "must be \(Limits.badge.lowerBound)…\(Limits.badge.upperBound)")
        }
    }
}

/// A control. JSON: an object with `"type"` and that control's keys: `segmented`, `tabBar` and
/// `lensMenu` are LensTint controls whose titles sit in the label row under their lens; the
/// ``GlassControl`` kinds (`button`, `switch`, `slider`, `card`, `textField`, `searchBar`,
/// `navigationBar`, `floatingTabBar`, `bottomSheet`) carry their labels on the glass.
public enum Control: Codable, Sendable {
    case segmented(SegmentedControl)
    case tabBar(TabBar)
    case lensMenu(LensMenu)
    case glass(GlassControl)

    /// Whether the control draws its titles in the label row (the LensTint controls).
    /// Its `type` as scenes write it.
    package var typeName: String {
        switch self {
        case .segmented: "segmented"
        case .tabBar: "tabBar"
        case .lensMenu: "lensMenu"
        case .glass(let control): control.kind.rawValue
        }
    }

    package var usesLabelRow: Bool {
        if case .glass = self { return false }
        return true
    }

    enum TypeKey: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case "segmented": self = .segmented(try SegmentedControl(from: decoder))
        case "tabBar": self = .tabBar(try TabBar(from: decoder))
        case "lensMenu": self = .lensMenu(try LensMenu(from: decoder))
        case let kind where GlassControl.Kind(rawValue: kind) != nil: self = .glass(try GlassControl(from: decoder))
        default:
            let known = ["segmented", "tabBar", "lensMenu"] + GlassControl.Kind.allCases.map(\.rawValue)
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [TypeKey.type],
                    debugDescription:
                        "unknown control type \"\(type)\" (expected one of: \(known.joined(separator: ", ")))"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .segmented(let control): try control.encode(to: encoder)
        case .tabBar(let control): try control.encode(to: encoder)
        case .lensMenu(let control): try control.encode(to: encoder)
        case .glass(let control): try control.encode(to: encoder)
        }
    }
}
