import Foundation
import LensVulkan
import LiquidLens
import Testing

@testable import LensReference

/// Records an issue, with the images written for a person to look at, unless the GPU's image is
/// within 1/255 of the CPU's everywhere and identical on 99.9 % of the pixels.
func checkParity(_ name: String, actual: RGBA8Image, expected: RGBA8Image, prefix: String = "") {
    do {
        let diff = try ImageDiff(actual, expected, threshold: 1)
        guard diff.maxError.max() > 1 || diff.identicalFraction < 0.999 else { return }
        let folder = writeFailureImages(name: "parity-\(prefix)\(name)", actual: actual, expected: expected)
        Issue.record("\(name): GPU vs CPU\n\(diff.report)\nimages in \(folder)")
    } catch {
        Issue.record("\(name): \(error)")
    }
}

@Suite("Vulkan and CPU reference agree")
struct ParityTests {
    @Test(
        "GPU matches CPU within 1/255, 99.9% of pixels identical, validation silent",
        arguments: ParityScene.all + ParityScene.benchmarkFrames)
    func parity(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        let expected = ReferenceRenderer().render(parameters)
        let (actual, messages) = try SharedGPU.with { gpu in
            #expect(gpu.validationEnabled, "tests run with the Khronos validation layer")
            let before = gpu.validationMessages.count
            let image = try gpu.render(parameters)
            return (image, Array(gpu.validationMessages.dropFirst(before)))
        }
        #expect(messages.isEmpty, "validation layer: \(messages)")
        checkParity(case_.name, actual: actual, expected: expected)
    }

    @Test("A lens with every effect off leaves the frame untouched")
    func identityLens() throws {
        var optics = ParityScene.plainOptics
        optics.bevelAmount = 0
        let withLens = Scene(
            canvas: ParityScene.canvas, background: ParityScene.busyBackground,
            glass: [GlassElement(shape: .capsule, frame: Rect(x: 40, y: 30, width: 120, height: 80), optics: optics)])
        var without = withLens
        without.glass = []
        let reference = ReferenceRenderer()
        #expect(reference.render(try resolve(withLens)) == reference.render(try resolve(without)))
    }

    @Test("Tiles that cannot reach a label glyph skip it on both backends, and the picture stays the same")
    func labelSkipIsExact() throws {
        var scene = BenchmarkWorkload.thumbnail(3)
        scene.canvas = Canvas(width: 512, height: 512, scale: 1)
        let text = try TextTests.renderer.line("Liquid Glass", font: FontSpec(weight: .bold), pixelSize: 28)
        scene.label = LabelLayer(mask: .image(text.mask), origin: Point(x: 20, y: 470), scale: 1)
        scene.glass = [
            GlassElement(
                shape: .capsule, frame: Rect(x: 40, y: 300, width: 300, height: 190), optics: ParityScene.plainOptics)
        ]
        let parameters = try resolve(scene)
        let lens = parameters.lenses[0]
        #expect(lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount, "some tiles reach the label, some not")
        var everyTile = parameters
        everyTile.lenses[0].labelTileCount = lens.tileCount
        for backend in [Backend.cpu, .vulkan] {
            let skipping = try render(parameters, on: backend)
            let sampling = try render(everyTile, on: backend)
            #expect(skipping == sampling, "\(backend)")
        }
    }

    @Test("The Vulkan backend dispatches the lens only over its bounding box and shadow margin")
    func lensRegionIsBounded() throws {
        let scene = ParityScene.busy(
            "region",
            [
                ParityScene.lens(frame: Rect(x: 60, y: 40, width: 60, height: 40)) {
                    $0.shadow = DropShadow(offset: Point(x: 0, y: 8), radius: 10, opacity: 0.3)
                }
            ]
        ).scene
        let parameters = try resolve(scene)
        let region = try #require(parameters.regions.first?.lens)
        #expect(region == PixelRegion(x0: 49, y0: 37, x1: 131, y1: 99))
        #expect(region.width * region.height < parameters.width * parameters.height / 2)
    }

    @Test("The pipeline cache is written to disk and read back by the next renderer")
    func pipelineCachePersists() throws {
        let folder = try temporaryFolder("pipeline-cache")
        _ = try VulkanRenderer(options: VulkanOptions(pipelineCacheDirectory: folder))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasPrefix("pipelines-"), "\(files)")
        let size =
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files[0]).path)[.size]
            as? Int
        #expect((size ?? 0) > 0)
        _ = try VulkanRenderer(options: VulkanOptions(pipelineCacheDirectory: folder))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == files)
    }
}
