import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensModel

/// Content that scrolls under glass, a morph's start content leaving with it, and the whole
/// screen in motion that puts them together with a press, a lens drag and a menu.
@Suite("Scrolled content and the screen in motion")
struct ScreenMotionTests {
    static let screen = BuiltInAnimation.screenMotion

    static let sceneJSON = """
        {"canvas": {"width": 200, "height": 100},
         "background": [{"type": "solid", "color": "#f2f2f7"},
                        {"type": "fill", "shape": "capsule", "frame": {"x": 20, "y": 60, "width": 160, "height": 30}, "color": "#ff9500"},
                        {"type": "text", "text": "Row", "center": [100, 75], "size": 14},
                        {"type": "gradient", "colors": ["#000000", "#ffffff"], "angle": 0, "opacity": 0.2}],
         "glass": [{"shape": "capsule", "frame": {"x": 40, "y": 10, "width": 120, "height": 40}, "id": "bar"}],
         "animation": {"duration": 1, "scrolls": [SCROLL]}}
        """

    static func decode(_ scroll: String) throws -> Scene {
        try Scene.decode(Data(sceneJSON.replacingOccurrences(of: "SCROLL", with: scroll).utf8))
    }

    static func frameY(_ layer: BackgroundLayer) -> Double? {
        switch layer.kind {
        case .fill(_, let frame, _), .stroke(_, let frame, _, _): frame.y
        case .text(_, let center, _, _, _): center.y
        default: nil
        }
    }

