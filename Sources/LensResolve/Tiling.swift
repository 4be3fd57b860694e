import Foundation
import LensModel

/// Where each pass of a lens runs, in 16-pixel tiles: the lens tiles with their candidate shapes,
/// the frost tiles its samples can land in and the row tiles the frost's horizontal pass feeds.
/// The resolver lists them; `FrameReuse` cuts the lists down to what a frame still has to do.
enum Tiling {
    /// The 16-pixel tiles of `region` where the group's glass or its drop shadow can show, each
    /// with its candidate shapes: those whose distance may lie within two blend radii plus the
    /// farthest a lens evaluation looks from its pixel (the sample shift and magnification pull,
    /// the shadow offsets and radii). A shape beyond that only changes group distances already
    /// past every visible threshold, so leaving it out keeps the picture and makes the per-pixel
    /// cost independent of far shapes. Whether glass or shadow can show is judged from a lower
    /// bound of the group's distance over the tile (``groupDistanceBound(_:blend:)``), at the
    /// tile and at the tile moved back by the shadow's offset. A tile is glass-free where no pixel
    /// of it can show glass: it draws only the drop shadow, and its pixels sample no frost and no
    /// label.
    static func tiles(
        of lens: LensParams, geometry: [ShapeGeometry], region: PixelRegion
    ) -> [LensTile] {
        guard !region.isEmpty else { return [] }
        let blend = Double(lens.blend)
        let hasShadow = lens.shadow.w > 0
        let shadowOffset = SIMD2(Double(lens.shadow.x), Double(lens.shadow.y))
        let shadowReach = hasShadow ? (shadowOffset * shadowOffset).sum().squareRoot() + Double(lens.shadow.z) : 0
        let innerReach =
            lens.innerShadow.w > 0
            ? (Double(lens.innerShadow.x * lens.innerShadow.x + lens.innerShadow.y * lens.innerShadow.y)).squareRoot()
                + Double(lens.innerShadow.z) : 0
        let sampleReach = Self.sampleReach(lens, geometry)
        // Shapes beyond fold to no less than that less one blend (the fold of distances ≥ D is
        // ≥ D − blend), which leaves a relevant shape's weight at exactly 1 whatever their order.
        let candidateReach = 2 + 2 * blend + max(1 + blend / 4 + shadowReach, sampleReach, innerReach)
        // Coverage is 0 from group distance 0.5 on and the shadow from its radius on (0.5 below a
        // radius of 0.5); one pixel more covers fp32 rounding of the distance.
        let glassLimit = 1.5
        let shadowLimit = max(Double(lens.shadow.z), 0.5) + 1
        var result: [LensTile] = []
        var distances = [Double](repeating: 0, count: geometry.count)
        for tileY in (region.y0 / TableLayout.tileSize)...((region.y1 - 1) / TableLayout.tileSize) {
            for tileX in (region.x0 / TableLayout.tileSize)...((region.x1 - 1) / TableLayout.tileSize) {
                let corner = SIMD2(Double(tileX), Double(tileY)) * Double(TableLayout.tileSize)
                for index in geometry.indices { distances[index] = distanceBound(geometry[index], tileAt: corner) }
                // A tile no shape is a candidate of folds to infinity both ways and is left out.
                let candidates = geometry.indices.filter { distances[$0] <= candidateReach }
                let glass = groupDistanceBound(candidates.lazy.map { distances[$0] }, blend: blend)
                let shadow =
                    hasShadow
                    ? groupDistanceBound(
                        candidates.lazy.map { distanceBound(geometry[$0], tileAt: corner - shadowOffset) },
                        blend: blend)
                    : Double.infinity
                guard glass <= glassLimit || shadow <= shadowLimit else { continue }
                result.append(
                    LensTile(
                        tile: SIMD2(UInt32(tileX), UInt32(tileY)), candidates: candidates, glassFree: glass > glassLimit
                    )
                )
            }
        }
        return result
    }

