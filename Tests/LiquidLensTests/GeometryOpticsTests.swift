import Foundation
import LensCompare
import LensResolve
import LiquidLens
import Testing

@testable import LensReference

@Suite("Glass geometry and optics")
struct GeometryOpticsTests {
    static func scene(_ glass: [GlassElement], width: Double = 240, height: Double = 240, label: LabelLayer? = nil)
        -> Scene
    {
        Scene(
            canvas: Canvas(width: width, height: height, scale: 1), background: [BackgroundLayer(.probe(.ramp))],
            label: label, glass: glass)
    }

    /// Displacement (sample position − pixel position) along a path of points.
    static func displacements(_ parameters: FrameParameters, along path: [SIMD2<Float>]) -> [SIMD2<Float>] {
        withShaderContext(parameters) { context in
            let lens = parameters.lenses[0]
            return path.map { p in
                let group = context.groupSample(p, lens, true)
                return context.samplePosition(p, group, lens) - p
            }
        }
    }

    /// The largest change of the displacement between neighbouring path points.
    static func largestJump(_ values: [SIMD2<Float>]) -> Float {
        zip(values, values.dropFirst()).map { pair in
            let change = pair.1 - pair.0
            return (change * change).sum().squareRoot()
        }.max() ?? 0
    }

    static func path(from start: SIMD2<Float>, to end: SIMD2<Float>, step: Float = 0.25) -> [SIMD2<Float>] {
        let offset = end - start
        let count = Int(((offset * offset).sum().squareRoot() / step).rounded(.up))
        return (0...count).map { start + offset * (Float($0) / Float(count)) }
    }

    // Why 1 px per 0.25 px step: the paths cross where the shift is about 10 px (5 px deep in a
    // 20 px band with A = 30). There the bevel profile changes the shift by under 1.5 px per pixel
    // and the blended normal turns 90° over the 20 px the blend spans, moving the sample by about
    // 10 · (π/2) / 20 ≈ 0.8 px per pixel: together under 0.6 px per 0.25 px step. A crease turns
    // the normal by up to 90° at once, moving the sample by up to √2 · 10 px in a single step;
    // the 50 % ellipse share of the refraction direction halves that at the rounded rectangle's
    // medial axis, so a crease there still shows as a step over 3 px.
    static let jumpLimit: Float = 1

    @Test("No crease across the medial axis of a rounded rectangle; breaking the normal blend shows one")
    func roundedRectangleMedialAxis() throws {
        var optics = Optics()
        optics.bevelWidth = 20
        optics.bevelAmount = 30
        let element = GlassElement(
            shape: .roundedRectangle(cornerRadii: [4, 4, 4, 4]), frame: Rect(x: 20, y: 20, width: 200, height: 160),
            optics: optics)
        let parameters = try resolve(Self.scene([element]))
        // Across the diagonal near the top-left corner, crossing it 5 px inside both edges.
        let path = Self.path(from: SIMD2(22, 28), to: SIMD2(28, 22))
        let smooth = Self.largestJump(Self.displacements(parameters, along: path))
        #expect(smooth < Self.jumpLimit, "largest step \(smooth) px")

        var broken = parameters
        broken.lenses[0].normalSmoothing = 0.001
        let creased = Self.largestJump(Self.displacements(broken, along: path))
        #expect(creased > 3 * Self.jumpLimit, "without blending the crease must show: \(creased) px")
    }

    @Test(
        "No seam where the band meets the flat face, for the bevel and every physical profile",
        arguments: [nil] + SurfaceProfile.allCases.map(Optional.some))
    func bandMeetsFlatFace(profile: SurfaceProfile?) throws {
        var optics = Optics()
        optics.bevelWidth = 20
        optics.bevelAmount = 30
        if let profile {
            optics.model = .physical
            optics.profile = profile
        }
        let element = GlassElement(shape: .circle, frame: Rect(x: 20, y: 20, width: 200, height: 200), optics: optics)
        let parameters = try resolve(Self.scene([element]))
        // Radially inward across depth H = 20 (x = 0) from depth 12 to depth 28.
        let values = Self.displacements(parameters, along: Self.path(from: SIMD2(108, 120), to: SIMD2(92, 120)))
        let jump = Self.largestJump(values)
        #expect(jump < 0.1, "step \(jump) px at the inner edge of the band")
        #expect(values.last == SIMD2(0, 0), "the flat face does not move")
    }