    @Test("A flick moves its layers up as UIScrollView decelerates, and leaves the rest")
    func flick() throws {
        let scene = try Self.decode(#"{"time": 0.2, "distance": 50, "layers": [1, 2]}"#)
        let scroll = try #require(scene.animation?.scrolls.first)
        #expect(scroll.offset(at: 0.2) == 0)
        // One second after release a flick has covered 1 − 0.998^1000 of its distance.
        #expect(abs(scroll.offset(at: 1.2) - 50 * (1 - pow(0.998, 1000))) < 1e-9)
        let offsets = stride(from: 0.0, through: 5, by: 0.05).map(scroll.offset)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 } && offsets.last! > 49.99)
        let frame = scene.frame(at: 0.7)
        let moved = scroll.offset(at: 0.7)
        #expect(moved > 30)
        for index in [1, 2] {
            let before = try #require(Self.frameY(scene.background[index]))
            #expect(abs(try #require(Self.frameY(frame.background[index])) - (before - moved)) < 1e-9)
        }
        #expect(frame.background[0] == scene.background[0] && frame.background[3] == scene.background[3])
        #expect(frame.animation?.scrolls.isEmpty == true, "a frame holds the outcome, not the flicks")
    }

    @Test("A still of a scrolling scene is the scene at its time, on both backends alike")
    func still() throws {
        var scene = try Self.decode(#"{"time": 0, "distance": 40, "layers": [1, 2]}"#)
        scene.time = 0.5
        let still = try LensRenderer.resolve(scene)
        #expect(still.backdrop == (try LensRenderer.resolve(scene.frame(at: 0.5))).backdrop)
        scene.time = 0
        #expect(still.backdrop != (try LensRenderer.resolve(scene)).backdrop, "the content moved")
        #expect(try render(still, on: .cpu) == (try render(still, on: .vulkan)))
    }

    @Test(
        "Malformed flicks are refused at their key path",
        arguments: [
            (#"{"time": 0, "distance": 10, "layers": [4]}"#, "animation.scrolls[0].layers[0]"),
            (#"{"time": 0, "distance": 10, "layers": [0]}"#, "animation.scrolls[0].layers[0]"),
            (#"{"time": 0, "distance": 10, "layers": [1, 1]}"#, "animation.scrolls[0].layers[1]"),
            (#"{"time": 0, "distance": 10, "layers": []}"#, "animation.scrolls[0].layers"),
            (#"{"time": 3, "distance": 10, "layers": [1]}"#, "animation.scrolls[0].time"),
            (#"{"time": 0, "distance": 1e9, "layers": [1]}"#, "animation.scrolls[0].distance"),
            (#"{"time": 0, "distance": 10, "layers": [1], "speed": 3}"#, "animation.scrolls[0].speed"),
        ])
    func refused(_ scroll: String, keyPath: String) throws {
        #expect {
            try Self.decode(scroll)
        } throws: { error in
            (error as? SceneError)?.keyPath == keyPath
        }
    }

    @Test("Flicks and a morph's start content round-trip through JSON; scenes built in code get the same checks")
    func roundTrip() throws {
        let scene = Self.screen.scene
        let again = try Scene.decode(try JSONEncoder().encode(scene))
        #expect(again.animation == scene.animation)
        var built = scene
        built.animation?.scrolls[0].layers.append(0)
        #expect { try built.validate() } throws: {
            ($0 as? SceneError)?.keyPath.hasPrefix("animation.scrolls[0].layers[") == true
        }
        built = scene
        built.animation?.transitions[0].startContent = [0]
        #expect { try built.validate() } throws: {
            ($0 as? SceneError)?.keyPath == "animation.transitions[0].startContent"
        }
        built = scene
        built.animation?.transitions[1].startContent = [0]
        #expect { try built.validate() } throws: {
            ($0 as? SceneError)?.keyPath == "animation.transitions[1].startContent[0]"
        }
    }

    @Test("A morph's start content moves with the shape and is gone by the time it is half grown")
    func startContent() throws {
        let morph = try #require(Self.screen.scene.animation?.transitions.first { $0.kind == .morph })
        let dots = try #require(morph.startContent.first)
        let opacities = stride(from: 2.8, through: 3.8, by: 0.02).map {
            Self.screen.frame(at: $0).foreground[dots].opacity
        }
        #expect(opacities.first == 1 && opacities.last == 0)
        #expect(zip(opacities, opacities.dropFirst()).allSatisfy { $0 >= $1 }, "fades out once")
        let atRest = try #require(Self.frameY(Self.screen.scene.foreground[dots]))
        let moving = Self.screen.frame(at: 2.95)
        #expect(moving.foreground[dots].opacity > 0 && Self.frameY(moving.foreground[dots])! > atRest, "moves down")
    }

    @Test(
        "The screen in motion: the cards scroll, the + swells, the tab bar's lens lifts and lands on Inbox, the menu opens"
    )
    func screenMotion() throws {
        let scene = Self.screen.scene
        let card = try #require(scene.animation?.scrolls.first?.layers.first)
        let end = Self.screen.frame(at: Self.screen.duration)
        let travelled = try #require(Self.frameY(scene.background[card])) - Self.frameY(end.background[card])!
        #expect(travelled > 510 && travelled <= 520, "\(travelled) pt")
        // The "+" is the tab bar's accessory, one glass with the bar: its box in the annotations.
        func plusWidth(at t: Double) throws -> Double {
            let parts = try LensRenderer.annotations(of: Self.screen.frame(at: t)).controls[0].parts
            return try #require(parts.first { $0.kind == "accessory" }).box.width
        }
        let plus = try plusWidth(at: 0)
        let pressed = try plusWidth(at: 1.2)
        #expect(pressed > plus * 1.03, "\(pressed) px against \(plus)")
        guard case .tabBar(let dragged) = Self.screen.frame(at: 2.2).controls[0],
            case .tabBar(let settled) = end.controls[0]
        else {
            Issue.record("the first control is the tab bar")
            return
        }
        #expect(dragged.lift > 0.9 && dragged.lensPosition > 0.5 && dragged.lensPosition < 2)
        #expect(settled.lift == 0 && abs(settled.lensPosition - 2) < 0.01)
        let menu = try #require(end.glass.first { $0.id == "menu" }).shapes[0].frame
        #expect(
            abs(menu.width - ScreenMotionScene.menu.width) < 0.5 && end.glass.count == 2,
            "back, and the menu in place of more")
        #expect(end.foreground.prefix(ScreenMotionScene.menuRows.count).allSatisfy { $0.opacity > 0.99 })
        let pixels = try LensRenderer.resolve(end)
        #expect(pixels.width == 1206 && pixels.height == 2622)
    }

    @Test("bench's screen-motion workload is the animation's frames, evenly over its length")
    func workload() throws {
        let workload = BenchmarkWorkload.screenMotion
        let count = workload.defaultFrames
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for index in [0, count / 2, count - 1] {
            let t = Self.screen.duration * Double(index) / Double(count - 1)
            let scene = try workload.scene(index, of: count, text: TextTests.renderer)
            #expect(try encoder.encode(scene) == encoder.encode(Self.screen.frame(at: t)), "frame \(index) at \(t) s")
        }
        let middle = try workload.scene(count / 2, of: count, text: TextTests.renderer)
        #expect(try encoder.encode(middle) != encoder.encode(Self.screen.frame(at: 0)), "the frames move")
    }

    @Test("A layer two morphs would carry, and too many flicks, are refused; flicks keep layers in range")
    func carriedOnceAndInRange() throws {
        var scene = Self.screen.scene
        let morph = try #require(scene.animation?.transitions.first { $0.kind == .morph })
        scene.glass.append(
            {
                var other = GlassElement(shape: .circle, frame: Rect(x: 10, y: 10, width: 40, height: 40))
                other.id = "other"
                return other
            }())
        scene.glass.append(
            {
                var end = GlassElement(shape: .capsule, frame: Rect(x: 10, y: 10, width: 80, height: 40))
                end.id = "otherEnd"
                return end
            }())
        scene.animation?.transitions.append(
            GlassTransition(.morph, glass: "other", to: "otherEnd", time: 0, content: [morph.content[0]]))
        #expect { try scene.validate() } throws: {
            ($0 as? SceneError)?.keyPath == "animation.transitions[2].content[0]"
        }
        var far = try Self.decode(#"{"time": 0, "distance": 90000, "layers": [1, 2]}"#)
        far.animation?.scrolls.append(ContentScroll(time: 0, distance: 90000, layers: [1]))
        far.background[1] = far.background[1].moved(up: -50000)
        try far.validate()
        _ = try LensRenderer.resolve(far.frame(at: 1))
        far.animation?.scrolls = Array(repeating: ContentScroll(time: 0, distance: 1, layers: [1]), count: 1025)
        #expect { try far.validate() } throws: { ($0 as? SceneError)?.keyPath == "animation.scrolls" }
    }
}