    /// A lower bound of `shape`'s distance over the 16-pixel square from `corner`: the distance
    /// from its box, divided by the shape's ``ShapeGeometry/distanceShortfall``.
    static func distanceBound(_ shape: ShapeGeometry, tileAt corner: SIMD2<Double>) -> Double {
        let size = Double(TableLayout.tileSize)
        let dx = max(
            shape.centerX - shape.halfWidth - (corner.x + size), corner.x - (shape.centerX + shape.halfWidth), 0)
        let dy = max(
            shape.centerY - shape.halfHeight - (corner.y + size), corner.y - (shape.centerY + shape.halfHeight), 0)
        return (dx * dx + dy * dy).squareRoot() / shape.distanceShortfall
    }

    /// A lower bound of the group's distance where each shape's distance is at least its entry of
    /// `bounds` (in the shaders' fold order): the smooth minimum rises with each of its two
    /// arguments (its slopes are h and 1 − h), so the fold of the bounds bounds the fold. A chain
    /// of shapes can bridge up to blend / 4 a step, but only where their distances lie close.
    static func groupDistanceBound(_ bounds: some Sequence<Double>, blend: Double) -> Double {
        var group = Double.infinity
        for (step, distance) in bounds.enumerated() {
            guard step > 0, blend > 0 else {
                group = min(group, distance)
                continue
            }
            let h = min(max(0.5 + 0.5 * (group - distance) / blend, 0), 1)
            group = group + (distance - group) * h - blend * h * (1 - h)
        }
        return group
    }

    /// The farthest a lens sample lands from its pixel: the surface shift (with the dispersion
    /// spread) plus the magnification's pull at the far corner of the largest shape, or the
    /// stage model's reach.
    static func sampleReach(_ lens: LensParams, _ geometry: [ShapeGeometry]) -> Double {
        let longest =
            geometry.map { ($0.halfWidth * $0.halfWidth + $0.halfHeight * $0.halfHeight).squareRoot() }.max() ?? 0
        let pull = longest * abs(1 - Double(lens.inverseMagnification))
        return Double(max(lens.bevelAmount, lens.bevelWidth)) * (1 + Double(lens.dispersion)) + pull
            + stageReach(lens, geometry)
    }

    /// The largest surface shift of the lens, either way along the normal, in pixels.
    static func maxShift(_ lens: LensParams, tables: [Float]) -> Double {
        guard lens.profileOffset != 0 else { return Double(lens.bevelAmount) }
        let profile = tables[Int(lens.profileOffset)..<Int(lens.profileOffset) + TableLayout.profileSamples]
        return Double(profile.map(abs).max() ?? 0)
    }

    /// The largest surface shift of a tile's pixels where its glass shows (coverage above 0), or
    /// nil where only ``maxShift`` bounds it (the stage model, ellipses, squircles). The shift
    /// rises with the group distance d through the band, so it is bounded by d's largest value
    /// on the tile: the group distance is at most each candidate's own (the smooth minimum lies
    /// below the minimum), a rounded box's is at most that of the box rounded by its largest
    /// radius (a larger radius only moves a point outwards), and that exact SDF is convex, so
    /// its largest value on the tile is at a corner. Deep inside the glass the shift is 0 and
    /// the tile's samples land in a small box: most such tiles cannot reach a glyph.
    static func tileShift(
        pixelMin: SIMD2<Double>, candidates: [Int], _ lens: LensParams, _ geometry: [ShapeGeometry], tables: [Float]
    ) -> Double? {
        guard lens.stageModel == 0, !candidates.isEmpty else { return nil }
        let size = Double(TableLayout.tileSize)
        var deepest = Double.infinity
        for index in candidates {
            let shape = geometry[index]
            let radius = shape.radii.max() ?? 0
            guard shape.kind == 0, radius <= min(shape.halfWidth, shape.halfHeight) else { return nil }
            let inner = SIMD2(shape.halfWidth - radius, shape.halfHeight - radius)
            var largest = -Double.infinity
            for corner in [SIMD2(0.0, 0), SIMD2(size, 0), SIMD2(0, size), SIMD2(size, size)] {
                let local = pixelMin + corner - SIMD2(shape.centerX, shape.centerY)
                let q = SIMD2(abs(local.x), abs(local.y)) - inner
                let outside = pointwiseMax(q, .zero)
                let box = (outside.x * outside.x + outside.y * outside.y).squareRoot() + min(max(q.x, q.y), 0)
                largest = max(largest, box - radius)
            }
            deepest = min(deepest, largest)
        }
        // Coverage is 0 from d = 0.5 on; half a pixel more covers fp32 rounding of the distance.
        let distance = min(deepest, 0.5) + 0.5
        guard lens.bevelWidth > 0 else { return 0 }
        let band = min(max(1 + distance / Double(lens.bevelWidth), 0), 1)
        guard lens.profileOffset != 0 else {
            return Double(lens.bevelAmount) * (1 - (1 - band * band).squareRoot()) + 0.5
        }
        // The physical model interpolates its table: the samples up to the one after `band`'s.
        let last = min(
            Int((band * Double(TableLayout.profileSamples - 1)).rounded(.down)) + 1, TableLayout.profileSamples - 1)
        let profile = tables[Int(lens.profileOffset)...Int(lens.profileOffset) + last]
        return Double(profile.map(abs).max() ?? 0) + 0.5
    }

