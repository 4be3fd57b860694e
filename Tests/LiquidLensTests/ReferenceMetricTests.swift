import Foundation
import LensCompare
import LiquidLens
import Testing

/// The interpreter of the test-only Python tools: `LIQUIDLENS_TEST_PYTHON` when set, else the
/// environment `Tests/test-tools.sh` makes beside the package (`.venv-tests/`). Never the
/// `python3` on `PATH`, which on Debian has neither pip nor the tools.
func testPython() throws -> URL {
    if let named = ProcessInfo.processInfo.environment["LIQUIDLENS_TEST_PYTHON"], !named.isEmpty {
        return URL(fileURLWithPath: named)
    }
    let interpreter = packageRoot.appendingPathComponent(".venv-tests/bin/python3")
    guard FileManager.default.isExecutableFile(atPath: interpreter.path) else {
        throw HelperFailure(
            message:
                "no test Python at \(interpreter.path): run Tests/test-tools.sh (it installs Tests/LiquidLensTests/Python/requirements.txt there), or set LIQUIDLENS_TEST_PYTHON"
        )
    }
    return interpreter
}

/// Runs a Python helper from `Tests/LiquidLensTests/Python` with ``testPython()`` and returns its
/// stdout. A missing tool is a failure that names the command installing it, never a skip.
func runPython(_ script: String, _ arguments: [String]) throws -> String {
    let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python")
    let interpreter = try testPython()
    let result = try runProcess(interpreter, [scripts.appendingPathComponent(script).path] + arguments)
    guard result.status == 0 else {
        throw HelperFailure(
            message:
                "\(script) exited \(result.status) under \(interpreter.path) (the test tools come from: apt-get install chromium chromium-driver libxml2-utils python3-venv imagemagick && Tests/test-tools.sh): \(result.stderr)"
        )
    }
    return result.stdout
}

/// A helper process that failed, with what it said.
struct HelperFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What `reference_metrics.py` reports for one pair.
struct ReferenceMetrics: Decodable {
    let ssim: Double
    let deltaEMean: Double
    let deltaE99: Double
    let differentPixels: Int
    let antialiasedPixels: Int
    let flipMean: Double
}

@Suite("Perceptual metrics agree with the reference implementations")
struct ReferenceMetricTests {
    /// GPU/CPU pairs held to 1/255 by the parity suite: the built-in scenes and some parity scenes.
    static func heldPairs() throws -> [(name: String, actual: RGBA8Image, expected: RGBA8Image)] {
        var scenes = BuiltInScene.allCases.filter { !$0.rawValue.hasPrefix("probe") && $0 != .controls }.map {
            ($0.rawValue, $0.scene())
        }
        scenes += ParityScene.all.prefix(6).map { ($0.name, $0.scene) }
        return try scenes.map { name, scene in
            let parameters = try LensRenderer.resolve(scene)
            return ("gpu-cpu-\(name)", try render(parameters, on: .vulkan), try render(parameters, on: .cpu))
        }
    }

    @Test(
        "SSIM (scikit-image), ΔE2000 (colour-science), pixelmatch and FLIP (flip-evaluator) on synthetic and GPU/CPU pairs"
    )
    func agreement() throws {
        let pairs = MetricPairs.synthetic + (try Self.heldPairs())
        let folder = try temporaryFolder("reference-metrics")
        var arguments: [String] = []
        for pair in pairs {
            let actual = folder.appendingPathComponent("\(pair.name)-actual.png")
            let expected = folder.appendingPathComponent("\(pair.name)-expected.png")
            try PNGCodec.write(pair.actual, to: actual, compression: .fast)
            try PNGCodec.write(pair.expected, to: expected, compression: .fast)
            arguments += [actual.path, expected.path]
        }
        let references = try JSONDecoder().decode(
            [ReferenceMetrics].self, from: Data(try runPython("reference_metrics.py", arguments).utf8))
        try #require(references.count == pairs.count)
        for (pair, reference) in zip(pairs, references) {
            let diff = try ImageDiff(pair.actual, pair.expected)
            let ssim = try #require(diff.ssim)
            // scikit-image and this code both work in float64: rounding-level agreement.
            #expect(abs(ssim - reference.ssim) < 1e-9, "\(pair.name): SSIM \(ssim) vs \(reference.ssim)")
            #expect(abs(diff.deltaE.mean - reference.deltaEMean) < 1e-9, "\(pair.name): mean ΔE")
            #expect(abs(diff.deltaE.percentile99 - reference.deltaE99) < 1e-9, "\(pair.name): ΔE p99")
            #expect(diff.pixelmatch.differentPixels == reference.differentPixels, "\(pair.name): pixelmatch")
            #expect(diff.pixelmatch.antialiasedPixels == reference.antialiasedPixels, "\(pair.name): anti-aliased")
            // flip-evaluator documents agreement of means to six decimals (misc/precision.md); it
            // sums its fp32 map in fp32, so the mean of its map in float64 is what is compared.
            #expect(
                abs(diff.flip.mean - reference.flipMean) < 1e-6,
                "\(pair.name): FLIP \(diff.flip.mean) vs \(reference.flipMean)")
        }
        #expect(
            references.contains { $0.flipMean > 0.05 } && references.contains { $0.ssim < 0.9 }, "pairs that differ")
    }
}
