import Foundation

/// A font weight, mapped to fontconfig's weights by the text renderer.
public enum FontWeight: String, Codable, Sendable, CaseIterable {
    case regular, medium, semibold, bold

    /// The next weight down; regular stays regular.
    public var lighter: FontWeight {
        switch self {
        case .regular, .medium: .regular
        case .semibold: .medium
        case .bold: .semibold
        }
    }
}

/// A font family and weight. The family is looked up by name (fontconfig); the default is Inter
/// (`fonts-inter`), the closest Debian has to SF Pro, with DejaVu Sans (`fonts-dejavu-core`) standing
/// in when Inter is not installed and for characters Inter lacks.
public struct FontSpec: Codable, Sendable, Equatable, Hashable {
    /// Family name fontconfig looks up (default ``defaultFamily``).
    public var family: String
    /// Weight (default regular).
    public var weight: FontWeight

    /// The family used when none is given: Inter, the UI face nearest SF Pro that Debian ships.
    public static let defaultFamily = "Inter"
    /// The family that stands in for the default when it is not installed, and draws the
    /// characters any family lacks (symbols such as ★ ⚙ ✉, scripts such as Hebrew).
    public static let fallbackFamily = "DejaVu Sans"

    /// The icon font the built-in controls draw their symbols with: Material Design Icons
    /// (`fonts-materialdesignicons-webfont`), filled glyphs that read like SF Symbols, looked up by
    /// codepoint (``SymbolGlyph``).
    public static let symbols = FontSpec(family: "Material Design Icons", weight: .semibold)

    /// A font of `family` (default Inter) at `weight` (default regular).
    public init(family: String = FontSpec.defaultFamily, weight: FontWeight = .regular) {
        self.family = family
        self.weight = weight
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case family, weight }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        family = try container.value(.family, default: Self.defaultFamily)
        weight = try container.value(.weight, default: .regular)
    }
}

/// Codepoints of Material Design Icons 1.6 (Debian's `fonts-materialdesignicons-webfont`) that stand
/// in for the SF Symbols Apple's controls show; draw them with ``FontSpec/symbols``.
public enum SymbolGlyph {
    /// `message`: a filled speech bubble (SF `bubble.left.fill`).
    public static let bubble = "\u{F361}"
    /// `account-multiple`: two people (SF `person.2.fill`).
    public static let twoPeople = "\u{F00E}"
    /// `settings`: a filled gear (SF `gearshape.fill`).
    public static let gear = "\u{F493}"
    /// `home`: a house (SF `house.fill`).
    public static let house = "\u{F2DC}"
    /// `star`: a filled star (SF `star.fill`).
    public static let star = "\u{F4CE}"
    /// `email`: a filled envelope (SF `envelope.fill`).
    public static let envelope = "\u{F1EE}"
}

/// One shaped, rasterised line of text. Lengths in pixels; the mask's pen origin sits at
/// (`originX`, `baseline`) inside the mask.
public struct TextLine: Sendable {
    /// Coverage of the rasterised glyphs.
    public var mask: AlphaImage
    /// x of the pen origin inside the mask.
    public var originX: Double
    /// y of the baseline inside the mask, from its top.
    public var baseline: Double
    /// Sum of the shaped advances (kerning included), as the shaper reports it.
    public var advance: Double
    /// The font's ascent above the baseline (positive).
    public var ascent: Double
    /// The font's descent below the baseline (positive).
    public var descent: Double
    /// The font's line height: baseline to baseline.
    public var lineHeight: Double

    /// A line from its mask and metrics, all in pixels.
    public init(
        mask: AlphaImage, originX: Double, baseline: Double, advance: Double, ascent: Double, descent: Double,
        lineHeight: Double
    ) {
        self.mask = mask
        self.originX = originX
        self.baseline = baseline
        self.advance = advance
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
    }

    /// The bounding box of the ink (coverage > 0) in mask pixels, nil for blank text.
    package var inkBounds: PixelRegion? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask.coverage[y * mask.width + x] > 0 {
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        return minX == Int.max ? nil : PixelRegion(x0: minX, y0: minY, x1: maxX + 1, y1: maxY + 1)
    }
}

/// Shapes and rasterises text (implemented with HarfBuzz and FreeType in `LensText`).
public protocol TextRasterizer: Sendable {
    /// One line of `text` at `pixelSize` pixels per em, shaped (kerning, ligatures, any script,
    /// right-to-left in visual order).
    func line(_ text: String, font: FontSpec, pixelSize: Double) throws -> TextLine
}

/// Dynamic Type content size categories with the footnote text style's point sizes.
public enum ContentSizeCategory: String, Codable, Sendable, CaseIterable {
    case extraSmall = "xS", small = "S", medium = "M", large = "L", extraLarge = "XL"
    case extraExtraLarge = "XXL", extraExtraExtraLarge = "XXXL"
    case accessibility1 = "AX1", accessibility2 = "AX2", accessibility3 = "AX3", accessibility4 = "AX4"
    case accessibility5 = "AX5"

    /// The footnote size in points: xS 12, S 12, M 12, L 13, XL 15, XXL 17, XXXL 19, AX1 23,
    /// AX2 27, AX3 33, AX4 38, AX5 44.
    public var footnoteSize: Double {
        switch self {
        case .extraSmall, .small, .medium: 12
        case .large: 13
        case .extraLarge: 15
        case .extraExtraLarge: 17
        case .extraExtraExtraLarge: 19
        case .accessibility1: 23
        case .accessibility2: 27
        case .accessibility3: 33
        case .accessibility4: 38
        case .accessibility5: 44
        }
    }
}
