import Foundation

/// Glass that takes its light or dark appearance from what lies below it, as iOS's glass does over
/// scrolled content: dark where the backdrop's mean relative luminance under its shapes falls below
/// `darkBelow`, light where it rises above `lightAbove`, and in between it keeps the appearance it
/// had (hysteresis: content hovering about one threshold does not make it flicker). In a still,
/// "had" is the appearance the scene gives it; in an animation resolved through a
/// `ResolveCache(sequence: true)` (`liquidlens animate`), the one it had in the frame before.
/// Apple publishes no thresholds; the defaults are ours (the luminance of sRGB grey 124 and 160).
/// JSON: `"adaptive": {}` (the defaults), or with `darkBelow` and `lightAbove` (0…1).
public struct AdaptiveAppearance: Codable, Sendable, Equatable {
    /// Relative luminance (linear light, 0…1) under which the glass turns dark.
    public var darkBelow: Double
    /// Relative luminance above which the glass turns light; at least `darkBelow`.
    public var lightAbove: Double

    /// Thresholds `darkBelow` ≤ `lightAbove` (default 0.2 and 0.35).
    public init(darkBelow: Double = 0.2, lightAbove: Double = 0.35) {
        self.darkBelow = darkBelow
        self.lightAbove = lightAbove
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case darkBelow, lightAbove }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        darkBelow = try container.number(.darkBelow, default: 0.2, in: Limits.unit)
        lightAbove = try container.number(.lightAbove, default: 0.35, in: Limits.unit)
        guard darkBelow <= lightAbove else {
            throw DecodingError.dataCorruptedError(
                forKey: .lightAbove, in: container,
                debugDescription: "must be at least darkBelow (\(darkBelow.formatted))")
        }
    }

    /// Whether the glass is dark over `luminance`, having been dark (`wasDark`) or light before.
    public func isDark(over luminance: Double, wasDark: Bool) -> Bool {
        if luminance < darkBelow { return true }
        if luminance > lightAbove { return false }
        return wasDark
    }

    /// Checks the thresholds of a value built in code.
    func validate(_ path: String) throws {
        try check(darkBelow, Limits.unit, "\(path).darkBelow")
        try check(lightAbove, Limits.unit, "\(path).lightAbove")
        guard darkBelow <= lightAbove else {
            throw SceneError(keyPath: "\(path).lightAbove", message: "must be at least darkBelow")
        }
    }
}

extension Scene {
    /// Whether any glass element or tab bar adapts its appearance to the backdrop.
    public var hasAdaptiveGlass: Bool {
        glass.contains { $0.adaptive != nil }
            || controls.contains { if case .tabBar(let bar) = $0 { bar.adaptive != nil } else { false } }
    }
}
