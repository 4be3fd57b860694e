import Foundation
import LensModel

// Capture names (`fabbar-lifted`, …) are explained in Fidelity.md, "Against iOS".

extension ControlLayout {
    /// The symbol's size as a share of the button's diameter (`fabbar-lifted`: the "+" is 20.7 pt
    /// across on a 62 pt button, which the default font's "+" reaches at 0.53).
    static let accessorySymbolShare = 0.53

    /// Makes `platter` one glass with the bar's accessory button, as a glass container does: the
    /// button is a second shape with its own tint, and while the lens is lifted (the bar touched)
    /// the two merge with a smooth minimum whose radius grows with the lift; at rest they are
    /// apart. The symbol lies white on the button, in the foreground.
    func merge(
        _ platter: inout GlassElement, with accessory: TabBarAccessory, of bar: TabBar, into parts: inout Parts
    ) throws {
        let diameter = accessory.diameter ?? bar.height
        let button = Rect(
            x: bar.center.x + bar.width / 2 + accessory.spacing, y: bar.center.y - diameter / 2, width: diameter,
            height: diameter)
        platter.shapes.append(PlacedShape(shape: .circle, frame: button, tint: accessory.tint))
        // The touched bar reaches its button as a pressed shape reaches its neighbours
        // (`fabbar-lifted`: the bar swollen × 1.04 leaves a 2.2 pt gap, and the neck across it is
        // 19.1 pt high at its narrowest, 318 pt from the screen's edge; 10 pt gives 19.3 at 317.8).
        platter.blend = GlassTransition.pressMergeBlend * bar.lift
        let line = try text.line(
            accessory.symbol, font: bar.symbolFont ?? bar.font, pixelSize: diameter * Self.accessorySymbolShare * scale)
        // Centred by its ink: a symbol such as "+" sits on the font's maths axis, not mid-line.
        let ink = Self.inkCenter(line.mask)
        let left = (button.midX * scale - ink.x).rounded()
        let top = (button.midY * scale - ink.y).rounded()
        parts.foreground.append(BackgroundLayer(.mask(line.mask, left: Int(left), top: Int(top), color: .white)))
    }

    /// The middle of the box that holds a mask's ink, in its pixels (its middle when it has none).
    static func inkCenter(_ mask: AlphaImage) -> (x: Double, y: Double) {
        var columns = (mask.width, -1)
        var rows = (mask.height, -1)
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask.coverage[y * mask.width + x] > 0 {
                columns = (min(columns.0, x), max(columns.1, x))
                rows = (min(rows.0, y), max(rows.1, y))
            }
        }
        guard columns.1 >= 0 else { return (Double(mask.width) / 2, Double(mask.height) / 2) }
        return (Double(columns.0 + columns.1 + 1) / 2, Double(rows.0 + rows.1 + 1) / 2)
    }
}
