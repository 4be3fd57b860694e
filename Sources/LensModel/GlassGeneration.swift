import Foundation

/// Which iOS release's glass a scene, or one glass element, draws. Only Apple's own glass
/// (``AppleGlass``, and optics whose preset is ``OpticsPreset/regular``,
/// ``OpticsPreset/regularInteractive``, ``OpticsPreset/regularDark`` or ``OpticsPreset/clear``)
/// differs between the two; the theme materials, the fallback path and the controls' lenses look
/// the same in both.
/// The sources of every iOS 27 number are in the Fidelity article, "iOS 26 and iOS 27".
public enum GlassGeneration: String, Codable, Sendable, CaseIterable {
    /// iOS 26: the face, fill, rim and size laws fitted to the iOS 26 captures.
    case ios26
    /// iOS 27, the current release: glass that diffuses what is below it more, keeps more of its
    /// tone, has a darkened edge and a brighter highlight along its top and bottom.
    case ios27

    /// What a scene draws when it names no generation: the current release.
    public static let current = GlassGeneration.ios27
}

/// The iOS 27 numbers. Fitted 2026-12-07 to `sdtaheri-grid-ios27` (iOS 27 simulator, the tab
/// bar's face and its edge profiles at the top, bottom and left end) and to the selected-tab
/// table of `ios27-measurements.md` (whynotmake-it/flutter_liquid_glass @ 4f43b9b5, 2026-09-30),
/// with the frost from chrisbanes/haze's iOS 27 fit (`docs/research`, 2026-08-31) and the clear
/// frost from liquid_glass_renderer's README @ 12dcd02b.
enum IOS27Glass {
    /// Light regular glass: luma 0…1 → 0.25…1, chroma kept, under a white 0.2 fill. The tab bar's
    /// face over the #F2F2F7 page (luma 246 against the page's 241.5) and a bar over black lighter
    /// than the selected platter's 97.
    static let faceLight = ColorLevels(white: 0.99, black: 0.25, saturation: 1)
    static let fillLight = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.2)
    /// Dark regular glass under a black 0.4 fill: luma 185 over white and 32 over black (the
    /// measured table's dark appearance).
    static let faceDark = ColorLevels(white: 1.21, black: 0.21, saturation: 1)
    static let fillDark = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.4)
    /// The darkened edge: ⅔ pt at half strength (the bar's ends darken to 189 over a 244 page).
    static let edge = Contour(width: 0.67, opacity: 0.5)
    /// The brighter highlight: lit from straight above and below (the bar's top and bottom rows
    /// reach 255, its ends stay unlit), 1.5 pt deep, squared lobes, at 3 where iOS 26 has 1.15.
    static func highlight(_ rim: RimLight) -> RimLight {
        var lit = rim
        lit.key = RimLobe(angle: 90, amount: 3)
        lit.fill = RimLobe(angle: -90, amount: 3)
        lit.width = 1.5
        lit.falloff = 2
        return lit
    }
    /// Regular glass's frost: 8 + 2u pt (u the size law's), haze's iOS 27 blur of 20 / 24 / 25 dp
    /// at short sides 64 / 176 / 220 in our units (haze's iOS 26 fit of 4 / 10 / 15 dp is our
    /// 1.7 / 4 / 4 pt). Clear glass: 0.35 pt.
    static func frost(_ law: GlassSizeLaw, u: Double) -> Double { law == .clear ? 0.35 : 8 + 2 * u }
    /// The drop shadow is a quarter of iOS 26's: the grid capture's page darkens by 1 to 2 levels
    /// under the bar, not 6.
    static let shadowShare = 0.25
}

extension GlassSizeLaw {
    /// `optics` with the values this law governs set for a shape whose minor dimension is `minor`
    /// points, as `generation` draws it.
    public func applied(to optics: Optics, minor: Double, generation: GlassGeneration) -> Optics {
        var sized = applied(to: optics, minor: minor)
        guard self != .none, generation == .ios27 else { return sized }
        sized.frost = IOS27Glass.frost(self, u: Self.u(minor))
        sized.shadow.opacity *= IOS27Glass.shadowShare
        return sized
    }
}

extension OpticsPreset {
    /// Apple's general glass: the presets whose look changes with the generation and the tinting.
    public var isAppleGlass: Bool { [.regular, .regularInteractive, .regularDark, .clear].contains(self) }
}

extension Optics {
    /// These optics as `generation` draws them. Apple's glass (``OpticsPreset/isAppleGlass``)
    /// under iOS 27 takes iOS 27's face, fill, highlight and darkened edge, each only where it
    /// still holds its iOS 26 preset's value: what a scene set itself stays. Glass the scene
    /// tinted a colour of its own loses its rim light instead. Anything else is returned as it is.
    public func restyled(for generation: GlassGeneration) -> Optics {
        guard generation == .ios27, let preset, preset.isAppleGlass else { return self }
        let old = Optics(preset: preset)
        var new = self
        let dark = preset == .regularDark
        if face == old.face, preset != .clear { new.face = dark ? IOS27Glass.faceDark : IOS27Glass.faceLight }
        if tint != old.tint && max(tint.red, tint.green, tint.blue) - min(tint.red, tint.green, tint.blue) > 0.1 {
            // Tinted glass (`glassProminent`): the grid capture's blue button is flat to its
            // silhouette, with neither highlight nor darkened edge. A grey fill of the scene's
            // own (a touched dark platter) is not a tint.
            if rimLight == old.rimLight { new.rimLight = .off }
            return new
        }
        if tint == old.tint, preset != .clear { new.tint = dark ? IOS27Glass.fillDark : IOS27Glass.fillLight }
        if rimLight == old.rimLight { new.rimLight = IOS27Glass.highlight(rimLight) }
        if contour == old.contour { new.contour = IOS27Glass.edge }
        return new
    }

    /// These optics under the system's glass setting (``Scene/tinting``): 0 leaves them as they
    /// are (Clear, the default both releases ship and every capture shows); 1 is fully tinted,
    /// the fill (white where there was none, as on clear glass) rising linearly to 0.75 (a denser
    /// fill stays) and the frost to twice its value. No capture of the tinted end exists here: its numbers are ours.
    public func tinted(by tinting: Double) -> Optics {
        guard tinting > 0, let preset, preset.isAppleGlass else { return self }
        var tinted = self
        if tint.alpha == 0 { tinted.tint = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0) }
        tinted.tint.alpha = max(tint.alpha, tint.alpha + (Self.tintedFill - tint.alpha) * tinting)
        tinted.frost = frost * (1 + tinting)
        return tinted
    }

    /// The fill's alpha at full tinting.
    static let tintedFill = 0.75
}
