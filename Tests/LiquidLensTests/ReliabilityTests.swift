import Foundation
import LensReference
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensResolve

@Suite("Hostile and unusual inputs")
struct ReliabilityTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> RGBA8Image {
        try PNGCodec.read(contentsOf: fixtures.appendingPathComponent(name))
    }

    @Test("16-bit, palette, grey, grey+alpha and interlaced PNGs decode to 8-bit RGBA")
    func pngVariants() throws {
        let deep = try Self.fixture("rgb16.png")
        #expect(deep.width == 4 && deep.height == 3)
        #expect(deep[0, 0] == SIMD4(0, 255, 0, 255))
        #expect((0..<3).allSatisfy { deep[$0, 1].x < deep[$0 + 1, 1].x }, "red rises across the row")
        let palette = try Self.fixture("palette.png")
        #expect(palette[0, 0] == SIMD4(255, 0, 0, 255) && palette[1, 0] == SIMD4(0, 0, 255, 255))
        let grey = try Self.fixture("grey.png")
        #expect(grey[2, 2] == SIMD4(160, 160, 160, 255))
        let greyAlpha = try Self.fixture("grey-alpha.png")
        #expect(greyAlpha[0, 0].w == 0 && greyAlpha[3, 0].w == 240)
        let interlaced = try Self.fixture("interlaced.png")
        #expect(interlaced.width == 1 && interlaced[0, 0] == SIMD4(10, 20, 30, 255))
        let chunky = try Self.fixture("many-chunks.png")
        #expect(chunky[1, 1] == SIMD4(80, 80, 80, 255), "5000 text chunks are skipped within libpng's chunk limits")
    }

    @Test(
        "Truncated, empty and corrupt PNGs fail with the file and the reason",
        arguments: ["truncated.png", "empty.png", "corrupt.png"])
    func brokenPNG(_ name: String) throws {
        let error = #expect(throws: ImageFileError.self) { try Self.fixture(name) }
        #expect(error?.description.contains(name) == true)
        #expect(
            error?.description.contains("not a PNG") == true || error?.description.contains("corrupt PNG") == true,
            "\(String(describing: error))")
    }

    @Test("A decompression bomb is refused from its header, before allocating")
    func bomb() throws {
        // The header's size is the refusal's reason: nothing past the header was decoded.
        let error = #expect(throws: ImageFileError.self) { try Self.fixture("bomb.png") }
        #expect(error?.description.contains("100000×100000 is outside") == true, "\(String(describing: error))")
    }

    @Test("Scene JSON is checked for size and nesting before it is parsed")
    func sceneSizeAndNesting() throws {
        let deep = Data(
            ("{\"canvas\": {\"width\": 10, \"height\": 10}, \"glass\": " + String(repeating: "[", count: 5000)
                + String(repeating: "]", count: 5000) + "}").utf8)
        let nesting = #expect(throws: SceneError.self) { try Scene.decode(deep) }
        #expect(
            nesting?.message.contains("nests 5001 levels deep; the limit is 32") == true,
            "\(String(describing: nesting))")
        let huge = Data(count: Limits.sceneFileBytes + 1)
        let size = #expect(throws: SceneError.self) { try Scene.decode(huge) }
        #expect(size?.message.contains("the limit is \(Limits.sceneFileBytes)") == true)
        let brackets = Data(
            #"{"canvas": {"width": 10, "height": 10}, "background": "white", "glass": [], "label": null, "x": "[[[[["}"#
                .utf8)
        #expect(Scene.nestingDepth(brackets) == 2, "brackets inside strings do not count")
    }

    @Test("Array lengths are limited and the error names the key")
    func arrayLimits() throws {
        let element = #"{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 5, "height": 5}}"#
        let json =
            #"{"canvas": {"width": 10, "height": 10}, "glass": ["#
            + Array(repeating: element, count: 257).joined(separator: ",") + "]}"
        let error = #expect(throws: SceneError.self) { try Scene.decode(Data(json.utf8)) }
        #expect(error?.description == "glass: 257 entries; the limit is 256")
    }

    @Test("The pixel budget is checked before anything is allocated; LIQUIDLENS_MAX_PIXELS lowers it")
    func pixelBudget() throws {
        let result = try runCLI(
            ["render", "--backend", "cpu", "-o", "/tmp/never.png"], environment: ["LIQUIDLENS_MAX_PIXELS": "1000"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("canvas: 780×240 px exceeds the pixel budget of 1000"),
            "\(result.stderr)")
    }

    @Test("Renders from several tasks at once equal serial renders")
    func concurrentRendering() async throws {
        let scenes = ParityScene.all.prefix(8).map(\.scene)
        let parameters = try scenes.map { try resolve($0) }
        let serial = parameters.map { ReferenceRenderer().render($0) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, RGBA8Image).self) { group in
            for (index, frame) in parameters.enumerated() {
                group.addTask { (index, try LensRenderer(backend: .cpu).render(frame)) }
            }
            var images = [RGBA8Image?](repeating: nil, count: parameters.count)
            for try await (index, image) in group { images[index] = image }
            return images
        }
        #expect(concurrent.map { $0! } == serial)
    }
}
