import Foundation
import LiquidLens
import Testing

@testable import LensControls
@testable import LensModel

/// Glass that merges: shapes of one group with their own tints, and a tab bar that merges with
/// its accessory button while its lens is lifted (`fabbar-lifted`).
@Suite("Merging glass")
struct MergeTests {
    /// A white page with a capsule and a circle 20 px apart in one group, the circle tinted blue.
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
            ])
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
        // Across the bridge the blue fades: more of it nearer the circle.
        let blueness = (120...140).map { x in
            let color = Self.pixel(tinted, x, 40)
            return color.z - color.x
        }
        #expect(blueness.last! - blueness.first! > 60, "\(blueness)")
        #expect(zip(blueness, blueness.dropFirst()).allSatisfy { $0 <= $1 }, "\(blueness)")
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
            #expect(platter.blend == ControlLayout.accessoryMergeBlend * lift)
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
}
