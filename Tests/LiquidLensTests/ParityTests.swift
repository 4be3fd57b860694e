import Foundation
import LensCompare
import LensModel
import LiquidLens
import Testing

@testable import LensReference
@testable import LensVulkan

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

    /// The scenes with more than one glass group: a frame rendered again keeps its frost and row
    /// tiles, so planning drops them from the tile list and moves every later group's tiles.
    static let multiGroupScenes = ParityScene.all.filter { ((try? resolve($0.scene))?.lenses.count ?? 0) > 1 }

    @Test(
        "A frame rendered again, its frost kept, its tile list re-laid and its label-free variants compiled, still matches the CPU",
        arguments: multiGroupScenes)
    func parityWhenReused(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        let expected = ReferenceRenderer().render(parameters)
        let gpu = try VulkanRenderer(options: VulkanOptions(validation: true, pipelineCacheDirectory: nil))
        _ = try gpu.render(parameters)
        try gpu.waitForPipelines()
        let again = try gpu.render(parameters)
        let splits = parameters.lenses.contains { $0.labelTileCount > 0 && $0.labelTileCount < $0.tileCount }
        #expect(
            (gpu.lastDispatches.labelFreeVariantTiles > 0) == splits,
            "\(case_.name): label-free variants run where a lens has tiles of both kinds")
        #expect(gpu.validationMessages.isEmpty, "validation layer: \(gpu.validationMessages)")
        checkParity(case_.name, actual: again, expected: expected, prefix: "reused-")
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

    /// Scenes whose lens tiles split into those that reach a label glyph and those that do not:
    /// a capsule over a thumbnail, the lens-heavy frames (deep-inside tiles bounded by their own
    /// shift), the physical model's table, a blended group of rounded boxes partly off the canvas
    /// (mirrored reads), and a label row on the glass's face. `share` bounds the label tiles.
    static let labelSkipCases: [(name: String, scene: Scene, share: Double)] = {
        var thumbnail = BenchmarkWorkload.thumbnail(3)
        thumbnail.canvas = Canvas(width: 512, height: 512, scale: 1)
        let text = try! TextTests.renderer.line("Liquid Glass", font: FontSpec(weight: .bold), pixelSize: 28)
        thumbnail.label = LabelLayer(mask: .image(text.mask), origin: Point(x: 20, y: 470), scale: 1)
        thumbnail.glass = [
            GlassElement(
                shape: .capsule, frame: Rect(x: 40, y: 300, width: 300, height: 190), optics: ParityScene.plainOptics)
        ]
        var physical = BenchmarkWorkload.lensHeavyOptics
        physical.model = .physical
        var group = BenchmarkWorkload.lensHeavyOptics
        group.bevelAmount = 40
        var onFace = ParityScene.label
        onFace.origin = Point(x: 0, y: 60)
        let cases: [(String, Scene, Double)] = [
            ("thumbnail capsule", thumbnail, 1),
            ("lens-heavy start", try! BenchmarkWorkload.lensHeavy.scene(0, of: 60), 0.7),
            ("lens-heavy middle", try! BenchmarkWorkload.lensHeavy.scene(30, of: 60), 0.7),
            (
                "physical profile",
                try! BenchmarkWorkload.lensHeavy(
                    lensCenterX: 900, optics: physical, text: TextTests.renderer), 1
            ),
            (
                "blended group off the canvas",
                Scene(
                    canvas: ParityScene.canvas, background: ParityScene.busyBackground, label: ParityScene.label,
                    glass: [
                        GlassElement(
                            shapes: [
                                PlacedShape(
                                    shape: .roundedRectangle(cornerRadii: [12, 20, 6, 12]),
                                    frame: Rect(x: -20, y: 30, width: 90, height: 80)),
                                PlacedShape(shape: .capsule, frame: Rect(x: 50, y: 20, width: 100, height: 50)),
                            ], blend: 10, optics: group)
                    ]), 1
            ),
            (
                "label on the face",
                Scene(
                    canvas: ParityScene.canvas, background: ParityScene.busyBackground, label: onFace,
                    glass: [
                        ParityScene.lens(frame: Rect(x: 20, y: 10, width: 160, height: 120)) { $0.tintsLabel = false }
                    ]),
                1
            ),
        ]
        return cases
    }()

    @Test(
        "Tiles that cannot reach a label glyph skip it on both backends, and the picture stays the same",
        arguments: labelSkipCases.indices)
    func labelSkipIsExact(_ index: Int) throws {
        let (name, scene, share) = Self.labelSkipCases[index]
        let parameters = try resolve(scene)
        let lens = parameters.lenses[0]
        #expect(
            lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount,
            "\(name): some tiles reach the label, some not")
        #expect(
            Double(lens.labelTileCount) <= share * Double(lens.tileCount),
            "\(name): \(lens.labelTileCount) of \(lens.tileCount) tiles")
        var everyTile = parameters
        for index in everyTile.lenses.indices {
            everyTile.lenses[index].labelTileCount = everyTile.lenses[index].tileCount
        }
        for backend in [Backend.cpu, .vulkan] {
            let skipping = try render(parameters, on: backend)
            let sampling = try render(everyTile, on: backend)
            let same = skipping == sampling
            #expect(same, "\(name) on \(backend)")
        }
    }

    @Test(
        "A lens's label-free variant is not compiled for two frames, only once it pays or is asked for; then it runs the tiles that cannot reach a glyph, with the same pixels",
        arguments: labelSkipCases.indices)
    func labelFreeVariant(_ index: Int) throws {
        let (name, scene, _) = Self.labelSkipCases[index]
        let parameters = try resolve(scene)
        let expected = ReferenceRenderer().render(parameters)
        let labelFreeTiles = parameters.lenses.reduce(0) { sum, lens in
            sum + (lens.labelTileCount > 0 ? Int(lens.tileCount - lens.labelTileCount) : 0)
        }
        let lensVariants = parameters.lenses.filter { $0.tileCount > 0 }.count
        let gpu = try VulkanRenderer(options: VulkanOptions(validation: true, pipelineCacheDirectory: nil))
        let first = try gpu.render(parameters)
        _ = try gpu.render(parameters)
        #expect(gpu.lensVariantsKnown == lensVariants, "\(name): two frames do not start the label-free variant")
        #expect(gpu.lastDispatches.labelFreeVariantTiles == 0, "\(name): nor use it")
        try gpu.waitForPipelines()
        #expect(gpu.lensVariantsKnown == 2 * lensVariants, "\(name): a variant of its own, once asked for")
        let third = try gpu.render(parameters)
        #expect(
            gpu.lastDispatches.labelFreeVariantTiles == labelFreeTiles,
            "\(name): the third frame runs it on the other tiles")
        #expect(gpu.validationMessages.isEmpty, "validation layer: \(gpu.validationMessages)")
        checkParity(name, actual: first, expected: expected)
        checkParity(name, actual: third, expected: expected, prefix: "label-free-")
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
