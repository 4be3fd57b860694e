import Foundation

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// How the glass bends the view ray.
public enum RefractionModel: String, Codable, Sendable, CaseIterable {
    /// Apple's fit: the band of width H shifts samples inward by A·(1 − √(1 − x²)).
    case bevel
    /// A surface profile of height `thickness` over the band, refracted with Snell's law.
    case physical
    /// Apple's lens: ``Optics/stages`` composed in sampling order, the backdrop and the label row
    /// each through their own, then ``Optics/aberration``.
    case stages
}

/// Height of the physical surface across the band (s = 0 at the silhouette, 1 at depth H).
public enum SurfaceProfile: String, Codable, Sendable, CaseIterable {
    /// √(1 − (1 − s)²): a quarter circle rising from the rim.
    case convexCircle
    /// (1 − (1 − s)⁴)^¼: flatter top, steeper rim.
    case convexSquircle
    /// 1 − √(1 − (1 − s)²): a raised rim falling to a flat centre.
    case concave
    /// A rim that rises to full height by mid-band, then dips into a shallow trough.
    case lip

    /// Normalised height at band position s.
    public func height(_ s: Double) -> Double {
        let s = min(max(s, 0), 1)
        switch self {
        case .convexCircle: return (1 - (1 - s) * (1 - s)).squareRoot()
        case .convexSquircle: return pow(1 - pow(1 - s, 4), 0.25)
        case .concave: return 1 - (1 - (1 - s) * (1 - s)).squareRoot()
        case .lip:
            let rim = min(2 * s, 1)
            let trough = sin(Double.pi * s)
            return (1 - (1 - rim) * (1 - rim)).squareRoot() - 0.35 * trough * trough
        }
    }
}

/// Dispersion quality.
public enum DispersionMode: String, Codable, Sendable, CaseIterable {
    /// Red at 1−k, green at 1, blue at 1+k of the offset: three content samples.
    case channels
    /// Seven taps across the spread, each weighted into red, green and blue.
    case spectral
}

/// Light or dark appearance of the glass.
public enum Appearance: String, Codable, Sendable, CaseIterable {
    case light
    /// Dims what the glass shows by 30 %.
    case dark
}

/// Starting values for ``Optics``, from Apple's measured glass.
public enum OpticsPreset: String, Codable, Sendable, CaseIterable {
    /// `UIGlassEffect(.regular)`, light: the size laws of S (refraction, blur, shadow), the face
    /// (White 1.075, Black 0.5, Saturation 0.595, white 0.4 fill), Apple's rim recoloured by the light
    /// vibrant matrix.
    case regular
    /// `UIGlassEffect(.regular)` with `isInteractive` (SwiftUI's `.regular.interactive()`), light: as
    /// ``regular`` with the interactive face (1 / 0.5 / 1, white 0.35 fill).
    case regularInteractive
    /// `UIGlassEffect(.regular)`, dark: as ``regular`` with the dark face (0.6 / 0.135 / 1, black 0.4
    /// fill) and the dark vibrant rim.
    case regularDark
    /// `UIGlassEffect(.clear)`: the clear face (1.115 / 0.075 / 1.07, no fill), 1 pt blur, no shadow.
    case clear
    /// The text loupe: H 8 pt, A 28 pt, ×1.25.
    case loupe
    /// The lifted segmented-control lens before the stage model: ×1.22, H 10, A 9, a little dispersion.
    case liftedSegmented
    /// Apple's segment lens (`_UILiquidLensView`, lifted, style Large), stage by stage: the backdrop
    /// through −17 / 7 and +9 / 36 (``DisplacementStage/segmentLensBackdrop``: the inner stage fitted
    /// to an iOS capture where Apple's is −6.6 / 4.4), the 2.3158 pt fringe at −15° over 8.8 pt, Apple's rim and
    /// inner shadow, no blur. Apple's label stages (−8.8 / 7.04, −17.5 / 11.2) are left out: iOS
    /// captures show no glyph copies in the rim (``DisplacementStage/segmentLens`` keeps them).
    case segmentLens
}

