import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensModel

/// Glass through time: a morph between two glass states by id, materialising and leaving, plain
/// cuts, and a press that swells, brightens and follows the touch.
@Suite("Glass transitions")
struct GlassTransitionTests {
    static let morph = BuiltInAnimation.menuMorph
    static let transitions = BuiltInAnimation.glassTransitions
    /// When `menu-morph`'s menu has settled open, before it closes at 1.2 s.
    static let open = 1.0

    /// The glass of `animation` named `id` at `t`, nil when it is not drawn.
    static func glass(_ id: String, of animation: BuiltInAnimation, at t: Double) -> GlassElement? {
        animation.frame(at: t).glass.first { $0.id == id }
    }

    @Test("A morph draws its first state until it starts, then one shape that settles on its end state")
    func morphEnds() throws {
        let scene = Self.morph.scene
        let button = try #require(scene.glass.first { $0.id == "button" })
        let menu = try #require(scene.glass.first { $0.id == "menu" })
        let before = Self.morph.frame(at: 0.1)
        #expect(before.glass.count == 1 && before.glass[0].shapes == button.shapes, "only the button, unchanged")
        #expect(before.foreground.allSatisfy { $0.opacity == 0 }, "no rows before the morph")

        let settled = Self.morph.frame(at: Self.open)
        #expect(settled.glass.count == 1, "one shape, not two")
        let frame = settled.glass[0].shapes[0].frame
        let end = menu.shapes[0].frame
        for (now, target) in [(frame.x, end.x), (frame.y, end.y), (frame.width, end.width), (frame.height, end.height)]
        {
            #expect(abs(now - target) < 0.5, "settled at \(frame), the menu is \(end)")
        }
        #expect(settled.foreground.allSatisfy { $0.opacity > 0.99 }, "the rows are in")
        #expect(settled.animation?.transitions.isEmpty == true, "a frame holds the outcome, not the transitions")
    }

