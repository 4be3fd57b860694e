import Foundation
import LensModel

/// How one glass element is drawn once its theme, material, rendering path, accessibility and
/// animated highlight are taken into account: the optics the lens pass uses, plus the edge
/// highlight, gradient tint, shimmer and opacity. Both backends receive the result through
/// `LensParams`, so a material looks the same on either.
struct GlassLook {
    var optics: Optics
    var edgeHighlight: EdgeHighlight
    var gradientTint: GradientTint?
    var opacity: Double
    /// Shimmer band centre along the diagonal, nil when none.
    var shimmerPosition: Double?
    var shimmerAlpha: Double

    /// Opaque surfaces under Reduce Transparency (systemGroupedBackground, light and dark).
    static let opaqueLight = RGBAColor(242, 242, 247)
    static let opaqueDark = RGBAColor(28, 28, 30)

    /// The look of `element` in `scene`; `minor` is the minor dimension S of its shape in points,
    /// which Apple's size laws read.
    init(_ element: GlassElement, scene: Scene, minor: Double) {
        let theme = element.theme ?? scene.theme
        let material = element.material ?? theme?.material
        let path = element.renderingPath ?? theme?.renderingPath ?? .automatic
        // A theme material, or the fallback path, draws glass the same in either release.
        let appleGlass = path != .fallback && material.map { if case .apple = $0 { true } else { false } } ?? true
        let generation = appleGlass ? element.generation ?? scene.generation : .ios26
        optics = element.optics.sizeLaw.applied(
            to: element.optics.restyled(for: generation), minor: minor, generation: generation)
        opacity = 1
        gradientTint = element.gradientTint ?? theme?.gradientTint
        edgeHighlight = .off
        shimmerPosition = nil
        shimmerAlpha = 0
        apply(material, theme: theme, minor: minor, generation: generation)
        if appleGlass { optics = optics.tinted(by: scene.tinting) }
        switch path {
        case .automatic, .native:
            edgeHighlight = element.edgeHighlight ?? .off
        case .fallback:
            optics.removeLensing()
            optics.rimLight = .off
            optics.fresnel = 0
            optics.innerShadow = .off
            let themeHighlight = material == nil ? nil : (theme?.edgeHighlight ?? .standard)
            edgeHighlight = element.edgeHighlight ?? themeHighlight ?? .standard
        }
        let accessibility = scene.accessibility
        if accessibility.reduceTransparency { reduceTransparency(material) }
        if accessibility.increaseContrast {
            let base = edgeHighlight.width > 0 ? edgeHighlight : EdgeHighlight.standard
            edgeHighlight = EdgeHighlight(width: max(base.width, 1), alphas: base.alphas.map { min(1, $0 * 2) })
            // At least a 1 pt line at 0.35; a stronger one the glass draws (a held knob's) stays.
            optics.contour = Contour(
                width: max(optics.contour.width, 1), opacity: max(optics.contour.opacity, 0.35))
        }
        if element.presence < 1 { materialize(element.presence) }
        if let highlight = element.highlight, !accessibility.reduceMotion {
            let scale = highlight.highlightScale(at: scene.time)
            optics.rimLight.key.amount *= scale
            optics.rimLight.fill.amount *= scale
            edgeHighlight.alphas = edgeHighlight.alphas.map { $0 * scale }
            optics.brightness = min(1, optics.brightness + highlight.brightness(at: scene.time))
            shimmerPosition = highlight.shimmerPosition(at: scene.time)
            shimmerAlpha = 0.35 * highlight.intensity
        }
    }

    /// What a material brings: Apple's glass its face, fill, rim and inner shadow (its laws set the
    /// rest); a theme material its blur, tint, saturation, shadow and opacity.
    private mutating func apply(_ material: Material?, theme: Theme?, minor: Double, generation: GlassGeneration) {
        if case .apple(let glass) = material {
            let apple = Optics(preset: glass.preset).restyled(for: generation)
            optics.preset = apple.preset
            optics.face = apple.face
            optics.tint = apple.tint
            optics.rimLight = apple.rimLight
            if apple.contour != .off { optics.contour = apple.contour }
            optics.innerShadow = apple.innerShadow
            optics = apple.sizeLaw.applied(to: optics, minor: minor, generation: generation)
        } else if let material {
            optics.frost = material.blur / 2
            optics.tint = material.tint
            optics.saturation = material.saturation
            optics.shadow = theme?.shadow ?? Theme.materialShadow
            opacity = material.opacity
        }
    }

    /// Glass part of the way in (``GlassElement/presence``): its bending, colour fringes and frost
    /// grow with it (no doubled image of full bending faded in), the glass with everything it
    /// draws (tint, face, rim, highlights, label tint) lies over what is below at that share, and
    /// its drop shadow at that share: each linear in the presence; at 0 the glass changes nothing.
    private mutating func materialize(_ presence: Double) {
        optics.bevelAmount *= presence
        optics.magnification = 1 + (optics.magnification - 1) * presence
        optics.dispersion *= presence
        optics.stages = optics.stages.map { stage in
            var stage = stage
            stage.amount *= presence
            return stage
        }
        optics.aberration.amount *= presence
        optics.frost *= presence
        optics.shadow.opacity *= presence
        opacity *= presence
    }

    /// Reduce Transparency: an opaque grouped-background surface, nothing seen through it.
    private mutating func reduceTransparency(_ material: Material?) {
        let dark = material?.isDark ?? (optics.appearance == .dark || optics.preset == .regularDark)
        optics.tint = dark ? Self.opaqueDark : Self.opaqueLight
        optics.frost = 0
        optics.removeLensing()
        optics.saturation = 1
        optics.brightness = 0
        optics.contrast = 1
        gradientTint = nil
        opacity = 1
    }
}

extension Optics {
    /// No bending and no colour fringes: the fallback path and Reduce Transparency draw flat glass.
    fileprivate mutating func removeLensing() {
        bevelAmount = 0
        stages = []
        aberration = .off
        magnification = 1
        dispersion = 0
    }
}
