import Foundation

/// The silhouette a theme gives its controls.
public enum ThemeShape: String, Codable, Sendable, CaseIterable {
    case capsule, roundedRectangle, squircle
}

/// A glass theme: material, control shape and corner radius, shadow, edge highlight, optional
/// gradient tint and the rendering path. A theme on the scene applies to every glass element and
/// control; a theme on an element or control applies to it alone; an explicit `material` on an
/// element overrides its theme's. JSON: a preset name, or an object whose `preset` (default
/// `standard`) is the starting point for the other keys.
public struct Theme: Codable, Sendable, Equatable {
    /// Material of the glass under this theme, unless the glass sets its own.
    public var material: Material
    /// Silhouette of the theme's controls (default capsule).
    public var shape: ThemeShape
    /// Corner radius of rounded rectangles and squircles, in points.
    public var cornerRadius: Double
    /// Drop shadow of glass that has a material (default ``materialShadow``); Apple's glass casts its
    /// size law's instead.
    public var shadow: DropShadow
    /// Edge stroke on the fallback path, for glass that has a material (default ``EdgeHighlight/standard``).
    public var edgeHighlight: EdgeHighlight
    /// Gradient tint of glass that has none of its own; nil: the flat tint.
    public var gradientTint: GradientTint?
    /// Lens or fallback look (default automatic, which is the lens here).
    public var renderingPath: RenderingPath

    /// A theme of `material`; by default capsule controls, 16 pt corners, LiquidGlassKit's shadow and edge
    /// highlight, no gradient tint and the automatic rendering path.
    public init(
        material: Material, shape: ThemeShape = .capsule, cornerRadius: Double = 16,
        shadow: DropShadow = Theme.materialShadow, edgeHighlight: EdgeHighlight = .standard,
        gradientTint: GradientTint? = nil, renderingPath: RenderingPath = .automatic
    ) {
        self.material = material
        self.shape = shape
        self.cornerRadius = cornerRadius
        self.shadow = shadow
        self.edgeHighlight = edgeHighlight
        self.gradientTint = gradientTint
        self.renderingPath = renderingPath
    }

    /// The silhouette of a control `height` points tall in this theme (radii capped to half the height).
    public func controlShape(height: Double) -> Shape {
        let radii = Array(repeating: min(cornerRadius, height / 2), count: 4)
        switch shape {
        case .capsule: return .capsule
        case .roundedRectangle: return .roundedRectangle(cornerRadii: radii)
        case .squircle: return .squircle(cornerRadii: radii, exponent: 5)
        }
    }

    /// LiquidGlassKit's glass shadow: radius 8, opacity 0.1, y 2.
    public static let materialShadow = DropShadow(offset: Point(x: 0, y: 2), radius: 8, opacity: 0.1)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case preset, material, shape, cornerRadius, shadow, edgeHighlight, gradientTint, renderingPath
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let preset = ThemePreset(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "unknown theme \"\(name)\" (expected one of: \(ThemePreset.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            self = preset.theme
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try container.value(.preset, default: ThemePreset.standard).theme
        material = try container.value(.material, default: material)
        shape = try container.value(.shape, default: shape)
        cornerRadius = try container.number(.cornerRadius, default: cornerRadius, in: Limits.cornerRadius)
        shadow = try container.value(.shadow, default: shadow)
        edgeHighlight = try container.value(.edgeHighlight, default: edgeHighlight)
        gradientTint = try container.decodeIfPresent(GradientTint.self, forKey: .gradientTint) ?? gradientTint
        renderingPath = try container.value(.renderingPath, default: renderingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(material, forKey: .material)
        try container.encode(shape, forKey: .shape)
        try container.encode(cornerRadius, forKey: .cornerRadius)
        try container.encode(shadow, forKey: .shadow)
        try container.encode(edgeHighlight, forKey: .edgeHighlight)
        try container.encodeIfPresent(gradientTint, forKey: .gradientTint)
        try container.encode(renderingPath, forKey: .renderingPath)
    }
}

/// The named themes. `standard`, `clear`, `heavyFrost` and `dark` are the materials as they come;
/// the next ten tune material, shape, shadow and edge for a mood; `regularGlass`, `regularDarkGlass`
/// and `clearGlass` are Apple's own `UIGlassEffect`.
public enum ThemePreset: String, Codable, Sendable, CaseIterable {
    case standard, clear, heavyFrost, dark
    case arctic, sunset, midnight, neon, minimal, frostedThick, roseGold, ocean, forest, crystal
    case regularGlass, regularDarkGlass, clearGlass

