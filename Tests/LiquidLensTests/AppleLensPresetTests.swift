import Foundation
import LensCompare
import LiquidLens
import Testing

@testable import LensReference

/// Apple's lens suite, continued: the size laws, scene-file spelling, presets on both backends, and
/// the label under the stage model.
extension AppleLensTests {
    @Test("The blur law: 1.333 + 2.667·u pt with u = sat((S − 48)/112), 1 pt on clear glass; H, A and shadow of S")
    func sizeLaws() {
        for (minor, frost) in [(30.0, 1.333), (48, 1.333), (104, 1.333 + 2.667 * 0.5), (160, 4), (400, 4)] {
            let sized = GlassSizeLaw.regular.applied(to: Optics(preset: .regular), minor: minor)
            #expect(abs(sized.frost - frost) < 1e-9, "S \(minor)")
            #expect(sized.bevelWidth == min(minor / 4, 20) && sized.bevelAmount == min(0.8 * minor, 60))
            #expect(abs(sized.shadow.opacity - 0.4 * (0.5 - 0.25 * GlassSizeLaw.u(minor))) < 1e-9)
            #expect(sized.shadow.offset == Point(x: 0, y: 8) && sized.shadow.radius == 32)
            let clear = GlassSizeLaw.clear.applied(to: Optics(preset: .clear), minor: minor)
            #expect(clear.frost == 1 && clear.shadow == .off)
        }
    }

