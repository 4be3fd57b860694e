import Foundation
import LensVulkan
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensReference
@testable import LensResolve

/// Frames that exercise every reuse path: a lens moving over one backdrop, the frost kernel
/// changing, a control whose rail changes part of the backdrop, a lens moving on a platter (glass
/// on glass: its blur of the composite is never reused), a different scene and size, and back
/// again, close panes (glass on glass again), and a progressive blur on the deep, stored levels.
private func batchScenes() -> [Scene] {
    var scenes: [Scene] = []
    for (index, x) in [40.0, 64, 64, 120].enumerated() {
        var scene = BuiltInScene.probeGrid.scene
        scene.glass[0].shapes[0].frame.x = x
        scene.glass[0].optics.frost = index == 2 ? 5 : 2
        scenes.append(scene)
    }
    scenes += [0.3, 0.9, 1.0, 1.5].map { BuiltInAnimation.segmentedDrag.frame(at: $0) }
    scenes += [0.4, 0.8, 0.8].map { BuiltInAnimation.tabBarDrag.frame(at: $0) }
    scenes.append(BenchmarkWorkload.thumbnail(7))
    scenes.append(scenes[1])
    // Six each: a ring of three slots sees each frame on slot index % 3, so every slot renders two
    // of them, one slot the same frame twice (what its buffers keep is then reused).
    scenes += [0, 3, 3, 3, 0, 3].map { try! closePanes(shift: $0, shadow: $0 > 0) }
    scenes += [30.0, 52, 52, 52, 30, 52].map(blurredFrame)
    return scenes
}

/// A progressive blur whose bands reach the deepest levels over the top of a busy backdrop, a
/// frosted lens at `lensX` reaching up into it.
private func blurredFrame(lensX: Double) -> Scene {
    var optics = Optics()
    optics.frost = 6
    let lens = GlassElement(shape: .capsule, frame: Rect(x: lensX, y: 50, width: 90, height: 40), optics: optics)
    var scene = Scene(
        canvas: Canvas(width: 200, height: 140, scale: 2), background: ParityScene.busyBackground, glass: [lens])
    scene.progressiveBlurs = [ProgressiveBlur(frame: Rect(x: 0, y: 0, width: 200, height: 60), radius: 40)]
    return scene
}

/// 16 frosted panes 20 px apart over 640×360, each its own glass: each frost footprint reaches
/// its neighbours, so the later panes blur the composite (glass on glass); `shift` moves them.
func closePanes(shift: Double, shadow: Bool) throws -> Scene {
    let panes = (0..<16).map { index in
        let (x, y) = (Double(index % 4) * 160 + 10 + shift, Double(index / 4) * 90 + 10)
        return """
            {"shape": {"type": "roundedRectangle", "cornerRadius": 16},
             "frame": {"x": \(x), "y": \(y), "width": 140, "height": 70},
             "optics": {"frost": 6, "tint": [1, 1, 1, 0.1]\(shadow ? "" : ", \"shadow\": {\"opacity\": 0}")}}
            """
    }
    let json = """
        {"canvas": {"width": 640, "height": 360, "scale": 1},
         "background": [{"type": "gradient", "colors": ["#0f2027", "#ff7e5f", "#2c5364"], "angle": 30},
                        {"type": "lines", "spacing": 24, "width": 2, "angle": -30, "color": "#ffffff", "opacity": 0.3}],
         "glass": [\(panes.joined(separator: ", "))]}
        """
    return try Scene.decode(Data(json.utf8))
}