/// How the glass bends, blurs, colours and lights what is under it. Lengths in points.
public struct Optics: Codable, Sendable, Equatable {
    /// The preset the values started from (JSON: applied before the other keys); nil: the defaults.
    public var preset: OpticsPreset?
    /// How the glass bends the view ray (default bevel).
    public var model: RefractionModel = .bevel
    /// H: depth of the refracting band at the rim (capped to ¼ of the short side).
    public var bevelWidth: Double = 20
    /// A: inward displacement at the silhouette, bevel model (capped to half the short side).
    public var bevelAmount: Double = 60
    /// Physical model: the surface across the band.
    public var profile: SurfaceProfile = .convexCircle
    /// Physical model: index of refraction (1 bends nothing).
    public var ior: Double = 1.5
    /// Physical model: height of the surface above the backdrop.
    public var thickness: Double = 20
    /// Sampling scale about the lens centre (Apple's lifted lens ≈ 1.22). The stage model scales
    /// the label row alone (the lifted content), not the backdrop.
    public var magnification: Double = 1
    /// Spread k of the displacement across the spectrum; skipped under ¼ px.
    public var dispersion: Double = 0
    /// How dispersion samples the content: three channels (default) or seven spectral taps.
    public var dispersionMode: DispersionMode = .channels
    /// Gaussian σ of the backdrop under the glass.
    public var frost: Double = 0
    /// Saturation of what the glass shows, linear light (1 unchanged, 0 grey; 0…4).
    public var saturation: Double = 1
    /// Added to every channel (linear light).
    public var brightness: Double = 0
    /// Scale of the distance from mid grey (linear light).
    public var contrast: Double = 1
    /// Colour laid over the glass (premultiplied "over"); alpha is the amount.
    public var tint: RGBAColor = .clear
    /// Light (default) or dark: dark dims what the glass shows by 30 %.
    public var appearance: Appearance = .light
    /// Width of the tint-mask feather inside the rim.
    public var softness: Double = 10
    /// Share of the ellipse normal in the refraction direction (Apple: 0.5).
    public var ovalization: Double = 0.5
    /// Light along the edge (default ``RimLight/standard``).
    public var rimLight: RimLight = .standard
    /// Fresnel-like ambient `(1 − n_z)³` over the band.
    public var fresnel: Double = 0
    /// A dark line just inside the silhouette (default off).
    public var contour: Contour = .off
    /// Shadow darkening the glass from inside (default off; most presets use Apple's).
    public var innerShadow: DropShadow = .off
    /// Drop shadow under the glass (default ``DropShadow/standard``).
    public var shadow: DropShadow = .standard
    /// Off: the glass lights and tints what is below it but does not refract or magnify it.
    public var warpsContentBelow = true
    /// Off: a platter, not a lens: the label row keeps its resting colour and lies on this glass's face
    /// (drawn over its tint, unrefracted, as in a glass view's content view).
    public var tintsLabel = true
    /// Stage model: the displacement stages, in sampling order per target (at most two each).
    public var stages: [DisplacementStage] = []
    /// Stage model: the colour fringe over the lens's content (default off).
    public var aberration: Aberration = .off
    /// Apple's face tone, applied before the tint, which is its fill (default: unchanged).
    public var face: ColorLevels = .identity
    /// Values that follow the minor dimension S of the shape: refraction, frost and shadow (default none).
    public var sizeLaw: GlassSizeLaw = .none

    /// The defaults: bevel model, H 20 pt, A 60 pt, no frost, tint or magnification, standard rim light and shadow.
    public init() {}

