import Foundation

/// How one glass element is drawn once its theme, material, rendering path, accessibility and
/// animated highlight are taken into account: the optics the lens pass uses, plus the edge
/// highlight, gradient tint, shimmer and opacity. Both backends receive the result through
/// ``LensParams``, so a material looks the same on either.
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

    init(_ element: GlassElement, scene: Scene) {
        let theme = element.theme ?? scene.theme
        let material = element.material ?? theme?.material
        let path = element.renderingPath ?? theme?.renderingPath ?? .automatic
        optics = element.optics
        opacity = 1
        gradientTint = element.gradientTint ?? theme?.gradientTint
        if let material {
            optics.frost = material.blur / 2
            optics.tint = material.tint
            optics.saturation = material.saturation
            optics.shadow = theme?.shadow ?? Theme.materialShadow
            opacity = material.opacity
        }
        let themeHighlight = material == nil ? nil : (theme?.edgeHighlight ?? .standard)
        switch path {
        case .automatic, .native:
            edgeHighlight = element.edgeHighlight ?? .off
        case .fallback:
            optics.bevelAmount = 0
            optics.magnification = 1
            optics.dispersion = 0
            optics.rimLight = .off
            optics.fresnel = 0
            optics.innerShadow = .off
            edgeHighlight = element.edgeHighlight ?? themeHighlight ?? .standard
        }

        let accessibility = scene.accessibility
        if accessibility.reduceTransparency {
            let surface = (material?.isDark ?? (optics.appearance == .dark)) ? Self.opaqueDark : Self.opaqueLight
            optics.tint = surface
            optics.frost = 0
            optics.bevelAmount = 0
            optics.magnification = 1
            optics.dispersion = 0
            optics.saturation = 1
            optics.brightness = 0
            optics.contrast = 1
            gradientTint = nil
            opacity = 1
        }
        if accessibility.increaseContrast {
            let base = edgeHighlight.width > 0 ? edgeHighlight : EdgeHighlight.standard
            edgeHighlight = EdgeHighlight(width: max(base.width, 1), alphas: base.alphas.map { min(1, $0 * 2) })
            optics.contour = Contour(width: 1, opacity: 0.35)
        }
        shimmerPosition = nil
        shimmerAlpha = 0
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

    /// Sets the look's fields of `lens` (pixel units) and appends the gradient stops to `tables`.
    func apply(to lens: inout LensParams, geometry: [ShapeGeometry], scale: Double, tables: inout [Float]) {
        let minX = geometry.map { $0.centerX - $0.halfWidth }.min()!
        let minY = geometry.map { $0.centerY - $0.halfHeight }.min()!
        let maxX = geometry.map { $0.centerX + $0.halfWidth }.max()!
        let maxY = geometry.map { $0.centerY + $0.halfHeight }.max()!
        let diagonal = SIMD2(maxX - minX, maxY - minY)
        let squared = max(1e-6, diagonal.x * diagonal.x + diagonal.y * diagonal.y)
        lens.highlightAxis = SIMD4(Float(minX), Float(minY), Float(diagonal.x / squared), Float(diagonal.y / squared))
        lens.edgeHighlight = SIMD4(
            Float(edgeHighlight.width * scale), Float(edgeHighlight.alphas[0]), Float(edgeHighlight.alphas[1]),
            Float(edgeHighlight.alphas[2]))
        if let shimmerPosition {
            lens.shimmer = SIMD4(Float(shimmerPosition), 0.18, Float(shimmerAlpha), 0)
        }
        lens.opacity = Float(opacity)
        if let gradientTint {
            let radians = gradientTint.angle * .pi / 180
            let direction = SIMD2(cos(radians), sin(radians))
            let corners = [SIMD2(minX, minY), SIMD2(maxX, minY), SIMD2(minX, maxY), SIMD2(maxX, maxY)]
            let projections = corners.map { ($0 * direction).sum() }
            let length = max(1e-6, projections.max()! - projections.min()!)
            let origin = corners[projections.firstIndex(of: projections.min()!)!]
            lens.gradientAxis = SIMD4(
                Float(origin.x), Float(origin.y), Float(direction.x / length), Float(direction.y / length))
            lens.gradientOffset = UInt32(tables.count)
            lens.gradientCount = UInt32(gradientTint.colors.count)
            for color in gradientTint.colors {
                let stop = RGBAColor(
                    red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * gradientTint.intensity)
                let linear = stop.linearPremultiplied
                tables += [linear.x, linear.y, linear.z, linear.w]
            }
        }
    }
}