    @Test("Two capsules grow a continuous liquid bridge; a hard union shows the seam")
    func blendBridge() throws {
        func group(blend: Double, gap: Double) -> GlassElement {
            var optics = Optics()
            optics.bevelWidth = 12
            optics.bevelAmount = 20
            return GlassElement(
                shapes: [
                    PlacedShape(shape: .capsule, frame: Rect(x: 20, y: 90, width: 90, height: 60)),
                    PlacedShape(shape: .capsule, frame: Rect(x: 110 + gap, y: 90, width: 90, height: 60)),
                ], blend: blend, optics: optics)
        }
        // Apart by 8 pt, a 24 pt blend already joins them: the neck point between them is glass.
        let bridged = try resolve(Self.scene([group(blend: 24, gap: 8)]))
        let neck = withShaderContext(bridged) { $0.groupDistance(SIMD2(114, 120), bridged.lenses[0]) }
        #expect(neck < 0, "the bridge covers the gap: distance \(neck)")
        let apart = try resolve(Self.scene([group(blend: 0, gap: 8)]))
        let gapDistance = withShaderContext(apart) { $0.groupDistance(SIMD2(114, 120), apart.lenses[0]) }
        #expect(gapDistance > 0, "without blend the gap stays open")

        // Across the bridge, vertically through the neck and horizontally along the band.
        let overlapping = try resolve(Self.scene([group(blend: 24, gap: -20)]))
        let paths = [
            Self.path(from: SIMD2(100, 95), to: SIMD2(100, 145)), Self.path(from: SIMD2(60, 104), to: SIMD2(140, 104)),
        ]
        for path in paths {
            let jump = Self.largestJump(Self.displacements(overlapping, along: path))
            #expect(jump < Self.jumpLimit, "bridge step \(jump) px")
        }
        let hard = try resolve(Self.scene([group(blend: 0, gap: -20)]))
        let seam = Self.largestJump(Self.displacements(hard, along: paths[1]))
        #expect(seam > 5 * Self.jumpLimit, "a hard union has a seam: \(seam) px")
    }

    @Test("Shapes far from a pixel are skipped without changing the result")
    func farShapesAreSkipped() throws {
        let near = PlacedShape(shape: .circle, frame: Rect(x: 40, y: 40, width: 60, height: 60))
        let far = (0..<15).map {
            PlacedShape(
                shape: .circle,
                frame: Rect(x: 150 + Double($0 % 4) * 20, y: 140 + Double($0 / 4) * 20, width: 12, height: 12))
        }
        let alone = try resolve(Self.scene([GlassElement(shapes: [near], blend: 10)]))
        let crowded = try resolve(Self.scene([GlassElement(shapes: [near] + far, blend: 10)]))
        #expect(crowded.shapes.count == 16)
        for point in [SIMD2<Float>(70, 70), SIMD2(45, 60), SIMD2(99, 70), SIMD2(120, 110)] {
            let a = withShaderContext(alone) { $0.groupSample(point, alone.lenses[0], true) }
            let b = withShaderContext(crowded) { $0.groupSample(point, crowded.lenses[0], true) }
            #expect(a.distance == b.distance && a.lightNormal == b.lightNormal && a.center == b.center)
        }
    }

