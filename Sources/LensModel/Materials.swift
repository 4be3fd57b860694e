import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// Apple's own glass, `UIGlassEffect`: the ``OpticsPreset`` of the same name gives its face, fill,
/// rim and the size laws that set its refraction, blur and shadow from the shape.
public enum AppleGlass: String, Codable, Sendable, CaseIterable {
    /// `.regular`, light appearance.
    case regular
    /// `.regular.interactive()` (`UIGlassEffect.isInteractive`), light appearance: more of the
    /// backdrop's colour shows through, as in the capture `mecid-container` (interactive glass in a
    /// `GlassEffectContainer`: one capture cannot tell which of the two makes the difference). Dark
    /// interactive glass is ``regularDark``: the capture `union-resting` (an interactive bar over
    /// black) holds with it.
    case regularInteractive
    /// `.regular`, dark appearance.
    case regularDark
    /// `.clear`.
    case clear

    /// The optics preset carrying this glass's values.
    public var preset: OpticsPreset {
        switch self {
        case .regular: .regular
        case .regularInteractive: .regularInteractive
        case .regularDark: .regularDark
        case .clear: .clear
        }
    }
}

/// A glass material (LiquidGlassKit's vocabulary, and Apple's own glass): how much the backdrop is
/// blurred, tinted and saturated. JSON: `"clear"`, `"frosted"`, `"dark"`, `"regularGlass"`,
/// `"regularInteractiveGlass"`, `"regularDarkGlass"`, `"clearGlass"`, `{"type": "tinted", "color": …}` or
/// `{"type": "custom", "blur": 12, "tint": …, "saturation": 1.4, "opacity": 0.9}`.
public enum Material: Codable, Sendable, Equatable {
    /// Blur 10, white 0.05, saturation 1.2.
    case clear
    /// Blur 20, white 0.15, saturation 1.8.
    case frosted
    /// Blur 18, the colour at 0.10, saturation 1.6.
    case tinted(RGBAColor)
    /// Blur 25, black 0.30, saturation 1.4.
    case dark
    /// Any blur (pt), tint (its alpha is the strength), saturation and opacity.
    case custom(blur: Double, tint: RGBAColor, saturation: Double, opacity: Double)
    /// Apple's glass: its face, fill and rim, and its size laws in place of the theme's shadow.
    case apple(AppleGlass)

    /// The four named materials the controls gallery shows.
    public static let standard: [Material] = [.clear, .frosted, .tinted(RGBAColor(0, 122, 255)), .dark]

    /// Blur radius in points; the frost σ is half of it. Apple's glass: twice its largest σ (the size
    /// law sets the frost per shape).
    public var blur: Double {
        switch self {
        case .clear: 10
        case .frosted: 20
        case .tinted: 18
        case .dark: 25
        case .custom(let blur, _, _, _): blur
        case .apple(let glass): glass == .clear ? 2 : 8
        }
    }