@Suite("Batch rendering")
struct BatchTests {
    @Test("A batch equals rendering each frame alone, bit for bit", arguments: [Backend.cpu, .vulkan])
    func batchEqualsSingles(_ backend: Backend) throws {
        let scenes = batchScenes()
        let cache = ResolveCache()
        var batch: [RGBA8Image] = []
        let frame = { (index: Int) in try LensRenderer.resolve(scenes[index], cache: cache) }
        if backend == .cpu {
            let renderer = try LensRenderer(backend: .cpu)
            try renderer.renderBatch(count: scenes.count, frame: frame) { _, image in batch.append(image) }
        } else {
            try SharedGPU.with { gpu in
                try gpu.renderBatch(count: scenes.count, framesInFlight: 3, frame: frame) { index, image in
                    #expect(index == batch.count, "frames arrive in order")
                    batch.append(image)
                }
            }
        }
        #expect(batch.count == scenes.count)
        for (index, scene) in scenes.enumerated() {
            let parameters = try LensRenderer.resolve(scene)
            let alone =
                backend == .cpu
                ? ReferenceRenderer().render(parameters)
                : try VulkanRenderer(options: VulkanOptions(pipelineCacheDirectory: nil)).render(parameters)
            if batch[index] != alone {
                let folder = writeFailureImages(
                    name: "batch-\(backend)-\(index)", actual: batch[index], expected: alone)
                Issue.record("frame \(index) differs from rendering it alone; images in \(folder)")
            }
        }
    }

    @Test("Stage times come only with per-stage timestamps, asked for per frame; the pixels do not change")
    func stageTimesWhenAsked() throws {
        let parameters = try LensRenderer.resolve(try closePanes(shift: 0, shadow: true))
        let renderer = try VulkanRenderer(options: VulkanOptions(validation: true))
        let plain = try renderer.render(parameters)
        #expect(renderer.lastStageTimes == nil)
        renderer.measuresStages = true
        let staged = try renderer.render(parameters)
        let times = try #require(renderer.lastStageTimes)
        #expect(times.lens > 0 && times.frost >= 0 && times.total >= times.lens)
        renderer.measuresStages = false
        #expect(try renderer.render(parameters) == plain)
        #expect(renderer.lastStageTimes == nil)
        #expect(staged == plain)
        #expect(renderer.validationMessages.isEmpty)
    }

