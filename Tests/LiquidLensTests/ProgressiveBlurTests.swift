import Foundation
import LiquidLens
import Testing

@testable import LensReference
@testable import LensResolve

/// A busy 200 × 140 pt backdrop (fine checker under lines) with blurs and glass laid on it.
private func blurScene(
    _ blurs: [ProgressiveBlur] = [], edges: [ScrollEdgeEffect] = [], glass: [GlassElement] = [], scale: Double = 1
) -> Scene {
    var scene = Scene(
        canvas: Canvas(width: 200, height: 140, scale: scale), background: ParityScene.busyBackground, glass: glass)
    scene.progressiveBlurs = blurs
    scene.scrollEdges = edges
    return scene
}

/// Mean absolute difference between horizontal neighbours over rows `rows`, columns `columns`:
/// how much fine detail those rows keep.
private func detail(_ image: RGBA8Image, rows: Range<Int>, columns: Range<Int>) -> Double {
    var sum = 0
    for y in rows {
        for x in columns.dropLast() {
            let index = (y * image.width + x) * 4
            sum += abs(Int(image.pixels[index + 1]) - Int(image.pixels[index + 5]))
        }
    }
    return Double(sum) / Double(rows.count * (columns.count - 1))
}

private let region = Rect(x: 0, y: 0, width: 200, height: 100)

@Suite("Progressive blur and scroll edges")
struct ProgressiveBlurTests {
    static let cases: [ParityScene] = [
        ParityScene(name: "top, tinted", scene: blurScene([ProgressiveBlur(frame: region, radius: 12, tint: .white)])),
        ParityScene(
            name: "bottom, held, scale 2",
            scene: blurScene(
                [
                    ProgressiveBlur(
                        frame: Rect(x: 20, y: 40, width: 160, height: 100), edge: .bottom, radius: 30, hold: 20)
                ],
                scale: 2)),
        ParityScene(
            name: "leading and trailing",
            scene: blurScene([
                ProgressiveBlur(frame: Rect(x: 0, y: 0, width: 90, height: 140), edge: .leading, radius: 8),
                ProgressiveBlur(frame: Rect(x: 110, y: 0, width: 90, height: 140), edge: .trailing, radius: 40),
            ])),
        ParityScene(
            name: "soft and hard edges under glass",
            scene: blurScene(
                edges: [
                    ScrollEdgeEffect(edge: .top, style: .soft, extent: 50),
                    ScrollEdgeEffect(edge: .bottom, style: .hard, extent: 40, color: RGBAColor(242, 242, 247)),
                ],
                glass: [ParityScene.lens(.capsule, frame: Rect(x: 40, y: 95, width: 120, height: 40)) { $0.frost = 3 }],
                scale: 2)),
        ParityScene(name: "a 17 × 3 canvas down to one texel a level", scene: tinyBlurScene()),
    ]

    /// Every level of a deep blur on a canvas narrower and lower than one level-5 texel: the
    /// stored texels' mirrored reads and the scratch tail at their smallest.
    private static func tinyBlurScene() -> Scene {
        var scene = Scene(
            canvas: Canvas(width: 17, height: 3, scale: 1), background: ParityScene.busyBackground, glass: [])
        scene.progressiveBlurs = [ProgressiveBlur(frame: Rect(x: 0, y: 0, width: 17, height: 3), radius: 40, hold: 1)]
        return scene
    }

    @Test("Vulkan draws the blurs bit for bit as the CPU reference does", arguments: cases)
    func parity(_ case_: ParityScene) throws {
        let parameters = try resolve(case_.scene)
        #expect(parameters.blurBandCount > 0)
        let expected = ReferenceRenderer().render(parameters)
        let (actual, messages) = try SharedGPU.with { gpu in
            let before = gpu.validationMessages.count
            let image = try gpu.render(parameters)
            return (image, Array(gpu.validationMessages.dropFirst(before)))
        }
        #expect(messages.isEmpty, "validation layer: \(messages)")
        #expect(actual == expected, "\(case_.name): GPU and CPU differ")
        if actual != expected { checkParity(case_.name, actual: actual, expected: expected, prefix: "blur-") }
    }

