import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// How a ``TabBar`` lays out its tabs and its lens.
public enum TabBarStyle: String, Codable, Sendable, CaseIterable {
    /// UIKit's floating `UITabBar` (iOS 26): the tabs 8 pt in from the bar's ends, the lens 4 pt
    /// inside the bar's ends and 5 pt inside its top and bottom, a tab's pitch plus 8 pt wide (the
    /// captures `cn-tab-bar` and `mecid-tabs`).
    case native
    /// A glass capsule holding a segmented control, as SwiftUI apps build their own tab bars
    /// (the captures `union-resting` and `union-lens-lifted`): the tabs 3.75 pt in from the ends,
    /// the lens the tab inset 2.45 pt across and 5.5 pt down.
    case segmentedCapsule
    /// A native `UISegmentedControl` in an interactive glass capsule (the capture
    /// `fabbar-lifted`, FabBar): the tabs 2 pt in from the ends, the pill the tab inset 2.17 pt
    /// across and 3.5 pt down, its centre 0.5 pt low, growing 30 × 19.7 pt when lifted.
    case segmentedControl

    /// The tabs share the bar's width less this at each end, in points. `native`: `cn-tab-bar`'s
    /// UITabBar (a 251.7 × 62 pt bar, three icons 78.3 pt apart, the first 47.2 pt from the
    /// end), which `mecid-tabs` (an earlier beta, a 75 pt bar) repeats with 9.4 pt.
    /// `segmentedCapsule`: `union-resting`'s capsule (a 362 × 62 pt bar).
    public var padding: Double {
        switch self {
        case .native: 8
        case .segmentedCapsule: 3.75
        case .segmentedControl: 2
        }
    }

    /// The resting lens is its tab inset by this across and down, in points (negative: wider
    /// than the tab). `native`: `cn-tab-bar`'s lens, 86.3 × 52 pt, 4 pt inside the bar's end and
    /// 5 pt inside its top and bottom (5.3 pt in `mecid-tabs`); `segmentedCapsule`: union's,
    /// 113 × 51 pt; `segmentedControl`: FabBar's, 91 × 55 pt in a 290 × 62 pt bar of three
    /// tabs 95.33 pt apart.
    public var lensInset: Point {
        switch self {
        case .native: Point(x: -4, y: 5)
        case .segmentedCapsule: Point(x: 2.45, y: 5.5)
        case .segmentedControl: Point(x: 2.17, y: 3.5)
        }
    }

    /// How much the lens grows when lifted, in points across and down. `native`: UIKit's tab bar
    /// insets the lifted pill's bounds by −8 (decompiled UIKitCore), 16 × 16; `segmentedCapsule`:
    /// 30 × 18.5, union's segmented thumb (`union-lens-lifted`: 113 × 51 pt at rest, 143 × 69.5
    /// lifted); `segmentedControl`: 30 × 19.7 (`fabbar-lifted`: 91 × 55 pt at rest, 120.9 × 74.7
    /// lifted).
    public var liftedLensGrowth: Point {
        switch self {
        case .native: Point(x: 16, y: 16)
        case .segmentedCapsule: Point(x: 30, y: 18.5)
        case .segmentedControl: Point(x: 30, y: 19.7)
        }
    }

    /// How far below the bar's centre the lens's centre lies, in points. `segmentedCapsule`: 0.5,
    /// union's segmented control sitting half a point low in its capsule (`union-resting`: the
    /// resting pill 6 pt below the bar's top edge and 5 pt above its bottom; `union-lens-lifted`:
    /// the lifted lens centred on the same row); `native`: 0 (`cn-tab-bar`: the pill 5 pt inside
    /// both); `segmentedControl`: 0.5 (`fabbar-lifted`: the pill 4 pt below the top, 3 pt above
    /// the bottom, resting and lifted).
    public var lensDrop: Double {
        switch self {
        case .native: 0
        case .segmentedCapsule, .segmentedControl: 0.5
        }
    }
}