    @Test("Tiles list only the shapes near them, and culling the far ones leaves the picture unchanged")
    func tileCulling() throws {
        var optics = Optics()
        optics.magnification = 1.2
        optics.dispersion = 0.03
        optics.innerShadow = .appleInner
        let capsule = PlacedShape(shape: .capsule, frame: Rect(x: 20, y: 60, width: 120, height: 60))
        let far = (0..<15).map {
            PlacedShape(
                shape: .circle,
                frame: Rect(x: 170 + Double($0 % 3) * 22, y: 20 + Double($0 / 3) * 40, width: 16, height: 16))
        }
        let parameters = try resolve(
            Self.scene([GlassElement(shapes: [capsule] + far, blend: 8, optics: optics)], label: ParityScene.label))
        let lens = parameters.lenses[0]
        let tiles = parameters.tiles[Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)]
        // The candidate reach here is about 75 px (blend, shadow offset and radius); the nearest
        // far circle starts at x = 170.
        let capsuleTiles = tiles.filter { $0.x * 16 + 16 <= 90 }
        #expect(
            !capsuleTiles.isEmpty && capsuleTiles.allSatisfy { TableLayout.candidateCount($0.w) == 1 },
            "tiles over the capsule see only the capsule")
        #expect(tiles.count < 15 * 15, "empty tiles between the shapes are not listed")

        var everyShape = parameters
        everyShape.tileShapes = []
        everyShape.tiles = parameters.tiles.map { tile in
            defer { everyShape.tileShapes += (0..<UInt32(16)) }
            return SIMD4(tile.x, tile.y, UInt32(everyShape.tileShapes.count), 16)
        }
        let culled = ReferenceRenderer().render(parameters)
        let full = ReferenceRenderer().render(everyShape)
        let diff = try ImageDiff(culled, full, threshold: 0)
        #expect(diff.maxError.max() == 0, "culling changed the picture:\n\(diff.report)")
        let gpu = try SharedGPU.with { try $0.render(parameters) }
        let parity = try ImageDiff(gpu, culled)
        #expect(parity.maxError.max() <= 1 && parity.identicalFraction >= 0.999, "\(parity.report)")
    }

    @Test(
        "Every texel a lens sample reads lies in a tile the frost passes wrote",
        arguments: [0.6, 1.0, 1.3])
    func frostTilesCoverSamples(magnification: Double) throws {
        var optics = Optics()
        optics.magnification = magnification
        optics.dispersion = 0.1
        optics.dispersionMode = .spectral
        optics.frost = 3
        let element = GlassElement(
            shapes: [
                PlacedShape(shape: .capsule, frame: Rect(x: -30, y: 150, width: 120, height: 70)),
                PlacedShape(
                    shape: .squircle(cornerRadii: [20, 20, 20, 20], exponent: 5),
                    frame: Rect(x: 60, y: 120, width: 90, height: 90)),
                PlacedShape(shape: .circle, frame: Rect(x: 180, y: 10, width: 50, height: 50)),
            ], blend: 20, optics: optics)
        let parameters = try resolve(Self.scene([element]))
        let lens = parameters.lenses[0]
        let coverage = FrostTileCoverage(parameters)
        var missing = 0
        withShaderContext(parameters) { context in
            for tile in parameters.tiles[Int(lens.tileOffset)..<Int(lens.tileOffset + lens.tileCount)] {
                for y in Int(tile.y) * 16..<min(240, Int(tile.y) * 16 + 16) {
                    for x in Int(tile.x) * 16..<min(240, Int(tile.x) * 16 + 16) {
                        let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                        let group = context.groupSample(p, lens, true)
                        guard context.coverage(group.distance) > 0 else { continue }
                        let source = context.samplePosition(p, group, lens)
                        for scale in stride(
                            from: 1 - lens.dispersion, through: 1 + lens.dispersion, by: lens.dispersion / 3)
                        {
                            missing += coverage.misses(at: p + (source - p) * scale, context)
                        }
                    }
                }
            }
        }
        #expect(missing == 0, "\(missing) texel reads outside the frosted tiles")
    }

    @Test(
        "The frost pyramid blurs by σ at every level: a point's spread through the glass", arguments: [1.0, 3, 6, 12])
    func pyramidBlursBySigma(sigma: Double) throws {
        var optics = Optics()
        optics.bevelWidth = 0
        optics.bevelAmount = 0
        optics.frost = sigma
        optics.rimLight = RimLight(
            key: RimLobe(angle: -45, amount: 0), fill: RimLobe(angle: 135, amount: 0), width: 0, falloff: 1)
        optics.shadow = .off
        let scene = Scene(
            canvas: Canvas(width: 240, height: 240, scale: 1),
            background: [
                BackgroundLayer(.solid(.black)),
                BackgroundLayer(
                    .fill(
                        shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                        frame: Rect(x: 118, y: 118, width: 4, height: 4),
                        color: .white)),
            ],
            glass: [
                GlassElement(
                    shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    frame: Rect(x: 20, y: 20, width: 200, height: 200),
                    optics: optics)
            ])
        let image = try render(resolve(scene), on: .cpu)
        // Light (linear) about the square's centre: its second moment along x is the blur's
        // variance plus the 4-px square's own, (4² − 1)/12 = 5/4.
        var total = 0.0
        var moment = 0.0
        for y in 40..<200 {
            for x in 40..<200 {
                let code = Double(image.pixels[(y * 240 + x) * 4]) / 255
                let light = code <= 0.04045 ? code / 12.92 : pow((code + 0.055) / 1.055, 2.4)
                let dx = Double(x) + 0.5 - 120
                total += light
                moment += light * dx * dx
            }
        }
        let measured = (moment / total - 1.25).squareRoot()
        #expect(abs(measured - sigma) <= 0.15 * sigma + 0.3, "σ \(sigma) spreads as \(measured)")
    }

    @Test(
        "Physical model: IOR 1 displaces nothing, and displacement grows with IOR", arguments: SurfaceProfile.allCases)
    func physicalIOR(profile: SurfaceProfile) throws {
        func table(_ ior: Double) -> [Float] {
            var optics = Optics()
            optics.model = .physical
            optics.profile = profile
            optics.ior = ior
            return OpticsTables.physicalProfile(optics, bandWidth: 20, scale: 1)
        }
        #expect(table(1).allSatisfy { $0 == 0 })
        var previous = table(1)
        for ior in [1.1, 1.3, 1.5, 1.8, 2.2] {
            let current = table(ior)
            for (a, b) in zip(previous, current) {
                #expect(abs(b) >= abs(a) - 1e-6, "\(profile) at IOR \(ior): |\(b)| < |\(a)|")
            }
            #expect(current.contains { $0 != 0 })
            previous = current
        }
        // Convex surfaces pull inward, the concave one pushes outward.
        let sum = table(1.5).reduce(0, +)
        #expect(profile == .concave ? sum < 0 : sum > 0)
    }

    @Test(
        "On the ramp probe the physical model's displacement matches Snell's law within 0.5 px",
        arguments: [Backend.cpu, .vulkan])
    func physicalRamp(backend: Backend) throws {
        let radius = 80.0, band = 20.0, thickness = 24.0, ior = 1.5
        let center = SIMD2<Double>(120, 120)
        var optics = Optics()
        optics.model = .physical
        optics.profile = .convexCircle
        optics.ior = ior
        optics.thickness = thickness
        optics.bevelWidth = band
        optics.rimLight = .off
        optics.shadow = .off
        let element = GlassElement(
            shape: .circle,
            frame: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius),
            optics: optics)
        let parameters = try resolve(Self.scene([element]))
        let image = try render(parameters, on: backend)

        // Independent Snell: surface z = T·√(1 − x²) (x = 1 at the rim), normal (−z', 1),
        // the downward ray refracted into the glass and carried to z = 0.
        func expectedShift(_ x: Double) -> Double {
            let height = thickness * (1 - x * x).squareRoot()
            let slope = -thickness * x / (1 - x * x).squareRoot() / band
            let normal = SIMD2(-slope, 1) / (slope * slope + 1).squareRoot()
            let eta = 1 / ior
            let cosine = normal.y
            let k = eta * cosine - (1 - eta * eta * (1 - cosine * cosine)).squareRoot()
            let ray = SIMD2(0, -eta) + normal * k
            return -ray.x * height / -ray.y
        }
        var worst = 0.0
        var checked = 0
        for y in 0..<240 {
            for x in 0..<240 {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let offset = p - center
                let length = (offset * offset).sum().squareRoot()
                let bandX = min(max(1 + (length - radius) / band, 0), 1)
                guard length - radius < -1, bandX < 0.8 else { continue }
                let expected = p - offset / length * expectedShift(bandX)
                guard let decoded = decodeRamp(image[x, y], expected: expected) else { continue }
                worst = max(worst, max(abs(decoded.x - expected.x), abs(decoded.y - expected.y)))
                checked += 1
            }
        }
        #expect(worst <= 0.5, "largest error \(worst) px over \(checked) pixels")
        #expect(checked > 10000)
    }
}