    @Test("Mid-morph the shape lies between its two states, rounder than the menu, its rows faint and scaled with it")
    func morphMiddle() throws {
        let scene = Self.morph.scene
        let button = try #require(scene.glass.first { $0.id == "button" }).shapes[0].frame
        let menu = try #require(scene.glass.first { $0.id == "menu" }).shapes[0].frame
        let middle = Self.morph.frame(at: 0.25)
        let shape = try #require(middle.glass.first).shapes[0]
        #expect(shape.frame.width > button.width && shape.frame.width < menu.width)
        #expect(shape.frame.height > button.height && shape.frame.height < menu.height)
        guard case .roundedRectangle(let radii) = shape.shape else {
            Issue.record("a morph draws a rounded rectangle, got \(shape.shape)")
            return
        }
        // Still nearly round while it grows: the capture's corners are 0.9 of the half width at half
        // the width, where the settled menu's are 0.29.
        let half = min(shape.frame.width, shape.frame.height) / 2
        #expect(radii.allSatisfy { $0 > 0.8 * half && $0 <= half }, "\(radii) at a half side of \(half)")
        let opacity = try #require(middle.foreground.first).opacity
        #expect(opacity < 0.5, "rows at \(opacity) while the shape is still growing")
        guard case .text(_, _, let size, _, _) = try #require(middle.foreground.first).kind else {
            Issue.record("the rows are text")
            return
        }
        #expect(abs(size / 17 - shape.frame.width / menu.width) < 1e-9, "rows scale with the shape's width")
    }

    @Test("While the shape moves its rows lie under the glass, which frosts and bends them; settled, they are on top")
    func morphContentUnderGlass() throws {
        let scene = Self.morph.scene
        let rows = scene.foreground.count
        let moving = Self.morph.frame(at: 0.3)
        let shape = try #require(moving.glass.first).shapes[0].frame
        let under = moving.background.dropFirst(scene.background.count)
        #expect(under.count == rows, "a copy of each row under the glass")
        #expect(moving.foreground.allSatisfy { $0.opacity < 0.05 } && under.allSatisfy { $0.opacity > 0.3 })
        for layer in under {
            guard case .text(_, let center, _, _, _) = layer.kind else {
                Issue.record("the rows are text")
                continue
            }
            #expect(center.x > shape.x && center.x < shape.x + shape.width && center.y < shape.y + shape.height)
        }
        let settled = Self.morph.frame(at: Self.open)
        #expect(settled.background.count == scene.background.count, "nothing left under the settled menu")
        let rendered = try render(resolve(moving), on: .cpu)
        var bare = moving
        bare.background.removeLast(rows)
        let without = try render(resolve(bare), on: .cpu)
        #expect(rendered != without, "the rows under the glass show through it")
    }

    @Test(
        "The open menu closes back into its button: one shape shrinking, its rows leaving first, then the button alone")
    func morphCloses() throws {
        let scene = Self.morph.scene
        let button = try #require(scene.glass.first { $0.id == "button" })
        let menu = try #require(scene.glass.first { $0.id == "menu" }).shapes[0].frame
        let closing = Self.morph.frame(at: 1.23)
        #expect(closing.glass.map(\.id) == ["button"], "one shape, answering to the button")
        let shape = try #require(closing.glass.first).shapes[0].frame
        #expect(shape.width < menu.width && shape.width > button.shapes[0].frame.width)
        let rows = closing.foreground.map(\.opacity)
        #expect(rows.allSatisfy { $0 > 0 && $0 < 1 }, "the rows fading: \(rows)")
        let halfway = Self.morph.frame(at: 1.6)
        #expect(halfway.foreground.allSatisfy { $0.opacity == 0 }, "the rows gone once the shape is half shrunk")
        let closed = Self.morph.frame(at: Self.morph.duration)
        #expect(closed.glass.count == 1 && closed.background.count == scene.background.count)
        let frame = closed.glass[0].shapes[0].frame
        let end = button.shapes[0].frame
        #expect(
            abs(frame.width - end.width) < 0.5 && abs(frame.x - end.x) < 0.5, "back at \(frame), the button is \(end)")
        #expect(closed.foreground.allSatisfy { $0.opacity == 0 })
    }

    @Test("A glass shown and hidden in turn follows the transition last begun, and its carried rows go with it")
    func showAndHideInTurn() throws {
        let scene = try Self.decode(
            #"{"type": "morph", "glass": "a", "to": "b", "time": 0.1, "content": [0]}, {"type": "dematerialize", "glass": "b", "time": 0.5}, {"type": "appear", "glass": "a", "time": 0.9}"#
        )
        func frame(_ t: Double) -> Scene { scene.applyingTransitions(at: t) }
        #expect(frame(0).glass.map(\.id) == ["a"] && frame(0).foreground[0].opacity == 0)
        #expect(frame(0.45).glass.map(\.id) == ["b"] && frame(0.45).foreground[0].opacity > 0.9)
        let leaving = frame(0.55)
        let presence = try #require(leaving.glass.first { $0.id == "b" }).presence
        #expect(presence > 0 && presence < 1, "b dematerialising: \(presence)")
        #expect(abs(leaving.foreground[0].opacity - presence) < 1e-9, "the row fades with its glass")
        let late = frame(0.95)
        let left = late.glass.first { $0.id == "b" }?.presence ?? 0
        #expect(late.glass.contains { $0.id == "a" } && left < 0.05, "a cut back in; b nearly gone (\(left))")
        #expect(abs(late.foreground[0].opacity - left) < 1e-9)
    }

    @Test("A glass shown twice, or shown and hidden at once, is refused with a message saying why")
    func turnMessages() throws {
        func message(_ transitions: String) -> String? {
            do {
                _ = try Self.decode(transitions)
                return nil
            } catch {
                return (error as? SceneError)?.message
            }
        }
        let twice = message(
            #"{"type": "materialize", "glass": "a", "time": 0.1}, {"type": "appear", "glass": "a", "time": 0.5}"#)
        #expect(twice?.contains("\"a\" is already shown by animation.transitions[0]") == true, "\(twice ?? "none")")
        let once = message(
            #"{"type": "materialize", "glass": "a", "time": 0.5}, {"type": "dematerialize", "glass": "a", "time": 0.5}"#
        )
        #expect(once?.contains("at the same time") == true, "\(once ?? "none")")
        let layer = message(
            #"{"type": "morph", "glass": "a", "to": "b", "time": 0.1, "content": [0]}, {"type": "morph", "glass": "b", "to": "a", "time": 0.5, "content": [0]}"#
        )
        #expect(layer?.contains("goes with \"b\"") == true, "\(layer ?? "none")")
    }

    @Test("The morph's spring is the one fitted to jarx-menu-morph: growth under way 33 ms after it starts")
    func morphSpring() {
        // The capture's first panel, 33 ms after the fitted start, already shows the shape at
        // about a third of its settled width.
        let width = Self.glass("menu", of: Self.morph, at: 0.233)!.shapes[0].frame.width
        #expect(width > 60 && width < 110, "\(width) pt")
    }

    @Test(
        "A materialising morph's shape comes in with its growth, as jarx-menu-morph's platter does; a plain one is whole"
    )
    func morphMaterializes() throws {
        let transition = try #require(Self.morph.scene.animation?.transitions.first)
        #expect(transition.materializes)
        for t in [0.22, 0.25, 0.3, 0.45] {
            let shape = try #require(Self.glass("menu", of: Self.morph, at: t))
            let progress = min(max(transition.progress(at: t), 0), 1)
            #expect(abs(shape.presence - progress) < 1e-12, "presence \(shape.presence) at progress \(progress)")
        }
        var plain = Self.morph.scene
        plain.animation?.transitions[0].materializes = false
        #expect(try #require(plain.frame(at: 0.25).glass.first { $0.id == "menu" }).presence == 1)
    }

    @Test("Materialising glass is absent, then grows in; leaving glass fades out and is gone")
    func materialize() throws {
        #expect(Self.glass("appears", of: Self.transitions, at: 0.1) == nil)
        let presences = stride(from: 0.2, through: 1.2, by: 0.05).map {
            Self.glass("appears", of: Self.transitions, at: $0)?.presence ?? 0
        }
        #expect(zip(presences, presences.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 }, "\(presences)")
        #expect(presences[2] > 0.05 && presences[2] < 0.95 && presences.last! > 0.99, "\(presences)")
        #expect(Self.glass("leaves", of: Self.transitions, at: 1.5)?.presence == 1)
        let leaving = try #require(Self.glass("leaves", of: Self.transitions, at: 1.75)).presence
        #expect(leaving > 0 && leaving < 1)
        #expect(Self.glass("leaves", of: Self.transitions, at: 2.4).map { $0.presence < 0.01 } ?? true)
    }

    @Test("The identity transition is a plain cut: the badge is absent, then whole")
    func cut() throws {
        #expect(Self.glass("badge", of: Self.transitions, at: 0.99) == nil)
        #expect(try #require(Self.glass("badge", of: Self.transitions, at: 1.0)).presence == 1)
    }

    @Test(
        "A press swells the glass by 4.2 % with the measured 13 % overshoot, brightens it, follows the touch, and lets go"
    )
    func press() throws {
        let rest = try #require(Self.glass("pressed", of: Self.transitions, at: 0.5)).shapes[0].frame
        let samples = stride(from: 0.6, through: 1.4, by: 0.005).map {
            Self.glass("pressed", of: Self.transitions, at: $0)!
        }
        let scales = samples.map { $0.shapes[0].frame.width / rest.width }
        let peak = scales.max()! - 1
        let swell = GlassTransition.pressScale - 1
        #expect(abs(peak / swell - 1 - 0.126) < 0.01, "peak swell \(peak), overshoot \(peak / swell - 1)")
        #expect(abs(scales.last! - GlassTransition.pressScale) < 0.002, "held at \(scales.last!)")
        let held = samples.last!
        #expect(held.optics.brightness > 0)
        let glow = try #require(held.touchGlow)
        #expect(abs(glow.center.x - 210) < 1e-9 && glow.amount > 0, "the glow follows the touch to x 210")
        let centre = rest.x + rest.width / 2
        #expect(abs(held.shapes[0].frame.x + held.shapes[0].frame.width / 2 - centre) < 1e-9, "about its centre")
        let after = try #require(Self.glass("pressed", of: Self.transitions, at: 2.4)).shapes[0].frame
        #expect(abs(after.width / rest.width - 1) < 0.002, "let go: \(after.width / rest.width)")
    }

    static let sceneJSON = """
        {"canvas": {"width": 200, "height": 100},
         "glass": [{"shape": "capsule", "frame": {"x": 10, "y": 10, "width": 60, "height": 40}, "id": "a"},
                   {"shape": {"type": "roundedRectangle", "cornerRadius": 12}, "frame": {"x": 10, "y": 10, "width": 180, "height": 80}, "id": "b"}],
         "foreground": [{"type": "text", "text": "Row", "center": [100, 50], "size": 12}],
         "animation": {"duration": 1, "transitions": [TRANSITION]}}
        """

    static func decode(_ transition: String, glass: String? = nil) throws -> Scene {
        var json = sceneJSON.replacingOccurrences(of: "TRANSITION", with: transition)
        if let glass { json = json.replacingOccurrences(of: #""id": "b""#, with: glass) }
        return try Scene.decode(Data(json.utf8))
    }

    @Test(
        "Malformed transitions are refused at their key path",
        arguments: [
            (#"{"type": "morph", "glass": "a", "to": "c", "time": 0.1}"#, "animation.transitions[0].to"),
            (#"{"type": "morph", "glass": "a", "time": 0.1}"#, "animation.transitions[0].to"),
            (#"{"type": "materialize", "glass": "z", "time": 0.1}"#, "animation.transitions[0].glass"),
            (#"{"type": "materialize", "glass": "a", "to": "b", "time": 0.1}"#, "animation.transitions[0].to"),
            (#"{"type": "press", "glass": "a", "time": 2}"#, "animation.transitions[0].time"),
            (#"{"type": "press", "glass": "a", "time": 0.5, "release": 0.2}"#, "animation.transitions[0].release"),
            (
                #"{"type": "morph", "glass": "a", "to": "b", "time": 0, "content": [3]}"#,
                "animation.transitions[0].content[0]"
            ),
            (
                #"{"type": "press", "glass": "a", "time": 0, "spring": {"dampingRatio": 0, "response": 1}}"#,
                "animation.transitions[0].spring.dampingRatio"
            ),
            (#"{"type": "wobble", "glass": "a", "time": 0}"#, "animation.transitions[0].type"),
            (
                #"{"type": "press", "glass": "a", "time": 0, "materializes": true}"#,
                "animation.transitions[0].materializes"
            ),
            (
                #"{"type": "materialize", "glass": "a", "time": 0.1}, {"type": "appear", "glass": "a", "time": 0.5}"#,
                "animation.transitions[1].glass"
            ),
            (
                #"{"type": "morph", "glass": "a", "to": "b", "time": 0.5}, {"type": "disappear", "glass": "b", "time": 0.5}"#,
                "animation.transitions[1].glass"
            ),
            (
                #"{"type": "morph", "glass": "a", "to": "b", "time": 0.1, "content": [0]}, {"type": "morph", "glass": "b", "to": "a", "time": 0.5, "content": [0]}"#,
                "animation.transitions[1].content[0]"
            ),
        ])
    func refused(_ transition: String, keyPath: String) throws {
        #expect {
            try Self.decode(transition)
        } throws: { error in
            (error as? SceneError)?.keyPath == keyPath
        }
    }

    @Test("Two glass with one id, and a morph into an ellipse, are refused at their key path")
    func refusedGlass() throws {
        #expect {
            try Self.decode(#"{"type": "appear", "glass": "a", "time": 0}"#, glass: #""id": "a""#)
        } throws: { ($0 as? SceneError)?.keyPath == "glass[1].id" }
        let ellipse = Self.sceneJSON.replacingOccurrences(
            of: #"{"type": "roundedRectangle", "cornerRadius": 12}"#, with: #""ellipse""#
        ).replacingOccurrences(of: "TRANSITION", with: #"{"type": "morph", "glass": "a", "to": "b", "time": 0}"#)
        #expect {
            try Scene.decode(Data(ellipse.utf8))
        } throws: { ($0 as? SceneError)?.keyPath == "animation.transitions[0].to" }
    }

    @Test("A transition round-trips through JSON")
    func roundTrip() throws {
        let scene = try Self.decode(
            #"{"type": "press", "glass": "a", "time": 0.2, "release": 0.6, "touch": [[0.2, 20, 30]], "spring": {"dampingRatio": 0.6, "response": 0.5}}"#
        )
        let again = try Scene.decode(try JSONEncoder().encode(scene))
        #expect(again.animation == scene.animation)
        #expect(again.glass.map(\.id) == ["a", "b"])
    }

    @Test(
        "Once a morph starts its one shape answers to the end state's id; a still of the scene is the scene at its time"
    )
    func morphIdentityAndStill() throws {
        #expect(Self.glass("button", of: Self.morph, at: 0.3) == nil)
        #expect(Self.glass("menu", of: Self.morph, at: 0.3) != nil)
        var scene = Self.morph.scene
        #expect(try LensRenderer.resolve(scene).lenses.count == 1, "at 0 s only the button")
        scene.time = 0.3
        let still = try LensRenderer.resolve(scene)
        let frame = try LensRenderer.resolve(Self.morph.frame(at: 0.3))
        #expect(still.lenses.count == 1 && still.backdrop == frame.backdrop && still.foreground == frame.foreground)
    }

    @Test("Scenes built in code are held to the decoder's rules, without crashing")
    func builtInCode() throws {
        var scene = Self.morph.scene
        scene.animation?.transitions = [GlassTransition(.morph, glass: "button", time: 0.2)]
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "animation.transitions[0].to" }
        scene.animation?.transitions = [
            GlassTransition(.morph, glass: "button", to: "menu", time: 0.2, content: [0, 0])
        ]
        #expect { try scene.validate() } throws: {
            ($0 as? SceneError)?.keyPath == "animation.transitions[0].content[1]"
        }
        scene.animation?.transitions = [
            GlassTransition(.morph, glass: "button", to: "menu", time: 0.2),
            GlassTransition(.materialize, glass: "menu", time: 0.8),
        ]
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "animation.transitions[1].glass" }
        scene.animation?.transitions = [
            GlassTransition(.morph, glass: "button", to: "menu", time: 0.2),
            GlassTransition(.press, glass: "menu", time: 0.6, release: 0.8),
        ]
        try scene.validate()
        let pressed = try #require(scene.frame(at: 0.7).glass.first { $0.id == "menu" })
        let settled = Self.morph.frame(at: 0.7).glass[0]
        #expect(pressed.shapes[0].frame.width > settled.shapes[0].frame.width, "the press acts on the morphed shape")
    }

    @Test("A press keeps the touch glow the glass was given, moved to the touch")
    func pressKeepsGlow() throws {
        var scene = Self.transitions.scene
        let index = try #require(scene.glass.firstIndex { $0.id == "pressed" })
        scene.glass[index].touchGlow = TouchGlow(center: Point(x: 180, y: 76), radius: 30, amount: 0.8)
        let glow = try #require(scene.frame(at: 2.4).glass.first { $0.id == "pressed" }?.touchGlow)
        #expect(glow.amount == 0.8 && glow.radius == 30 && glow.center.x == 210)
    }

    @Test("Glass of presence 0 draws nothing: the frame is the scene without it", arguments: [Backend.cpu, .vulkan])
    func absentGlass(_ backend: Backend) throws {
        var scene = BuiltInScene.segmented.scene
        let without = try render(try LensRenderer.resolve(scene), on: backend)
        var glass = GlassElement(
            shape: .capsule, frame: Rect(x: 40, y: 30, width: 200, height: 60), material: .apple(.regular))
        glass.presence = 0
        scene.glass.append(glass)
        let with = try render(try LensRenderer.resolve(scene), on: backend)
        #expect(with.pixels == without.pixels)
    }
}