/// A floating glass tab bar: a capsule of glass with a lens under the selected tab.
public struct TabBar: Codable, Sendable {
    /// Centre of the bar, in points.
    public var center: Point
    /// Bar width in points.
    public var width: Double
    /// Bar height in points (24…200 when decoded, default 62).
    public var height: Double
    /// The tabs, left to right (1…8 when decoded).
    public var items: [ControlItem]
    /// The lens position in tabs (0 = first); fractional mid-drag.
    public var lensPosition: Double
    /// Lift progress of the tab lens, 0 resting … 1 lifted (default 0).
    public var lift: Double
    /// Colour of the icons and titles under the lens (default systemBlue).
    public var accent: RGBAColor
    /// Light or dark: platter tint and resting title colour.
    public var appearance: ControlAppearance
    /// Takes `appearance` from the backdrop under the bar (``AdaptiveAppearance``); nil: pinned.
    public var adaptive: AdaptiveAppearance?
    /// Font of the titles (default medium).
    public var font: FontSpec
    /// Font of the items' symbols, an icon font such as ``FontSpec/symbols``; nil draws them with `font`.
    public var symbolFont: FontSpec?
    /// Where the finger is from the lens's centre, in points, while the lens is lifted: the bar
    /// glows about it (default 0, 0).
    public var touchOffset: Point
    /// How the tabs and the lens are laid out (default ``TabBarStyle/native``).
    public var style: TabBarStyle
    /// The lens's height, lift included, as a share of its height at rest in the drag (0.5…1,
    /// default 1): a fast drag squashes it across its motion. Animations set it from the drag's
    /// speed (``Motion/loupeSquash(speed:)``).
    public var lensSquash: Double = 1
    /// A floating button past the bar's trailing end, in the bar's glass container; the bar
    /// merges with it while the lens is lifted. nil: none.
    public var accessory: TabBarAccessory?

    /// Where the tabs begin (the first tab's left edge) and the width each takes, in points: the
    /// bar less its style's padding at each end, shared evenly. The layout places the tabs and
    /// the lens by it, and a drag moves the lens one pitch per tab.
    package var tabs: (left: Double, pitch: Double) {
        (center.x - width / 2 + style.padding, (width - 2 * style.padding) / Double(items.count))
    }

    /// A bar 62 pt high by default, with the lens at `lensPosition`, resting (lift 0) unless given.
    public init(
        center: Point, width: Double, height: Double = 62, items: [ControlItem], lensPosition: Double, lift: Double = 0,
        accent: RGBAColor = LabelLayer.defaultAccent, appearance: ControlAppearance = .light,
        font: FontSpec = FontSpec(weight: .medium), symbolFont: FontSpec? = nil, touchOffset: Point = Point(x: 0, y: 0),
        style: TabBarStyle = .native
    ) {
        self.touchOffset = touchOffset
        self.style = style
        self.center = center
        self.width = width
        self.height = height
        self.items = items
        self.lensPosition = lensPosition
        self.lift = lift
        self.accent = accent
        self.appearance = appearance
        self.font = font
        self.symbolFont = symbolFont
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, center, width, height, items, lensPosition, lift, accent, appearance, font, symbolFont, touchOffset,
            style, lensSquash, accessory, adaptive
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        center = try container.decode(Point.self, forKey: .center)
        width = try container.number(.width, in: Limits.extent)
        height = try container.number(.height, default: 62, in: Limits.tabBarHeight)
        items = try container.decode([ControlItem].self, forKey: .items)
        guard Limits.controlItems.contains(items.count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: container,
                debugDescription:
                    "expected \(Limits.controlItems.lowerBound) to \(Limits.controlItems.upperBound) items")
        }
        lensPosition = try container.number(.lensPosition, default: 0, in: -1...Double(items.count))
        lift = try container.number(.lift, default: 0, in: Limits.unit)
        lensSquash = try container.number(.lensSquash, default: 1, in: Limits.lensSquash)
        accent = try container.value(.accent, default: LabelLayer.defaultAccent)
        appearance = try container.value(.appearance, default: .light)
        font = try container.value(.font, default: FontSpec(weight: .medium))
        symbolFont = try container.decodeIfPresent(FontSpec.self, forKey: .symbolFont)
        touchOffset = try container.value(.touchOffset, default: Point(x: 0, y: 0))
        style = try container.value(.style, default: .native)
        accessory = try container.decodeIfPresent(TabBarAccessory.self, forKey: .accessory)
        adaptive = try container.decodeIfPresent(AdaptiveAppearance.self, forKey: .adaptive)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("tabBar", forKey: .type)
        try container.encode(center, forKey: .center)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(items, forKey: .items)
        try container.encode(lensPosition, forKey: .lensPosition)
        try container.encode(lift, forKey: .lift)
        if lensSquash != 1 { try container.encode(lensSquash, forKey: .lensSquash) }
        try container.encode(accent, forKey: .accent)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(font, forKey: .font)
        try container.encodeIfPresent(symbolFont, forKey: .symbolFont)
        if touchOffset != Point(x: 0, y: 0) { try container.encode(touchOffset, forKey: .touchOffset) }
        try container.encode(style, forKey: .style)
        try container.encodeIfPresent(accessory, forKey: .accessory)
        try container.encodeIfPresent(adaptive, forKey: .adaptive)
    }
}