    /// The tiles the frost passes write. For each lens tile that can show glass the box its
    /// samples can land in is bounded exactly: a sample is c + (q − c)/m with q the pixel moved at
    /// most `shift` along the normal and c a blend of the candidate shapes' centres, so its
    /// extremes come from the centres and the corners of the grown tile; dispersion scales the
    /// offset by 1 ± k; then the box is mirrored at the canvas edge and clamped into the source
    /// box, as `sampleFrosted` does. Frost tiles are tiles of the lens's pyramid level
    /// (`FrostPyramid`): the box is taken to level texels, with one texel more each way for the
    /// bilinear read-back once the level is coarser than the canvas. The vertical pass writes every tile those boxes touch;
    /// the horizontal pass writes them grown by the kernel radius in rows.
    static func frostTiles(
        for lens: LensParams, lensTiles: [LensTile], geometry: [ShapeGeometry],
        source: PixelRegion, shift: Double, tables: [Float] = [], width: Int, height: Int,
        labelIn: (PixelRegion) -> Bool = { _ in true }
    ) -> (frost: [SIMD2<UInt32>], rows: [SIMD2<UInt32>], reachesLabel: [Bool]) {
        let size = TableLayout.tileSize
        let level = Int(lens.frostLevel)
        let texel = Double(1 << level)
        let levelWidth = FrostPyramid.size(width, level: level)
        let levelHeight = FrostPyramid.size(height, level: level)
        let levelSource = source.atLevel(level)
        let columns = (levelWidth + size - 1) / size
        let rows = (levelHeight + size - 1) / size
        var frost = [Bool](repeating: false, count: columns * rows)
        var reachesLabel: [Bool] = []
        let scale = Double(lens.inverseMagnification)
        let spread = Double(lens.dispersion)
        for lensTile in lensTiles {
            // A glass-free tile's pixels call no glass colour, so they read neither frost nor label.
            guard !lensTile.glassFree else {
                reachesLabel.append(false)
                continue
            }
            let (tile, candidates) = (lensTile.tile, lensTile.candidates)
            let pixelMin = SIMD2(Double(tile.x), Double(tile.y)) * Double(size)
            let pixelMax = pixelMin + Double(size)
            /// The box the tile's samples land in when its pixels move at most `shift`: the
            /// sources of the moved tile's corners through each candidate shape, and those pulled
            /// apart by the dispersion from each pixel corner (min and max taken as they are made).
            func sampleBox(shift: Double) -> (low: SIMD2<Double>, high: SIMD2<Double>) {
                guard lens.warpsContentBelow != 0 else { return (pixelMin - 2, pixelMax + 2) }
                var low = SIMD2(repeating: Double.infinity)
                var high = SIMD2(repeating: -Double.infinity)
                func include(_ sample: SIMD2<Double>) {
                    low = pointwiseMin(low, sample)
                    high = pointwiseMax(high, sample)
                }
                let movedLow: SIMD2<Double> = pixelMin - shift
                let movedHigh: SIMD2<Double> = pixelMin + (Double(size) + shift)
                /// Corner `index` (0…3: top left, top right, bottom left, bottom right) of a box.
                func corner(_ index: Int, _ low: SIMD2<Double>, _ high: SIMD2<Double>) -> SIMD2<Double> {
                    SIMD2(index & 1 == 0 ? low.x : high.x, index < 2 ? low.y : high.y)
                }
                for index in candidates {
                    let centre = SIMD2(geometry[index].centerX, geometry[index].centerY)
                    for cornerIndex in 0..<4 {
                        let source = centre + (corner(cornerIndex, movedLow, movedHigh) - centre) * scale
                        include(source)
                        for pixelCorner in 0..<4 {
                            let p = corner(pixelCorner, pixelMin, pixelMax)
                            let offset: SIMD2<Double> = source - p
                            include(p + offset * (1 + spread))
                            include(p + offset * (1 - spread))
                        }
                    }
                }
                return (low - 2, high + 2)
            }
            let (low, high) = sampleBox(shift: shift)
            // The label is sampled at the same positions, mirrored but not held inside the source;
            // only where the glass shows, so with the tile's own shift bound where one is known.
            // A label on the glass's face is read at the pixel itself.
            let labelBox =
                tileShift(pixelMin: pixelMin, candidates: candidates, lens, geometry, tables: tables).map {
                    sampleBox(shift: min($0, shift))
                } ?? (low: low, high: high)
            let label = mirrored(
                pointwiseMin(labelBox.low, pixelMin - 2), pointwiseMax(labelBox.high, pixelMax + 2),
                width: Double(width), height: Double(height))
            reachesLabel.append(
                labelIn(
                    PixelRegion(
                        covering: label.lower.x, label.lower.y, label.upper.x, label.upper.y, margin: 1,
                        width: width, height: height)))
            let readBack = level == 0 ? 0.0 : 1.0
            var (lower, upper) = mirrored(
                low / texel - readBack, high / texel + readBack, width: Double(levelWidth),
                height: Double(levelHeight))
            lower = pointwiseMax(lower, SIMD2(Double(levelSource.x0), Double(levelSource.y0)))
            upper = pointwiseMin(upper, SIMD2(Double(levelSource.x1), Double(levelSource.y1)))
            guard lower.x < upper.x, lower.y < upper.y else { continue }
            for y in Int(lower.y) / size...min(rows - 1, Int(upper.y.rounded(.up)) / size) {
                for x in Int(lower.x) / size...min(columns - 1, Int(upper.x.rounded(.up)) / size) {
                    frost[y * columns + x] = true
                }
            }
        }
        let frostList = frost.indices.filter { frost[$0] }.map { SIMD2(UInt32($0 % columns), UInt32($0 / columns)) }
        let horizontal = rowTiles(
            feeding: frostList, kernelRadius: Int(lens.kernelRadius), columns: columns, rows: rows
        )
        .sorted().map { SIMD2(UInt32($0 % columns), UInt32($0 / columns)) }
        return (frostList, horizontal, reachesLabel)
    }