    /// The preset's values.
    public init(preset: OpticsPreset) {
        switch preset {
        case .regular:
            self = Self.general(.regular, face: .faceLight, fill: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.4))
        case .regularInteractive:
            self = Self.general(
                .regular, face: .faceInteractive, fill: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.35))
        case .regularDark:
            self = Self.general(.regular, face: .faceDark, fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.4))
            rimLight.recolor = .vibrantDark
        case .clear:
            self = Self.general(.clear, face: .faceClear, fill: .clear)
        case .loupe:
            bevelWidth = 8
            bevelAmount = 28
            magnification = 1.25
            shadow = DropShadow(offset: Point(x: 0, y: 4), radius: 12, opacity: 0.2)
            contour = Contour(width: 0.5, opacity: 0.15)
        case .liftedSegmented:
            bevelWidth = 10
            bevelAmount = 9
            magnification = 1.22
            dispersion = 0.02
            innerShadow = .appleInner
            shadow = DropShadow(offset: Point(x: 0, y: 4), radius: 12, opacity: 0.18)
        case .segmentLens:
            model = .stages
            // The backdrop's stages only, the inner one fitted to an iOS capture. Apple's label
            // stages reach 26 pt inward at the rim and copy glyph pieces into it; no iOS capture
            // shows any (`union-lens-lifted`: nothing of the title at the rim).
            stages = DisplacementStage.segmentLensBackdrop
            aberration = .segmentLens
            rimLight = .apple
            innerShadow = .appleInner
            shadow = DropShadow(offset: Point(x: 0, y: 4), radius: 12, opacity: 0.18)
        }
        self.preset = preset
    }

    /// Apple's general glass of `law`: its face and fill, its rim. No inner shadow: the lens's
    /// (0, 7) r3 0.12 is not on it — the captures `mecid-regular` and `mecid-clear` show a face
    /// flat to the level right under the top edge.
    private static func general(_ law: GlassSizeLaw, face: ColorLevels, fill: RGBAColor) -> Optics {
        var optics = Optics()
        optics.sizeLaw = law
        optics.face = face
        optics.tint = fill
        optics.rimLight = .apple
        return optics
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case preset, model, bevelWidth, bevelAmount, profile, ior, thickness, magnification, dispersion,
            dispersionMode, frost, saturation, brightness, contrast, tint, appearance, softness, ovalization,
            rimLight, fresnel, contour, innerShadow, shadow, warpsContentBelow, tintsLabel, stages, aberration, face,
            sizeLaw
    }

    /// Starts from `preset` (when given), then applies every key present.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let preset = try container.choice(OpticsPreset.self, .preset) {
            self.init(preset: preset)
        } else {
            self.init()
        }
        model = try container.value(.model, default: model)
        bevelWidth = try container.number(.bevelWidth, default: bevelWidth, in: Limits.bevel)
        bevelAmount = try container.number(.bevelAmount, default: bevelAmount, in: Limits.bevel)
        profile = try container.value(.profile, default: profile)
        ior = try container.number(.ior, default: ior, in: Limits.ior)
        thickness = try container.number(.thickness, default: thickness, in: Limits.bevel)
        magnification = try container.number(.magnification, default: magnification, in: Limits.magnification)
        dispersion = try container.number(.dispersion, default: dispersion, in: Limits.dispersion)
        dispersionMode = try container.value(.dispersionMode, default: dispersionMode)
        frost = try container.number(.frost, default: frost, in: Limits.frost)
        saturation = try container.number(.saturation, default: saturation, in: Limits.saturation)
        brightness = try container.number(.brightness, default: brightness, in: Limits.brightness)
        contrast = try container.number(.contrast, default: contrast, in: Limits.saturation)
        tint = try container.value(.tint, default: tint)
        appearance = try container.value(.appearance, default: appearance)
        softness = try container.number(.softness, default: softness, in: Limits.softness)
        ovalization = try container.number(.ovalization, default: ovalization, in: Limits.unit)
        rimLight = try container.nested(.rimLight, over: rimLight, RimLight.init(from:over:))
        fresnel = try container.number(.fresnel, default: fresnel, in: Limits.rimAmount)
        contour = try container.value(.contour, default: contour)
        innerShadow = try container.value(.innerShadow, default: innerShadow)
        shadow = try container.value(.shadow, default: shadow)
        warpsContentBelow = try container.value(.warpsContentBelow, default: warpsContentBelow)
        tintsLabel = try container.value(.tintsLabel, default: tintsLabel)
        stages = try container.value(.stages, default: stages)
        do {
            try Self.checkStageCounts(stages, "stages")
        } catch let error as SceneError {
            throw DecodingError.dataCorruptedError(forKey: .stages, in: container, debugDescription: error.message)
        }
        aberration = try container.value(.aberration, default: aberration)
        face = try container.value(.face, default: face)
        sizeLaw = try container.value(.sizeLaw, default: sizeLaw)
    }
}
