import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// QuartzCore's YCbCr composite without its fill (`ColorMatrix::set_ycc_composite`): Rec. 709 luma
/// Y becomes `black + (white − black)·Y` and the chroma is scaled by `saturation`. Apple's glass
/// tones its face with it (then lays the fill over) and recolours its rim with it.
public struct ColorLevels: Codable, Sendable, Equatable {
    /// The luma that white maps to.
    public var white: Double
    /// The luma that black maps to.
    public var black: Double
    /// Scale of the chroma (1 unchanged, 0 grey).
    public var saturation: Double

    /// A composite that maps luma 0…1 to `black`…`white` and scales the chroma by `saturation`.
    public init(white: Double, black: Double, saturation: Double) {
        self.white = white
        self.black = black
        self.saturation = saturation
    }

    /// Leaves every colour as it is.
    public static let identity = ColorLevels(white: 1, black: 0, saturation: 1)
    /// Regular glass, light appearance (with a white 0.4 fill: Y → 0.345 Y + 0.70, chroma × 0.357).
    /// Apple's table says white 1.03 and saturation 1; the capture `mecid-regular` (read in sRGB: it
    /// is Display P3) shows white 1.075 and saturation 0.595 (`Tests/LiquidLensTests/Captures`).
    public static let faceLight = ColorLevels(white: 1.075, black: 0.5, saturation: 0.595)
    /// Interactive regular glass, light appearance (`.regular.interactive()`, with a white 0.35
    /// fill: Y → 0.325 Y + 0.675, chroma × 0.65): Apple's saturation 1, and white 1 where Apple's
    /// table says 1.03, fitted to the capture `mecid-container`, whose interactive glass keeps 1.8
    /// times as much of the backdrop's chroma as `mecid-regular`'s plain `.regular` glass.
    public static let faceInteractive = ColorLevels(white: 1, black: 0.5, saturation: 1)
    /// Regular glass, dark appearance (with a black 0.4 fill: Y → 0.279 Y + 0.081, chroma × 0.6).
    /// Apple's table says black 0.2; over black the captures `union-resting` and `mecid-tabs` show 0.135.
    public static let faceDark = ColorLevels(white: 0.6, black: 0.135, saturation: 1)
    /// Clear glass, both appearances (no fill): Y → 1.04 Y + 0.075, chroma × 1.07. Apple's table
    /// says white 1.15 and saturation 1.06; the capture `mecid-clear` (read in sRGB) shows 1.115 and 1.07.
    public static let faceClear = ColorLevels(white: 1.115, black: 0.075, saturation: 1.07)
    /// The rim's vibrant matrix on light glass: Y → 0.9 + 0.1 Y, chroma × 1.5.
    public static let vibrantLight = ColorLevels(white: 1, black: 0.9, saturation: 1.5)
    /// The rim's vibrant matrix on dark glass: Y → 0.15 + 1.35 Y, chroma × 3.
    public static let vibrantDark = ColorLevels(white: 1.5, black: 0.15, saturation: 3)

    /// The composite applied to a colour in 0…1 (no clamp), for tests and documentation.
    public func apply(_ red: Double, _ green: Double, _ blue: Double) -> (Double, Double, Double) {
        let luma = red * 0.2126 + green * 0.7152 + blue * 0.0722
        let mapped = luma * (white - black) + black
        return (
            mapped + (red - luma) * saturation, mapped + (green - luma) * saturation,
            mapped + (blue - luma) * saturation
        )
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case white, black, saturation }

    /// An object with `white`, `black` and `saturation` (defaults 1, 0, 1), or the name of one of
    /// Apple's: `faceLight`, `faceInteractive`, `faceDark`, `faceClear`, `vibrantLight`, `vibrantDark`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let named = Self.named[name] else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "unknown colour levels \"\(name)\" (expected one of: \(Self.named.keys.sorted().joined(separator: ", ")) or {\"white\", \"black\", \"saturation\"})"
                )
            }
            self = named
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        white = try container.number(.white, default: 1, in: Limits.levels)
        black = try container.number(.black, default: 0, in: Limits.levels)
        saturation = try container.number(.saturation, default: 1, in: Limits.saturation)
    }

    static let named: [String: ColorLevels] = [
        "faceLight": .faceLight, "faceInteractive": .faceInteractive, "faceDark": .faceDark, "faceClear": .faceClear,
        "vibrantLight": .vibrantLight, "vibrantDark": .vibrantDark,
    ]
}

/// Which content a displacement stage moves: the backdrop the glass refracts, or the label row
/// it shows (Apple's lifted content).
public enum StageTarget: String, Codable, Sendable, CaseIterable {
    case backdrop
    case label
}

/// One of Apple's displacement stages (`CASDFGlassDisplacementEffect` through a displacement map):
/// the sample moves `amount` points along the ovalized normal (positive outward) times 1 − P, with
/// P Apple's quarter circle rising from 0 at the silhouette to 1 at depth `height`.
public struct DisplacementStage: Codable, Sendable, Equatable {
    /// Sample offset at the silhouette, in points: positive samples outward (minifies), negative inward.
    public var amount: Double
    /// Depth of the band in points: at `height` inside the silhouette and deeper the stage moves nothing.
    public var height: Double
    /// The content the stage moves.
    public var target: StageTarget