    @Test(
        "Apple's glass as a theme: the material brings the preset's face, fill and rim, its size law the rest",
        arguments: [AppleGlass.regular, .regularDark, .clear])
    func appleGlassTheme(_ glass: AppleGlass) throws {
        let theme = try #require(ThemePreset.allCases.first { $0.theme.material == .apple(glass) }).theme
        let element = GlassElement(shape: .capsule, frame: Rect(x: 20, y: 30, width: 160, height: 64))
        let scene = Scene(
            canvas: Canvas(width: 200, height: 120, scale: 1), background: [BackgroundLayer(.probe(.white))],
            glass: [element], theme: theme, generation: .ios26)
        let lens = try resolve(scene).lenses[0]
        let preset = GlassSizeLaw(rawValue: glass == .clear ? "clear" : "regular")!.applied(
            to: Optics(preset: glass.preset), minor: 64)
        #expect(
            lens.faceLevels
                == SIMD4(Float(preset.face.white), Float(preset.face.black), Float(preset.face.saturation), 1))
        #expect(lens.tint == preset.tint.premultiplied(for: .srgb))
        #expect(lens.rimCurvature == 0.7 && lens.rimRecolor.w == 1)
        #expect(lens.shadow.w == Float(preset.shadow.opacity) && lens.bevelWidth == 16)
    }

    @Test("Scene files spell the stage model, the face, the size law and Apple's rim; presets start from them")
    func decoding() throws {
        let optics = try JSONDecoder().decode(
            Optics.self,
            from: Data(
                #"""
                {"preset": "segmentLens", "stages": [{"amount": 9, "height": 36}, {"amount": -8.8, "height": 7.04, "target": "label"}],
                 "aberration": {"amount": 2, "angle": -20}, "face": "faceDark", "sizeLaw": "clear",
                 "rimLight": {"curvature": 0.7, "recolor": {"white": 1.2, "black": 0.1}}}
                """#.utf8))
        #expect(optics.model == .stages && optics.preset == .segmentLens)
        #expect(
            optics.stages == [
                DisplacementStage(amount: 9, height: 36, target: .backdrop),
                DisplacementStage(amount: -8.8, height: 7.04, target: .label),
            ])
        #expect(optics.aberration == Aberration(amount: 2, angle: -20, band: 8.8))
        #expect(optics.face == .faceDark && optics.sizeLaw == .clear)
        #expect(
            optics.rimLight.curvature == 0.7
                && optics.rimLight.recolor == ColorLevels(white: 1.2, black: 0.1, saturation: 1))
        // Keys left out of `rimLight` keep the preset's rim (its lobes, width and falloff).
        #expect(
            optics.rimLight.key == RimLight.apple.key && optics.rimLight.fill == RimLight.apple.fill
                && optics.rimLight.width == RimLight.apple.width && optics.rimLight.falloff == RimLight.apple.falloff)
        let widened = try JSONDecoder().decode(
            Optics.self, from: Data(#"{"preset": "regular", "rimLight": {"width": 2}}"#.utf8))
        var expected = RimLight.apple
        expected.width = 2
        #expect(widened.rimLight == expected)
        let lobe = try JSONDecoder().decode(
            Optics.self, from: Data(#"{"preset": "regular", "rimLight": {"key": {"amount": 2}, "recolor": null}}"#.utf8)
        )
        #expect(lobe.rimLight.key == RimLobe(angle: 45, amount: 2) && lobe.rimLight.recolor == nil)
        var white = Optics(preset: .regular)
        white.rimLight.recolor = nil
        #expect(try JSONDecoder().decode(Optics.self, from: JSONEncoder().encode(white)) == white)
        let plain = try JSONDecoder().decode(Optics.self, from: Data(#"{"rimLight": {"width": 2}}"#.utf8))
        expected = RimLight.standard
        expected.width = 2
        #expect(plain.rimLight == expected)
        let lens = Optics(preset: .segmentLens)
        #expect(
            lens.stages == DisplacementStage.segmentLensBackdrop
                && lens.aberration == .segmentLens && lens.rimLight == .apple)
        #expect(
            Optics(preset: .regular).face == .faceLight && Optics(preset: .regularDark).rimLight.recolor == .vibrantDark
        )
    }

    // MARK: Both backends, the tiles

    static let presetScenes = ParityScene.all.filter {
        [
            "segment-lens", "segment-lens-magnified", "segment-lens-group-at-edge", "regular-glass",
            "regular-dark-glass",
            "clear-glass", "example-segmented", "example-tab-bar", "example-lens-menu",
        ].contains($0.name)
    }

    @Test("Apple's presets render the same on the GPU and the CPU, to the bit", arguments: presetScenes)
    func exactParity(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        let cpu = try render(parameters, on: .cpu)
        let gpu = try render(parameters, on: .vulkan)
        let diff = try ImageDiff(gpu, cpu, threshold: 0)
        #expect(diff.pixelsOverThreshold == 0, "\(case_.name): GPU vs CPU\n\(diff.report)")
    }

    @Test(
        "Every texel a stage-model sample reads, through both chains and every fringe tap, lies in a frosted tile",
        arguments: ["segment-lens-group-at-edge", "segment-lens-magnified"])
    func stageSamplesInFrostTiles(_ name: String) throws {
        var scene = try #require(ParityScene.all.first { $0.name == name }).scene
        scene.glass[0].optics.frost = 3
        let parameters = try resolve(scene)
        let lens = parameters.lenses[0]
        let coverage = FrostTileCoverage(parameters)
        var missing = 0
        var checked = 0
        withShaderContext(parameters) { context in
            for tile in parameters.tiles[Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)] {
                for y in Int(tile.y) * 16..<min(parameters.height, Int(tile.y) * 16 + 16) {
                    for x in Int(tile.x) * 16..<min(parameters.width, Int(tile.x) * 16 + 16) {
                        let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                        let group = context.groupSample(p, lens, true)
                        guard context.coverage(group.distance) > 0 else { continue }
                        let n = context.refractionNormal(group, lens)
                        let turned = SIMD2(
                            n.x * lens.aberration.y - n.y * lens.aberration.z,
                            n.x * lens.aberration.z + n.y * lens.aberration.y)
                        let spread = lens.aberration.x * min(max(1 + group.distance / lens.aberration.w, 0), 1)
                        for tap in 0..<7 {
                            let k = Float(3 - tap) / 3
                            let q = k == 0 ? p : p + turned * (spread * k)
                            let landed = context.stagedPositions(q, group, k == 0, lens, false)
                            checked += 4
                            missing += coverage.misses(at: SIMD2(landed.x, landed.y), context)
                        }
                    }
                }
            }
        }
        #expect(checked > 10000 && missing == 0, "\(missing) of \(checked) texel reads outside the frosted tiles")
    }

    @Test("Tiles marked as missing the label stay the same when made to sample it (stage model, both backends)")
    func stageLabelSkipIsExact() throws {
        var optics = Optics(preset: .segmentLens)
        optics.magnification = 1.22
        var label = ParityScene.label
        label.origin = Point(x: 0, y: 95)
        let scene = Scene(
            canvas: ParityScene.canvas, background: ParityScene.busyBackground, label: label,
            glass: [GlassElement(shape: .circle, frame: Rect(x: 40, y: 5, width: 130, height: 130), optics: optics)])
        let parameters = try resolve(scene)
        let lens = parameters.lenses[0]
        #expect(lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount, "some tiles reach the label, some not")
        var everyTile = parameters
        everyTile.lenses[0].labelTileCount = parameters.lenses[0].tileCount
        for backend in [Backend.cpu, .vulkan] {
            #expect(try render(parameters, on: backend) == render(everyTile, on: backend), "\(backend)")
        }
    }

    // MARK: The showcase

    /// Label coverage (0…255) of the resolved frame at pixel (x, y); 0 off the canvas.
    static func labelCoverage(_ parameters: FrameParameters, _ x: Int, _ y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < parameters.width, y < parameters.height else { return 0 }
        let word = parameters.labelWords[y * Int(parameters.frame.labelWordsPerRow) + x / 4]
        return (word >> UInt32((x % 4) * 8)) & 255
    }

    @Test(
        "In the showcase at scale 2 the glyph under the rim shows accent and resting ink, each at least 20 % of it",
        arguments: ControlAppearance.allCases, [Backend.cpu, .vulkan])
    func showcaseRimSplit(_ appearance: ControlAppearance, backend: Backend) throws {
        let scene = BuiltInScene.segmented.scene(appearance: appearance)
        #expect(scene.canvas.scale == 2)
        // The same frame with the accent set to the resting colour: what the row looks like untinted.
        var untinted = scene
        guard case .segmented(var control) = untinted.controls[0] else {
            Issue.record("the showcase is a segmented control")
            return
        }
        control.accent =
            control.restingTitleColor ?? (appearance == .dark ? LabelLayer.restingDark : LabelLayer.restingLight)
        untinted.controls[0] = .segmented(control)
        let parameters = try resolve(scene)
        let image = try render(parameters, on: backend)
        let twin = try render(try resolve(untinted), on: backend)
        // Ink pixels grouped into titles by the gaps between them, each with its rim distances.
        var titles: [[(x: Int, y: Int, d: Float)]] = []
        withShaderContext(parameters) { context in
            let lens = parameters.lenses[0]
            var lastColumn = -100
            for x in 0..<parameters.width {
                let ink = (0..<parameters.height).filter { Self.labelCoverage(parameters, x, $0) >= 128 }
                guard !ink.isEmpty else { continue }
                if x - lastColumn > 20 { titles.append([]) }
                lastColumn = x
                for y in ink {
                    let d = context.groupDistance(SIMD2(Float(x) + 0.5, Float(y) + 0.5), lens)
                    titles[titles.count - 1].append((x, y, d))
                }
            }
        }
        let straddling = titles.filter { title in title.contains { $0.d < -0.5 } && title.contains { $0.d > 0.5 } }
        #expect(straddling.count == 1, "one title straddles the rim, not \(straddling.count)")
        guard let glyph = straddling.first else { return }
        func differs(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> Bool {
            (0..<3).contains { abs(Int(a[$0]) - Int(b[$0])) > 8 }
        }
        let accent = glyph.filter { differs(image[$0.x, $0.y], twin[$0.x, $0.y]) }.count
        let resting = glyph.filter { $0.d > 0.5 && !differs(image[$0.x, $0.y], twin[$0.x, $0.y]) }.count
        let accentShare = Double(accent) / Double(glyph.count)
        let restingShare = Double(resting) / Double(glyph.count)
        #expect(
            accentShare >= 0.2 && restingShare >= 0.2,
            "of \(glyph.count) ink pixels \(accent) accent (\(accentShare)), \(resting) resting (\(restingShare))")
    }
}
