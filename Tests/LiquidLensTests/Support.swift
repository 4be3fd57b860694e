import Foundation
import LensCompare
import LensModel
import LensResolve
import LensVulkan
import LiquidLens
import Testing

@testable import LensReference

/// One Vulkan renderer (validation on) shared by all tests, used under a lock: the Vulkan objects
/// are not thread-safe and llvmpipe's pipeline compile is paid once.
enum SharedGPU {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var renderer: VulkanRenderer?

    static func with<T>(_ body: (VulkanRenderer) throws -> T) throws -> T {
        try lock.withLock {
            if renderer == nil {
                let cache = FileManager.default.temporaryDirectory.appendingPathComponent("liquidlens-test-cache")
                renderer = try VulkanRenderer(options: VulkanOptions(validation: true, pipelineCacheDirectory: cache))
            }
            let before = renderer!.validationMessages.count
            let result = try body(renderer!)
            let messages = renderer!.validationMessages.dropFirst(before)
            if !messages.isEmpty { Issue.record("validation layer: \(Array(messages))") }
            return result
        }
    }
}

/// Renders resolved parameters on the CPU reference or on the shared Vulkan renderer.
func render(_ parameters: FrameParameters, on backend: Backend) throws -> RGBA8Image {
    backend == .cpu ? ReferenceRenderer().render(parameters) : try SharedGPU.with { try $0.render(parameters) }
}

/// Decodes the sample position from the ramp probe (red = 4·x mod 256, green = 4·y mod 256),
/// choosing the period nearest to `expected`; nil near a sawtooth wrap.
func decodeRamp(_ pixel: SIMD4<UInt8>, expected: SIMD2<Double>) -> SIMD2<Double>? {
    var decoded = SIMD2<Double>.zero
    for axis in 0..<2 {
        let phase = (expected[axis] - 0.5).truncatingRemainder(dividingBy: 64)
        if phase > 62.5 || phase < 0.5 { return nil }
        let code = Double(axis == 0 ? pixel.x : pixel.y) / 4 + 0.5
        decoded[axis] = code + 64 * ((expected[axis] - code) / 64).rounded()
    }
    return decoded
}

/// The package's root, above `Tests/LiquidLensTests`.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Where failing image tests leave actual/expected/diff PNGs.
let failureDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Failures")

/// Writes the three images a person needs to see why an image comparison failed; returns the folder.
@discardableResult
func writeFailureImages(name: String, actual: RGBA8Image, expected: RGBA8Image) -> String {
    let folder = failureDirectory.appendingPathComponent(name)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? PNGCodec.write(actual, to: folder.appendingPathComponent("actual.png"))
    try? PNGCodec.write(expected, to: folder.appendingPathComponent("expected.png"))
    try? PNGCodec.write(ImageDiff.heatmap(actual, expected), to: folder.appendingPathComponent("diff.png"))
    return folder.path
}

/// Polls `condition` every 10 ms until it holds (true) or `seconds` pass (false, recorded as an
/// issue naming `what`): readiness waited for, not guessed with a fixed sleep.
@discardableResult
func waitUntil(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    Issue.record("waited \(seconds) s for \(what)")
    return false
}

/// The number of entries in `folder`, 0 while it does not exist.
func entryCount(_ folder: URL) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.count ?? 0
}

/// ImageMagick's `convert`, a test tool the README's test command installs; its absence fails the
/// test that asks, saying how to install it.
func imageMagickConvert() throws -> URL {
    let convert = URL(fileURLWithPath: "/usr/bin/convert")
    try #require(
        FileManager.default.isExecutableFile(atPath: convert.path),
        "no ImageMagick: apt-get install imagemagick (the README's test command does)")
    return convert
}

