import Foundation
import LensModel

/// The built-in animations. Names are stable.
public enum BuiltInAnimation: String, CaseIterable, Sendable {
    /// Touch down on the first segment, lift after ~100 ms, drag to the last, release, settle.
    case segmentedDrag = "segmented-drag"
    /// The circular menu's lens centred on the finger from Chats to Settings, released, settling on
    /// the item nearest the finger.
    case lensMenuDrag = "lens-menu-drag"
    /// The tab bar's lens dragged from the first tab to the last.
    case tabBarDrag = "tab-bar-drag"
    /// Two glass capsules joining through a liquid bridge and parting again.
    case merge
    /// A button's glass growing into its menu as one shape (UIKit's `UIMenu`), its rows fading
    /// in as it settles; the re-creation of the capture `jarx-menu-morph`.
    case menuMorph = "menu-morph"
    /// Glass materialising, a press swelling a button under a moving touch, glass leaving, and a
    /// plain cut.
    case glassTransitions = "glass-transitions"
    /// A 1206 × 2622 iPhone screen: cards flicked under a glass navigation bar, a floating button
    /// pressed, the tab bar's lens dragged, a button growing into its menu.
    case screenMotion = "screen-motion"

    /// One line for `liquidlens examples`: what the animation shows.
    public var summary: String {
        switch self {
        case .segmentedDrag: "segmented control: touch, lift, drag D → Y, release, settle"
        case .lensMenuDrag: "circular lens menu: drag from Chats to Settings, settle on release"
        case .tabBarDrag: "tab bar: drag the lens from Home to Settings"
        case .merge: "two glass capsules join and part"
        case .menuMorph: "a button's glass grows into its menu, the rows fading in, and closes back into it"
        case .glassTransitions: "glass materialises, swells under a press, leaves, and cuts in"
        case .screenMotion: "1206×2622 screen: cards scroll under glass, a press, a tab-bar drag, a menu opens"
        }
    }

    /// Natural length in seconds.
    public var duration: Double {
        switch self {
        case .segmentedDrag: 2.4
        case .lensMenuDrag: 2.2
        case .tabBarDrag: 2.4
        case .merge: 3
        case .menuMorph: 2
        case .glassTransitions: 2.4
        case .screenMotion: 3.8
        }
    }

    /// The animated scene (its first control follows the gesture); `merge` has no gesture.
    // Over 60 lines on purpose: one case per animation, a table read as one.
    public var scene: Scene {
        switch self {
        case .segmentedDrag:
            var scene = BuiltInScene.segmented.scene
            // 20 pt more each side than the still: held, the rail grows to 385 pt and the lifted
            // thumb reaches 15 pt past it over the end segments, so the lens stays in frame.
            scene.canvas.width += 40
            if case .segmented(var control) = scene.controls[0] {
                control.center.x += 20
                control.thumbPosition = 0
                control.lift = 0
                control.held = 0
                scene.controls[0] = .segmented(control)
            }
            scene.animation = SceneAnimation(
                duration: duration,
                gesture: GestureTimeline(path: [
                    GesturePoint(time: 0.2, x: 75, y: 60), GesturePoint(time: 0.4, x: 77, y: 60),
                    GesturePoint(time: 1.5, x: 355, y: 62), GesturePoint(time: 1.7, x: 356, y: 62),
                ]))
            return scene
        case .tabBarDrag:
            var scene = BuiltInScene.tabBar.scene
            // 10 pt more each side than the still: the native lens lies 4 pt inside the bar's
            // ends and, lifted, reaches 15 pt past its resting size, so it stays in frame.
            scene.canvas.width += 20
            if case .tabBar(var bar) = scene.controls[0] {
                bar.center.x += 10
                bar.lensPosition = 0
                bar.lift = 0
                scene.controls[0] = .tabBar(bar)
            }
            scene.animation = SceneAnimation(
                duration: duration,
                gesture: GestureTimeline(path: [
                    GesturePoint(time: 0.2, x: 70, y: 100), GesturePoint(time: 0.4, x: 72, y: 100),
                    GesturePoint(time: 1.5, x: 340, y: 100), GesturePoint(time: 1.7, x: 341, y: 100),
                ]))
            return scene
        case .lensMenuDrag:
            var scene = BuiltInScene.lensMenu.scene
            var start = SIMD2<Double>(180, 99)
            if case .lensMenu(var menu) = scene.controls[0] {
                menu.lift = 0
                menu.lensOffset = Point(x: menu.itemOffset(0).x, y: menu.itemOffset(0).y)
                start = SIMD2(menu.center.x, menu.center.y) + menu.itemOffset(0)
                scene.controls[0] = .lensMenu(menu)
            }
            scene.animation = SceneAnimation(
                duration: duration,
                gesture: GestureTimeline(path: [
                    GesturePoint(time: 0.2, x: start.x, y: start.y),
                    GesturePoint(time: 0.5, x: start.x + 10, y: start.y + 30),
                    GesturePoint(time: 1.2, x: start.x + 70, y: start.y + 110),
                    GesturePoint(time: 1.4, x: start.x + 72, y: start.y + 112),
                ]))
            return scene
        case .merge:
            return mergeScene(at: 0)
        case .menuMorph:
            return BuiltInMotionScenes.menuMorph(duration: duration)
        case .glassTransitions:
            return BuiltInMotionScenes.glassTransitions(duration: duration)
        case .screenMotion:
            return ScreenMotionScene.scene(duration: duration)
        }
    }

    /// The still at time `t` seconds.
    public func frame(at t: Double) -> Scene {
        self == .merge ? mergeScene(at: t) : scene.frame(at: t)
    }

    private func mergeScene(at t: Double) -> Scene {
        // Gap between the capsules: 50 pt apart, touching at t = 1.5 s, apart again at 3 s.
        let gap = 50 * (0.5 + 0.5 * cos(2 * Double.pi * t / duration)) - 12
        var optics = Optics()
        optics.bevelWidth = 12
        optics.bevelAmount = 24
        optics.magnification = 1.1
        optics.dispersion = 0.02
        return Scene(
            canvas: Canvas(width: 360, height: 160, scale: 2), background: BuiltInScene.backdrop(.light),
            glass: [
                GlassElement(
                    shapes: [
                        PlacedShape(
                            shape: .capsule, frame: Rect(x: 180 - gap / 2 - 120, y: 50, width: 120, height: 60)),
                        PlacedShape(shape: .capsule, frame: Rect(x: 180 + gap / 2, y: 50, width: 120, height: 60)),
                    ], blend: 28, optics: optics)
            ], generation: .ios26)
    }
}