    @Test("A new base layer composes only the label's ink box; off it the base is the backdrop")
    func inkBoundsOfLabel() {
        // 3 words (12 px) a row, 4 rows; ink at pixels (5, 1) and (9, 2).
        var words = [UInt32](repeating: 0, count: 12)
        words[1 * 3 + 1] = 0xFF << 8
        words[2 * 3 + 2] = 0xFF << 8
        #expect(
            FrameReuse.inkBounds(words, wordsPerRow: 3, width: 10, height: 4)
                == PixelRegion(x0: 4, y0: 1, x1: 10, y1: 3))
        #expect(FrameReuse.inkBounds([UInt32](repeating: 0, count: 12), wordsPerRow: 3, width: 10, height: 4) == nil)
    }

    @Test("Frame reuse skips what did not change and redoes what did")
    func frameReusePlans() throws {
        var scene = BuiltInScene.probeGrid.scene
        scene.glass[0].optics.frost = 3
        let parameters = try LensRenderer.resolve(scene)
        #expect(parameters.lenses[0].frostLevel >= FrostPyramid.firstStoredLevel, "its texels pass through scratch")
        let reuse = FrameReuse()
        let first = reuse.plan(parameters)
        #expect(first.baseFromBackdrop)
        #expect(first.uploadBackdrop && first.uploadLabel)
        #expect(first.parameters.lenses[0].frostTileCount == parameters.lenses[0].frostTileCount)
        #expect(first.parameters.lenses[0].frostTileCount > 0)

        let again = reuse.plan(parameters)
        #expect(!again.baseFromBackdrop && again.composeRegion == nil)
        #expect(!again.uploadBackdrop && !again.uploadLabel)
        #expect(again.parameters.lenses[0].frostTileCount == 0)
        #expect(again.parameters.lenses[0].rowTileCount == 0)
        #expect(again.parameters.lenses[0].tileCount == parameters.lenses[0].tileCount)

        var touched = parameters
        touched.backdrop[5 * parameters.width + 300] ^= 0xFF
        let damaged = reuse.plan(touched)
        #expect(damaged.uploadBackdrop)
        #expect(damaged.composeRegion == PixelRegion(x0: 288, y0: 0, x1: 304, y1: 16))
        #expect(damaged.parameters.lenses[0].frostTileCount == 0, "the change is out of every frost tile's reach")

        var blurred = touched
        blurred.backdrop[100 * parameters.width + 160] ^= 0xFF
        let nearLens = reuse.plan(blurred)
        let redone = nearLens.parameters.lenses[0].frostTileCount
        #expect(redone > 0 && redone < parameters.lenses[0].frostTileCount, "only tiles near the change blur again")
    }

    @Test("Glass on glass keeps the frost tiles whose blur reads no glass below, and blurs the rest again")
    func frameReuseKeepsUntouchedCompositeFrost() throws {
        let parameters = try LensRenderer.resolve(try closePanes(shift: 0, shadow: false))
        let readers = parameters.lenses.indices.filter { parameters.lenses[$0].readsComposite != 0 }
        try #require(readers.count > 1, "the panes lie on glass")
        let reuse = FrameReuse()
        _ = reuse.plan(parameters)
        let again = reuse.plan(parameters).parameters
        for index in readers {
            #expect(again.lenses[index].frostTileCount > 0, "pane \(index): the tiles reading a pane below blur again")
        }
        Self.expectKeptTilesReadNoGlassBelow(parameters, planned: again, "again")
        // Moved: what the first frame kept must read no glass below in the new frame either.
        let moved = try LensRenderer.resolve(try closePanes(shift: 3, shadow: false))
        Self.expectKeptTilesReadNoGlassBelow(moved, planned: reuse.plan(moved).parameters, "moved")
        let all = readers.map { Int(parameters.lenses[$0].frostTileCount) }.reduce(0, +)
        let redone = readers.map { Int(again.lenses[$0].frostTileCount) }.reduce(0, +)
        #expect(redone < all, "the rest are kept: \(redone) of \(all) frost tiles blurred again")
    }

    /// Every frost tile a glass-on-glass lens of `parameters` skips in `planned`, and every row
    /// tile it skips that its redone frost tiles read, blurs (its texels widened by the kernel
    /// radius, both ways for a frost tile, each texel the 2^level pixels it averages) no pixel
    /// that an earlier lens writes into the composite.
    static func expectKeptTilesReadNoGlassBelow(
        _ parameters: FrameParameters, planned: FrameParameters, _ label: String
    ) {
        let columns = (parameters.width + TableLayout.tileSize - 1) / TableLayout.tileSize
        let rows = (parameters.height + TableLayout.tileSize - 1) / TableLayout.tileSize
        for index in parameters.lenses.indices where parameters.lenses[index].readsComposite != 0 {
            let lens = parameters.lenses[index]
            let (all, left) = (
                LensTileLists(of: lens, in: parameters.tiles),
                LensTileLists(of: planned.lenses[index], in: planned.tiles)
            )
            let written = parameters.lenses[..<index].map { PixelRegion(bounds: $0.compositeRegion) }
            let (radius, level, size) = (Int(lens.kernelRadius), Int(lens.frostLevel), TableLayout.tileSize)
            func expectClean(_ tile: SIMD4<UInt32>, down: Bool) {
                let (x, y) = (Int(tile.x) * size - radius, Int(tile.y) * size - (down ? radius : 0))
                let reads = PixelRegion(
                    x0: x << level, y0: y << level, x1: (x + size + 2 * radius) << level,
                    y1: (y + size + (down ? 2 * radius : 0)) << level)
                #expect(
                    written.allSatisfy { $0.intersection(reads).isEmpty },
                    "\(label): pane \(index) keeps \(down ? "frost" : "row") tile \(tile)")
            }
            let redone = Set(left.frost.map { SIMD2($0.x, $0.y) })
            for tile in all.frost where !redone.contains(SIMD2(tile.x, tile.y)) { expectClean(tile, down: true) }
            let needed = Tiling.rowTiles(
                feeding: left.frost.map { SIMD2($0.x, $0.y) }, kernelRadius: radius, columns: columns, rows: rows)
            let rowsRedone = Set(left.rows.map { SIMD2($0.x, $0.y) })
            for tile in all.rows
            where needed.contains(Int(tile.y) * columns + Int(tile.x)) && !rowsRedone.contains(SIMD2(tile.x, tile.y)) {
                expectClean(tile, down: false)
            }
        }
    }

    @Test("Sweeps multiply in order and name their frames")
    func manifestSweeps() throws {
        let manifest = try BatchManifest.decode(
            Data(
                """
                {"scene": {"example": "probe-grid"}, "name": "move",
                 "sweep": [{"key": "glass[0].frame.x", "from": 10, "to": 50, "steps": 3},
                           {"key": "glass[0].optics.frost", "values": [0, 4]}]}
                """.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        #expect(manifest.count == 6)
        #expect(manifest.outputStem(0) == "move-00001")
        #expect(manifest.outputStem(5) == "move-00006")
        let frames = try (0..<6).map { try manifest.scene($0).scene.glass[0] }
        #expect(frames.map(\.shapes[0].frame.x) == [10, 10, 30, 30, 50, 50])
        #expect(frames.map(\.optics.frost) == [0, 4, 0, 4, 0, 4])
    }

    @Test("Sweeping a preset switches it: the file's own keys stay on top, the preset's values change")
    func presetSweep() throws {
        let folder = try temporaryFolder("preset-sweep")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"{"canvas": {"width": 80, "height": 60}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "optics": {"preset": "loupe", "frost": 3}}]}"#
                .utf8
        ).write(to: folder.appendingPathComponent("a.json"))
        let manifest = try BatchManifest.decode(
            Data(
                #"{"scene": "a.json", "sweep": [{"key": "glass[0].optics.preset", "values": ["regular", "clear"]}]}"#
                    .utf8),
            baseDirectory: folder)
        for (index, preset) in [OpticsPreset.regular, .clear].enumerated() {
            var expected = Optics(preset: preset)
            expected.frost = 3
            #expect(try manifest.scene(index).scene.glass[0].optics == expected)
        }
        try Data(
            #"{"canvas": {"width": 80, "height": 60}, "glass": [{"shape": "circle", "frame": {"x": 10, "y": 10, "width": 40, "height": 40}, "theme": "arctic"}]}"#
                .utf8
        ).write(to: folder.appendingPathComponent("b.json"))
        let themes = try BatchManifest.decode(
            Data(
                #"{"scene": "b.json", "sweep": [{"key": "glass[0].theme.preset", "values": ["neon", "ocean"]}]}"#.utf8),
            baseDirectory: folder)
        #expect(try themes.scene(0).scene.glass[0].theme == ThemePreset.neon.theme)
        #expect(try themes.scene(1).scene.glass[0].theme == ThemePreset.ocean.theme)
        #expect {
            _ = try BatchManifest.decode(
                Data(
                    #"{"scene": {"example": "probe-grid"}, "sweep": [{"key": "glass[0].optics.preset", "values": ["clear"]}]}"#
                        .utf8), baseDirectory: folder)
        } throws: { error in
            "\(error)".contains("sweep[0].key") && "\(error)".contains("scene file that names its preset")
        }
    }

    @Test("A manifest names a benchmark workload's verified frame: the middle of its default run")
    func manifestWorkloads() throws {
        let manifest = try BatchManifest.decode(
            Data(#"{"scenes": [{"workload": "lens-heavy"}, {"workload": "thumbnails"}]}"#.utf8),
            baseDirectory: URL(fileURLWithPath: "/"))
        #expect(manifest.scenes == [.workload(.lensHeavy), .workload(.thumbnails)])
        #expect(manifest.outputStem(0) == "00001-lens-heavy" && manifest.outputStem(1) == "00002-thumbnails")
        let cpu = try LensRenderer(backend: .cpu)
        for (index, workload) in [BenchmarkWorkload.lensHeavy, .thumbnails].enumerated() {
            let count = workload.defaultFrames
            let frame = try cpu.render(manifest.scene(index).scene)
            #expect(frame.pixels == (try cpu.render(workload.scene(count / 2, of: count)).pixels))
        }
    }

    @Test("Shards are disjoint, contiguous and together the whole batch", arguments: [1, 2, 3, 7, 64])
    func shards(_ count: Int) throws {
        let manifest = try BatchManifest.decode(
            Data(#"{"scene": "a.json", "sweep": [{"key": "canvas.width", "from": 100, "to": 200, "steps": 50}]}"#.utf8),
            baseDirectory: URL(fileURLWithPath: "/"))
        let slices = (0..<count).map { manifest.shard($0, of: count) }
        #expect(slices.flatMap { Array($0) } == Array(0..<50))
        #expect(slices.map(\.count).max()! - slices.map(\.count).min()! <= 1)
    }

    @Test(
        "Malformed manifests are errors that name the key",
        arguments: [
            (#"{"scenes": []}"#, "scenes"),
            (#"{"scene": "a.json", "scenes": ["b.json"]}"#, "not both"),
            (#"{"scene": "a.json", "colour": 1}"#, "colour: unknown key"),
            (#"{"scene": "a.json", "sweep": [{"key": "glass[x]", "values": [1]}]}"#, "cannot read the key path"),
            (#"{"scene": "a.json", "sweep": [{"key": "a", "from": 0, "to": 1, "steps": 0}]}"#, "sweep[0].steps"),
            (#"{"scenes": [{"example": "nope"}]}"#, "unknown example"),
            (#"{"scenes": [{"workload": "screens"}]}"#, "scenes[0].workload: unknown workload \"screens\""),
            (#"{"scenes": [{"workload": "screen", "frame": 2}]}"#, "{\"workload\": name}"),
            (
                #"{"scene": {"workload": "screen"}, "sweep": [{"key": "canvas.width", "values": [9]}]}"#,
                "scene.workload: a benchmark workload's frame cannot be swept"
            ),
            (#"{"scenes": ["a.json"], "sweep": []}"#, "sweeps apply to one"),
            ("[1]", "must be a JSON object"),
        ])
    func manifestErrors(_ json: String, _ message: String) {
        #expect {
            _ = try BatchManifest.decode(Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("A sweep key the scene does not have is an error naming the frame")
    func sweepKeyOutsideScene() throws {
        let manifest = try BatchManifest.decode(
            Data(#"{"scene": {"example": "probe-grid"}, "sweep": [{"key": "glass[3].frame.x", "values": [1]}]}"#.utf8),
            baseDirectory: URL(fileURLWithPath: "/"))
        #expect {
            _ = try manifest.scene(0)
        } throws: { error in
            "\(error)".contains("glass[3].frame.x") && "\(error)".contains("outside")
        }
    }
}

@Suite("liquidlens batch and bench")
struct BatchCommandTests {
    private func files(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    @Test(
        "The union of the shards is the unsharded run, file for file (a sweep, random frames)",
        arguments: [false, true])
    func shardUnion(random: Bool) throws {
        let folder = try temporaryFolder("shards")
        let manifest = try random ? writeRandomManifest(folder, count: 7) : writeSweepManifest(folder, steps: 7)
        let whole = folder.appendingPathComponent("whole")
        let sharded = folder.appendingPathComponent("sharded")
        #expect(try runCLI(["batch", manifest.path, "-o", whole.path, "-q"]).status == 0)
        for shard in 0..<3 {
            let result = try runCLI(["batch", manifest.path, "-o", sharded.path, "--shard", "\(shard)/3", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let expected = try files(whole)
        #expect(expected.count == 7)
        #expect(expected.keys.sorted().first == "move-00001.png")
        #expect(try files(sharded) == expected)
    }

    @Test("--resume after a killed run completes with nothing missing, duplicated or truncated")
    func resumeAfterKill() throws {
        let folder = try temporaryFolder("resume")
        let manifest = try writeSweepManifest(folder, steps: 40)
        let reference = folder.appendingPathComponent("reference")
        #expect(try runCLI(["batch", manifest.path, "-o", reference.path, "-q", "--backend", "cpu"]).status == 0)

        let output = folder.appendingPathComponent("killed")
        let process = Process()
        process.executableURL = cliBinary()
        process.arguments = ["batch", manifest.path, "-o", output.path, "-q", "--backend", "cpu"]
        try process.run()
        try waitUntil("3 frames written") { entryCount(output) >= 3 }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let survivors = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") }
        #expect(survivors.count < 40, "the run was killed before it finished")
        for name in survivors {
            #expect(ImageFormat.png.isComplete(output.appendingPathComponent(name)), "\(name) is whole")
        }

        let resumed = try runCLI(["batch", manifest.path, "-o", output.path, "--resume", "--backend", "cpu"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("already complete"))
        #expect(try files(output) == files(reference))
    }

    @Test("Frames stream to stdout as PAM for pipes")
    func pamToStdout() throws {
        let folder = try temporaryFolder("pam")
        let manifest = try writeSweepManifest(folder, steps: 2)
        let result = try runCLI(["batch", manifest.path, "-o", "-", "--format", "pam", "-q"])
        #expect(result.status == 0)
        let header = "P7\nWIDTH 320\nHEIGHT 200\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(result.stdout.components(separatedBy: header).count == 3, "two frames, each with its header")
    }

    @Test(
        "Bad batch options are usage errors",
        arguments: [
            (["--shard", "3/3"], "--shard <i/n>"), (["--format", "tiff"], "--format <format>"),
            (["--png-compression", "max"], "--png-compression <level>"), (["--jobs", "0"], "--jobs <n>"),
        ])
    func badOptions(_ options: [String], _ message: String) throws {
        let folder = try temporaryFolder("batch-usage")
        let manifest = try writeSweepManifest(folder, steps: 2)
        let result = try runCLI(["batch", manifest.path] + options)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
    }

    @Test("The bench report validates against its schema, and the chart is drawn")
    func benchReport() throws {
        let folder = try temporaryFolder("bench")
        let json = folder.appendingPathComponent("bench.json")
        let chart = folder.appendingPathComponent("sweeps.svg")
        let result = try runCLI([
            "bench", "--workload", "thumbnails", "--frames", "3", "--backend", "vulkan", "--sweeps", "shapes",
            "--sweep-frames", "2", "--json", json.path, "--chart", chart.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("thumbnails    frame 1: max error 0/0/0/0"))
        #expect(result.stdout.contains("thumbnails on vulkan: 512×512, 3 frames"))
        let schema = try JSONSerialization.jsonObject(with: Data(try runCLI(["bench", "--print-schema"]).stdout.utf8))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
        let problems = validate(report, against: schema)
        #expect(problems.isEmpty, "\(problems)")
        let object = try #require(report as? [String: Any])
        #expect((object["sweeps"] as? [Any])?.count == 1)
        let svg = try String(contentsOf: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("shapes per glass group") && svg.contains("<polyline"))

        var broken = try #require(report as? [String: Any])
        broken["schemaVersion"] = 2
        #expect(!validate(broken, against: schema).isEmpty, "the validator catches a wrong report")
    }

    @Test("bench --compare prints ratios against an earlier report and fails past --max-slowdown")
    func benchCompare() throws {
        let folder = try temporaryFolder("bench-compare")
        let json = folder.appendingPathComponent("now.json")
        let run = ["bench", "--workload", "thumbnails", "--frames", "2", "--backend", "cpu"]
        #expect(try runCLI(run + ["--json", json.path]).status == 0)
        /// The report with every frames/s scaled, as if an earlier run had been that much faster.
        func earlier(_ factor: Double, _ name: String) throws -> URL {
            var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let results = try #require(report["results"] as? [[String: Any]])
            report["results"] = results.map { result in
                var scaled = result
                scaled["framesPerSecond"] = (result["framesPerSecond"] as? Double ?? 0) * factor
                return scaled
            }
            let url = folder.appendingPathComponent(name)
            try JSONSerialization.data(withJSONObject: report).write(to: url)
            return url
        }
        let muchFaster = try earlier(100, "faster.json")
        let regressed = try runCLI(run + ["--compare", muchFaster.path])
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("COMPARE") && regressed.stdout.contains("SLOWER"))
        #expect(regressed.stderr.contains("slower than \(muchFaster.path) by more than 10 %: thumbnails on cpu"))

        let muchSlower = try earlier(0.01, "slower.json")
        let improved = try runCLI(run + ["--compare", muchSlower.path, "--max-slowdown", "5"])
        #expect(improved.status == 0, "\(improved.stderr)")
        #expect(improved.stdout.contains("thumbnails    cpu") && !improved.stdout.contains("SLOWER"))

        let notAReport = folder.appendingPathComponent("scene.json")
        try Data(#"{"canvas": {"width": 10, "height": 10}}"#.utf8).write(to: notAReport)
        let refused = try runCLI(run + ["--compare", notAReport.path])
        #expect(refused.status == 1 && refused.stderr.contains("is not a bench --json report"))
    }

    @Test("bench --rounds takes turns, reports each backend's median round and the paired Vulkan/CPU ratios")
    func benchRounds() throws {
        let folder = try temporaryFolder("bench-rounds")
        let json = folder.appendingPathComponent("rounds.json")
        let result = try runCLI([
            "bench", "--workload", "thumbnails", "--frames", "2", "--backend", "both", "--rounds", "3", "--json",
            json.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("round 1 of 3: thumbnails vulkan"))
        #expect(result.stdout.contains("round 2 of 3: thumbnails cpu"), "the second round starts with the CPU")
        #expect(result.stdout.contains("thumbnails: Vulkan") && result.stdout.contains("(median of 3 rounds, "))
        let schema = try JSONSerialization.jsonObject(with: Data(try runCLI(["bench", "--print-schema"]).stdout.utf8))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
        #expect(validate(report, against: schema).isEmpty)
        let object = try #require(report as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 2, "one result per backend: the median round")
        for result in results {
            let rounds = try #require(result["roundFramesPerSecond"] as? [Double])
            let fps = try #require(result["framesPerSecond"] as? Double)
            #expect(rounds.count == 3 && rounds.sorted()[1] == fps, "the reported round is the median one")
        }
        let ratios = try #require(object["ratios"] as? [[String: Any]])
        let ratio = try #require(ratios.first)
        let paired = try #require(ratio["rounds"] as? [Double])
        #expect(ratio["workload"] as? String == "thumbnails" && paired.count == 3)
        #expect(ratio["median"] as? Double == paired.sorted()[1])

        let single = try runCLI([
            "bench", "--workload", "thumbnails", "--frames", "2", "--backend", "cpu", "--rounds", "0",
        ])
        #expect(single.status == 64 && single.stderr.contains("--rounds"))
    }

    @Test("The bench refuses to time when GPU and CPU disagree")
    func benchParityFailure() throws {
        let result = try runCLI(
            ["bench", "--workload", "thumbnails", "--frames", "2"], environment: ["LIQUIDLENS_INJECT_WRONG_PIXELS": "1"]
        )
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAILED"))
        #expect(result.stderr.contains("parity check failed on thumbnails"))
        #expect(!result.stdout.contains("TIME"))
    }
}

@Suite("Image formats")
struct ImageFormatTests {
    @Test("PNG compression levels trade size for speed and decode to the same pixels")
    func pngCompression() throws {
        let image = try LensRenderer(backend: .cpu).render(BuiltInScene.probeGrid.scene)
        let sizes = try PNGCompression.allCases.map { level -> Int in
            let data = try PNGCodec.encode(image, compression: level)
            #expect(try PNGCodec.decode(data) == image)
            return data.count
        }
        #expect(sizes[2] <= sizes[1] && sizes[1] < sizes[0], "best ≤ default < fast: \(sizes)")
    }

    @Test("PPM, PAM and raw RGBA carry the pixels after a standard header")
    func rawFormats() throws {
        let image = RGBA8Image(width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 128])
        #expect(try ImageFormat.rgba.encode(image) == Data(image.pixels))
        #expect(try ImageFormat.ppm.encode(image) == Data("P6\n2 1\n255\n".utf8) + Data([1, 2, 3, 4, 5, 6]))
        let pam = try ImageFormat.pam.encode(image)
        #expect(pam.starts(with: Data("P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)))
        #expect(pam.suffix(8) == Data(image.pixels))
    }

    @Test("A truncated PNG is not complete")
    func truncatedPNG() throws {
        let folder = try temporaryFolder("truncated")
        let url = folder.appendingPathComponent("a.png")
        let data = try PNGCodec.encode(RGBA8Image(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64)))
        try data.write(to: url)
        #expect(ImageFormat.png.isComplete(url))
        try data.prefix(data.count - 5).write(to: url)
        #expect(!ImageFormat.png.isComplete(url))
    }
}
