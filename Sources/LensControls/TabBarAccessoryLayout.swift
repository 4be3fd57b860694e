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
    /// apart. A pressed button swells and reaches the bar as a pressed shape of a group does. The
    /// symbol lies white on the button, in the foreground.
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
        // While the bar is lifted its glow stays at the finger; a press lights the button alone.
        let touch = bar.lift > 0 ? platter.touchGlow?.center ?? accessory.touch : accessory.touch
        platter.press(shape: platter.shapes.count - 1, accessory.pressed, touch: touch)
        let line = try text.line(
            accessory.symbol, font: bar.symbolFont ?? bar.font, pixelSize: diameter * Self.accessorySymbolShare * scale)
        // Centred by its ink: a symbol such as "+" sits on the font's maths axis, not mid-line.
        let ink =
            line.inkBounds ?? PixelRegion(x0: 0, y0: 0, x1: line.mask.width, y1: line.mask.height)
        let left = (button.midX * scale - Double(ink.x0 + ink.x1) / 2).rounded()
        let top = (button.midY * scale - Double(ink.y0 + ink.y1) / 2).rounded()
        parts.foreground.append(BackgroundLayer(.mask(line.mask, left: Int(left), top: Int(top), color: .white)))
    }
}