    /// The preset's theme.
    // Over 60 lines on purpose: one case per preset (17), a table read as one.
    public var theme: Theme {
        switch self {
        case .standard:
            return Theme(material: .frosted)
        case .clear:
            return Theme(material: .clear)
        case .heavyFrost:
            return Theme(
                material: .custom(
                    blur: 30, tint: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.25), saturation: 1.8, opacity: 1),
                cornerRadius: 20)
        case .dark:
            return Theme(material: .dark)
        case .arctic:
            return Theme(
                material: .tinted(RGBAColor(170, 220, 255)), shape: .roundedRectangle, cornerRadius: 18,
                edgeHighlight: EdgeHighlight(width: 0.75, alphas: [0.35, 0.12, 0]))
        case .sunset:
            return Theme(
                material: .frosted, cornerRadius: 20,
                gradientTint: GradientTint(
                    colors: [RGBAColor(255, 149, 0), RGBAColor(255, 45, 85)], angle: 45, intensity: 0.25))
        case .midnight:
            return Theme(
                material: .custom(
                    blur: 24, tint: RGBAColor(red: 0.05, green: 0.07, blue: 0.2, alpha: 0.45), saturation: 1.3,
                    opacity: 1),
                shape: .roundedRectangle, cornerRadius: 14,
                shadow: DropShadow(offset: Point(x: 0, y: 4), radius: 14, opacity: 0.3))
        case .neon:
            return Theme(
                material: .dark, shape: .capsule,
                edgeHighlight: EdgeHighlight(width: 1, alphas: [0.6, 0.3, 0.1]),
                gradientTint: GradientTint(
                    colors: [RGBAColor(255, 0, 200), RGBAColor(0, 240, 255)], angle: 0, intensity: 0.3))
        case .minimal:
            return Theme(
                material: .custom(
                    blur: 12, tint: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.08), saturation: 1, opacity: 1),
                shape: .roundedRectangle, cornerRadius: 8, shadow: .off, edgeHighlight: .off)
        case .frostedThick:
            return Theme(
                material: .custom(
                    blur: 36, tint: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.3), saturation: 2, opacity: 1),
                shape: .squircle, cornerRadius: 24,
                shadow: DropShadow(offset: Point(x: 0, y: 6), radius: 16, opacity: 0.15))
        case .roseGold:
            return Theme(
                material: .tinted(RGBAColor(232, 180, 160)), shape: .squircle, cornerRadius: 22,
                gradientTint: GradientTint(
                    colors: [RGBAColor(247, 206, 188), RGBAColor(183, 110, 121)], angle: 60, intensity: 0.2))
        case .ocean:
            return Theme(
                material: .tinted(RGBAColor(0, 122, 180)), shape: .roundedRectangle, cornerRadius: 16,
                gradientTint: GradientTint(
                    colors: [RGBAColor(0, 199, 190), RGBAColor(0, 64, 160)], angle: 90, intensity: 0.2))
        case .forest:
            return Theme(
                material: .tinted(RGBAColor(52, 140, 80)), shape: .squircle, cornerRadius: 18,
                shadow: DropShadow(offset: Point(x: 0, y: 3), radius: 10, opacity: 0.15))
        case .crystal:
            return Theme(
                material: .custom(
                    blur: 4, tint: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.04), saturation: 1.1, opacity: 1),
                edgeHighlight: EdgeHighlight(width: 1, alphas: [0.5, 0.15, 0.05]))
        // Apple's glass takes its shadow from its size law; the theme's is the law's at S ≥ 160.
        case .regularGlass:
            return Theme(material: .apple(.regular), shadow: .standard)
        case .regularDarkGlass:
            return Theme(material: .apple(.regularDark), shadow: .standard)
        case .clearGlass:
            return Theme(material: .apple(.clear), shadow: .off)
        }
    }
}
