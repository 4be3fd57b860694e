import Foundation
import LensCompare
import LiquidLens
import Testing

@testable import LensModel
@testable import LensReference
@testable import LensResolve

/// Groups whose glass reaches past what a box grown by one blend bridge holds: an ellipse's and a
/// squircle's distances fall short of their boxes', and a chain of blended shapes bridges by up to
/// a quarter blend at each step.
let reachingGroups: [(name: String, glass: GlassElement)] = [
    (
        "ellipse-blend",
        GlassElement(
            shapes: [
                PlacedShape(shape: .ellipse, frame: Rect(x: 225.4, y: 288.1, width: 149.2, height: 23.8)),
                PlacedShape(
                    shape: .roundedRectangle(cornerRadii: [4.7, 4.7, 4.7, 4.7]),
                    frame: Rect(x: 133.1, y: 211, width: 131.2, height: 61.2)),
            ], blend: 52.6)
    ),
    (
        "rounded-first-ellipse-second",
        GlassElement(
            shapes: [
                PlacedShape(shape: .capsule, frame: Rect(x: 60, y: 40, width: 60, height: 30)),
                PlacedShape(shape: .ellipse, frame: Rect(x: 40, y: 110, width: 300, height: 20)),
            ], blend: 40)
    ),
    (
        "squircle-pair",
        GlassElement(
            shapes: [
                PlacedShape(
                    shape: .squircle(cornerRadii: [30, 30, 30, 30], exponent: 6),
                    frame: Rect(x: 40, y: 60, width: 120, height: 90)),
                PlacedShape(
                    shape: .squircle(cornerRadii: [24, 24, 24, 24], exponent: 4),
                    frame: Rect(x: 190, y: 150, width: 110, height: 100)),
            ], blend: 60)
    ),
    (
        "capsule-chain",
        GlassElement(
            shapes: (0..<6).map {
                PlacedShape(shape: .capsule, frame: Rect(x: 20 + Double($0) * 58, y: 150, width: 40, height: 24))
            }, blend: 48)
    ),
]

/// The parameters with every lens drawn over the whole canvas: every tile listed and none marked
/// glass-free, each with every shape of its group a candidate. A listed tile's own candidates
/// come first, so its fold is the same up to them; a shape that cannot change the result then
/// folds in with weight 0, exactly (first, it would round the distance by an ulp of its own).
private func everyTileEveryShape(_ parameters: FrameParameters) -> FrameParameters {
    var full = parameters
    full.tiles = []
    full.tileShapes = []
    let size = TableLayout.tileSize
    let columns = (Int(parameters.frame.width) + size - 1) / size
    let rows = (Int(parameters.frame.height) + size - 1) / size
    for index in parameters.lenses.indices {
        var lens = parameters.lenses[index]
        let resolved = LensTileLists(of: lens, in: parameters.tiles)
        let group = Array(lens.shapeOffset..<lens.shapeOffset + lens.shapeCount)
        var candidates = [Int: [UInt32]]()
        for tile in resolved.lens {
            let start = Int(tile.z)
            candidates[Int(tile.y) * columns + Int(tile.x)] = Array(
                parameters.tileShapes[start..<start + Int(TableLayout.candidateCount(tile.w))])
        }
        let every = (0..<rows * columns).map { tileIndex in
            let first = candidates[tileIndex] ?? []
            let offset = UInt32(full.tileShapes.count)
            full.tileShapes += first + group.filter { !first.contains($0) }
            return SIMD4(UInt32(tileIndex % columns), UInt32(tileIndex / columns), offset, lens.shapeCount)
        }
        LensTileLists(lens: every, labelTileCount: every.count, frost: resolved.frost, rows: resolved.rows)
            .append(to: &full.tiles, pointing: &lens)
        full.lenses[index] = lens
        full.regions[index].lens = PixelRegion(
            x0: 0, y0: 0, x1: Int(parameters.frame.width), y1: Int(parameters.frame.height))
    }
    return full
}

