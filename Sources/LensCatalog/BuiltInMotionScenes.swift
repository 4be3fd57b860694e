import Foundation
import LensModel

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// The scenes of the built-in animations whose glass goes through transitions.
enum BuiltInMotionScenes {
    /// The capture `jarx-menu-morph` re-created (one panel, 287 × 567 pt): a 44 pt glass button
    /// in the header grows into a 256.6 × 541.1 pt menu of twelve rows 43.1 pt apart, its glass
    /// materialising as it grows (all measured from the capture); the morph starts 0.2 s in, and
    /// at 1.2 s the menu closes back into the button, its rows leaving first.
    static func menuMorph(duration: Double) -> Scene {
        let menu = Rect(x: 15.6, y: 12.2, width: 256.62, height: 541.1)
        let button = Rect(x: 142.8, y: 14.8, width: 44, height: 44)
        let states = [
            "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware",
            "Florida", "Georgia", "Hawaii", "Idaho",
        ]
        // Rows centred in the menu (the capture's are left-aligned 30.4 pt in; a text layer is
        // placed by its centre), their first 31.5 pt below its top, 43.1 pt apart.
        let rows = states.enumerated().map { index, state in
            BackgroundLayer(
                .text(
                    state, center: Point(x: menu.x + menu.width / 2, y: menu.y + 31.5 + 43.1 * Double(index)),
                    size: 17, weight: .regular, color: RGBAColor(0, 0, 0)))
        }
        var buttonGlass = GlassElement(shape: .circle, frame: button, optics: menuPlatter)
        buttonGlass.id = "button"
        var menuGlass = GlassElement(
            shape: .roundedRectangle(cornerRadii: Array(repeating: 37, count: 4)), frame: menu, optics: menuPlatter)
        menuGlass.id = "menu"
        return Scene(
            canvas: Canvas(width: 286.7, height: 566.7, scale: 1),
            background: [
                BackgroundLayer(.solid(RGBAColor(234, 238, 240))),
                BackgroundLayer(
                    .fill(
                        shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                        frame: Rect(x: 0, y: 10.7, width: 286.7, height: 52.3), color: RGBAColor(254, 254, 254))),
                BackgroundLayer(
                    .text(
                        "react-native-platform-components", center: Point(x: 139.8, y: 79.5), size: 15,
                        weight: .regular, color: RGBAColor(110, 110, 115))),
            ],
            glass: [buttonGlass, menuGlass],
            animation: SceneAnimation(
                duration: duration, gesture: nil,
                transitions: [
                    GlassTransition(
                        .morph, glass: "button", to: "menu", time: 0.2, content: Array(rows.indices), materializes: true
                    ),
                    GlassTransition(.morph, glass: "menu", to: "button", time: 1.2, startContent: Array(rows.indices)),
                ]),
            foreground: rows, generation: .ios26)
    }

    /// A `UIMenu`'s platter: regular glass by size (frost, bevel, shadow) that lays white 0.47
    /// over its backdrop without lifting its levels (the capture `jarx-menu-morph`: the settled
    /// menu reads 245 over the page's 237, where `.regular` glass, fitted to a SwiftUI
    /// `glassEffect`, reads 255).
    static var menuPlatter: Optics {
        var optics = Optics(preset: .regular)
        optics.face = .identity
        optics.tint = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.47)
        return optics
    }

    /// Three glass buttons over the light backdrop: the first materialises at 0.2 s; the second is
    /// pressed from 0.6 s to 1.4 s while the touch slides across it; the third leaves at 1.6 s; a
    /// badge cuts in at 1.0 s (the `.identity` transition).
    static func glassTransitions(duration: Double) -> Scene {
        func button(_ id: String, x: Double) -> GlassElement {
            var glass = GlassElement(
                shape: .capsule, frame: Rect(x: x, y: 50, width: 96, height: 52), material: .apple(.regular))
            glass.id = id
            return glass
        }
        var badge = GlassElement(
            shape: .circle, frame: Rect(x: 200, y: 36, width: 24, height: 24), material: .apple(.regular))
        badge.id = "badge"
        return Scene(
            canvas: Canvas(width: 360, height: 150, scale: 2), background: BuiltInScene.backdrop(.light),
            glass: [button("appears", x: 20), button("pressed", x: 132), button("leaves", x: 244), badge],
            animation: SceneAnimation(
                duration: duration, gesture: nil,
                transitions: [
                    GlassTransition(.materialize, glass: "appears", time: 0.2),
                    GlassTransition(
                        .press, glass: "pressed", time: 0.6, release: 1.4,
                        touch: [GesturePoint(time: 0.6, x: 150, y: 76), GesturePoint(time: 1.4, x: 210, y: 76)]),
                    GlassTransition(.appear, glass: "badge", time: 1.0),
                    GlassTransition(.dematerialize, glass: "leaves", time: 1.6),
                ]), generation: .ios26)
    }
}
