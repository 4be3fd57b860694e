import Foundation
import LensCompare
import LensVulkan
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensReference
@testable import LensResolve

@Suite("liquidlens presets and theme")
struct ThemeCommandTests {
    @Test("presets lists the 17 themes and renders their contact sheet")
    func presetsCommand() throws {
        let list = try runCLI(["presets"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 17)
        #expect(list.stdout.contains("frostedThick") && list.stdout.contains("roseGold"))
        #expect(list.stdout.contains("regularGlass") && list.stdout.contains("clearGlass"))
        let folder = try temporaryFolder("presets")
        let sheet = folder.appendingPathComponent("presets.png")
        let rendered = try runCLI(["presets", "--sheet", sheet.path])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let image = try PNGCodec.read(contentsOf: sheet)
        #expect(image.width == 6 * 400 + 7 * 4 && image.height == 3 * 260 + 4 * 4)
    }

    @Test("theme exports a scene's theme as JSON and Swift; a scene without one is a clear error")
    func themeCommand() throws {
        let folder = try temporaryFolder("theme-export")
        let scene = folder.appendingPathComponent("scene.json")
        try Data(
            #"{"canvas": {"width": 10, "height": 10}, "theme": {"preset": "midnight", "cornerRadius": 9}}"#.utf8
        ).write(to: scene)
        let json = folder.appendingPathComponent("theme.json")
        let swift = folder.appendingPathComponent("theme.swift")
        let result = try runCLI(["theme", scene.path, "--json", json.path, "--swift", swift.path, "--name", "night"])
        #expect(result.status == 0, "\(result.stderr)")
        var expected = ThemePreset.midnight.theme
        expected.cornerRadius = 9
        #expect(try JSONDecoder().decode(Theme.self, from: Data(contentsOf: json)) == expected)
        #expect(try String(contentsOf: swift, encoding: .utf8).contains("let night = Theme("))

        let bare = folder.appendingPathComponent("bare.json")
        try Data(#"{"canvas": {"width": 10, "height": 10}}"#.utf8).write(to: bare)
        let missing = try runCLI(["theme", bare.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("has no \"theme\""))
        #expect(try runCLI(["theme", "sunset", "--name", "9lives"]).status == 64)
    }
}

@Suite("Animated highlights and Reduce Motion in scenes")
struct HighlightSceneTests {
    @Test("animate renders a scene whose only motion is a highlight; frames differ over time")
    func animateHighlightOnly() throws {
        let folder = try temporaryFolder("highlight")
        let scene = folder.appendingPathComponent("shimmer.json")
        try Data(
            #"""
            {"canvas": {"width": 120, "height": 80, "scale": 1}, "background": "grid",
             "glass": [{"shape": "capsule", "frame": {"x": 10, "y": 20, "width": 100, "height": 40},
                        "material": "frosted", "highlight": {"kind": "shimmer"}}]}
            """#.utf8
        ).write(to: scene)
        let output = folder.appendingPathComponent("frames")
        let result = try runCLI(["animate", scene.path, "-o", output.path, "--fps", "4", "--duration", "2", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(frames.count == 8)
        let first = try PNGCodec.read(contentsOf: output.appendingPathComponent(frames[0]))
        let middle = try PNGCodec.read(contentsOf: output.appendingPathComponent(frames[4]))
        let moved = first != middle
        #expect(moved, "the shimmer band crosses the glass between 0 s and 1 s")
    }

    @Test("The scene's Reduce Motion stops a held segmented control's rail growth")
    func sceneReduceMotion() throws {
        var scene = BuiltInScene.segmented.scene
        let moving = try LensRenderer.resolve(scene)
        scene.accessibility.reduceMotion = true
        let still = try LensRenderer.resolve(scene)
        guard case .segmented(var segmented) = scene.controls[0] else {
            Issue.record("the showcase is a segmented control")
            return
        }
        segmented.reduceMotion = true
        scene.controls[0] = .segmented(segmented)
        scene.accessibility.reduceMotion = false
        let controlReduced = try LensRenderer.resolve(scene)
        #expect(still.shapes == controlReduced.shapes)
        #expect(still.shapes != moving.shapes)
    }
}

@Suite("Glass controls in scene files")
struct GlassControlSceneTests {
    static let json = #"""
        {
          "canvas": {"width": 360, "height": 420, "scale": 1},
          "background": [{"type": "gradient", "colors": ["#ffd6a5", "#a0c4ff"], "angle": 90}],
          "theme": {"preset": "standard", "material": "dark"},
          "controls": [
            {"type": "navigationBar", "frame": {"x": 0, "y": 0, "width": 360, "height": 52}, "title": "Inbox"},
            {"type": "searchBar", "frame": {"x": 16, "y": 64, "width": 328, "height": 36}},
            {"type": "button", "frame": {"x": 16, "y": 112, "width": 150, "height": 40}, "title": "Delete", "state": "destructive"},
            {"type": "button", "frame": {"x": 190, "y": 112, "width": 150, "height": 40}, "title": "OK", "material": "clear"},
            {"type": "switch", "frame": {"x": 16, "y": 168, "width": 64, "height": 28}, "isOn": true, "held": 1},
            {"type": "slider", "frame": {"x": 100, "y": 170, "width": 240, "height": 24}, "value": 0.3},
            {"type": "card", "frame": {"x": 16, "y": 208, "width": 328, "height": 90}, "title": "Card", "detail": "Body text"},
            {"type": "textField", "frame": {"x": 16, "y": 306, "width": 328, "height": 40}, "focused": true},
            {"type": "floatingTabBar", "frame": {"x": 16, "y": 352, "width": 328, "height": 56},
             "items": [{"title": "Home", "symbol": "⌂"}, {"title": "Inbox", "symbol": "✉", "badge": 2}]},
            {"type": "bottomSheet", "frame": {"x": 0, "y": 380, "width": 360, "height": 80}, "presented": false}
          ]
        }
        """#

    @Test("Every glass control kind decodes, resolves to glass and labels, and renders alike on both backends")
    func everyKind() throws {
        let scene = try Scene.decode(Data(Self.json.utf8))
        #expect(
            Set(scene.controls.compactMap { if case .glass(let control) = $0 { control.kind } else { nil } })
                == Set(GlassControl.Kind.allCases))
        let parameters = try LensRenderer.resolve(scene)
        // nav, search, 2 buttons, switch knob, slider knob, card, field, tab bar + action; the hidden sheet draws nothing
        #expect(parameters.lenses.count == 10)
        #expect(parameters.frame.foregroundTileCount > 0)
        let cpu = ReferenceRenderer().render(parameters)
        let gpu = try SharedGPU.with { try $0.render(parameters) }
        let diff = try ImageDiff(gpu, cpu, threshold: 1)
        #expect(diff.maxError.max() <= 1 && diff.identicalFraction >= 0.999, "\(diff.report)")
        // The explicit material of "OK" beats the scene theme's dark material.
        #expect(parameters.lenses[3].tint == Material.clear.tint.linearPremultiplied)
        #expect(parameters.lenses[2].tint == Material.dark.tint.linearPremultiplied)
    }

    /// UISwitch's numbers (decompiled UIKitCore and probed colours, iOS 26.1; herclyon1/maa):
    /// a 63 × 28 pt well, the 37 × 24 pt knob 2 pt inside it and 22 pt of travel, tertiaryLabel
    /// when off, systemGreen when on.
    @Test(
        "A switch is UISwitch's: a 63 × 28 pt well, the knob 2 pt in with 22 pt of travel, tertiaryLabel off, systemGreen on",
        arguments: ControlAppearance.allCases)
    func switchGeometry(_ appearance: ControlAppearance) throws {
        let json = """
            {"canvas": {"width": 200, "height": 68, "scale": 2},
             "background": {"type": "solid", "color": "\(appearance == .light ? "#ffffff" : "#000000")"},
             "controls": [
               {"type": "switch", "frame": {"x": 20, "y": 20, "width": 63, "height": 28}, "appearance": "\(appearance.rawValue)"},
               {"type": "switch", "frame": {"x": 120, "y": 20, "width": 63, "height": 28}, "isOn": true, "appearance": "\(appearance.rawValue)"}
             ]}
            """
        let parameters = try LensRenderer.resolve(Scene.decode(Data(json.utf8)))
        let image = ReferenceRenderer().render(parameters)
        #expect(try SharedGPU.with { try $0.render(parameters) } == image, "the backends differ")
        let row = 68  // the wells' middle row, in pixels
        func color(_ x: Double) -> SIMD4<Int> { SIMD4<Int>(truncatingIfNeeded: image[Int(x * 2), row]) }
        func near(_ pixel: SIMD4<Int>, _ expected: (Int, Int, Int)) -> Bool {
            abs(pixel.x - expected.0) <= 1 && abs(pixel.y - expected.1) <= 1 && abs(pixel.z - expected.2) <= 1
        }
        let (off, on) = appearance == .light ? ((197, 197, 199), (52, 199, 89)) : ((70, 70, 73), (48, 209, 88))
        #expect(near(color(20 + 51), off), "off well \(color(20 + 51))")
        #expect(near(color(120 + 12), on), "on well \(color(120 + 12))")
        // The off well's right end and the on well's left end, where the knob's shadow does not reach.
        let background = appearance == .light ? 255 : 0
        let offEnd = try #require((0..<200).last { abs(Int(image[$0, row].x) - background) > 8 })
        #expect(abs(Double(offEnd + 1) / 2 - (20 + 63)) <= 0.5, "the off well ends at \(Double(offEnd + 1) / 2) pt")
        let onStart = try #require((200..<400).first { abs(Int(image[$0, row].x) - background) > 8 })
        #expect(abs(Double(onStart) / 2 - 120) <= 0.5, "the on well starts at \(Double(onStart) / 2) pt")
        // The white knob's edges: 2 + 37 pt into the off well, 2 + 22 pt into the on well.
        let offKnobEnd = try #require((40..<offEnd).last { image[$0, row].x > 240 && image[$0, row].z > 240 })
        #expect(
            abs(Double(offKnobEnd + 1) / 2 - (20 + 39)) <= 0.5, "the off knob ends at \(Double(offKnobEnd + 1) / 2) pt")
        let onKnobStart = try #require((onStart..<400).first { image[$0, row].x > 240 && image[$0, row].z > 240 })
        #expect(abs(Double(onKnobStart) / 2 - (120 + 24)) <= 0.5, "the on knob starts at \(Double(onKnobStart) / 2) pt")
    }

    @Test("A held slider's knob lifts into a lens where it is, as a switch's does, on both backends")
    func heldSlider() throws {
        func scene(held: Double) -> Scene {
            var slider = GlassControl(.slider, frame: Rect(x: 20, y: 20, width: 160, height: 30), value: 0.4)
            slider.held = held
            return Scene(
                canvas: Canvas(width: 200, height: 70, scale: 2), background: [BackgroundLayer(.solid(.white))],
                glass: [], controls: [.glass(slider)])
        }
        func knob(_ scene: Scene) throws -> PixelBox {
            let parts = try LensRenderer.annotations(of: scene).controls[0].parts
            return try #require(parts.first { $0.kind == "knob" }).box
        }
        let resting = try knob(scene(held: 0))
        let held = try knob(scene(held: 1))
        #expect(abs(resting.width - 76) <= 1 && abs(held.width - 118) <= 1, "\(resting.width) → \(held.width) px")
        #expect(abs(held.height - 76) <= 1, "lifted \(held.height) px high")
        #expect(abs((held.x + held.width / 2) - (resting.x + resting.width / 2)) < 1, "lifted where it is")
        let parameters = try LensRenderer.resolve(scene(held: 1))
        #expect(try SharedGPU.with { try $0.render(parameters) } == ReferenceRenderer().render(parameters))
        #expect(parameters.lenses.count == 1)
    }

    @Test("A presented sheet in a scene file dims the backdrop; a hidden one does not")
    func sheetInScene() throws {
        var scene = try Scene.decode(Data(Self.json.utf8))
        let hidden = try LensRenderer.resolve(scene)
        guard case .glass(var sheet) = scene.controls[9] else {
            Issue.record("the last control is the sheet")
            return
        }
        sheet.presented = true
        scene.controls[9] = .glass(sheet)
        let presented = try LensRenderer.resolve(scene)
        #expect(presented.lenses.count == hidden.lenses.count + 1)
        let pixel = 300 * 360 + 350
        #expect(presented.backdrop[pixel] != hidden.backdrop[pixel], "the backdrop is dimmed")
    }

    @Test(
        "Bad glass controls are errors that name the key",
        arguments: [
            (
                #"{"type": "toggle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}}"#,
                "unknown control type \"toggle\""
            ),
            (#"{"type": "slider", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "value": 2}"#, "value"),
            (
                #"{"type": "switch", "frame": {"x": 0, "y": 0, "width": 63, "height": 28}, "knobPosition": -1}"#,
                "knobPosition"
            ),
            (#"{"type": "button", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "state": "hot"}"#, "state"),
            (#"{"type": "card", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "colour": 1}"#, "colour"),
        ])
    func badControls(_ control: String, _ message: String) {
        let json = #"{"canvas": {"width": 100, "height": 100}, "controls": ["# + control + "]}"
        #expect {
            _ = try Scene.decode(Data(json.utf8))
        } throws: { "\($0)".contains(message) && "\($0)".contains("controls[0]") }
    }

    @Test("The controls example survives a trip through JSON (batch sweeps rely on it)")
    func controlsExampleRoundTrip() throws {
        let scene = BuiltInScene.controls.scene
        let decoded = try Scene.decode(try JSONEncoder().encode(scene))
        let original = try LensRenderer.resolve(scene)
        let copy = try LensRenderer.resolve(decoded)
        #expect(copy.lenses == original.lenses && copy.foreground == original.foreground)
        #expect(copy.backdrop == original.backdrop)
    }

    @Test("A held switch lifts its knob where it is; knobPosition slides it along the well")
    func switchKnob() throws {
        func knob(isOn: Bool, held: Double, position: Double? = nil) throws -> Rect {
            var toggle = GlassControl(.switch, frame: Rect(x: 20, y: 20, width: 63, height: 28), isOn: isOn, held: held)
            toggle.knobPosition = position
            let scene = Scene(
                canvas: Canvas(width: 120, height: 70, scale: 1), background: [], glass: [], controls: [.glass(toggle)])
            let layout = LayeringTests.layout(scene, scale: 1)
            return try #require(try layout.expand(scene).glass.last).shapes[0].frame
        }
        // jarx-switch-lifted: lifted, the lens is centred where the knob rests (0.1 pt apart).
        #expect(try knob(isOn: false, held: 1).midX == knob(isOn: false, held: 0).midX)
        #expect(try knob(isOn: true, held: 1).midX == knob(isOn: true, held: 0).midX)
        let off = try knob(isOn: false, held: 0).midX
        let on = try knob(isOn: true, held: 0).midX
        #expect(abs(try knob(isOn: true, held: 1, position: 0.4).midX - (off + 0.4 * (on - off))) < 1e-9)
        var toggle = GlassControl(.switch, frame: Rect(x: 20, y: 20, width: 63, height: 28))
        toggle.knobPosition = .nan
        let scene = Scene(
            canvas: Canvas(width: 120, height: 70, scale: 1), background: [], glass: [], controls: [.glass(toggle)])
        #expect { try scene.validate() } throws: { ($0 as? SceneError)?.keyPath == "controls[0].knobPosition" }
    }

    @Test("A NaN in a glass control built in code is rejected")
    func nanValue() {
        var slider = GlassControl(.slider, frame: Rect(x: 0, y: 0, width: 100, height: 24))
        slider.value = .nan
        let scene = Scene(
            canvas: Canvas(width: 100, height: 40, scale: 1), background: [], glass: [], controls: [.glass(slider)])
        #expect(throws: SceneError.self) { _ = try LensRenderer.resolve(scene) }
    }
}