    /// The tint laid over the blurred backdrop; its alpha is the tint's strength.
    public var tint: RGBAColor {
        switch self {
        case .clear: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.05)
        case .frosted: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.15)
        case .tinted(let color): RGBAColor(red: color.red, green: color.green, blue: color.blue, alpha: 0.10)
        case .dark: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.30)
        case .custom(_, let tint, _, _): tint
        case .apple(let glass): Optics(preset: glass.preset).tint
        }
    }

    /// Saturation the material gives what the glass shows (1 unchanged).
    public var saturation: Double {
        switch self {
        case .clear: 1.2
        case .frosted: 1.8
        case .tinted: 1.6
        case .dark: 1.4
        case .custom(_, _, let saturation, _): saturation
        case .apple(let glass): Optics(preset: glass.preset).face.saturation
        }
    }

    /// How much of the glass covers what is below it (1 for the named materials).
    public var opacity: Double {
        if case .custom(_, _, _, let opacity) = self { return opacity }
        return 1
    }

    /// Dark glass carries white labels.
    public var isDark: Bool {
        if case .dark = self { return true }
        if case .apple(let glass) = self { return glass == .regularDark }
        if case .custom(_, let tint, _, _) = self { return tint.alpha >= 0.25 && tint.luminance < 0.2 }
        return false
    }

    /// The name used in JSON, file names and the gallery.
    public var name: String {
        switch self {
        case .clear: "clear"
        case .frosted: "frosted"
        case .tinted: "tinted"
        case .dark: "dark"
        case .custom: "custom"
        case .apple(let glass): "\(glass.rawValue)Glass"
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case type, color, blur, tint, saturation, opacity }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            switch name {
            case "clear": self = .clear
            case "frosted": self = .frosted
            case "dark": self = .dark
            default:
                guard let glass = AppleGlass.allCases.first(where: { "\($0.rawValue)Glass" == name }) else {
                    throw DecodingError.dataCorruptedError(
                        in: single,
                        debugDescription:
                            "unknown material \"\(name)\" (expected clear, frosted, dark, regularGlass, regularInteractiveGlass, regularDarkGlass, clearGlass, {\"type\": \"tinted\", \"color\": …} or {\"type\": \"custom\", …})"
                    )
                }
                self = .apple(glass)
            }
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "clear": self = .clear
        case "frosted": self = .frosted
        case "dark": self = .dark
        case "tinted": self = .tinted(try container.decode(RGBAColor.self, forKey: .color))
        case "custom":
            self = .custom(
                blur: try container.number(.blur, default: 20, in: Limits.materialBlur),
                tint: try container.value(.tint, default: .clear),
                saturation: try container.number(.saturation, default: 1, in: Limits.saturation),
                opacity: try container.number(.opacity, default: 1, in: Limits.unit))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "unknown material type \"\(other)\" (expected clear, frosted, tinted, dark or custom)"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .clear, .frosted, .dark, .apple:
            var container = encoder.singleValueContainer()
            try container.encode(name)
        case .tinted(let color):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("tinted", forKey: .type)
            try container.encode(color, forKey: .color)
        case .custom(let blur, let tint, let saturation, let opacity):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("custom", forKey: .type)
            try container.encode(blur, forKey: .blur)
            try container.encode(tint, forKey: .tint)
            try container.encode(saturation, forKey: .saturation)
            try container.encode(opacity, forKey: .opacity)
        }
    }
}

/// Which look glass takes: `native` is the lens (refraction, rim light); `fallback` is what apps
/// draw on systems without Liquid Glass (blur, tint, edge highlight stroke, shadow, no
/// refraction). `automatic` is native here: this renderer always has the lens.
public enum RenderingPath: String, Codable, Sendable, CaseIterable {
    case automatic, native, fallback
}

/// A thin stroke along the inside of the silhouette whose alpha runs through three stops from the
/// top-leading to the bottom-trailing corner (LiquidGlassKit: 0.5 pt, white 0.25 → 0.08 → clear).
public struct EdgeHighlight: Codable, Sendable, Equatable {
    /// Stroke width in points.
    public var width: Double
    /// Alpha at the top-leading corner, the middle and the bottom-trailing corner.
    public var alphas: [Double]

    /// LiquidGlassKit's: 0.5 pt, alphas 0.25, 0.08, 0.
    public static let standard = EdgeHighlight(width: 0.5, alphas: [0.25, 0.08, 0])
    /// No stroke.
    public static let off = EdgeHighlight(width: 0, alphas: [0, 0, 0])

    /// A stroke `width` points wide with three alphas: top-leading corner, middle, bottom-trailing corner.
    public init(width: Double, alphas: [Double]) {
        self.width = width
        self.alphas = alphas
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case width, alphas }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.number(.width, default: 0.5, in: Limits.rimWidth)
        alphas = try container.value(.alphas, default: [0.25, 0.08, 0])
        guard alphas.count == 3, alphas.allSatisfy({ $0.isFinite && Limits.unit.contains($0) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .alphas, in: container, debugDescription: "expected three alphas in 0…1")
        }
    }
}

/// A tint that runs through `colors` along `angle` degrees across the glass's bounds (0: left to
/// right, 90: top to bottom); `intensity` is the tint's strength, clamped to 0…1.
public struct GradientTint: Codable, Sendable, Equatable {
    /// The stops, evenly spaced along the direction (2…8 when decoded).
    public var colors: [RGBAColor]
    /// Direction in degrees: 0 left to right, 90 top to bottom (default 90).
    public var angle: Double
    /// Multiplies each stop's alpha, 0…1 (default 0.3).
    public var intensity: Double

