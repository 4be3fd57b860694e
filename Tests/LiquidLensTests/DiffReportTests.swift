import Foundation
import LensCompare
import LiquidLens
import Testing

/// The JUnit schema the reports must satisfy (the common Ant format), beside the tests.
let junitSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/junit.xsd")

/// Validates `document` against `schema` with xmllint (Debian's libxml2-utils); the output on failure.
func xmllintErrors(_ document: URL, schema: URL = junitSchema) throws -> String? {
    let result = try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), ["xmllint", "--noout", "--schema", schema.path, document.path])
    return result.status == 0 ? nil : result.stderr
}

/// Two folders: `home.png` identical, `sub/dark.png` with a dark blotch, `gone.png` only
/// expected (missing), `new.png` only actual (extra).
func makeDiffFolders(_ name: String) throws -> (root: URL, actual: URL, expected: URL) {
    let root = try temporaryFolder(name)
    let actual = root.appendingPathComponent("actual")
    let expected = root.appendingPathComponent("expected")
    let blotch = MetricPairs.synthetic.first { $0.name == "blotch" }!.actual
    for (folder, file, image) in [
        (expected, "home.png", MetricPairs.base), (actual, "home.png", MetricPairs.base),
        (expected, "sub/dark.png", MetricPairs.base), (actual, "sub/dark.png", blotch),
        (expected, "gone.png", MetricPairs.base), (actual, "new.png", MetricPairs.base),
    ] {
        try PNGCodec.write(image, to: folder.appendingPathComponent(file), compression: .fast)
    }
    return (root, actual, expected)
}

@Suite("diff and verify: folders, thresholds, JUnit and the HTML report")
struct DiffReportTests {
    @Test(
        "Folder diff matches by relative path; missing and extra fail; JUnit validates; the report works in Chromium"
    )
    func folderDiffInBrowser() throws {
        let (root, actual, expected) = try makeDiffFolders("folder-diff")
        let result = try runCLI(
            ["diff", actual.path, expected.path, "--junit", "out/junit.xml", "--report", "out/report.html", "-q"],
            in: root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr
                == "Error: 3 of 4 pairs failed (2 compared, 2 missing or extra: --allow-missing, --allow-extra)\n")
        #expect(result.stdout.contains("FAILED sub/dark.png: pixelmatch pixels "))
        #expect(result.stdout.contains("MISSING gone.png: no actual image"))
        #expect(result.stdout.contains("EXTRA new.png: no expected image"))
        #expect(result.stdout.contains("4 pairs: 1 passed, 1 failed, 1 missing, 1 extra"))

        let junit = root.appendingPathComponent("out/junit.xml")
        #expect(try xmllintErrors(junit) == nil)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\""))
        #expect(xml.contains("<testcase name=\"sub/dark.png\""))
        #expect(xml.contains("<failure message=\"pixelmatch pixels "))
        #expect(xml.contains("type=\"missing\"") && xml.contains("type=\"extra\""))

        let report = root.appendingPathComponent("out/report.html")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://"), "the page fetches nothing")
        let shot = root.appendingPathComponent("screenshot.png")
        let facts = try runPython("check_report.py", [report.path, shot.path, "4", "3"])
        #expect(facts.contains("\"consoleErrors\": 0"), "\(facts)")
        let screenshot = try PNGCodec.read(contentsOf: shot)
        #expect(screenshot.width >= 1000 && Set(screenshot.packed).count > 100, "a real page, not a blank one")
    }

    @Test("By default a visible difference fails; options set, relax and drop limits; exit 0 when every pair passes")
    func thresholdsOnTheCommandLine() throws {
        let (root, _, _) = try makeDiffFolders("thresholds")
        let dark = ["diff", "actual/sub/dark.png", "expected/sub/dark.png"]
        #expect(try runCLI(dark, in: root).status == 1)
        let relaxed = try runCLI(dark + ["--max-diff-pixels", "off", "--min-ssim", "0.5"], in: root)
        #expect(relaxed.status == 0, "\(relaxed.stdout)\(relaxed.stderr)")
        #expect(relaxed.stdout.contains("thresholds:  minSSIM ≥ 0.5"))
        let strict = try runCLI(dark + ["--max-diff-pixels", "off", "--min-ssim", "0.999"], in: root)
        #expect(strict.status == 1 && strict.stdout.contains("FAILED dark.png: SSIM "))
        let same = try runCLI(["diff", "actual/home.png", "expected/home.png"], in: root)
        #expect(same.status == 0 && same.stdout.contains("1 pairs: 1 passed"))
    }