    /// The box `lower`…`upper` with what mirroring at the canvas edge (as `mirrorIndex`) brings in.
    private static func mirrored(_ low: SIMD2<Double>, _ high: SIMD2<Double>, width: Double, height: Double)
        -> (lower: SIMD2<Double>, upper: SIMD2<Double>)
    {
        var lower = low
        var upper = high
        for (axis, extent) in [(0, width), (1, height)] {
            if lower[axis] < 0 { upper[axis] = max(upper[axis], -lower[axis]) }
            if upper[axis] > extent { lower[axis] = min(lower[axis], 2 * extent - upper[axis]) }
        }
        return (lower, upper)
    }

    /// The row tiles (indices `y * columns + x`) the vertical frost pass of `frost` reads: each
    /// tile's column, grown by the kernel radius in whole tiles (mirrored reads at the edges stay
    /// inside that range). The resolver lists them; `FrameReuse` recomputes them for the frost
    /// tiles a frame still has to blur.
    static func rowTiles(feeding frost: [SIMD2<UInt32>], kernelRadius: Int, columns: Int, rows: Int) -> Set<Int> {
        let size = TableLayout.tileSize
        let grow = (kernelRadius + size - 1) / size
        var needed = Set<Int>()
        for tile in frost {
            let y = Int(tile.y)
            for row in max(0, y - grow)...min(rows - 1, y + grow) { needed.insert(row * columns + Int(tile.x)) }
        }
        return needed
    }