    /// A stage moving `target` by `amount` points at the silhouette, over a band `height` points deep.
    public init(amount: Double, height: Double, target: StageTarget) {
        self.amount = amount
        self.height = height
        self.target = target
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case amount, height, target }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.number(.amount, in: Limits.stageAmount)
        height = try container.number(.height, in: Limits.stageHeight)
        target = try container.value(.target, default: .backdrop)
    }

    /// The segment lens's stages in sampling order (UIKit's `_UILiquidLensView`, lifted, style Large):
    /// glassBackground's inner refraction −6.6 / 4.4 then the BackdropView's +9 / 36 on the backdrop;
    /// ContentLensing −8.8 / 7.04 then ClearGlass −17.5 / 11.2 on the label row.
    public static let segmentLens: [DisplacementStage] = [
        DisplacementStage(amount: -6.6, height: 4.4, target: .backdrop),
        DisplacementStage(amount: 9, height: 36, target: .backdrop),
        DisplacementStage(amount: -8.8, height: 7.04, target: .label),
        DisplacementStage(amount: -17.5, height: 11.2, target: .label),
    ]

    /// The segment lens's backdrop stages fitted to the iOS 26 capture `union-lens-lifted`: Apple's
    /// +9 / 36 kept, the inner stage −17 / 7 where the decompiled glassBackground gives −6.6 / 4.4.
    /// With −6.6 / 4.4 the bar's edge refracts into one dark band from the rim 6 pt in; the capture
    /// shows the bar's rim again right inside the lens's rim, the dark band 3–5 pt in, and the bar's
    /// rim once more at 6 pt (a fit over both rims gives −17 ± 1 / 7 ± 0.5).
    public static let segmentLensBackdrop: [DisplacementStage] = [
        DisplacementStage(amount: -17, height: 7, target: .backdrop),
        DisplacementStage(amount: 9, height: 36, target: .backdrop),
    ]

    /// Stages per target the shaders compose.
    public static let maximumPerTarget = 2
}

/// Apple's glassForeground fringe: the lens's content sampled in seven taps along the
/// refraction direction turned by `angle`, spread `amount` points at the silhouette and fading
/// linearly to 0 at `band` points inside; red gathers the outward taps, blue the inward, green all.
public struct Aberration: Codable, Sendable, Equatable {
    /// Spread at the silhouette, in points (0: off).
    public var amount: Double
    /// Turn of the direction from the refraction normal, degrees (screen axes, y down).
    public var angle: Double
    /// Depth inside the silhouette where the spread reaches 0, in points.
    public var band: Double

    /// A fringe of `amount` points turned `angle` degrees, fading to 0 at `band` points inside.
    public init(amount: Double, angle: Double, band: Double) {
        self.amount = amount
        self.angle = angle
        self.band = band
    }

    /// No fringe.
    public static let off = Aberration(amount: 0, angle: 0, band: 0)
    /// The segment lens's: 2.3158 at −15°, fading to 0 at 8.8 pt inside the edge.
    public static let segmentLens = Aberration(amount: 2.3158, angle: -15, band: 8.8)

    enum CodingKeys: String, CodingKey, CaseIterable { case amount, angle, band }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.number(.amount, default: 0, in: Limits.aberration)
        angle = try container.number(.angle, default: 0, in: Limits.angle)
        band = try container.number(.band, default: 8.8, in: Limits.rimWidth)
    }
}

/// Apple's general glass scales some of its values with S, the minor dimension of its shape
/// (u = sat((S − 48)/112)): the inner refraction (H = min(S/4, 20), A = min(0.8·S, 60)), the
/// blur (1.333 + 2.667·u pt regular, 1 pt clear) and the drop shadow (regular: offset (0, 8),
/// radius 32, opacity 0.4·(0.5 − 0.25·u); none clear). Apple's table says radius 24 and opacity
/// 0.5 − 0.25·u; the captures `cn-buttons`, `mecid-regular` and `mecid-container` (shadows of
/// glass 32–72 pt across, over white and over green, composited in linear light as ours is) fit
/// offset 8.1–8.2, radius 31–38 and 0.25–0.72 of that opacity; radius 32 and 0.4 hold
/// `cn-buttons` within 2.4 levels and `mecid-container` within 1.1, where Apple's numbers were 5
/// to 16 levels too dark (`mecid-regular`'s shadow below, deeper, is not held).
public enum GlassSizeLaw: String, Codable, Sendable, CaseIterable {
    /// The values stay as given.
    case none
    /// `UIGlassEffect(.regular)`.
    case regular
    /// `UIGlassEffect(.clear)`.
    case clear

    /// u = sat((S − 48)/112) for a minor dimension of `minor` points.
    public static func u(_ minor: Double) -> Double { min(max((minor - 48) / 112, 0), 1) }

    /// `optics` with the values this law governs set for a shape whose minor dimension is `minor` points.
    public func applied(to optics: Optics, minor: Double) -> Optics {
        guard self != .none else { return optics }
        let u = Self.u(minor)
        var sized = optics
        sized.bevelWidth = min(minor / 4, 20)
        sized.bevelAmount = min(0.8 * minor, 60)
        if self == .clear {
            sized.frost = 1
            sized.shadow = .off
        } else {
            sized.frost = 1.333 + 2.667 * u
            sized.shadow = DropShadow(offset: Point(x: 0, y: 8), radius: 32, opacity: 0.4 * (0.5 - 0.25 * u))
        }
        return sized
    }
}
