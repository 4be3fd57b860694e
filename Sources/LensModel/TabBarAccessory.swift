import Foundation

/// A floating glass button beside a tab bar's trailing end, in the bar's glass container
/// (FabBar's "+", a compose button): tinted glass of its own that the bar merges with while
/// its lens is lifted, a smooth bridge reaching across the gap, and parts from when released.
/// JSON: `"accessory": {"symbol": "+", "tint": "#0d70fd", "diameter": 62, "spacing": 8}` on a
/// `tabBar`.
public struct TabBarAccessory: Codable, Sendable, Equatable {
    /// The glyph drawn white on the button (default "+"), in the bar's symbol font.
    public var symbol: String
    /// The button's tint (default FabBar's "+" as it renders).
    public var tint: RGBAColor
    /// The button's diameter in points; nil: the bar's height.
    public var diameter: Double?
    /// The gap between the bar's end and the button at rest, in points (default 8, FabBar's).
    public var spacing: Double

    /// FabBar's "+" as it renders: a flat (13, 112, 253) body (`fabbar-lifted`).
    public static let defaultTint = RGBAColor(13, 112, 253)

    /// A button `spacing` points past the bar's end, as wide as the bar is high unless given.
    public init(symbol: String = "+", tint: RGBAColor = defaultTint, diameter: Double? = nil, spacing: Double = 8) {
        self.symbol = symbol
        self.tint = tint
        self.diameter = diameter
        self.spacing = spacing
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case symbol, tint, diameter, spacing }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        symbol = try container.value(.symbol, default: "+")
        tint = try container.value(.tint, default: Self.defaultTint)
        diameter = try container.decodeIfPresent(Double.self, forKey: .diameter)
        if let diameter { try container.check(diameter, in: Limits.tabBarHeight, .diameter) }
        spacing = try container.number(.spacing, default: 8, in: Limits.accessorySpacing)
    }

    /// Checks every number against ``Limits`` for an accessory built in code.
    func validate(_ path: String) throws {
        try check(tint, "\(path).tint")
        if let diameter { try check(diameter, Limits.tabBarHeight, "\(path).diameter") }
        try check(spacing, Limits.accessorySpacing, "\(path).spacing")
    }
}
