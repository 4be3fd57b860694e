import Foundation
import LensReference
import LiquidLens
import Testing

/// The #F2F2F7 page of the iOS 27 captures with Apple's glass on it: a regular capsule, a
/// dark one, a clear one and a tinted circle (`glassProminent`), each as `generation` draws it.
private func page(_ generation: GlassGeneration, tinting: Double = 0, background: [BackgroundLayer]? = nil) -> Scene {
    func glass(_ preset: OpticsPreset, _ frame: Rect, _ shape: Shape = .capsule) -> GlassElement {
        GlassElement(shape: shape, frame: frame, optics: Optics(preset: preset))
    }
    var tinted = glass(.regular, Rect(x: 140, y: 80, width: 50, height: 50), .circle)
    tinted.optics.tint = RGBAColor(0, 136, 255, 0.9)
    var scene = Scene(
        canvas: Canvas(width: 200, height: 140, scale: 1),
        background: background ?? [BackgroundLayer(.solid(RGBAColor(242, 242, 247)))],
        glass: [
            glass(.regular, Rect(x: 10, y: 10, width: 180, height: 60)),
            glass(.regularDark, Rect(x: 10, y: 80, width: 60, height: 50)),
            glass(.clear, Rect(x: 75, y: 80, width: 60, height: 50)), tinted,
        ], generation: generation)
    scene.tinting = tinting
    return scene
}

/// The optics each glass element of `scene` is drawn with, as its annotations report them.
private func lenses(_ scene: Scene) throws -> [Optics] {
    try #require(try LensRenderer.resolve(scene, annotating: true).annotations).glass.map(\.optics)
}

/// The mean luma of `image` over a window of pixels, weighted as the captures' windows are.
private func luma(_ image: RGBA8Image, x: Range<Int>, y: Range<Int>) -> Double {
    var sum = 0.0
    for row in y {
        for column in x { sum += CaptureWindow.luma(image, column, row) }
    }
    return sum / Double(x.count * y.count)
}

