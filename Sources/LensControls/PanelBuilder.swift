import Foundation
import LensModel

/// Collects a panel's layers and glass, offset to where the panel sits.
struct PanelBuilder {
    let origin: Point
    /// Dynamic Type scale of the panel's text.
    let scale: Double
    /// Where the next row starts, in panel points.
    var cursor = 0.0
    var background: [BackgroundLayer] = []
    var glass: [GlassElement] = []
    var foreground: [BackgroundLayer] = []

    func placed(_ frame: Rect) -> Rect {
        Rect(x: frame.x + origin.x, y: frame.y + origin.y, width: frame.width, height: frame.height)
    }

    mutating func fill(_ shape: Shape, _ frame: Rect, _ color: RGBAColor, foreground: Bool = false) {
        let layer = BackgroundLayer(.fill(shape: shape, frame: placed(frame), color: color))
        if foreground { self.foreground.append(layer) } else { background.append(layer) }
    }

    mutating func stroke(_ shape: Shape, _ frame: Rect, _ width: Double, _ color: RGBAColor) {
        foreground.append(BackgroundLayer(.stroke(shape: shape, frame: placed(frame), width: width, color: color)))
    }

    /// A line of text `size` points at the stock text size, scaled by `scale` (default: the panel's).
    mutating func text(
        _ text: String, _ center: Point, _ size: Double, _ weight: FontWeight, _ color: RGBAColor, scale: Double? = nil
    ) {
        foreground.append(
            BackgroundLayer(
                .text(
                    text, center: Point(x: center.x + origin.x, y: center.y + origin.y),
                    size: size * (scale ?? self.scale),
                    weight: weight, color: color)))
    }

    /// Estimated width of a line of DejaVu Sans at `size` points (0.5 em per character, a little
    /// over its average of about 0.45): layout happens before the text is shaped, so it leaves room rather than
    /// measuring.
    static func width(of text: String, size: Double) -> Double { Double(text.count) * size * 0.5 }

    /// Greedy word wrap to `width` points by the same estimate; a word longer than a line is cut.
    static func wrap(_ text: String, size: Double, width: Double) -> [String] {
        // Cut long words by a wider estimate (0.62 em): they are often all wide letters.
        let perLine = max(1, Int(width / (size * 0.62)))
        var words: [Substring] = []
        for word in text.split(separator: " ") {
            var rest = word
            while rest.count > perLine {
                words.append(rest.prefix(perLine))
                rest = rest.dropFirst(perLine)
            }
            words.append(rest)
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if !line.isEmpty && Self.width(of: candidate, size: size) > width {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A glass surface in the theme (material, shadow, edge, path come from the scene's theme).
    mutating func glass(_ shape: Shape, _ frame: Rect, optics: Optics = Optics()) {
        var element = GlassElement(shape: shape, frame: placed(frame), optics: optics)
        element.optics.bevelWidth = min(12, frame.height / 4)
        element.optics.bevelAmount = min(24, frame.height / 3)
        glass.append(element)
    }

    /// A lens (a switch or slider knob): Apple's segment-lens optics (UIKit's switch knob is the
    /// same `_UILiquidLensView`), frosted only at rest (the lift's resting frost) and drawing
    /// ``knobRim`` as it lifts. It does not dim what it shows as a light tab bar's lens does: the
    /// capture's held knob keeps the well's level (196) through it.
    mutating func lens(_ shape: Shape, _ frame: Rect, lift: LensLift) {
        var optics = Optics(preset: .segmentLens)
        optics.contour = Self.knobRim
        glass.append(
            GlassElement(shape: shape, frame: placed(frame), optics: optics, lift: lift, material: Self.knobMaterial))
    }

    /// A knob's own material, so that the theme's does not reach it: no blur, tint or saturation
    /// once held (`jarx-switch-lifted`: the well 1:1 through the held knob, its level kept).
    static let knobMaterial = Material.custom(blur: 0, tint: .clear, saturation: 1, opacity: 1)

    /// A held knob's outline: a near-black line 0.6 pt wide at its silhouette (`jarx-switch-lifted`:
    /// 11 and 75 over the white card at the lens's left end, 20 at its top).
    static let knobRim = Contour(width: 0.6, opacity: 1)
}
