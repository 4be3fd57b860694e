import Foundation
import LensModel

extension ThemePreset {
    /// One line for `liquidlens presets`.
    public var summary: String {
        let theme = self.theme
        var parts = ["\(theme.material.name) material", theme.shape.rawValue]
        if theme.shape != .capsule { parts.append("radius \(theme.cornerRadius.formatted)") }
        if theme.gradientTint != nil { parts.append("gradient tint") }
        if theme.edgeHighlight == .off { parts.append("no edge highlight") }
        return parts.joined(separator: ", ")
    }

    /// A small sample: a glass card and button in this theme over a busy backdrop, named in its
    /// label colour (the cells of the `liquidlens presets --sheet` contact sheet).
    public func sampleScene(scale: Double = 2) -> Scene {
        let theme = self.theme
        let dark = theme.material.isDark
        let label = dark ? RGBAColor.white : RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.85)
        return Scene(
            canvas: Canvas(width: 200, height: 130, scale: scale),
            background: [
                BackgroundLayer(
                    .gradient(
                        colors: [RGBAColor(255, 94, 58), RGBAColor(255, 205, 2), RGBAColor(88, 86, 214)], angle: 30)),
                BackgroundLayer(.checker(size: 12, colors: [.black, .white]), opacity: 0.15),
                BackgroundLayer(.lines(spacing: 10, width: 1.5, angle: 60, color: .white), opacity: 0.5),
            ],
            glass: [
                GlassElement(shape: theme.controlShape(height: 58), frame: Rect(x: 16, y: 14, width: 168, height: 58)),
                GlassElement(shape: theme.controlShape(height: 32), frame: Rect(x: 50, y: 84, width: 100, height: 32)),
            ],
            foreground: [
                BackgroundLayer(
                    .text(rawValue, center: Point(x: 100, y: 43), size: 17, weight: .semibold, color: label)),
                BackgroundLayer(
                    .text("Button", center: Point(x: 100, y: 100), size: 13, weight: .medium, color: label)),
            ],
            theme: theme, generation: .ios26)
    }
}