@Suite("Tile culling")
struct TileCullingTests {
    @Test(
        "Culled tiles and candidates draw what every tile with every shape draws",
        arguments: reachingGroups.map(\.name), [false, true])
    func cullingKeepsEveryPixel(group: String, shadowed: Bool) throws {
        var glass = try #require(reachingGroups.first { $0.name == group }).glass
        glass.optics.shadow = shadowed ? DropShadow(offset: Point(x: 0, y: 8), radius: 16, opacity: 0.3) : .off
        let scene = Scene(
            canvas: Canvas(width: 400, height: 340, scale: 1), background: ParityScene.busyBackground, glass: [glass])
        let parameters = try resolve(scene)
        let culled = ReferenceRenderer().render(parameters)
        let full = try ImageDiff(ReferenceRenderer().render(everyTileEveryShape(parameters)), culled, threshold: 0)
        #expect(full.maxError.max() == 0, "culling changed the picture:\n\(full.report)")
        let gpu = try ImageDiff(SharedGPU.with { try $0.render(parameters) }, culled, threshold: 0)
        #expect(gpu.maxError.max() == 0, "\(gpu.report)")
    }

    @Test(
        "The shaders' bounds distance and the tiling's bound over a tile never exceed a shape's distance",
        arguments: [
            Shape.ellipse, .circle, .capsule, .roundedRectangle(cornerRadii: [6, 20, 0, 12]),
            .squircle(cornerRadii: [30, 30, 30, 30], exponent: 5),
            .squircle(cornerRadii: [10, 40, 10, 40], exponent: 2.5),
        ], [Rect(x: -75, y: -12, width: 150, height: 24), Rect(x: -20, y: -90, width: 40, height: 180)])
    func boundsDistanceIsALowerBound(shape: Shape, frame: Rect) {
        let geometry = ShapeGeometry(shape: shape, frame: frame, scale: 1)
        let parameters = geometry.parameters
        let context = shaderContext(shapes: [parameters])
        var above: [String] = []
        for i in -120...120 {
            for j in -120...120 {
                let local = SIMD2(Float(i) * 1.7 + 0.25, Float(j) * 1.7 + 0.25)
                if context.boundsDistance(local, parameters) > context.shapeDistance(local, parameters) {
                    above.append("shader (\(local.x), \(local.y))")
                }
            }
        }
        // The resolver's bound over each 16-pixel tile, against the distance at every pixel corner
        // of the tile (it need hold only outside the shape: a tile reaching inside is drawn).
        for tileY in -13..<13 {
            for tileX in -13..<13 {
                let corner = SIMD2(Double(tileX), Double(tileY)) * 16
                let nearest = (0...16).flatMap { y in
                    (0...16).map { x in max(geometry.distance(corner.x + Double(x), corner.y + Double(y)), 0) }
                }.min()!
                if Tiling.distanceBound(geometry, tileAt: corner) > nearest {
                    above.append("tiling tile (\(tileX), \(tileY))")
                }
            }
        }
        #expect(above.isEmpty, "above the distance at \(above.prefix(6).joined(separator: ", "))")
    }

    @Test("A shape overlapping the group so far is folded in, not skipped: a hard union's inside")
    func overlappingShapesFold() throws {
        let shapes = [Rect(x: 20, y: 90, width: 90, height: 60), Rect(x: 90, y: 90, width: 90, height: 60)].map {
            PlacedShape(shape: .capsule, frame: $0)
        }
        let parameters = try resolve(GeometryOpticsTests.scene([GlassElement(shapes: shapes, blend: 0)]))
        withShaderContext(parameters) { context in
            // Inside both boxes, 0.3 px inside the first capsule and 8 px inside the second.
            let p = SIMD2<Float>(105, 104)
            let deepest = parameters.shapes.map {
                context.shapeDistance(p - SIMD2($0.centerHalfSize.x, $0.centerHalfSize.y), $0)
            }.min()!
            let group = context.groupSample(p, parameters.lenses[0], false).distance
            #expect(abs(group - deepest) < 1e-3, "group distance \(group), deepest shape \(deepest)")
        }
    }
}
