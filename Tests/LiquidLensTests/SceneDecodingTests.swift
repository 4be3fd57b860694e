import Foundation
import LensCompare
import LiquidLens
import Testing

@Suite("Scene files")
struct SceneDecodingTests {
    static let minimal = """
        {"canvas": {"width": 100, "height": 80},
         "background": [{"type": "gradient", "colors": ["#ff0000", "#0000ff"]}],
         "glass": [{"shape": "capsule", "frame": {"x": 10, "y": 10, "width": 80, "height": 40}}]}
        """

    func decodeError(_ json: String) -> SceneError? {
        do {
            _ = try Scene.decode(Data(json.utf8))
            return nil
        } catch let error as SceneError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("A minimal scene decodes with the documented defaults")
    func minimalScene() throws {
        let scene = try Scene.decode(Data(Self.minimal.utf8))
        #expect(scene.canvas.scale == 2)
        #expect(scene.glass.count == 1)
        let optics = scene.glass[0].optics
        #expect(optics.bevelWidth == 20 && optics.bevelAmount == 60 && optics.magnification == 1)
        #expect(optics.rimLight == .standard && optics.shadow == .standard)
    }

    struct BadScene: Sendable, CustomTestStringConvertible {
        let json: String
        let keyPath: String
        let message: String
        var testDescription: String { keyPath.isEmpty ? message : keyPath }
    }

    static let badScenes = [
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"frosting": 3}}]}"#,
            keyPath: "glass[0].optics.frosting", message: "unknown key"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"magnification": 12}}]}"#,
            keyPath: "glass[0].optics.magnification", message: "must be between 0.25 and 8, got 12"),
        BadScene(
            json: #"{"canvas": {"width": 100, "height": 80, "scale": 9}}"#, keyPath: "canvas.scale",
            message: "must be between 1 and 4"),
        BadScene(json: #"{"canvas": {"width": 100}}"#, keyPath: "canvas.height", message: "required key is missing"),
        BadScene(
            json: #"{"canvas": {"width": 100, "height": 80}, "colour": 1}"#, keyPath: "colour", message: "unknown key"),
        BadScene(
            json: ##"{"canvas": {"width": 100, "height": 80}, "background": [{"type": "solid", "color": "#12345"}]}"##,
            keyPath: "background[0].color", message: "is not #RRGGBB"),
        BadScene(
            json: #"{"canvas": {"width": 100, "height": 80}, "background": [{"type": "plasma"}]}"#,
            keyPath: "background[0].type", message: "unknown background type"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "hexagon", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}}]}"#,
            keyPath: "glass[0].shape", message: "unknown shape"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": {"type": "roundedRectangle", "cornerRadii": [1, 2, 3]}, "frame": {"x": 0, "y": 0, "width": 10, "height": 10}}]}"#,
            keyPath: "glass[0].shape.cornerRadii", message: "expected 4 radii"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"tint": [1, 0, 2]}}]}"#,
            keyPath: "glass[0].optics.tint", message: "colour arrays hold 3 or 4 numbers in 0…1"),
        BadScene(
            json:
                ##"{"canvas": {"width": 100, "height": 80}, "label": {"mask": "m.png", "accent": "#ff0000", "accentColor": "#fff"}}"##,
            keyPath: "label.accentColor", message: "unknown key"),
        BadScene(json: #"{"canvas": {"width": 100, "height": 80}"#, keyPath: "", message: "not valid JSON"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"stages": [{"amount": 1, "height": 2}, {"amount": 1, "height": 2}, {"amount": 1, "height": 2}]}}]}"#,
            keyPath: "glass[0].optics.stages", message: "at most 2 stages may move the backdrop"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"stages": [{"amount": 1, "height": 0, "target": "label"}]}}]}"#,
            keyPath: "glass[0].optics.stages[0].height", message: "must be between 0.01 and 1000"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "optics": {"face": "faceMedium"}}]}"#,
            keyPath: "glass[0].optics.face", message: "unknown colour levels"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "touchGlow": {"center": [5, 5], "radius": 0, "amount": 0.1}}]}"#,
            keyPath: "glass[0].touchGlow.radius", message: "must be between 1 and 2000"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "touchGlow": {"center": [5, 5], "radius": 40}}]}"#,
            keyPath: "glass[0].touchGlow.amount", message: "required key is missing"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "progressiveBlurs": [{"frame": {"x": 0, "y": 0, "width": 100, "height": 30}, "radius": 400}]}"#,
            keyPath: "progressiveBlurs[0].radius", message: "must be between 0 and 200"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "progressiveBlurs": [{"frame": {"x": 0, "y": 0, "width": 100, "height": 30}, "radius": 4, "edge": "middle"}]}"#,
            keyPath: "progressiveBlurs[0].edge", message: "unknown value \"middle\""),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "scrollEdges": [{"edge": "leading", "extent": 40}]}"#,
            keyPath: "scrollEdges[0].edge", message: "a scroll edge is \"top\" or \"bottom\""),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "adaptive": {"darkBelow": 0.5, "lightAbove": 0.3}}]}"#,
            keyPath: "glass[0].adaptive.lightAbove", message: "must be at least darkBelow (0.5)"),
        BadScene(
            json: #"{"canvas": {"width": 100, "height": 80}, "scrollEdges": [{"extent": 40, "stlye": "hard"}]}"#,
            keyPath: "scrollEdges[0].stlye", message: "did you mean \"style\"?"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "controls": [{"type": "tabBar", "center": [50, 40], "width": 90, "items": [{"title": "A"}], "touchOffset": [1]}]}"#,
            keyPath: "controls[0].touchOffset", message: "expected [x, y]"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "controls": [{"type": "tabBar", "center": [50, 40], "width": 90, "items": [{"title": "A"}], "style": "uiTabBar"}]}"#,
            keyPath: "controls[0].style",
            message: #"unknown value "uiTabBar" (expected one of: native, segmentedCapsule, segmentedControl)"#),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "controls": [{"type": "tabBar", "center": [50, 40], "width": 90, "items": [{"title": "A"}], "appearance": "drak"}]}"#,
            keyPath: "controls[0].appearance", message: #"unknown value "drak"; did you mean "dark"?"#),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "optics": {"preset": "regulr"}}]}"#,
            keyPath: "glass[0].optics.preset", message: #"unknown value "regulr"; did you mean "regular"?"#),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "optics": {"preset": "regular", "rimLight": {"key": {"amount": 9}}}}]}"#,
            keyPath: "glass[0].optics.rimLight.key.amount", message: "4"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "highlight": {"intensity": 0.5}}]}"#,
            keyPath: "glass[0].highlight.kind", message: "required key is missing"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "highlight": {"kind": null}}]}"#,
            keyPath: "glass[0].highlight.kind", message: "got null"),
        BadScene(
            json:
                #"{"canvas": {"width": 100, "height": 80}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "highlight": {"kind": "shimer"}}]}"#,
            keyPath: "glass[0].highlight.kind", message: #"unknown value "shimer"; did you mean "shimmer"?"#),
    ]

    @Test("Unknown keys and out-of-range values name the key path", arguments: badScenes)
    func badScene(_ bad: BadScene) throws {
        let error = try #require(decodeError(bad.json))
        #expect(error.keyPath == bad.keyPath)
        #expect(error.message.contains(bad.message), "message: \(error.message)")
    }

    @Test("Absurd sizes are refused before anything is allocated")
    func absurdSize() throws {
        let scene = try Scene.decode(Data(#"{"canvas": {"width": 8000, "height": 8000, "scale": 1}}"#.utf8))
        #expect(throws: SceneError.self) { try LensRenderer.resolve(scene, scale: 4) }
    }

    @Test("Scenes built in code are validated too: NaN and out-of-range values name the key path")
    func validatesCodeBuiltScenes() throws {
        var optics = Optics()
        optics.magnification = .nan
        let nanScene = Scene(
            canvas: Canvas(width: 50, height: 50), background: [],
            glass: [GlassElement(shape: .circle, frame: Rect(x: 0, y: 0, width: 20, height: 20), optics: optics)])
        let nanError = try #require(throws: SceneError.self) { try LensRenderer.resolve(nanScene) }
        #expect(nanError.description == "glass[0].optics.magnification: must be between 0.25 and 8, got nan")

        var tint = Optics()
        tint.tint = RGBAColor(red: 2, green: 0, blue: 0)
        let tintScene = Scene(
            canvas: Canvas(width: 50, height: 50), background: [BackgroundLayer(.solid(.white), opacity: 0.5)],
            glass: [GlassElement(shape: .circle, frame: Rect(x: 0, y: 0, width: 20, height: 20), optics: tint)])
        let tintError = try #require(throws: SceneError.self) { try LensRenderer.resolve(tintScene) }
        #expect(tintError.keyPath == "glass[0].optics.tint[0]")

        var glowing = GlassElement(shape: .circle, frame: Rect(x: 0, y: 0, width: 20, height: 20))
        glowing.touchGlow = TouchGlow(center: Point(x: 10, y: 10), radius: 30, amount: .nan)
        let glowScene = Scene(canvas: Canvas(width: 50, height: 50), background: [], glass: [glowing])
        let glowError = try #require(throws: SceneError.self) { try LensRenderer.resolve(glowScene) }
        #expect(glowError.keyPath == "glass[0].touchGlow.amount")

        let bar = TabBar(
            center: Point(x: 25, y: 25), width: 40, items: [ControlItem(title: "A")], lensPosition: 0, lift: 1,
            touchOffset: Point(x: .nan, y: 0))
        let barScene = Scene(canvas: Canvas(width: 50, height: 50), background: [], glass: [], controls: [.tabBar(bar)])
        let barError = try #require(throws: SceneError.self) { try LensRenderer.resolve(barScene) }
        #expect(barError.keyPath == "controls[0].touchOffset[0]")

        for position in [Double.nan, .infinity, 1e300] {
            let segmented = SegmentedControl(
                center: Point(x: 25, y: 25), width: 40, titles: ["A", "B"], thumbPosition: position)
            let scene = Scene(
                canvas: Canvas(width: 50, height: 50), background: [], glass: [], controls: [.segmented(segmented)])
            let error = try #require(throws: SceneError.self) { try LensRenderer.resolve(scene) }
            #expect(error.keyPath == "controls[0].thumbPosition")
        }

        let infiniteScene = Scene(canvas: Canvas(width: .infinity, height: 50), background: [], glass: [])
        let infiniteError = try #require(throws: SceneError.self) { try LensRenderer.resolve(infiniteScene) }
        #expect(infiniteError.keyPath == "canvas.width")
    }

    @Test("A missing background image is an error naming the layer")
    func missingImage() throws {
        let scene = try Scene.decode(
            Data(
                #"{"canvas": {"width": 10, "height": 10}, "background": [{"type": "image", "path": "nowhere.png"}]}"#
                    .utf8))
        let error = try #require(throws: SceneError.self) {
            try LensRenderer.resolve(scene, baseDirectory: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(error.keyPath == "background[0].path")
        #expect(error.message.contains("nowhere.png"))
    }

    @Test("Scenes with files: image background and PNG label mask render on both backends alike")
    func fileInputs() throws {
        let folder = try temporaryFolder("files")
        var photo = RGBA8Image(width: 64, height: 48, pixels: [UInt8](repeating: 255, count: 64 * 48 * 4))
        for y in 0..<48 {
            for x in 0..<64 {
                photo.pixels[(y * 64 + x) * 4] = UInt8(x * 4); photo.pixels[(y * 64 + x) * 4 + 1] = UInt8(y * 5)
            }
        }
        try PNGCodec.write(photo, to: folder.appendingPathComponent("photo.png"))
        var mask = RGBA8Image(width: 40, height: 20, pixels: [UInt8](repeating: 0, count: 40 * 20 * 4))
        for y in 5..<15 { for x in 5..<35 { mask.pixels[(y * 40 + x) * 4 + 3] = 255 } }
        try PNGCodec.write(mask, to: folder.appendingPathComponent("mask.png"))
        let json = """
            {"canvas": {"width": 80, "height": 60, "scale": 1},
             "background": [{"type": "image", "path": "photo.png"}],
             "label": {"mask": "mask.png", "origin": [20, 20], "scale": 1},
             "glass": [{"shape": "circle", "frame": {"x": 15, "y": 5, "width": 50, "height": 50}}]}
            """
        let scene = try Scene.decode(Data(json.utf8))
        let parameters = try resolve(scene, directory: folder)
        #expect(parameters.labelWords.contains { $0 != 0 }, "the label mask was placed")
        let cpu = try LensRenderer(backend: .cpu).render(parameters)
        let gpu = try SharedGPU.with { try $0.render(parameters) }
        let diff = try ImageDiff(gpu, cpu)
        #expect(diff.maxError.max() <= 1 && diff.identicalFraction >= 0.999, "\(diff.report)")
    }
}

@Suite("PNG files")
struct PNGTests {
    @Test("PNG round trip is lossless")
    func roundTrip() throws {
        let image = RGBA8Image(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 10) })
        #expect(try PNGCodec.decode(PNGCodec.encode(image)) == image)
    }

    @Test("Unreadable and corrupt images give clear errors")
    func badImages() throws {
        let folder = try temporaryFolder("png")
        let missing = #expect(throws: ImageFileError.self) {
            try PNGCodec.read(contentsOf: folder.appendingPathComponent("missing.png"))
        }
        #expect(missing?.description.contains("missing.png") == true)
        let corrupt = folder.appendingPathComponent("corrupt.png")
        try Data("not a png at all".utf8).write(to: corrupt)
        let error = #expect(throws: ImageFileError.self) { try PNGCodec.read(contentsOf: corrupt) }
        #expect(error?.description.contains("not a PNG") == true)
    }

    @Test("A failed write leaves the existing file intact")
    func atomicWrite() throws {
        let folder = try temporaryFolder("atomic")
        let target = folder.appendingPathComponent("out.png")
        let original = RGBA8Image(width: 1, height: 1, pixels: [1, 2, 3, 255])
        try PNGCodec.write(original, to: target)
        #expect(throws: ImageFileError.self) {
            try PNGCodec.write(original, to: folder.appendingPathComponent("out.png/inside.png"))
        }
        #expect(try PNGCodec.read(contentsOf: target) == original)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["out.png"])
    }
}

