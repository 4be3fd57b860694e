import Foundation
import LiquidLens
import Testing

@testable import LensModel
@testable import LensReference
@testable import LensResolve

private func scene(_ json: String) throws -> Scene {
    try Scene.decode(Data(json.utf8))
}

/// A box holds another, within a pixel's rounding.
private func holds(_ outer: PixelBox, _ inner: PixelBox) -> Bool {
    inner.x >= outer.x - 1 && inner.y >= outer.y - 1 && inner.x + inner.width <= outer.x + outer.width + 1
        && inner.y + inner.height <= outer.y + outer.height + 1
}

@Suite("Annotations")
struct AnnotationTests {
    @Test(
        "Every glass and control part is boxed as drawn; titles' ink lies in their part; the state is the scene's",
        arguments: [BuiltInScene.segmented, .tabBar, .lensMenu])
    func controlsOfExamples(_ example: BuiltInScene) throws {
        let scene = example.scene
        let parameters = try LensRenderer.resolve(scene, annotating: true)
        let annotations = try #require(parameters.annotations)
        #expect(annotations.width == parameters.width && annotations.height == parameters.height)
        #expect(annotations.glass.count == parameters.lenses.count)
        #expect(annotations.controls.map(\.index) == Array(scene.controls.indices))
        for control in annotations.controls {
            #expect(control.glass.allSatisfy { annotations.glass[$0].source == "controls[\(control.index)]" })
            let titled = control.parts.filter { $0.title != nil && $0.glass == nil }
            #expect(titled.count == Self.titles(scene.controls[control.index]))
            for part in control.parts {
                if let glass = part.glass { #expect(part.box == annotations.glass[glass].box) }
                if let text = part.textBox { #expect(holds(part.box, text), "\(part.kind) \(part.index ?? -1)") }
            }
            let state = try #require(control.state)
            #expect(state.lift == Self.lift(scene.controls[control.index]))
            #expect(control.parts.filter { $0.kind == "lens" }.count == 1)
        }
    }

    private static func titles(_ control: Control) -> Int {
        switch control {
        case .segmented(let control): control.titles.count
        case .tabBar(let bar): bar.items.count
        case .lensMenu(let menu): menu.items.count
        case .glass: 0
        }
    }

    private static func lift(_ control: Control) -> Double {
        switch control {
        case .segmented(let control): control.lift
        case .tabBar(let bar): bar.lift
        case .lensMenu(let menu): menu.lift
        case .glass(let control): control.held
        }
    }

    @Test(
        "Glass controls: each boxed by its frame, its glass its parts, a switch's and a slider's knob with their state")
    func glassControls() throws {
        let folder = packageRoot.appendingPathComponent("Tests/Samples")
        let scene = try Scene.decode(Data(contentsOf: folder.appendingPathComponent("controls.json")))
        let annotations = try LensRenderer.annotations(of: scene, baseDirectory: folder)
        #expect(annotations.controls.map(\.type) == ["button", "button", "switch", "slider", "card"])
        for (control, annotation) in zip(scene.controls, annotations.controls) {
            guard case .glass(let glass) = control else { continue }
            #expect(annotation.box == PixelBox(glass.frame, scale: scene.canvas.scale))
            #expect(!annotation.glass.isEmpty && annotation.parts.compactMap(\.glass) == annotation.glass)
            #expect(annotation.glass.allSatisfy { annotations.glass[$0].source == "controls[\(annotation.index)]" })
        }
        let knobs = annotations.controls.map { $0.parts.filter { $0.kind == "knob" }.count }
        #expect(knobs == [0, 0, 1, 1, 0])
        guard case .glass(let toggle) = scene.controls[2] else { return }
        #expect(annotations.controls[2].state == ControlState(lift: 0.5, position: toggle.knobPosition))
        #expect(annotations.controls[3].state == ControlState(lift: 0, position: 0.3))
    }

    @Test("A lifted lens's box is its grown shape, and the selected index follows the lens")
    func liftedLens() throws {
        func lens(lift: Double, position: Double) throws -> (PixelBox, ControlState) {
            var scene = BuiltInScene.segmented.scene
            guard case .segmented(var control) = scene.controls[0] else { throw SceneError(keyPath: "", message: "") }
            control.lift = lift
            control.thumbPosition = position
            scene.controls[0] = .segmented(control)
            let annotation = try LensRenderer.annotations(of: scene).controls[0]
            let part = try #require(annotation.parts.first { $0.kind == "lens" })
            return (part.box, try #require(annotation.state))
        }
        let (resting, restingState) = try lens(lift: 0, position: 2)
        let (lifted, liftedState) = try lens(lift: 1, position: 2.6)
        let scale = BuiltInScene.segmented.scene.canvas.scale
        // LensLift growth (24, 16) pt at full lift.
        #expect(abs(lifted.height - resting.height - 16 * scale) < 0.02)
        #expect(restingState.selectedIndex == 2 && liftedState.selectedIndex == 3)
        #expect(liftedState.position == 2.6 && liftedState.lift == 1)
    }

    @Test("The backdrop's luminance under a glass: white 1, black 0, half and half between")
    func backdropLuminance() throws {
        let annotations = try LensRenderer.annotations(
            of: scene(
                """
                {"canvas": {"width": 200, "height": 100, "scale": 1},
                 "background": [{"type": "solid", "color": "#000000"},
                                {"type": "fill", "shape": {"type": "roundedRectangle", "cornerRadius": 0}, "frame": {"x": 0, "y": 0, "width": 100, "height": 100},
                                 "color": "#ffffff"}],
                 "glass": [{"shape": {"type": "roundedRectangle", "cornerRadius": 0}, "frame": {"x": 10, "y": 10, "width": 60, "height": 60}},
                           {"shape": {"type": "roundedRectangle", "cornerRadius": 0}, "frame": {"x": 120, "y": 10, "width": 60, "height": 60}},
                           {"shape": {"type": "roundedRectangle", "cornerRadius": 0}, "frame": {"x": 70, "y": 10, "width": 60, "height": 60}, "id": "middle"}]}
                """))
        let luminance = annotations.glass.map(\.backdropLuminance)
        #expect(luminance[0] == 1 && luminance[1] == 0)
        #expect(abs((luminance[2] ?? 0) - 0.5) < 1e-9)
        #expect(annotations.glass.map(\.source) == ["glass[0]", "glass[1]", "glass[2]"])
        #expect(
            annotations.glass[2].id == "middle"
                && annotations.glass[2].box == PixelBox(x: 70, y: 10, width: 60, height: 60))
    }

    @Test("The optics are the effective ones: a material's frost and tint, not the element's own")
    func effectiveOptics() throws {
        let annotations = try LensRenderer.annotations(
            of: scene(
                """
                {"canvas": {"width": 200, "height": 100, "scale": 2},
                 "background": [{"type": "solid", "color": "#336699"}],
                 "glass": [{"shape": "capsule", "frame": {"x": 10, "y": 10, "width": 180, "height": 60}, "material": "frosted"},
                           {"shape": "capsule", "frame": {"x": 10, "y": 10, "width": 180, "height": 60},
                            "optics": {"frost": 3}}]}
                """))
        // Frosted's blur 20 is a frost σ of 10.
        #expect(annotations.glass[0].optics.frost == 10)
        #expect(annotations.glass[1].optics.frost == 3)
        #expect(annotations.scale == 2 && annotations.glass[0].box.width == 360)
    }

    @Test("Annotating changes nothing drawn", arguments: [BuiltInScene.tabBar, .lensMenu])
    func samePixels(_ example: BuiltInScene) throws {
        let plain = try LensRenderer.resolve(example.scene)
        let annotated = try LensRenderer.resolve(example.scene, annotating: true)
        #expect(plain.annotations == nil)
        let reference = ReferenceRenderer()
        #expect(reference.render(plain).pixels == reference.render(annotated).pixels)
    }

    @Test("render --annotations and batch --annotations write JSON beside the frames; a stream refuses them")
    func commandLine() throws {
        let folder = try temporaryFolder("annotations")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("bar.png").path
        let json = folder.appendingPathComponent("bar.json")
        let render = try runCLI(["render", "--example", "tab-bar", "-o", image, "--annotations", json.path, "-q"])
        #expect(render.status == 0, "\(render.stderr)")
        let decoded = try JSONDecoder().decode(FrameAnnotations.self, from: Data(contentsOf: json))
        #expect(decoded.controls.first?.type == "tabBar" && decoded.glass.count == 2)
        let both = try runCLI(["render", "--example", "tab-bar", "-o", "-", "--annotations", "-", "-q"])
        #expect(both.status == 64 && both.stderr.contains("cannot both go to stdout"))

        let manifest = try writeRandomManifest(folder, count: 3)
        let frames = folder.appendingPathComponent("frames")
        let batch = try runCLI(["batch", manifest.path, "-o", frames.path, "--annotations", "-q", "--backend", "cpu"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        #expect(
            names == [
                "move-00001.json", "move-00001.png", "move-00002.json", "move-00002.png", "move-00003.json",
                "move-00003.png",
            ])
        let second = try JSONDecoder().decode(
            FrameAnnotations.self, from: Data(contentsOf: frames.appendingPathComponent("move-00002.json")))
        let expected = try LensRenderer.annotations(of: try BatchManifest.load(contentsOf: manifest).scene(1).scene)
        let written = try JSONDecoder().decode(FrameAnnotations.self, from: JSONEncoder().encode(expected))
        #expect(second == written)
        // A frame whose annotations are missing is not complete for a resumed run with them.
        try FileManager.default.removeItem(at: frames.appendingPathComponent("move-00003.json"))
        let resumed = try runCLI([
            "batch", manifest.path, "-o", frames.path, "--annotations", "--resume", "--backend", "cpu",
        ])
        #expect(
            resumed.status == 0 && (resumed.stdout + resumed.stderr).contains("wrote 1 frames"),
            "\(resumed.stdout) \(resumed.stderr)")
        #expect(FileManager.default.fileExists(atPath: frames.appendingPathComponent("move-00003.json").path))
        let streamed = try runCLI(["batch", manifest.path, "-o", "-", "--format", "pam", "--annotations", "-q"])
        #expect(streamed.status == 64 && streamed.stderr.contains("give -o a folder"))
    }

    @Test("animate --annotations writes every frame's annotations at its time, resumed frames' too")
    func animation() throws {
        struct Written: Decodable {
            let fps: Double
            let frames: [FrameAnnotations]
        }
        let folder = try temporaryFolder("animate-annotations")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("drag.json")
        let arguments = [
            "animate", "--example", "segmented-drag", "--duration", "0.5", "--fps", "8", "--scale", "1", "--backend",
            "cpu", "-o", folder.appendingPathComponent("frames").path, "--annotations", json.path, "-q",
        ]
        let first = try runCLI(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let written = try JSONDecoder().decode(Written.self, from: Data(contentsOf: json))
        #expect(written.fps == 8 && written.frames.map(\.time) == (0..<4).map { Double($0) / 8 })
        let lenses = written.frames.compactMap { $0.controls.first?.parts.first { $0.kind == "lens" }?.box }
        #expect(lenses.count == 4 && lenses.first != lenses.last, "the dragged lens moves")
        let expected = try LensRenderer.annotations(of: BuiltInAnimation.segmentedDrag.frame(at: 0.25), scale: 1)
        let roundTripped = try JSONDecoder().decode(FrameAnnotations.self, from: JSONEncoder().encode(expected))
        #expect(written.frames[2] == roundTripped)
        // Frames kept by --resume are annotated too.
        try FileManager.default.removeItem(at: json)
        #expect(try runCLI(arguments + ["--resume"]).status == 0)
        #expect(try JSONDecoder().decode(Written.self, from: Data(contentsOf: json)).frames == written.frames)
        let both = try runCLI(["animate", "--format", "gif", "-o", "-", "--annotations", "-", "-q"])
        #expect(both.status == 64 && both.stderr.contains("cannot both go to stdout"))
    }

    @Test(
        "coco gathers a folder's annotations: an image per frame, a box per glass, control, part and title; none fails")
    func coco() throws {
        let folder = try temporaryFolder("coco")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("controls.json")
        try Data(
            """
            {"scenes": [{"example": "segmented"}, {"example": "tab-bar"}], "name": "c", "count": 4, "seed": 2,
             "sample": [{"key": "controls[0].lift", "uniform": [0, 1]}]}
            """.utf8
        ).write(to: manifest)
        let frames = folder.appendingPathComponent("frames")
        #expect(
            try runCLI(["batch", manifest.path, "-o", frames.path, "--annotations", "-q", "--backend", "cpu"]).status
                == 0)
        let output = folder.appendingPathComponent("coco.json")
        let run = try runCLI(["coco", frames.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let dataset = try JSONDecoder().decode(COCODataset.self, from: Data(contentsOf: output))
        #expect(dataset.images.map(\.fileName) == ["c-00001.png", "c-00002.png", "c-00003.png", "c-00004.png"])
        var expected = 0
        for (index, image) in dataset.images.enumerated() {
            let frame = try JSONDecoder().decode(
                FrameAnnotations.self, from: Data(contentsOf: frames.appendingPathComponent("c-0000\(index + 1).json")))
            let boxes = COCODataset.boxes(frame)
            #expect(dataset.annotations.filter { $0.imageID == image.id }.map(\.bbox) == boxes.map(\.box))
            let parts = frame.controls.flatMap(\.parts)
            #expect(
                boxes.count == frame.glass.count + frame.controls.count + parts.count
                    + parts.compactMap(\.textBox).count)
            expected += boxes.count
        }
        #expect(dataset.annotations.map(\.id) == Array(1...expected))
        let names = Set(dataset.categories.map(\.name))
        #expect(
            dataset.annotations.allSatisfy { annotation in
                dataset.categories.contains { $0.id == annotation.categoryID }
            })
        #expect(names.isSuperset(of: ["glass", "segmented", "tabBar", "segment", "tab", "lens", "platter", "text"]))
        let empty = try runCLI(["coco", folder.appendingPathComponent("nothing").path])
        #expect(empty.status != 0 && empty.stderr.contains("cannot read the folder"))
        let none = try runCLI(["coco", folder.path])
        #expect(none.status == 1 && none.stderr.contains("holds no annotated frames"))
    }
}
