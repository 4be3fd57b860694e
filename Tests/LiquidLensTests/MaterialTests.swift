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

/// A grey backdrop with one large glass rectangle, so its flat interior shows the material alone.
private func materialScene(_ configure: (inout GlassElement) -> Void, accessibility: Accessibility = Accessibility())
    -> Scene
{
    var glass = GlassElement(
        shape: .roundedRectangle(cornerRadii: [16, 16, 16, 16]), frame: Rect(x: 20, y: 20, width: 200, height: 120))
    configure(&glass)
    return Scene(
        canvas: Canvas(width: 240, height: 160, scale: 1),
        background: [BackgroundLayer(.solid(RGBAColor(128, 128, 128)))],
        glass: [glass], accessibility: accessibility)
}

/// A busy backdrop (gradient, checker, lines) under the same rectangle: refraction shows in the band.
private func busyScene(_ configure: (inout GlassElement) -> Void, accessibility: Accessibility = Accessibility())
    -> Scene
{
    var scene = materialScene(configure, accessibility: accessibility)
    scene.background = ParityScene.busyBackground
    return scene
}

private func renderCPU(_ scene: Scene) throws -> RGBA8Image {
    ReferenceRenderer().render(try LensRenderer.resolve(scene))
}

/// Mean colour of a pixel rectangle.
private func mean(_ image: RGBA8Image, x: Range<Int>, y: Range<Int>) -> SIMD3<Double> {
    var sum = SIMD3<Double>.zero
    for py in y {
        for px in x {
            let pixel = image[px, py]
            sum += SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z))
        }
    }
    return sum / Double(x.count * y.count)
}

private func largestDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let difference: SIMD3<Double> = a - b
    return max(abs(difference.x), abs(difference.y), abs(difference.z))
}

private func allPixels(_ image: RGBA8Image) -> [SIMD4<UInt8>] {
    var pixels: [SIMD4<UInt8>] = []
    for y in 0..<image.height {
        for x in 0..<image.width { pixels.append(image[x, y]) }
    }
    return pixels
}

private func brightness(_ pixel: SIMD4<UInt8>) -> Int { Int(pixel.x) + Int(pixel.y) + Int(pixel.z) }
private func redness(_ pixel: SIMD4<UInt8>) -> Int { Int(pixel.x) - Int(pixel.y) }

/// The 8-bit colour a material should give over an 8-bit grey: the tint over the grey on sRGB
/// values, as Core Animation blends (saturation leaves grey alone).
private func expectedTint(_ material: Material, over grey: Double) -> SIMD3<Double> {
    let tint = material.tint
    let channels = [tint.red, tint.green, tint.blue].map { channel in
        grey * (1 - tint.alpha) + channel * 255 * tint.alpha
    }
    return SIMD3(channels[0], channels[1], channels[2])
}

@Suite("Materials, themes and accessibility")
struct MaterialTests {
    @Test(
        "A material's flat interior is its tint over the backdrop, within 1.5 levels",
        arguments: Material.standard + [
            .custom(blur: 12, tint: RGBAColor(red: 0.9, green: 0.2, blue: 0.4, alpha: 0.4), saturation: 1, opacity: 1)
        ])
    func materialTint(_ material: Material) throws {
        let image = try renderCPU(materialScene { $0.material = material })
        let interior = mean(image, x: 100..<140, y: 70..<90)
        let expected = expectedTint(material, over: 128)
        #expect(largestDifference(interior, expected) <= 1.5, "\(material.name): \(interior) vs \(expected)")
    }