    @Test("A config file sets thresholds and per-file rules (a later rule wins, null drops a limit)")
    func configFile() throws {
        let json = """
            {"thresholds": {"minSSIM": 0.99, "maxDiffPixels": null},
             "files": [{"match": "sub/*", "thresholds": {"minSSIM": 0.5}},
                       {"match": "*dark*", "thresholds": {"maxFLIP": 0.5}}],
             "pixelmatchThreshold": 0.2}
            """
        let configuration = try DiffConfiguration.decode(Data(json.utf8))
        #expect(configuration.thresholds == DiffThresholds([.minSSIM: 0.99]))
        #expect(configuration.thresholds(for: "sub/dark.png") == DiffThresholds([.minSSIM: 0.5, .maxFLIP: 0.5]))
        #expect(configuration.thresholds(for: "home.png") == DiffThresholds([.minSSIM: 0.99]))
        #expect(configuration.pixelmatchThreshold == 0.2 && configuration.levelThreshold == 1)

        let (root, _, _) = try makeDiffFolders("config")
        try Data(json.utf8).write(to: root.appendingPathComponent("diff.json"))
        let result = try runCLI(["diff", "actual", "expected", "--config", "diff.json", "-q"], in: root)
        #expect(result.status == 1, "gone.png (missing) and new.png (extra) fail")
        #expect(result.stdout.contains("2 passed, 0 failed, 1 missing, 1 extra"), "\(result.stdout)")
    }

