import Foundation

/// A floating glass button beside a tab bar's trailing end, in the bar's glass container
/// (FabBar's "+", a compose button): tinted glass of its own that the bar merges with while
/// its lens is lifted, a smooth bridge reaching across the gap, and parts from when released.
/// JSON: `"accessory": {"symbol": "+", "tint": "#0d70fd", "diameter": 62, "spacing": 8, "id": "add"}`
/// on a `tabBar`; an animation's press names it by `id`.
public struct TabBarAccessory: Codable, Sendable, Equatable {
    /// The glyph drawn white on the button (default "+"), in the bar's symbol font.
    public var symbol: String
    /// The button's tint (default FabBar's "+" as it renders).
    public var tint: RGBAColor
    /// The button's diameter in points; nil: the bar's height.
    public var diameter: Double?
    /// The gap between the bar's end and the button at rest, in points (default 8, FabBar's).
    public var spacing: Double
    /// The name an animation's press finds the button by (unique among glass and shape ids).
    public var id: String?
    /// How far a press on the button has gone: 0 at rest, 1 held (a press's spring overshoots
    /// past 1 and, released, below 0). The button swells about its centre and reaches the bar as
    /// a pressed shape of a group does; set by an animation's press naming ``id``.
    public var pressed: Double
    /// Where the press touches, in points; nil: the button's centre.
    public var touch: Point?

    /// FabBar's "+" as it renders: a flat (13, 112, 253) body (`fabbar-lifted`).
    public static let defaultTint = RGBAColor(13, 112, 253)

    /// A button `spacing` points past the bar's end, as wide as the bar is high unless given.
    public init(
        symbol: String = "+", tint: RGBAColor = defaultTint, diameter: Double? = nil, spacing: Double = 8,
        id: String? = nil, pressed: Double = 0, touch: Point? = nil
    ) {
        self.symbol = symbol
        self.tint = tint
        self.diameter = diameter
        self.spacing = spacing
        self.id = id
        self.pressed = pressed
        self.touch = touch
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case symbol, tint, diameter, spacing, id, pressed, touch }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        symbol = try container.value(.symbol, default: "+")
        tint = try container.value(.tint, default: Self.defaultTint)
        diameter = try container.decodeIfPresent(Double.self, forKey: .diameter)
        if let diameter { try container.check(diameter, in: Limits.tabBarHeight, .diameter) }
        spacing = try container.number(.spacing, default: 8, in: Limits.accessorySpacing)
        id = try container.identifier(.id)
        pressed = try container.number(.pressed, default: 0, in: Limits.pressAmount)
        touch = try container.decodeIfPresent(Point.self, forKey: .touch)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(symbol, forKey: .symbol)
        try container.encode(tint, forKey: .tint)
        try container.encodeIfPresent(diameter, forKey: .diameter)
        try container.encode(spacing, forKey: .spacing)
        try container.encodeIfPresent(id, forKey: .id)
        if pressed != 0 { try container.encode(pressed, forKey: .pressed) }
        try container.encodeIfPresent(touch, forKey: .touch)
    }

    /// Checks every number against ``Limits`` for an accessory built in code.
    func validate(_ path: String) throws {
        try check(tint, "\(path).tint")
        if let diameter { try check(diameter, Limits.tabBarHeight, "\(path).diameter") }
        try check(spacing, Limits.accessorySpacing, "\(path).spacing")
        try check(pressed, Limits.pressAmount, "\(path).pressed")
        if let touch { try check(touch, "\(path).touch") }
        try checkID(id, "\(path).id")
    }
}

extension Scene {
    /// The ids of the tab bars' accessory buttons, each with its key path: a press may name them.
    var accessoryIDs: [(id: String, path: String)] {
        controls.enumerated().compactMap { index, control in
            guard case .tabBar(let bar) = control, let id = bar.accessory?.id else { return nil }
            return (id, "controls[\(index)].accessory.id")
        }
    }
}