@Suite("iOS generations")
struct GlassGenerationTests {
    @Test(
        "A scene names its generation and tinting, iOS 27 and untinted when it names none; an element may name its own")
    func decoding() throws {
        let plain = try Scene.decode(Data(#"{"canvas": {"width": 10, "height": 10}}"#.utf8))
        #expect(plain.generation == .ios27 && plain.tinting == 0)
        let named = try Scene.decode(
            Data(
                #"{"canvas": {"width": 10, "height": 10}, "generation": "ios26", "tinting": 0.5, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 4, "height": 4}, "generation": "ios27"}]}"#
                    .utf8))
        #expect(named.generation == .ios26 && named.tinting == 0.5 && named.glass[0].generation == .ios27)
        let again = try Scene.decode(try JSONEncoder().encode(named))
        #expect(again.generation == .ios26 && again.tinting == 0.5 && again.glass[0].generation == .ios27)
    }

    @Test(
        "An unknown generation or a tinting outside 0…1 is an error naming the key",
        arguments: [
            (#""generation": "ios28""#, "generation"), (#""tinting": 1.5"#, "tinting"),
            (#""tinting": -0.1"#, "tinting"),
            (
                #""glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 4, "height": 4}, "generation": 27}]"#,
                "glass[0].generation"
            ),
        ])
    func rejects(_ entry: String, _ keyPath: String) throws {
        let json = #"{"canvas": {"width": 10, "height": 10}, "# + entry + "}"
        let error = try #require(throws: SceneError.self) { try Scene.decode(Data(json.utf8)) }
        #expect(error.keyPath == keyPath, "\(error)")
        var scene = page(.ios27)
        scene.tinting = .nan
        #expect(throws: SceneError.self) { try scene.validate() }
    }

    @Test("Under iOS 26 Apple's glass resolves as its presets give it")
    func ios26IsThePresets() throws {
        for element in page(.ios26).glass {
            #expect(element.optics.restyled(for: .ios26) == element.optics)
        }
        let resolved = try lenses(page(.ios26))
        let regular = Optics(preset: .regular)
        #expect(resolved[0].contour == .off, "iOS 26 draws no darkened edge")
        #expect(resolved[0].tint == regular.tint && resolved[0].face == regular.face)
        #expect(resolved[0].rimLight == regular.rimLight)
    }

    @Test(
        "iOS 27's glass: the fitted face and fill, a darkened edge, the highlight from above and below, more frost, less shadow"
    )
    func ios27Numbers() throws {
        let old = try lenses(page(.ios26)), new = try lenses(page(.ios27))
        #expect(new[0].tint.alpha == 0.2 && old[0].tint.alpha == 0.4)
        #expect(new[0].contour == Contour(width: 0.67, opacity: 0.5) && old[0].contour == .off)
        #expect(new[0].rimLight.key.angle == 90 && new[0].rimLight.key.amount == 3)
        #expect(new[0].frost > 3 * old[0].frost, "iOS 27 diffuses more")
        #expect(new[0].shadow.opacity < old[0].shadow.opacity / 3)
        #expect(new[1].tint == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.4) && new[1].face != old[1].face)
        #expect(new[2].frost == 0.35 && old[2].frost == 1, "clear glass")
        #expect(new[3].rimLight == .off && new[3].contour == .off, "tinted glass has no rim and no edge")
        #expect(new[3].tint == old[3].tint, "the scene's own tint stays")
    }

    @Test("An element's generation overrides the scene's; values the scene set itself stay under iOS 27")
    func elementOverrides() throws {
        var scene = page(.ios27)
        scene.glass[0].generation = .ios26
        scene.glass[1].optics.face = ColorLevels(white: 0.5, black: 0.1, saturation: 1)
        let mixed = try lenses(scene), old = try lenses(page(.ios26))
        #expect(mixed[0] == old[0] && mixed[2] != old[2])
        let face = scene.glass[1].optics.restyled(for: .ios27).face
        #expect(face == ColorLevels(white: 0.5, black: 0.1, saturation: 1))
    }

    @Test("The glass setting: 0 changes nothing, 1 fills to 0.75 and doubles the frost; theme materials stay")
    func tinting() throws {
        let clear = try lenses(page(.ios27)), tinted = try lenses(page(.ios27, tinting: 1))
        #expect(tinted[0].tint.alpha == 0.75 && tinted[0].frost == 2 * clear[0].frost)
        #expect(tinted[2].tint == RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.75), "clear glass takes a white fill")
        #expect(tinted[3].tint == clear[3].tint, "a denser tint stays")
        var material = page(.ios27, tinting: 1)
        material.glass = [
            GlassElement(shape: .capsule, frame: Rect(x: 10, y: 10, width: 100, height: 40), material: .frosted)
        ]
        material.tinting = 0
        let untinted = try lenses(material)
        material.tinting = 1
        #expect(try lenses(material) == untinted)
    }

    @Test("A theme material and the fallback path draw Apple's preset the same in both releases")
    func sameInBoth() throws {
        func drawn(_ generation: GlassGeneration, _ change: (inout GlassElement) -> Void) throws -> Optics {
            var scene = page(generation, tinting: 1)
            change(&scene.glass[0])
            return try lenses(scene)[0]
        }
        let material: (inout GlassElement) -> Void = { $0.material = .frosted }
        let fallback: (inout GlassElement) -> Void = { $0.renderingPath = .fallback }
        #expect(try drawn(.ios27, material) == drawn(.ios26, material))
        #expect(try drawn(.ios27, fallback) == drawn(.ios26, fallback))
        #expect(try drawn(.ios27, { _ in }) != drawn(.ios26, { _ in }))
    }

    @Test("Over the captures' page iOS 27's regular glass keeps the page's tone where iOS 26's whitens it")
    func faceOverThePage() throws {
        let old = try render(resolve(page(.ios26)), on: .cpu), new = try render(resolve(page(.ios27)), on: .cpu)
        let inside = (x: 60..<140, y: 30..<50)
        #expect(abs(luma(new, x: inside.x, y: inside.y) - 246) <= 2, "the grid capture's bar: 246 over 241.5")
        #expect(luma(old, x: inside.x, y: inside.y) > 253)
    }

    static let parityScenes = [
        ParityScene(name: "iOS 27", scene: page(.ios27, background: ParityScene.busyBackground)),
        ParityScene(name: "iOS 27, tinted", scene: page(.ios27, tinting: 0.7, background: ParityScene.busyBackground)),
    ]

    @Test("Vulkan draws iOS 27's glass bit for bit as the CPU reference does", arguments: parityScenes)
    func parity(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        let expected = ReferenceRenderer().render(parameters)
        let actual = try render(parameters, on: .vulkan)
        #expect(actual == expected, "\(case_.name): GPU and CPU differ")
        if actual != expected { checkParity(case_.name, actual: actual, expected: expected, prefix: "generation-") }
    }

    @Test("render --generation and --tinting change Apple's glass; a bad value is a usage error")
    func commandLine() throws {
        let folder = try temporaryFolder("generation-cli")
        var outputs: [String: RGBA8Image] = [:]
        for (name, options) in [
            ("default", []), ("ios26", ["--generation", "ios26"]), ("ios27", ["--generation", "ios27"]),
            ("tinted", ["--tinting", "1"]),
        ] {
            let result = try runCLI(
                ["render", "--example", "scroll-edges", "--backend", "cpu", "-q", "-o", "\(name).png"] + options,
                in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            outputs[name] = try PNGCodec.read(contentsOf: folder.appendingPathComponent("\(name).png"))
        }
        #expect(outputs["default"] == outputs["ios27"])
        #expect(outputs["default"] != outputs["ios26"])
        #expect(outputs["default"] != outputs["tinted"])
        for bad in [["--generation", "ios28"], ["--tinting", "2"]] {
            let result = try runCLI(["render", "--example", "scroll-edges", "-o", "bad.png"] + bad, in: folder)
            #expect(result.status == 64 && result.stderr.contains(bad[0]), "\(result.stderr)")
        }
    }
}
