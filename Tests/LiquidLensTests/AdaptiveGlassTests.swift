import Foundation
import LiquidLens
import Testing

/// A 200 × 100 pt page, its left half black and its right half `right`, glass laid on it.
private func halves(right: RGBAColor = .white, glass: [GlassElement] = [], controls: [Control] = []) -> Scene {
    Scene(
        canvas: Canvas(width: 200, height: 100, scale: 1),
        background: [
            BackgroundLayer(.solid(right)),
            BackgroundLayer(
                .fill(
                    shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    frame: Rect(x: 0, y: 0, width: 100, height: 100),
                    color: .black)),
        ], glass: glass, controls: controls)
}

/// A 200 × 100 pt page of one colour under `controls`.
private func page(_ color: RGBAColor, controls: [Control]) -> Scene {
    Scene(
        canvas: Canvas(width: 200, height: 100, scale: 1), background: [BackgroundLayer(.solid(color))], glass: [],
        controls: controls)
}

/// A capsule over the left (black) or right half, light or dark as given, adaptive or pinned.
private func capsule(left: Bool, dark: Bool = false, adaptive: Bool = true) -> GlassElement {
    var optics = Optics()
    optics.appearance = dark ? .dark : .light
    var element = GlassElement(
        shape: .capsule, frame: Rect(x: left ? 10 : 110, y: 30, width: 80, height: 40), optics: optics)
    element.adaptive = adaptive ? AdaptiveAppearance() : nil
    return element
}

/// The appearance each glass element of `scene` is drawn with.
private func appearances(_ scene: Scene, cache: ResolveCache? = nil) throws -> [Appearance] {
    let parameters = try LensRenderer.resolve(scene, cache: cache, annotating: true)
    return try #require(parameters.annotations).glass.map(\.optics.appearance)
}

/// sRGB grey 140: relative luminance 0.262, between the default thresholds (0.2 and 0.35).
private let between = RGBAColor(140, 140, 140)

@Suite("Adaptive glass")
struct AdaptiveGlassTests {
    @Test("Adaptive glass turns dark over dark content and light over light; pinned glass keeps its appearance")
    func followsTheBackdrop() throws {
        let scene = halves(glass: [
            capsule(left: true), capsule(left: false, dark: true), capsule(left: true, adaptive: false),
        ])
        #expect(try appearances(scene) == [.dark, .light, .light])
        let parameters = try LensRenderer.resolve(scene, annotating: true)
        let luminance = try #require(parameters.annotations).glass.map(\.backdropLuminance)
        #expect(luminance == [0, 1, 0], "the luminance under each element is reported")
    }