    /// A tint through `colors`, top to bottom at intensity 0.3 by default; `intensity` is clamped to 0…1.
    public init(colors: [RGBAColor], angle: Double = 90, intensity: Double = 0.3) {
        self.colors = colors
        self.angle = angle
        self.intensity = intensity.isNaN ? intensity : min(max(intensity, 0), 1)
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case colors, angle, intensity }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        colors = try container.decode([RGBAColor].self, forKey: .colors)
        guard (2...Limits.gradientStops).contains(colors.count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .colors, in: container,
                debugDescription: "a gradient tint has 2…\(Limits.gradientStops) colours")
        }
        angle = try container.number(.angle, default: 90, in: Limits.angle)
        let intensity = try container.decode(Double.self, forKey: .intensity)
        guard intensity.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .intensity, in: container, debugDescription: "intensity must be a finite number")
        }
        self.intensity = min(max(intensity, 0), 1)
    }
}

/// An animated highlight on glass (no motion at all under Reduce Motion).
public enum HighlightAnimation: String, Codable, Sendable, CaseIterable {
    /// A soft bright band sweeps diagonally across the glass every 2.5 s.
    case shimmer
    /// The rim light and edge highlight fade between 1 and 1 − 0.15·intensity over 2 s, ease
    /// in-out, reversing.
    case pulse
    /// The glass brightens by up to 0.06·intensity and back over 4 s, ease in-out.
    case breathe

    /// Seconds before the animation repeats.
    public var period: Double {
        switch self {
        case .shimmer: 2.5
        case .pulse: 4
        case .breathe: 8
        }
    }
}

/// An animated highlight and its strength.
public struct AnimatedHighlight: Codable, Sendable, Equatable {
    /// Which animation: shimmer, pulse or breathe.
    public var kind: HighlightAnimation
    /// Strength, 0…1 (default 1).
    public var intensity: Double

    /// A `kind` highlight at `intensity` (default full strength).
    public init(_ kind: HighlightAnimation, intensity: Double = 1) {
        self.kind = kind
        self.intensity = intensity
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case kind, intensity }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.choice(HighlightAnimation.self, required: .kind)
        intensity = try container.number(.intensity, default: 1, in: Limits.unit)
    }

    /// Ease in-out of a triangle wave: 0 at t = 0, 1 at half the period, 0 again at the period.
    static func wave(_ time: Double, period: Double) -> Double {
        let phase = (time / period).truncatingRemainder(dividingBy: 1)
        let triangle = phase < 0.5 ? phase * 2 : 2 - phase * 2
        return triangle * triangle * (3 - 2 * triangle)
    }

    /// Multiplier of rim light and edge highlight at `time` (pulse), else 1.
    public func highlightScale(at time: Double) -> Double {
        kind == .pulse ? 1 - 0.15 * intensity * Self.wave(time, period: HighlightAnimation.pulse.period) : 1
    }

    /// Brightness added at `time` (breathe), else 0.
    public func brightness(at time: Double) -> Double {
        kind == .breathe ? 0.06 * intensity * Self.wave(time, period: HighlightAnimation.breathe.period) : 0
    }

    /// Where the shimmer band is along the glass's diagonal (−0.25…1.25), nil when not shimmering.
    public func shimmerPosition(at time: Double) -> Double? {
        guard kind == .shimmer else { return nil }
        return -0.25 + 1.5 * (time / HighlightAnimation.shimmer.period).truncatingRemainder(dividingBy: 1)
    }
}

/// Accessibility settings that change how glass is drawn.
public struct Accessibility: Codable, Sendable, Equatable {
    /// Glass becomes an opaque surface (no blur or refraction shows through).
    public var reduceTransparency: Bool
    /// Stronger edges: the edge highlight doubles and a dark contour outlines the glass.
    public var increaseContrast: Bool
    /// No rail growth, no animated highlights.
    public var reduceMotion: Bool

    /// Settings as given, each off by default.
    public init(reduceTransparency: Bool = false, increaseContrast: Bool = false, reduceMotion: Bool = false) {
        self.reduceTransparency = reduceTransparency
        self.increaseContrast = increaseContrast
        self.reduceMotion = reduceMotion
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case reduceTransparency, increaseContrast, reduceMotion }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reduceTransparency = try container.value(.reduceTransparency, default: false)
        increaseContrast = try container.value(.increaseContrast, default: false)
        reduceMotion = try container.value(.reduceMotion, default: false)
    }
}