    /// The lens pass covers where the group's glass and its shadow can show: each shape's box grown
    /// by the bridge a chain of all its shapes can make ((n − 1) · blend / 4, at least one blend / 4
    /// and at most one blend), the antialiasing's pixel and the shadow's radius at its offset, scaled by
    /// the shape's ``ShapeGeometry/distanceShortfall``. The source covers the group with its blend
    /// bridge and the fringe dispersion can push past it.
    static func regions(of lens: LensParams, geometry: [ShapeGeometry], width: Int, height: Int) -> LensRegions {
        let bridge = Double(lens.blend) / 4
        let minX = geometry.map { $0.centerX - $0.halfWidth }.min()! - bridge
        let minY = geometry.map { $0.centerY - $0.halfHeight }.min()! - bridge
        let maxX = geometry.map { $0.centerX + $0.halfWidth }.max()! + bridge
        let maxY = geometry.map { $0.centerY + $0.halfHeight }.max()! + bridge
        // A chain bridges blend / 4 a step, and no more than one blend in all (the fold of
        // distances ≥ D is ≥ D − blend).
        let chain = min(max(Double(geometry.count - 1) * bridge, bridge), Double(lens.blend))
        let hasShadow = lens.shadow.w > 0
        let offset = SIMD2(Double(lens.shadow.x), Double(lens.shadow.y))
        var lower = SIMD2(repeating: Double.infinity)
        var upper = SIMD2(repeating: -Double.infinity)
        for shape in geometry {
            let centre = SIMD2(shape.centerX, shape.centerY)
            let half = SIMD2(shape.halfWidth, shape.halfHeight)
            // Less the region's 1-pixel margin: a rounded box's box grows by the chain alone.
            let grow = (chain + 1) * shape.distanceShortfall - 1
            lower = pointwiseMin(lower, centre - half - grow)
            upper = pointwiseMax(upper, centre + half + grow)
            if hasShadow {
                let shadowGrow = (chain + 1 + Double(lens.shadow.z)) * shape.distanceShortfall - 1
                lower = pointwiseMin(lower, centre + offset - half - shadowGrow)
                upper = pointwiseMax(upper, centre + offset + half + shadowGrow)
            }
        }
        let lensRegion = PixelRegion(
            covering: lower.x, lower.y, upper.x, upper.y, margin: 1, width: width, height: height)
        let fringe = 2 + Double(lens.dispersion) * Double(max(lens.bevelAmount, lens.bevelWidth))
        let source = PixelRegion(covering: minX, minY, maxX, maxY, margin: fringe, width: width, height: height)
        return LensRegions(lens: lensRegion, source: source)
    }
}

extension Tiling {
    /// The pixels the frost a lens's samples see depends on: `sampleFrosted` reads only texels of
    /// pyramid level `frostLevel` inside the lens's source region, and each of those blurs
    /// `kernelRadius` texels each way of it (the horizontal then the vertical pass), each texel the
    /// mean of its 2^level × 2^level pixels; clamped to the canvas (the passes mirror at its edges,
    /// back into pixels the clamped box holds). Frost texels beyond it, which whole tiles also blur,
    /// are never sampled.
    static func frostFootprint(of lens: LensParams, width: Int, height: Int) -> PixelRegion {
        let level = Int(lens.frostLevel)
        let radius = Int(lens.kernelRadius)
        let roundUp = (1 << level) - 1
        let source = lens.sourceRegion
        return PixelRegion(
            x0: max(0, ((Int(source.x) >> level) - radius) << level),
            y0: max(0, ((Int(source.y) >> level) - radius) << level),
            x1: min(width, (((Int(source.z) + roundUp) >> level) + radius) << level),
            y1: min(height, (((Int(source.w) + roundUp) >> level) + radius) << level))
    }
}