@Suite("Sample scene files")
struct SampleSceneTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenes")
    static let files =
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted())
        ?? []

    @Test("Every sample scene decodes", arguments: files)
    func decodes(_ file: String) throws {
        let scene = try Scene.load(contentsOf: Self.folder.appendingPathComponent(file))
        #expect(!scene.glass.isEmpty || !scene.controls.isEmpty)
    }

    @Test("Scenes survive a JSON round trip (encode, decode, encode gives the same JSON)")
    func jsonRoundTrip() throws {
        var scene = try Scene.load(contentsOf: Self.folder.appendingPathComponent("glass-gallery.json"))
        scene.background += [
            BackgroundLayer(.solid(.black), opacity: 0.1),
            BackgroundLayer(.checker(size: 8, colors: [.black, .white])),
            BackgroundLayer(.fill(shape: .capsule, frame: Rect(x: 1, y: 2, width: 30, height: 10), color: .white)),
            BackgroundLayer(.image(path: "photo.png")), BackgroundLayer(.probe(.ramp)),
        ]
        scene.label = LabelLayer(mask: .file("mask.png"), origin: Point(x: 3, y: 4))
        scene.glass.append(GlassElement(shape: .circle, frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let first = try encoder.encode(scene)
        let second = try encoder.encode(Scene.decode(first))
        #expect(String(decoding: first, as: UTF8.self) == String(decoding: second, as: UTF8.self))
    }

    @Test("The glass gallery renders alike on both backends")
    func galleryParity() throws {
        let scene = try Scene.load(contentsOf: Self.folder.appendingPathComponent("glass-gallery.json"))
        let parameters = try resolve(scene, directory: Self.folder)
        let cpu = try LensRenderer(backend: .cpu).render(parameters)
        let gpu = try SharedGPU.with { try $0.render(parameters) }
        let diff = try ImageDiff(gpu, cpu)
        if diff.maxError.max() > 1 || diff.identicalFraction < 0.999 {
            let folder = writeFailureImages(name: "glass-gallery", actual: gpu, expected: cpu)
            Issue.record("glass gallery differs:\n\(diff.report)\nimages in \(folder)")
        }
    }
}
