import Foundation
import LensCompare
import LiquidLens
import Testing

@testable import LensReference
@testable import LensResolve

/// Panes with drop shadows, apart and in one container whose close shapes blend: the tiles of the
/// shadows' margins hold no glass.
private func shadowedPanes(grouped: Bool) -> Scene {
    var optics = Optics()
    optics.frost = 3
    optics.shadow = DropShadow(offset: Point(x: 0, y: 6), radius: 14, opacity: 0.3)
    let frames = (0..<6).map { Rect(x: 12 + Double($0 % 3) * 62, y: 14 + Double($0 / 3) * 62, width: 48, height: 40) }
    let glass =
        grouped
        ? [GlassElement(shapes: frames.map { PlacedShape(shape: .capsule, frame: $0) }, blend: 16, optics: optics)]
        : frames.map {
            GlassElement(shape: .roundedRectangle(cornerRadii: [10, 10, 10, 10]), frame: $0, optics: optics)
        }
    return Scene(canvas: ParityScene.canvas, background: ParityScene.busyBackground, glass: glass)
}

/// A long ellipse blended with a rounded rectangle: the ellipse's distance estimate falls several
/// pixels short of its box's beside its tip, where the blend then shows glass (a reviewer's case).
private let ellipseBlend = Scene(
    canvas: Canvas(width: 400, height: 340, scale: 1), background: ParityScene.busyBackground,
    glass: [reachingGroups.first { $0.name == "ellipse-blend" }!.glass])

/// The lens tiles of `parameters` that the resolver marked glass-free, with their lens.
private func glassFreeTiles(_ parameters: FrameParameters) -> [(lens: Int, tile: SIMD4<UInt32>)] {
    parameters.lenses.indices.flatMap { index in
        let lens = parameters.lenses[index]
        return parameters.tiles[Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)]
            .filter { TableLayout.isGlassFree($0.w) }.map { (index, $0) }
    }
}

@Suite("Glass-free tiles")
struct GlassFreeTileTests {
    @Test(
        "No pixel of a tile marked glass-free shows glass",
        arguments: ParityScene.all + [ParityScene(name: "ellipse-blend", scene: ellipseBlend)])
    func markedTilesShowNoGlass(_ example: ParityScene) throws {
        let parameters = try resolve(example.scene)
        var context = shaderContext(
            tables: parameters.tables, shapes: parameters.shapes, allShapes: parameters.tileShapes)
        var covered: [String] = []
        for (index, tile) in glassFreeTiles(parameters) {
            let lens = parameters.lenses[index]
            let region = parameters.regions[index].lens
            context.tileCandidates = SIMD2(tile.z, TableLayout.candidateCount(tile.w))
            let size = TableLayout.tileSize
            for y in max(region.y0, Int(tile.y) * size)..<min(region.y1, Int(tile.y + 1) * size) {
                for x in max(region.x0, Int(tile.x) * size)..<min(region.x1, Int(tile.x + 1) * size) {
                    let p = SIMD2(Float(x), Float(y)) + 0.5
                    let distance = context.groupSample(p, lens, false).distance
                    if context.coverage(distance) * context.rampCoverage(p, lens) > 0 { covered.append("(\(x), \(y))") }
                }
            }
        }
        #expect(covered.isEmpty, "glass shows at \(covered.prefix(8).joined(separator: ", "))")
    }

    @Test("Shadow margins are glass-free, and shading them as glass tiles changes no pixel", arguments: [false, true])
    func marginsDrawOnlyTheShadow(grouped: Bool) throws {
        let parameters = try resolve(shadowedPanes(grouped: grouped))
        let marked = glassFreeTiles(parameters)
        let lensTiles = parameters.lenses.map { Int($0.tileCount) }.reduce(0, +)
        // Blended shapes need more room before no glass can show, so fewer of the container's tiles.
        #expect(marked.count * (grouped ? 8 : 4) >= lensTiles, "\(marked.count) of \(lensTiles) tiles glass-free")
        var unmarked = parameters
        unmarked.tiles = parameters.tiles.map { SIMD4($0.x, $0.y, $0.z, TableLayout.candidateCount($0.w)) }
        let cpu = ReferenceRenderer().render(parameters)
        let shadedAsGlass = try ImageDiff(ReferenceRenderer().render(unmarked), cpu, threshold: 0)
        #expect(shadedAsGlass.maxError.max() == 0, "\(shadedAsGlass.report)")
        let gpu = try ImageDiff(SharedGPU.with { try $0.render(parameters) }, cpu, threshold: 0)
        #expect(gpu.maxError.max() == 0, "\(gpu.report)")
    }

    @Test("Glass-free tiles add no frost tiles and reach no label")
    func marginsBlurNothing() throws {
        var shadowless = shadowedPanes(grouped: false)
        for index in shadowless.glass.indices { shadowless.glass[index].optics.shadow = .off }
        let shadowed = try resolve(shadowedPanes(grouped: false))
        let plain = try resolve(shadowless)
        for (with, without) in zip(shadowed.lenses, plain.lenses) {
            #expect(with.tileCount > without.tileCount, "the shadow's margin adds lens tiles")
            #expect(with.frostTileCount == without.frostTileCount && with.rowTileCount == without.rowTileCount)
        }
        #expect(shadowed.lenses.allSatisfy { $0.labelTileCount == 0 })
    }
}