    @Test("Between the thresholds a still keeps the appearance it is given", arguments: [false, true])
    func stillKeepsGiven(_ dark: Bool) throws {
        #expect(
            try appearances(halves(right: between, glass: [capsule(left: false, dark: dark)])) == [
                dark ? .dark : .light
            ])
    }

    @Test("In a sequence, between the thresholds the glass keeps the appearance of the frame before (hysteresis)")
    func sequenceKeepsLast() throws {
        let sequence = ResolveCache(sequence: true)
        let unrelated = ResolveCache()
        // Black, then grey between the thresholds, then white, then grey again.
        let rights: [RGBAColor] = [.black, between, .white, between]
        let seen = try rights.map { try appearances(halves(right: $0, glass: [capsule(left: false)]), cache: sequence) }
        #expect(seen == [[.dark], [.dark], [.light], [.light]])
        let apart = try rights.map {
            try appearances(halves(right: $0, glass: [capsule(left: false)]), cache: unrelated)
        }
        #expect(
            apart == [[.dark], [.light], [.light], [.light]], "without a sequence each frame starts from its scene")
    }

    @Test("An adaptive tab bar draws as the tab bar of the appearance under it", arguments: [false, true])
    func tabBarAdapts(_ overBlack: Bool) throws {
        func bar(_ appearance: ControlAppearance, adaptive: Bool) -> Control {
            var bar = TabBar(
                center: Point(x: 100, y: 50), width: 180, height: 56,
                items: [ControlItem(title: "Home"), ControlItem(title: "Inbox")], lensPosition: 0, lift: 0,
                appearance: appearance)
            bar.adaptive = adaptive ? AdaptiveAppearance() : nil
            return .tabBar(bar)
        }
        let color = overBlack ? RGBAColor.black : .white
        let adaptive = try render(
            resolve(page(color, controls: [bar(.light, adaptive: true)])), on: .cpu)
        let pinned = try render(
            resolve(page(color, controls: [bar(overBlack ? .dark : .light, adaptive: false)])), on: .cpu)
        #expect(adaptive == pinned)
        let light = try render(
            resolve(page(color, controls: [bar(.light, adaptive: false)])), on: .cpu)
        #expect((adaptive == light) == !overBlack, "over black the bar is not drawn light")
    }

    @Test("animate carries the appearance from frame to frame, and a resumed run draws the same frames")
    func animateCarriesAppearance() throws {
        let folder = try temporaryFolder("adaptive")
        // Dark rows scroll away from under the glass: dark, then grey between the thresholds
        // (kept dark), then white.
        let sceneJSON = """
            {"canvas": {"width": 120, "height": 80, "scale": 1},
             "background": [{"type": "solid", "color": "#ffffff"},
                            {"type": "fill", "shape": {"type": "roundedRectangle", "cornerRadius": 0},
                             "frame": {"x": 0, "y": 0, "width": 120, "height": 80}, "color": "#000000"},
                            {"type": "fill", "shape": {"type": "roundedRectangle", "cornerRadius": 0},
                             "frame": {"x": 0, "y": 80, "width": 120, "height": 80}, "color": "#8c8c8c"}],
             "glass": [{"shape": "capsule", "frame": {"x": 20, "y": 20, "width": 80, "height": 40}, "adaptive": {}}],
             "animation": {"duration": 1, "scrolls": [{"time": 0, "distance": 160, "layers": [1, 2]}]}}
            """
        let scene = folder.appendingPathComponent("adaptive.json")
        try Data(sceneJSON.utf8).write(to: scene)
        let frames = folder.appendingPathComponent("frames/")
        let annotations = folder.appendingPathComponent("a.json")
        let first = try runCLI(
            [
                "animate", scene.path, "--fps", "10", "--duration", "1", "-o", frames.path + "/", "--annotations",
                annotations.path,
                "--backend", "cpu", "-q",
            ])
        #expect(first.status == 0, "\(first.stderr)")
        let seen = try Self.annotatedAppearances(in: annotations)
        #expect(seen.first == "dark" && seen.last == "light", "\(seen)")
        #expect(seen.firstIndex(of: "light") ?? 0 > 1, "it stays dark a while over the grey: \(seen)")
        // Remove half the frames; the resumed run must draw them as the whole run did.
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        let kept = try names.map { try Data(contentsOf: frames.appendingPathComponent($0)) }
        for name in names.enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
            try FileManager.default.removeItem(at: frames.appendingPathComponent(name))
        }
        let resumed = try runCLI(
            [
                "animate", scene.path, "--fps", "10", "--duration", "1", "-o", frames.path + "/", "--resume",
                "--backend", "cpu", "-q",
            ])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try names.map { try Data(contentsOf: frames.appendingPathComponent($0)) } == kept)
        // `--progress json` reports the choice and the luminance frame by frame: dark over the grey,
        // between the thresholds, after dark frames.
        let reported = try runCLI(
            [
                "animate", scene.path, "--fps", "10", "--duration", "1", "-o", folder.path + "/again/", "--backend",
                "cpu",
                "--progress", "json",
            ])
        #expect(reported.status == 0, "\(reported.stderr)")
        let held = reported.stderr.split(separator: "\n").filter {
            $0.contains(#""appearance":["dark"]"#) && $0.contains(#""backdropLuminance":[0.26"#)
        }
        #expect(!held.isEmpty, "no frame reports dark glass over the grey: \(reported.stderr)")
    }

    static func annotatedAppearances(in file: URL) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let frames = try #require(object?["frames"] as? [[String: Any]])
        return frames.compactMap { frame in
            ((frame["glass"] as? [[String: Any]])?.first?["optics"] as? [String: Any])?["appearance"] as? String
        }
    }
}