    @Test("Every control of the gallery takes its theme's material; the knobs keep their own")
    func controlsUseThemeMaterial() throws {
        for material in Material.standard {
            let panel = GlassControlsPanel(theme: Theme(material: material))
            let scene = panel.scene(scale: 1)
            let parameters = try LensRenderer.resolve(scene)
            #expect(parameters.lenses.count == scene.glass.count)
            for (element, lens) in zip(scene.glass, parameters.lenses) {
                let expected = (element.material ?? material).tint.premultiplied(for: scene.blending)
                #expect(lens.tint == expected, "\(material.name)")
                let saturation = Float((element.material ?? material).saturation)
                #expect(lens.saturation == saturation)
            }
            #expect(
                scene.glass.filter { $0.material == PanelBuilder.knobMaterial }.count == 4,
                "three switch knobs and the slider knob")
        }
    }

    @Test("An explicit material on an element overrides the scene's theme")
    func explicitMaterialWins() throws {
        var scene = materialScene { $0.material = .clear }
        scene.glass.append(
            GlassElement(shape: .circle, frame: Rect(x: 180, y: 100, width: 40, height: 40)))
        scene.theme = Theme(material: .dark)
        let parameters = try LensRenderer.resolve(scene)
        #expect(parameters.lenses[0].tint == Material.clear.tint.linearPremultiplied)
        #expect(parameters.lenses[1].tint == Material.dark.tint.linearPremultiplied)
    }

    @Test("Native and fallback differ in the bevel band and agree in the flat interior (≤ 1 level)")
    func nativeAndFallback() throws {
        let native = try renderCPU(busyScene { $0.material = .frosted })
        let fallback = try renderCPU(
            busyScene {
                $0.material = .frosted
                $0.renderingPath = .fallback
            })
        let interior = try ImageDiff(
            native.cropped(x: 60..<180, y: 50..<110), fallback.cropped(x: 60..<180, y: 50..<110), threshold: 1)
        #expect(interior.maxError.max() <= 1, "flat interior: \(interior.report)")
        let band = try ImageDiff(
            native.cropped(x: 24..<36, y: 50..<110), fallback.cropped(x: 24..<36, y: 50..<110), threshold: 1)
        #expect(band.meanError.max() > 8, "the band refracts on the native path only: \(band.report)")
    }

    @Test("Reduce Transparency makes the glass an opaque surface")
    func reduceTransparency() throws {
        let busy = try renderCPU(
            busyScene({ $0.material = .frosted }, accessibility: Accessibility(reduceTransparency: true)))
        let interior = busy.cropped(x: 60..<180, y: 50..<110)
        for y in 0..<interior.height {
            for x in 0..<interior.width {
                let pixel = interior[x, y]
                #expect(abs(Int(pixel.x) - 242) <= 1 && abs(Int(pixel.y) - 242) <= 1 && abs(Int(pixel.z) - 247) <= 1)
            }
        }
        let dark = try renderCPU(
            busyScene({ $0.material = .dark }, accessibility: Accessibility(reduceTransparency: true)))
        #expect(dark[120, 80] == SIMD4(28, 28, 30, 255))
    }

    @Test("Increase Contrast strengthens the edge: a brighter edge highlight and a dark contour")
    func increaseContrast() throws {
        let plain = try LensRenderer.resolve(
            busyScene {
                $0.material = .frosted
                $0.renderingPath = .fallback
            })
        let strong = try LensRenderer.resolve(
            busyScene(
                {
                    $0.material = .frosted
                    $0.renderingPath = .fallback
                }, accessibility: Accessibility(increaseContrast: true)))
        #expect(strong.lenses[0].edgeHighlight.y == min(1, 2 * plain.lenses[0].edgeHighlight.y))
        #expect(strong.lenses[0].edgeHighlight.x >= 1)
        #expect(strong.lenses[0].contourOpacity > plain.lenses[0].contourOpacity)
    }

    @Test("Dark glass carries white labels, destructive labels are red, disabled ones faint")
    func labelColours() throws {
        let dark = GlassControlsPanel(theme: Theme(material: .dark)).scene(scale: 1)
        let image = try renderCPU(dark)
        // The card title "Liquid Glass" (centre 180, 358) on dark glass: its glyph cores are white.
        let brightest = allPixels(image.cropped(x: 130..<230, y: 350..<368)).max { brightness($0) < brightness($1) }!
        #expect(brightest.x >= 235 && brightest.y >= 235 && brightest.z >= 235, "\(brightest)")
        // "Delete" (centre 292, 192): its reddest pixel is the destructive colour.
        let reddest = allPixels(image.cropped(x: 262..<322, y: 184..<200)).max { redness($0) < redness($1) }!
        #expect(
            abs(Int(reddest.x) - 255) <= 6 && abs(Int(reddest.y) - 59) <= 12 && abs(Int(reddest.z) - 48) <= 12,
            "\(reddest)")
        let light = GlassControlsPanel(theme: Theme(material: .frosted))
        #expect(light.labelColor.luminance < 0.05)
        #expect(light.disabledColor.alpha < 0.5)
    }

    @Test("The sheet dims the backdrop only while presented")
    func sheetDims() throws {
        let presented = try renderCPU(GlassControlsPanel(theme: Theme(material: .clear)).scene(scale: 1))
        let hidden = try renderCPU(
            GlassControlsPanel(theme: Theme(material: .clear), sheetPresented: false).scene(scale: 1))
        // Open backdrop right of the state buttons' row and below the sheet's top edge.
        let open = mean(presented, x: 348..<356, y: 214..<226)
        let undimmed = mean(hidden, x: 348..<356, y: 214..<226)
        #expect((open / undimmed).max() < 0.85, "dimmed while presented: \(open) vs \(undimmed)")
        let sheet = mean(presented, x: 20..<60, y: 630..<638)
        let noSheet = mean(hidden, x: 20..<60, y: 630..<638)
        #expect(largestDifference(sheet, noSheet) > 10, "the sheet's glass is there only while presented")
    }

    @Test("A gradient tint runs across the glass; its intensity is clamped and NaN is rejected")
    func gradientTint() throws {
        let image = try renderCPU(
            materialScene {
                $0.gradientTint = GradientTint(
                    colors: [RGBAColor(255, 0, 0), RGBAColor(0, 0, 255)], angle: 0, intensity: 3)
            })
        let left = image[40, 80]
        let right = image[200, 80]
        #expect(
            left.x > left.z + 100 && right.z > right.x + 100, "red on the left, blue on the right: \(left) \(right)")
        #expect(GradientTint(colors: [.white, .black], intensity: 3).intensity == 1)
        #expect(throws: SceneError.self) {
            _ = try LensRenderer.resolve(
                materialScene { $0.gradientTint = GradientTint(colors: [.white, .black], intensity: .nan) })
        }
        #expect(throws: SceneError.self) {
            _ = try Scene.decode(
                Data(
                    ##"{"canvas": {"width": 10, "height": 10}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 5, "height": 5}, "gradientTint": {"colors": ["#ffffff"], "intensity": 0.5}}]}"##
                        .utf8))
        }
    }

    @Test("Pulse, breathe and shimmer move with time; Reduce Motion stills them")
    func animatedHighlights() throws {
        func lens(_ kind: HighlightAnimation, at time: Double, reduceMotion: Bool = false) throws -> LensParams {
            var scene = busyScene(
                { $0.highlight = AnimatedHighlight(kind, intensity: 1) },
                accessibility: Accessibility(reduceMotion: reduceMotion))
            scene.time = time
            return try LensRenderer.resolve(scene).lenses[0]
        }
        let rest = try lens(.pulse, at: 0)
        let dimmest = try lens(.pulse, at: 2)
        #expect(abs(dimmest.keyLight.z / rest.keyLight.z - 0.85) < 1e-5, "pulse reaches 1 − 0.15·intensity at 2 s")
        #expect(abs(try lens(.pulse, at: 4).keyLight.z - rest.keyLight.z) < 1e-6, "and comes back at 4 s")
        #expect(try lens(.breathe, at: 4).brightness > lens(.breathe, at: 0).brightness)
        #expect(try lens(.shimmer, at: 0.5).shimmer.x != lens(.shimmer, at: 1.5).shimmer.x)
        #expect(try lens(.shimmer, at: 0.5).shimmer.z > 0)
        #expect(try lens(.pulse, at: 2, reduceMotion: true) == lens(.pulse, at: 0, reduceMotion: true))
        #expect(try lens(.shimmer, at: 1, reduceMotion: true).shimmer.z == 0)
        let early = try renderCPU(busyScene { $0.highlight = AnimatedHighlight(.shimmer) })
        var later = busyScene { $0.highlight = AnimatedHighlight(.shimmer) }
        later.time = 1.2
        let moved = try renderCPU(later) != early
        #expect(moved, "the shimmer band moves")
    }

    @Test("Dynamic Type scales the gallery's titles and grows its controls")
    func dynamicType() throws {
        let stock = GlassControlsPanel(theme: Theme(material: .frosted)).scene(scale: 1)
        let large = GlassControlsPanel(theme: Theme(material: .frosted), contentSize: .accessibility3).scene(scale: 1)
        func titleSize(_ scene: Scene) -> Double? {
            for layer in scene.foreground {
                if case .text("Liquid Glass", _, let size, _, _) = layer.kind { return size }
            }
            return nil
        }
        #expect(try #require(titleSize(large)) > 2 * #require(titleSize(stock)))
        let stockHeights = stock.glass.map(\.shapes[0].frame.height)
        let largeHeights = large.glass.map(\.shapes[0].frame.height)
        #expect(zip(stockHeights, largeHeights).allSatisfy { $0 <= $1 })
        #expect(zip(stockHeights, largeHeights).filter { $0 < $1 }.count >= 8, "buttons, fields, card and bars grow")
    }

    @Test("Themes decode from a preset name or a preset with overrides; unknown names are errors")
    func themeDecoding() throws {
        #expect(ThemePreset.allCases.count == 17)
        let scene = try Scene.decode(
            Data(#"{"canvas": {"width": 10, "height": 10}, "theme": {"preset": "arctic", "cornerRadius": 4}}"#.utf8))
        var expected = ThemePreset.arctic.theme
        expected.cornerRadius = 4
        #expect(scene.theme == expected)
        let named = try Scene.decode(Data(#"{"canvas": {"width": 10, "height": 10}, "theme": "ocean"}"#.utf8))
        #expect(named.theme == ThemePreset.ocean.theme)
        #expect {
            _ = try Scene.decode(Data(#"{"canvas": {"width": 10, "height": 10}, "theme": "glassy"}"#.utf8))
        } throws: { "\($0)".contains("theme") && "\($0)".contains("unknown theme \"glassy\"") }
    }

    @Test("Exported theme JSON reads back as the same theme", arguments: ThemePreset.allCases)
    func exportJSON(_ preset: ThemePreset) throws {
        let data = try ThemeExport.json(preset.theme)
        #expect(try JSONDecoder().decode(Theme.self, from: data) == preset.theme)
    }

    @Test("The exported Swift source of every preset compiles against the LiquidLens module")
    func exportSwiftCompiles() throws {
        let folder = try temporaryFolder("theme-swift")
        var source = ThemeExport.swift(ThemePreset.standard.theme, name: "standard")
        for preset in ThemePreset.allCases.dropFirst() {
            source += ThemeExport.swift(preset.theme, name: preset.rawValue)
                .replacingOccurrences(of: "import LiquidLens\n", with: "")
        }
        source += "let all: [Theme] = [\(ThemePreset.allCases.map(\.rawValue).joined(separator: ", "))]\n"
        let file = folder.appendingPathComponent("themes.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let cModules = try FileManager.default.contentsOfDirectory(
            atPath: packageRoot.appendingPathComponent("Sources").path
        )
        .filter { $0.hasPrefix("C") }
        .flatMap { ["-I", packageRoot.appendingPathComponent("Sources/\($0)").path] }
        let modules = cliBinary().deletingLastPathComponent().appendingPathComponent("Modules").path
        // The C modules' header folders, as SwiftPM finds them for the package (Package.swift's pkgConfig names).
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pkgConfig.arguments =
            ["pkg-config", "--cflags-only-I"]
            + [
                "freetype2", "harfbuzz", "libpng", "fontconfig", "libjpeg", "libwebpdemux", "libheif", "librsvg-2.0",
                "lcms2",
            ]
        let flags = Pipe()
        pkgConfig.standardOutput = flags
        try pkgConfig.run()
        let headerFolders = String(decoding: flags.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
        pkgConfig.waitUntilExit()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", modules] + cModules + headerFolders + [file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test(
        "The controls gallery: GPU matches CPU within 1/255, validation silent", arguments: ControlAppearance.allCases)
    func galleryParity(_ appearance: ControlAppearance) throws {
        let scene = GlassControlsPanel.gallery(scale: 1, appearances: [appearance])
        let parameters = try LensRenderer.resolve(scene)
        let expected = ReferenceRenderer().render(parameters)
        let actual = try SharedGPU.with { try $0.render(parameters) }
        let diff = try ImageDiff(actual, expected, threshold: 1)
        if diff.maxError.max() > 1 || diff.identicalFraction < 0.999 {
            let folder = writeFailureImages(name: "parity-controls-\(appearance)", actual: actual, expected: expected)
            Issue.record("controls \(appearance): GPU vs CPU\n\(diff.report)\nimages in \(folder)")
        }
    }
}
