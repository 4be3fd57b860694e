import Foundation
import LiquidLens
import Testing

@testable import LensControls
@testable import LensModel

/// Glass that merges: shapes of one group with their own tints, and a tab bar that merges with
/// its accessory button while its lens is lifted (`fabbar-lifted`).
@Suite("Merging glass")
struct MergeTests {
    /// A white page with a capsule and a circle 20 px apart in one group, the circle tinted blue
    /// (iOS 26's glass, whose white face these tests read).
    static func group(tinted: Bool, blend: Double = 50) -> Scene {
        let tint: RGBAColor? = tinted ? RGBAColor(0, 122, 255, 0.9) : nil
        return Scene(
            canvas: Canvas(width: 200, height: 80, scale: 1), background: [BackgroundLayer(.solid(.white))],
            glass: [
                GlassElement(
                    shapes: [
                        PlacedShape(shape: .capsule, frame: Rect(x: 10, y: 15, width: 110, height: 50)),
                        PlacedShape(shape: .circle, frame: Rect(x: 140, y: 15, width: 50, height: 50), tint: tint),
                    ], blend: blend, optics: Optics(preset: .regular))
            ], generation: .ios26)
    }

    static func pixel(_ image: RGBA8Image, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * image.width + x) * 4
        return SIMD3(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    @Test(
        "A shape's own tint colours it and runs into the bridge, fading toward the plain shape",
        arguments: [Backend.cpu, .vulkan])
    func shapeTintRunsIntoBridge(_ backend: Backend) throws {
        let plain = try render(try resolve(Self.group(tinted: false)), on: backend)
        let tinted = try render(try resolve(Self.group(tinted: true)), on: backend)
        // The capsule far from the circle keeps the group's tint; the circle turns blue.
        #expect(Self.pixel(tinted, 40, 40) == Self.pixel(plain, 40, 40))
        let circle = Self.pixel(tinted, 165, 40)
        #expect(circle.z - circle.x > 150, "circle \(circle)")
        // Across the bridge the blue fades: more of it nearer the circle; the denser tint holds
        // more than half of it (at the middle, x 130, more than half the circle's blue).
        let blueness = (120...140).map { x in
            let color = Self.pixel(tinted, x, 40)
            return color.z - color.x
        }
        #expect(blueness.last! - blueness.first! > 30, "\(blueness)")
        #expect(zip(blueness, blueness.dropFirst()).allSatisfy { $0 <= $1 }, "\(blueness)")
        #expect(blueness[10] * 2 > circle.z - circle.x, "\(blueness), circle \(circle)")
    }

    @Test(
        "Shape tints: a single tinted shape keeps its tint through JSON; a gradient tint beside them and a NaN tint are refused"
    )
    func shapeTintDecoding() throws {
        var single = Self.group(tinted: true)
        single.glass[0].shapes.removeFirst()
        single.glass[0].blend = 0
        let decoded = try Scene.decode(try JSONEncoder().encode(single))
        #expect(decoded.glass[0].shapes[0].tint == RGBAColor(0, 122, 255, 0.9))

        var gradient = Self.group(tinted: true)
        gradient.glass[0].gradientTint = GradientTint(colors: [.white, .black])
        #expect { try gradient.validate() } throws: { ($0 as? SceneError)?.keyPath == "glass[0].gradientTint" }
        var nan = Self.group(tinted: true)
        nan.glass[0].shapes[1].tint = RGBAColor(red: .nan, green: 0, blue: 0)
        #expect { try nan.validate() } throws: { ($0 as? SceneError)?.keyPath == "glass[0].shapes[1].tint[0]" }
    }

    static func bar(lift: Double, accessory: TabBarAccessory? = TabBarAccessory()) -> Scene {
        var bar = TabBar(
            center: Point(x: 130, y: 45), width: 220,
            items: [ControlItem(title: "Home"), ControlItem(title: "Explore")],
            lensPosition: 0, lift: lift, style: .segmentedCapsule)
        bar.accessory = accessory
        return Scene(
            canvas: Canvas(width: 330, height: 90, scale: 1), background: [BackgroundLayer(.solid(.white))], glass: [],
            controls: [.tabBar(bar)])
    }

    @Test("A tab bar's accessory is a tinted shape of the bar's glass, apart at rest and bridged while lifted")
    func accessoryMerges() throws {
        for lift in [0.0, 1] {
            let scene = Self.bar(lift: lift)
            let platter = try LayeringTests.layout(scene, scale: 1).expand(scene).glass[0]
            #expect(platter.shapes.count == 2)
            #expect(platter.shapes[1].frame == Rect(x: 248, y: 14, width: 62, height: 62))
            #expect(platter.shapes[1].tint == TabBarAccessory.defaultTint)
            #expect(platter.blend == GlassTransition.pressMergeBlend * lift)
        }
        // In the gap beside the bar's middle: the page at rest, glass (bluish) lifted.
        let resting = try render(try resolve(Self.bar(lift: 0)), on: .cpu)
        let lifted = try render(try resolve(Self.bar(lift: 1)), on: .cpu)
        #expect(Self.pixel(resting, 246, 45).x > 240, "gap \(Self.pixel(resting, 246, 45))")
        let bridge = Self.pixel(lifted, 246, 45)
        #expect(bridge.z - bridge.x > 20, "bridge \(bridge)")
        #expect(try render(try resolve(Self.bar(lift: 1)), on: .vulkan) == lifted)
    }

    @Test("An accessory's bad numbers are refused with their key paths")
    func accessoryErrors() throws {
        let json = """
            {"canvas": {"width": 300, "height": 90, "scale": 1}, "controls": [{"type": "tabBar", "center": [120, 45],
             "width": 200, "items": [{"title": "Home"}], "accessory": ACCESSORY}]}
            """
        func keyPath(_ accessory: String) -> String? {
            do {
                _ = try Scene.decode(Data(json.replacingOccurrences(of: "ACCESSORY", with: accessory).utf8))
                return nil
            } catch {
                return (error as? SceneError)?.keyPath
            }
        }
        #expect(keyPath(#"{"spacing": -4}"#) == "controls[0].accessory.spacing")
        #expect(keyPath(#"{"diameter": 500}"#) == "controls[0].accessory.diameter")
        #expect(keyPath(#"{"symbl": "+"}"#) == "controls[0].accessory.symbl")
        #expect(keyPath(##"{"symbol": "+", "tint": "#0a7aff"}"##) == nil)
        var scene = Self.bar(lift: 1, accessory: TabBarAccessory(spacing: .nan))
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].accessory.spacing" }
        scene = Self.bar(lift: 1, accessory: TabBarAccessory(diameter: .infinity))
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].accessory.diameter" }
    }

    @Test("A press names a tab bar's accessory by its id: the button swells and reaches the bar, on both backends")
    func accessoryPress() throws {
        var scene = Self.bar(lift: 0, accessory: TabBarAccessory(id: "add"))
        scene.animation = SceneAnimation(
            duration: 1, gesture: nil,
            transitions: [
                GlassTransition(
                    .press, glass: "add", time: 0.1, release: 0.9, touch: [GesturePoint(time: 0.1, x: 270, y: 40)])
            ])
        try scene.validate()
        let amount = try #require(scene.animation?.transitions[0].pressAmount(at: 0.6))
        var held = scene
        held.time = 0.6
        guard case .tabBar(let bar) = held.frame(at: 0.6).controls[0] else {
            Issue.record("the control is the tab bar")
            return
        }
        #expect(bar.accessory?.pressed == amount && bar.accessory?.touch == Point(x: 270, y: 40))
        let frame = held.frame(at: 0.6)
        let platter = try LayeringTests.layout(frame, scale: 1).expand(frame).glass[0]
        let swollen = platter.shapes[1].frame
        #expect(abs(swollen.width - 62 * (1 + (GlassTransition.pressScale - 1) * amount)) < 1e-9)
        #expect(abs(swollen.midX - 279) < 1e-9, "about its centre: \(swollen)")
        #expect(platter.blend == GlassTransition.pressMergeBlend * min(amount, 1), "reaching the bar")
        #expect(platter.touchGlow?.center == Point(x: 270, y: 40))
        let resting = try render(try resolve(scene), on: .cpu)
        let pressed = try render(try resolve(held), on: .cpu)
        #expect(pressed != resting)
        #expect(try render(try resolve(held), on: .vulkan) == pressed)
        // Round trip, and its id shares the scene's names.
        let decoded = try Scene.decode(try JSONEncoder().encode(frame))
        guard case .tabBar(let again) = decoded.controls[0] else { return }
        #expect(again.accessory == bar.accessory)
        var clash = scene
        clash.glass = [GlassElement(shape: .circle, frame: Rect(x: 0, y: 0, width: 20, height: 20))]
        clash.glass[0].id = "add"
        #expect { try clash.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].accessory.id" }
        scene.animation?.transitions = [GlassTransition(.materialize, glass: "add", time: 0.1)]
        #expect { try scene.validate() } throws: { error in
            (error as? SceneError)?.message.contains("only a press acts on") == true
        }
        scene.animation = nil
        guard case .tabBar(var wild) = scene.controls[0] else { return }
        wild.accessory?.pressed = 3
        scene.controls[0] = .tabBar(wild)
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].accessory.pressed" }
    }

    @Test(
        "Accessory presses add up, one not begun leaves the button as given, and a lifted bar's glow stays at the finger"
    )
    func accessoryPressesCombine() throws {
        var scene = Self.bar(lift: 1, accessory: TabBarAccessory(id: "add", pressed: 0.25))
        let early = GlassTransition(.press, glass: "add", time: 0.1, release: 0.3)
        let late = GlassTransition(.press, glass: "add", time: 0.8, touch: [GesturePoint(time: 0.8, x: 270, y: 40)])
        scene.animation = SceneAnimation(duration: 1, gesture: nil, transitions: [late, early])
        try scene.validate()
        func accessory(at t: Double) -> TabBarAccessory? {
            guard case .tabBar(let bar) = scene.applyingTimeline(at: t).controls[0] else { return nil }
            return bar.accessory
        }
        #expect(accessory(at: 0) == TabBarAccessory(id: "add", pressed: 0.25), "no press has begun")
        let both = try #require(accessory(at: 0.9))
        let sum = 0.25 + early.pressAmount(at: 0.9) + late.pressAmount(at: 0.9)
        #expect(abs(both.pressed - sum) < 1e-12 && both.touch == Point(x: 270, y: 40))
        // The bar is lifted: its glow stays where the finger is, not on the pressed button.
        var lifted = scene.applyingTimeline(at: 0.9)
        lifted.animation = nil
        let resting = try LayeringTests.layout(Self.bar(lift: 1), scale: 1).expand(Self.bar(lift: 1)).glass[0]
        let platter = try LayeringTests.layout(lifted, scale: 1).expand(lifted).glass[0]
        #expect(resting.touchGlow != nil && platter.touchGlow?.center == resting.touchGlow?.center)
        #expect(platter.shapes[1].frame.width > resting.shapes[1].frame.width, "the button swells")
    }

    /// A capsule and a circle 6 pt apart in one group, the circle named "plus" and pressed from 0.1 s
    /// (iOS 26's glass).
    static func container(_ transitions: [GlassTransition]) -> Scene {
        var scene = Scene(
            canvas: Canvas(width: 200, height: 80, scale: 1), background: [BackgroundLayer(.solid(.white))],
            glass: [
                GlassElement(
                    shapes: [
                        PlacedShape(shape: .capsule, frame: Rect(x: 10, y: 15, width: 120, height: 50)),
                        PlacedShape(shape: .circle, frame: Rect(x: 136, y: 15, width: 50, height: 50), id: "plus"),
                    ], blend: 0, optics: Optics(preset: .regular))
            ], generation: .ios26)
        scene.animation = SceneAnimation(duration: 1, gesture: nil, transitions: transitions)
        return scene
    }

    @Test("A press on one shape of a group swells it alone and bridges it to its neighbours")
    func shapePress() throws {
        let scene = Self.container([GlassTransition(.press, glass: "plus", time: 0.1, release: 0.9)])
        let resting = scene.applyingTimeline(at: 0)
        let held = scene.applyingTimeline(at: 0.6)
        let amount = try #require(scene.animation?.transitions[0].pressAmount(at: 0.6))
        #expect(amount > 0.9)
        #expect(held.glass[0].shapes[0].frame == resting.glass[0].shapes[0].frame)
        let swollen = held.glass[0].shapes[1].frame
        #expect(abs(swollen.width - 50 * (1 + (GlassTransition.pressScale - 1) * amount)) < 1e-9)
        #expect(abs(swollen.midX - 161) < 1e-9 && abs(swollen.midY - 40) < 1e-9)
        #expect(held.glass[0].blend == GlassTransition.pressMergeBlend * min(amount, 1))
        // The gap between them: the page at rest, glass while the press holds, the same on both backends.
        let before = try render(try resolve(scene), on: .cpu)
        var pressed = scene
        pressed.time = 0.6
        let during = try render(try resolve(pressed), on: .cpu)
        // The page in the gap lies in the glass's shadow; the bridge's white glass covers it.
        #expect(Self.pixel(before, 133, 40).x < 250, "gap at rest \(Self.pixel(before, 133, 40))")
        #expect(Self.pixel(during, 133, 40).x > 250, "gap pressed \(Self.pixel(during, 133, 40))")
        #expect(try render(try resolve(pressed), on: .vulkan) == during)
    }

    @Test("Shape ids: unique among glass and shapes; only a press may name one")
    func shapeIDs() throws {
        var duplicate = Self.container([])
        duplicate.glass[0].id = "plus"
        #expect { try duplicate.validate() } throws: { ($0 as? SceneError)?.keyPath == "glass[0].shapes[1].id" }
        let materialize = Self.container([GlassTransition(.materialize, glass: "plus", time: 0)])
        #expect { try materialize.validate() } throws: { error in
            let error = error as? SceneError
            return error?.keyPath == "animation.transitions[0].glass"
                && error?.message.contains("only a press acts on") == true
        }
        var empty = Self.container([])
        empty.glass[0].shapes[0].id = ""
        #expect { try empty.validate() } throws: { ($0 as? SceneError)?.keyPath == "glass[0].shapes[0].id" }
        let decoded = try Scene.decode(try JSONEncoder().encode(Self.container([])))
        #expect(decoded.glass[0].shapes[1].id == "plus")
    }
}