/// A scratch folder unique to one test.
func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("liquidlens-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `sweep.json` in `folder`: the probe-grid lens moved across in `steps` frames named
/// `move-00001.png` …; returns its URL.
func writeSweepManifest(_ folder: URL, steps: Int) throws -> URL {
    let url = folder.appendingPathComponent("sweep.json")
    try Data(
        """
        {"scene": {"example": "probe-grid"}, "name": "move",
         "sweep": [{"key": "glass[0].frame.x", "from": 10, "to": 170, "steps": \(steps)}]}
        """.utf8
    ).write(to: url)
    return url
}

/// A manifest of `count` random frames of the probe grid, named as the sweep's.
func writeRandomManifest(_ folder: URL, count: Int) throws -> URL {
    let url = folder.appendingPathComponent("random.json")
    try Data(
        """
        {"scene": {"example": "probe-grid"}, "name": "move", "count": \(count), "seed": 5,
         "sample": [{"key": "glass[0].frame.x", "uniform": [10, 170]},
                    {"key": "glass[0].optics.frost", "integer": [0, 8]}]}
        """.utf8
    ).write(to: url)
    return url
}

/// Mean absolute difference per channel over a box of pixels, in levels.
func meanDifference(_ a: RGBA8Image, _ b: RGBA8Image, x: Range<Int>, y: Range<Int>) -> Double {
    var sum = 0
    for row in y {
        for column in x {
            for channel in 0..<3 {
                let index = (row * a.width + column) * 4 + channel
                sum += abs(Int(a.pixels[index]) - Int(b.pixels[index]))
            }
        }
    }
    return Double(sum) / Double(x.count * y.count * 3)
}

/// Resolves a scene whose images are all in memory or in `directory`.
func resolve(_ scene: Scene, directory: URL? = nil) throws -> FrameParameters {
    try LensRenderer.resolve(scene, baseDirectory: directory)
}

/// A context for calling the reference's shader functions directly: geometry needs the shapes
/// (every shape a candidate), colour and the physical model need the tables; no image buffers.
func shaderContext(tables: [Float] = [], shapes: [ShapeParams] = [], allShapes: [UInt32] = []) -> ShaderContext {
    var context = ShaderContext(
        frame: FrameParams(
            width: 256, height: 256, lensCount: 1, labelWordsPerRow: 64, restingColor: .zero, accentColor: .zero),
        tables: tables, backdrop: [], labelBytes: [], shapes: shapes, tiles: [], tileShapes: allShapes,
        foregroundPixels: [],
        scratch: UnsafeMutableBufferPointer(start: nil, count: 0),
        frosted: UnsafeMutableBufferPointer(start: nil, count: 0),
        outputPixels: UnsafeMutableBufferPointer(start: nil, count: 0),
        compositePixels: UnsafeMutableBufferPointer(start: nil, count: 0))
    context.tileCandidates = SIMD2(0, UInt32(allShapes.count))
    return context
}

/// Runs `body` with a context over the tables and shapes of resolved parameters, the first
/// lens's shapes all candidates (no tile culling).
func withShaderContext<T>(_ parameters: FrameParameters, _ body: (ShaderContext) throws -> T) rethrows -> T {
    let lens = parameters.lenses[0]
    let candidates = Array(lens.shapeOffset..<lens.shapeOffset + lens.shapeCount)
    return try body(shaderContext(tables: parameters.tables, shapes: parameters.shapes, allShapes: candidates))
}

/// The frost tiles of a resolved frame's first lens, and how many of a sample's texel reads fall
/// outside them: the four texels of `sampleFrosted`'s bilinear read, at the lens's pyramid level,
/// mirrored at the level's edge and held inside the level's source region as the shader does.
struct FrostTileCoverage {
    let level: UInt32
    let frostTiles: Set<SIMD2<UInt32>>
    let region: SIMD4<Int32>
    let width: Int32
    let height: Int32

    init(_ parameters: FrameParameters) {
        let lens = parameters.lenses[0]
        level = lens.frostLevel
        frostTiles = Set(
            parameters.tiles[Int(lens.frostTileOffset)..<Int(lens.frostTileOffset + lens.frostTileCount)].map {
                SIMD2($0.x, $0.y)
            })
        let source = PixelRegion(bounds: lens.sourceRegion).atLevel(Int(level))
        region = SIMD4(Int32(source.x0), Int32(source.y0), Int32(source.x1), Int32(source.y1))
        width = Int32(FrostPyramid.size(parameters.width, level: Int(level)))
        height = Int32(FrostPyramid.size(parameters.height, level: Int(level)))
    }

    /// The reads (0…4) of a sample at `position` (pixels) that land outside the frosted tiles.
    func misses(at position: SIMD2<Float>, _ context: ShaderContext) -> Int {
        let texel = position * (1 / Float(UInt32(1) << level)) - SIMD2(repeating: 0.5)
        var missing = 0
        for dx: Int32 in 0...1 {
            for dy: Int32 in 0...1 {
                let tx = min(
                    max(context.mirrorIndex(Int32(texel.x.rounded(.down)) + dx, width), region.x), region.z - 1)
                let ty = min(
                    max(context.mirrorIndex(Int32(texel.y.rounded(.down)) + dy, height), region.y), region.w - 1)
                if !frostTiles.contains(SIMD2(UInt32(tx) / 16, UInt32(ty) / 16)) { missing += 1 }
            }
        }
        return missing
    }
}

extension RGBA8Image {
    /// The pixels of a rectangle.
    func cropped(x: Range<Int>, y: Range<Int>) -> RGBA8Image {
        var pixels: [UInt8] = []
        for row in y { pixels += self.pixels[(row * width + x.lowerBound) * 4..<(row * width + x.upperBound) * 4] }
        return RGBA8Image(width: x.count, height: y.count, pixels: pixels)
    }
}

/// `Shaders/lens_common.glsl`, read as text, for the tests that hold Swift's declarations to it.
struct LensCommonGLSL {
    let lines: [Substring]

    init() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Shaders/lens_common.glsl")
        lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }

    /// The value of `const uint NAME = Nu;`; nil where there is none.
    func constant(_ name: String) -> Int? {
        let line = lines.first { $0.hasPrefix("const uint \(name) = ") }
        return line.flatMap {
            Int($0.split(separator: "=")[1].prefix { $0 != "u" }.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The stage functions, in order: every function declared after the inputs' loads (the
    /// parameter block's helpers and the loads have no twin; the CPU twin subscripts its arrays).
    var stageFunctions: [String] {
        var names: [String] = []
        var pastLoads = false
        var inLoads = false
        for line in lines {
            if line.hasPrefix("// ----") {
                inLoads = line.contains("Loads")
                pastLoads = pastLoads || inLoads
                continue
            }
            // A declaration: `TYPE NAME(` at the start of a line.
            guard pastLoads && !inLoads, let first = line.first, first.isLetter,
                let open = line.firstIndex(of: "(")
            else { continue }
            let words = line[..<open].split(separator: " ")
            if words.count == 2, words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                names.append(String(words[1]))
            }
        }
        return names
    }

    /// The lines that start with `prefix`.
    func lines(startingWith prefix: String) -> [Substring] { lines.filter { $0.hasPrefix(prefix) } }

    /// Each specialisation constant's id by name: `layout(constant_id = N) const TYPE NAME = VALUE;`.
    var specializationConstantIDs: [String: UInt32] {
        var ids: [String: UInt32] = [:]
        for line in lines(startingWith: "layout(constant_id = ") {
            let declaration = line.split(separator: ")", maxSplits: 1)
            let id = UInt32(declaration[0].split(separator: "=")[1].trimmingCharacters(in: .whitespaces))!
            ids[String(declaration[1].split(separator: " ")[2])] = id
        }
        return ids
    }
}