    @Test(
        "Detail falls toward the edge, and nothing changes past the blur's clear end",
        arguments: [Backend.cpu, .vulkan])
    func blurGrowsTowardEdge(_ backend: Backend) throws {
        let blurred = try render(resolve(blurScene([ProgressiveBlur(frame: region, radius: 10)])), on: backend)
        let plain = try render(resolve(blurScene()), on: backend)
        // Five slices from the clear end (y 80–100) to the edge (y 0–20).
        let slices = stride(from: 80, through: 0, by: -20).map { detail(blurred, rows: $0..<$0 + 20, columns: 0..<200) }
        let original = detail(plain, rows: 80..<100, columns: 0..<200)
        // σ is under half a pixel over the last 5 rows.
        let clearEnd = detail(blurred, rows: 95..<100, columns: 0..<200)
        let clearEndBefore = detail(plain, rows: 95..<100, columns: 0..<200)
        #expect(clearEnd > 0.8 * clearEndBefore, "the clear end keeps its detail: \(clearEnd) of \(clearEndBefore)")
        for (nearer, farther) in zip(slices.dropFirst(), slices) {
            #expect(nearer < farther, "detail falls toward the edge: \(slices)")
        }
        #expect(slices.last! < 0.25 * original, "the edge is blurred: \(slices.last!) of \(original)")
        #expect(meanDifference(blurred, plain, x: 0..<200, y: 101..<140) == 0, "below the region is untouched")
    }

    @Test("A held blur blurs as frost of the same σ does, at shallow and deep pyramid levels", arguments: [3.0, 20])
    func heldBlurMatchesFrost(_ sigma: Double) throws {
        let frame = Rect(x: 30, y: 20, width: 140, height: 100)
        let held = blurScene([ProgressiveBlur(frame: frame, radius: sigma, hold: frame.height)])
        var flat = ParityScene.plainOptics
        flat.frost = sigma
        flat.bevelAmount = 0
        flat.warpsContentBelow = false
        let frosted = blurScene(glass: [
            GlassElement(shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]), frame: frame, optics: flat)
        ])
        let difference = meanDifference(
            try render(resolve(held), on: .cpu), try render(resolve(frosted), on: .cpu), x: 40..<160, y: 30..<110)
        #expect(difference < 1.5, "σ \(sigma): the held blur differs from frost by \(difference) levels on average")
    }

    @Test("Bands keep a small kernel at any σ, and bands of one blur blur the backdrop, not each other")
    func bandsStaySmall() throws {
        for radius in [2.0, 40] {
            let parameters = try resolve(
                blurScene([ProgressiveBlur(frame: Rect(x: 0, y: 0, width: 200, height: 120), radius: radius)], scale: 3)
            )
            let bands = parameters.lenses.prefix(parameters.blurBandCount)
            #expect(bands.allSatisfy { $0.kernelRadius <= 12 }, "σ \(radius): radii \(bands.map(\.kernelRadius))")
            #expect(bands.allSatisfy { $0.readsComposite == 0 }, "σ \(radius)")
            #expect(bands.count <= 9, "σ \(radius): \(bands.count) bands")
        }
    }

    @Test("Blurs are not glass: the masks ignore them")
    func masksIgnoreBlurs() throws {
        let glass = [ParityScene.lens(.capsule, frame: Rect(x: 40, y: 10, width: 120, height: 40))]
        let edges = [ScrollEdgeEffect(edge: .top, style: .hard, extent: 50)]
        let with = try ReferenceRenderer.masks(resolve(blurScene(edges: edges, glass: glass)))
        let without = try ReferenceRenderer.masks(resolve(blurScene(glass: glass)))
        #expect(with.glass == without.glass)
        #expect(with.tint == without.tint)
    }

    @Test("The hard edge draws its divider (two pixels at 3×) at the inner side; the soft edge has none")
    func hardEdgeDivider() throws {
        func rendered(_ style: ScrollEdgeEffect.Style) throws -> RGBA8Image {
            var scene = blurScene(edges: [ScrollEdgeEffect(edge: .top, style: style, extent: 40)], scale: 3)
            scene.background = [BackgroundLayer(.solid(.white))]
            return try render(resolve(scene), on: .cpu)
        }
        let hard = try rendered(.hard)
        let soft = try rendered(.soft)
        func green(_ image: RGBA8Image, _ y: Int) -> UInt8 { image.pixels[(y * image.width + 300) * 4 + 1] }
        // sdtaheri-table-top-edge-ios27: white under the divider reads 241.
        #expect([green(hard, 118), green(hard, 119)].allSatisfy { (239...243).contains($0) }, "the divider")
        #expect(green(hard, 117) == 255 && green(hard, 120) == 255, "only two rows")
        #expect((0..<420).allSatisfy { green(soft, $0) == 255 }, "white stays white under the soft edge")
    }
}