    @Test("Missing and extra images pass only when allowed; JUnit says the same")
    func allowances() throws {
        let (root, _, _) = try makeDiffFolders("allowances")
        let dark = ["--max-diff-pixels", "off", "--min-ssim", "0.5", "--junit", "junit.xml"]
        let strict = try runCLI(["diff", "actual", "expected", "-q"] + dark, in: root)
        #expect(strict.status == 1 && strict.stderr.contains("2 of 4 pairs failed (2 compared"), "\(strict.stderr)")
        let onlyMissing = try runCLI(["diff", "actual", "expected", "-q", "--allow-extra"] + dark, in: root)
        #expect(onlyMissing.status == 1 && onlyMissing.stderr.contains("1 of 4 pairs failed"), "\(onlyMissing.stderr)")
        let both = try runCLI(
            ["diff", "actual", "expected", "-q", "--allow-extra", "--allow-missing"] + dark, in: root)
        #expect(both.status == 0, "\(both.stderr)")
        let xml = try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(xml.contains("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"2\""), "\(xml)")
        #expect(try xmllintErrors(root.appendingPathComponent("junit.xml")) == nil)

        try Data(#"{"allowExtra": true, "allowMissing": true, "thresholds": {"maxDiffPixels": null}}"#.utf8).write(
            to: root.appendingPathComponent("allow.json"))
        let configured = try runCLI(
            ["diff", "actual", "expected", "-q", "--config", "allow.json", "--min-ssim", "0.5"], in: root)
        #expect(configured.status == 0, "\(configured.stderr)")
        try Data(#"{"allowExtra": 1}"#.utf8).write(to: root.appendingPathComponent("number.json"))
        let number = try runCLI(["diff", "actual", "expected", "--config", "number.json"], in: root)
        #expect(number.status == 1 && number.stderr.hasPrefix("Error: number.json: allowExtra: expected true or false"))
    }

    @Test("A diff that compared nothing fails and says so; a folder that does not exist is named")
    func nothingCompared() throws {
        let (root, actual, expected) = try makeDiffFolders("nothing-compared")
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let againstEmpty = try runCLI(
            ["diff", expected.path, empty.path, "-q", "--allow-extra", "--junit", "junit.xml"], in: root)
        #expect(againstEmpty.status == 1)
        #expect(
            againstEmpty.stderr
                == "Error: compared no pair: the expected side holds no images (--allow-empty lets it pass)\n")
        let xml = try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(xml.contains(#"<failure message="compared no pair: the expected side holds no images" type="empty"/>"#))
        #expect(try xmllintErrors(root.appendingPathComponent("junit.xml")) == nil)
        let emptyActual = try runCLI(["diff", empty.path, expected.path, "-q"], in: root)
        #expect(emptyActual.status == 1 && emptyActual.stderr.contains("0 compared"), "\(emptyActual.stderr)")
        let allowed = try runCLI(["diff", empty.path, empty.path, "-q", "--allow-empty"], in: root)
        #expect(allowed.status == 0)

        let typo = try runCLI(["diff", actual.path, root.appendingPathComponent("expectd").path], in: root)
        #expect(typo.status == 1)
        #expect(typo.stderr.hasPrefix("Error: \(root.path)/expectd: no such file or folder (the expected side)"))
    }

    @Test(
        "Config mistakes name the file and the key path",
        arguments: [
            (#"{"thresholds": {"minSSIMM": 1}}"#, "thresholds.minSSIMM: unknown key"),
            (#"{"thresholds": {"maxFLIP": 2}}"#, "thresholds.maxFLIP: expected a number in 0…1"),
            (#"{"files": [{"thresholds": {}}]}"#, "files[0].match: expected a file pattern"),
            (#"{"levelThreshold": 1.5}"#, "levelThreshold: expected a whole number in 0…255"),
            ("[", "not valid JSON"),
        ])
    func configErrors(_ json: String, _ message: String) throws {
        let root = try temporaryFolder("config-errors")
        try Data(json.utf8).write(to: root.appendingPathComponent("bad.json"))
        try PNGCodec.write(MetricPairs.base, to: root.appendingPathComponent("a.png"), compression: .fast)
        let result = try runCLI(["diff", "a.png", "a.png", "--config", "bad.json"], in: root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: bad.json: \(message)"), "\(result.stderr)")
    }

    @Test(
        "Usage mistakes exit 64",
        arguments: [
            (["diff", "a.png", "."], "Give two PNG files or two folders, not one of each"),
            (["diff", ".", ".", "--heatmap", "h.png"], "--heatmap compares two images; for folders use --report"),
            (["diff", "a.png", "a.png", "--min-ssim", "2"], "Invalid value '2' for '--min-ssim <value>'"),
            (
                ["diff", "a.png", "a.png", "--max-diff-pixels", "1.5"],
                "Invalid value '1.5' for '--max-diff-pixels <count>'"
            ),
            (["verify"], "Missing expected argument '<manifest>'"),
        ])
    func usage(_ arguments: [String], _ message: String) throws {
        let root = try temporaryFolder("diff-usage")
        try PNGCodec.write(MetricPairs.base, to: root.appendingPathComponent("a.png"), compression: .fast)
        let result = try runCLI(arguments, in: root)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
    }

    @Test(
        "verify renders each frame on the GPU and the CPU reference: they agree, and a broken GPU image fails and is drawn"
    )
    func verify() throws {
        let root = try temporaryFolder("verify")
        try Data(#"{"scenes": [{"example": "segmented"}, {"example": "probe-grid"}, {"workload": "thumbnails"}]}"#.utf8)
            .write(to: root.appendingPathComponent("frames.json"))
        let good = try runCLI(
            [
                "verify", "frames.json", "--junit", "good.xml", "--report", "good.html", "--failures", "none.png",
                "-q",
            ], in: root)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("3 pairs: 3 passed"))
        #expect(try xmllintErrors(root.appendingPathComponent("good.xml")) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("good-files").path)
        #expect(files.filter { $0.hasSuffix("-expected.png") }.count == 3)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("none.png").path))

        let broken = try runCLI(
            ["verify", "frames.json", "--junit", "broken.xml", "--failures", "failures.png", "-q"],
            environment: ["LIQUIDLENS_INJECT_WRONG_PIXELS": "1"],
            in: root)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("FAILED 00001-segmented: max error "))
        #expect(broken.stderr == "Error: 3 of 3 pairs failed (3 compared)\n")
        let xml = try String(contentsOf: root.appendingPathComponent("broken.xml"), encoding: .utf8)
        #expect(xml.contains("failures=\"3\"") && xml.contains("identical % "))

        // A row per frame, in order: GPU, CPU, heatmap, each cell as large as the largest frame.
        let cpu = try LensRenderer(backend: .cpu)
        let expected =
            try [BuiltInScene.segmented.scene, BuiltInScene.probeGrid.scene].map { try cpu.render($0) }
            + [try cpu.render(BenchmarkWorkload.thumbnails.scene(128, of: 256))]
        let sheet = try PNGCodec.read(contentsOf: root.appendingPathComponent("failures.png"))
        let cellWidth = expected.map(\.width).max()!
        let cellHeight = expected.map(\.height).max()!
        #expect(sheet.width == 3 * cellWidth + 4 * 4 && sheet.height == 3 * cellHeight + 4 * 4)
        for (row, image) in expected.enumerated() {
            let origin = (x: 4 + cellWidth + 4, y: 4 + row * (cellHeight + 4))
            let cell = (0..<image.height).flatMap { y in
                let start = ((origin.y + y) * sheet.width + origin.x) * 4
                return sheet.pixels[start..<(start + image.width * 4)]
            }
            #expect(cell == image.pixels, "row \(row + 1)'s middle cell is the CPU reference")
        }
    }

    @Test("Library: compare in-memory images, assert on the report, write JUnit and HTML with the images")
    func libraryReport() throws {
        let folder = try temporaryFolder("library-report")
        let page = folder.appendingPathComponent("report.html")
        var report = DiffReport(title: "screens")
        let noise = MetricPairs.synthetic.first { $0.name == "noise" }!.actual
        for (index, (name, actual)) in [("same", MetricPairs.base), ("noise", noise)].enumerated() {
            report.pairs.append(
                try DiffReport.Pair.compare(
                    name: name, actual: actual, expected: MetricPairs.base,
                    configuration: DiffConfiguration(thresholds: DiffThresholds([.minSSIM: 0.99])),
                    imageFolder: HTMLReport.imageFolder(for: page), index: index))
        }
        #expect(!report.passed)
        #expect(report.failureSummary.hasPrefix("noise: SSIM 0.9") && report.failureSummary.hasSuffix(" < 0.99"))
        #expect(report.pairs[0].images.heatmap == nil && report.pairs[1].images.heatmap != nil)
        try report.writeJUnit(to: folder.appendingPathComponent("junit.xml"))
        #expect(try xmllintErrors(folder.appendingPathComponent("junit.xml")) == nil)
        try HTMLReport.write(report, to: page)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("src=\"report-files/0002-noise-heatmap.png\""))
    }

    @Test(
        "Byte-identical files are decoded once and compare as the same pixels written differently do; a corrupt pair still fails by name"
    )
    func identicalFiles() throws {
        let root = try temporaryFolder("identical-files")
        let url = { (name: String) in root.appendingPathComponent(name) }
        let blotch = MetricPairs.synthetic.first { $0.name == "blotch" }!.actual
        try PNGCodec.write(MetricPairs.base, to: url("a.png"), compression: .fast)
        try FileManager.default.copyItem(at: url("a.png"), to: url("copy.png"))
        try PNGCodec.write(MetricPairs.base, to: url("reencoded.png"), compression: .default)
        try PNGCodec.write(blotch, to: url("blotch.png"), compression: .fast)
        #expect(try Data(contentsOf: url("a.png")) != Data(contentsOf: url("reencoded.png")))

        let same = try PNGCodec.readPair(url("a.png"), url("copy.png"))
        let reencoded = try PNGCodec.readPair(url("a.png"), url("reencoded.png"))
        #expect(same.first == MetricPairs.base && same.second == MetricPairs.base)
        let buffers = [same.first, same.second].map { $0.pixels.withUnsafeBufferPointer(\.baseAddress) }
        #expect(buffers[0] == buffers[1], "decoded once")
        #expect(reencoded.second == MetricPairs.base)
        #expect(try ImageDiff(same.first, same.second).report == ImageDiff(reencoded.first, reencoded.second).report)
        #expect(try PNGCodec.readPair(url("a.png"), url("blotch.png")).second == blotch)

        let corrupt = Data("not a PNG at all".utf8)
        try corrupt.write(to: url("bad.png"))
        try corrupt.write(to: url("bad-copy.png"))
        #expect {
            try PNGCodec.readPair(url("bad.png"), url("bad-copy.png"))
        } throws: { error in
            "\(error)".hasPrefix("cannot read image \(url("bad.png").path):")
        }
        let run = try runCLI(["diff", "bad.png", "bad-copy.png"], in: root)
        #expect(run.status == 1 && run.stderr.contains("bad.png"), "\(run.stderr)")
    }

    @Test("Folders without a PNG are a failure, not an empty pass")
    func emptyFolders() throws {
        let root = try temporaryFolder("empty-folders")
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let result = try runCLI(["diff", "a", "b", "-q"], in: root)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: compared no pair: the expected side holds no images (--allow-empty lets it pass)\n"
        )
    }

    @Test("A named pipe where a folder holds a PNG fails its pair by name and is never opened")
    func pipeInFolder() throws {
        let (root, actual, _) = try makeDiffFolders("pipe-in-folder")
        let pipe = actual.appendingPathComponent("home.png")
        try FileManager.default.removeItem(at: pipe)
        #expect(mkfifo(pipe.path, 0o644) == 0)
        // `timeout` ends a diff that opened the pipe and waits on it forever (exit 124).
        let result = try runShell(#"timeout 60 "$LIQUIDLENS" diff actual expected"#, in: root)
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("\(pipe.path): it is a named pipe, not a file"),
            "\(result.stdout)\(result.stderr)")
    }

    @Test("The JUnit schema check rejects a document CI systems would not read")
    func schemaRejects() throws {
        let folder = try temporaryFolder("junit-schema")
        let broken = folder.appendingPathComponent("broken.xml")
        try Data(#"<testsuite name="x" tests="1"><testcase name="a"/></testsuite>"#.utf8).write(to: broken)
        #expect(try xmllintErrors(broken) != nil)
    }
}
