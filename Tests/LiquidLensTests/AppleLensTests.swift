import Foundation
import LiquidLens
import Testing

@testable import LensReference

/// Apple's numbers, read back from renders: the segment lens's displacement stages and fringe
/// decoded from ramp probes, the general glass face and the rim recolour on flat backdrops, and
/// the showcase's rim split.
@Suite("Apple's lens, stage by stage")
struct AppleLensTests {
    static let scale = 2.0
    /// The probe lens: a circle; the line through its centre meets the rim along the normal.
    static let center = 100.0
    static let radius = 80.0

    /// One ramp-probe case: stages on one target, alone or composed in sampling order.
    struct StageCase: CustomTestStringConvertible, Sendable {
        let name: String
        let stages: [DisplacementStage]
        var target: StageTarget { stages[0].target }
        var testDescription: String { name }
    }

    static let stageCases: [StageCase] = [
        StageCase(name: "glassBackground inner −6.6/4.4", stages: [DisplacementStage.segmentLens[0]]),
        StageCase(name: "backdrop +9/36", stages: [DisplacementStage.segmentLens[1]]),
        StageCase(name: "backdrop composed", stages: Array(DisplacementStage.segmentLens[0...1])),
        StageCase(name: "ContentLensing −8.8/7.04", stages: [DisplacementStage.segmentLens[2]]),
        StageCase(name: "ClearGlass −17.5/11.2", stages: [DisplacementStage.segmentLens[3]]),
        StageCase(name: "label composed", stages: Array(DisplacementStage.segmentLens[2...3])),
    ]

    /// Optics with every look but the stages (and what `change` sets) off.
    static func stageOptics(_ stages: [DisplacementStage], _ change: (inout Optics) -> Void = { _ in }) -> Optics {
        var optics = ParityScene.plainOptics
        optics.model = .stages
        optics.stages = stages
        change(&optics)
        return optics
    }

    /// A 200 × 200 pt canvas at scale 2 with the probe circle. The backdrop case paints the ramp
    /// probe; the label case paints black under a label row whose coverage is the same sawtooth
    /// (4 x mod 256 across x), white at rest and under the glass, so red reads the label's x.
    static func probeScene(_ optics: Optics, labelRamp: Bool) -> Scene {
        let side = Int(200 * scale)
        var label: LabelLayer?
        if labelRamp {
            var mask = AlphaImage(width: side, height: side, coverage: [UInt8](repeating: 0, count: side * side))
            for y in 0..<side { for x in 0..<side { mask.coverage[y * side + x] = UInt8((4 * x) & 255) } }
            label = LabelLayer(mask: .image(mask), scale: scale, resting: .white, accent: .white)
        }
        return Scene(
            canvas: Canvas(width: 200, height: 200, scale: scale),
            background: [BackgroundLayer(.probe(labelRamp ? .black : .ramp))], label: label,
            glass: [
                GlassElement(
                    shape: .circle,
                    frame: Rect(x: center - radius, y: center - radius, width: 2 * radius, height: 2 * radius),
                    optics: optics)
            ])
    }

    /// The x a sawtooth code (4 x mod 256) encodes, in the period nearest `expected`; nil near a wrap.
    static func decodeX(_ code: UInt8, expected: Double) -> Double? {
        let phase = (expected - 0.5).truncatingRemainder(dividingBy: 64)
        if phase > 62.5 || phase < 0.5 { return nil }
        let value = Double(code) / 4 + 0.5
        return value + 64 * ((expected - value) / 64).rounded()
    }

    /// Where the stages (amount and height in pixels) send x on the line through the centre: each in
    /// turn along the radial normal, A·(1 − √(1 − (1 − t)²)) with t = sat(−d/H), faded by the
    /// coverage, held half a pixel inside the circle's box.
    static func staged(_ x: Double, _ stages: [(amount: Double, height: Double)]) -> Double {
        let c = center * scale
        let r = radius * scale
        var q = x
        for stage in stages {
            let d = abs(q - c) - r
            let t = min(max(-d / stage.height, 0), 1)
            let rise = (1 - (1 - t) * (1 - t)).squareRoot()
            let coverage = min(max(0.5 - d, 0), 1)
            q += (q < c ? -1 : 1) * stage.amount * (1 - rise) * coverage
            q = min(max(q, c - r + 0.5), c + r - 0.5)
        }
        return q
    }

    /// The decoded x of every fully covered pixel on the row through the centre, by pixel x centre.
    static func decodedRow(_ image: RGBA8Image, expected: (Double) -> Double) -> [(x: Double, decoded: Double)] {
        let row = Int(center * scale)
        var result: [(x: Double, decoded: Double)] = []
        for column in 0..<image.width {
            let x = Double(column) + 0.5
            guard abs(x - center * scale) - radius * scale <= -1 else { continue }
            if let decoded = decodeX(image[column, row].x, expected: expected(x)) { result.append((x, decoded)) }
        }
        return result
    }

    @Test(
        "Each stage's amount and height, alone and composed in sampling order, decode from a ramp probe within 0.5 px",
        arguments: stageCases, [Backend.cpu, .vulkan])
    func stagesFromRamp(_ probe: StageCase, backend: Backend) throws {
        let scene = Self.probeScene(Self.stageOptics(probe.stages), labelRamp: probe.target == .label)
        let image = try render(try resolve(scene), on: backend)
        let nominal = probe.stages.map { (amount: $0.amount * Self.scale, height: $0.height * Self.scale) }
        let row = Self.decodedRow(image) { Self.staged($0, nominal) }
        #expect(row.count > 200, "\(row.count) pixels decoded")
        let worst = row.map { abs($0.decoded - Self.staged($0.x, nominal)) }.max() ?? .infinity
        #expect(worst <= 0.5, "\(probe.name): decoded displacement off the model by up to \(worst) px")
        if nominal.count > 1 {
            // The probe tells the order: the other order lands more than a pixel away somewhere.
            let reversed = row.map { abs($0.decoded - Self.staged($0.x, nominal.reversed())) }.max() ?? 0
            #expect(reversed > 1, "\(probe.name): the reversed order fits too (within \(reversed) px)")
        }
        // Fit each stage's amount and height with the others at their values. Composed, the first
        // stage's band is folded under the second's and the probe cannot separate its amount from
        // its height: there the last stage is fitted (the stage alone is fitted in its own case).
        for index in nominal.count > 1 ? [nominal.count - 1] : [0] {
            let fit = Self.fit(row, around: nominal[index]) { amount, height in
                var stages = nominal
                stages[index] = (amount, height)
                return stages
            }
            #expect(
                abs(fit.amount - nominal[index].amount) <= 0.5 && abs(fit.height - nominal[index].height) <= 0.5,
                "\(probe.name) stage \(index): fitted \(fit) px, Apple's \(nominal[index]) px")
        }
    }

    @Test(
        "The stage model's magnification scales the label row alone about the centre; the backdrop stays 1:1",
        arguments: [Backend.cpu, .vulkan])
    func labelMagnification(backend: Backend) throws {
        let optics = Self.stageOptics([]) { $0.magnification = 1.22 }
        let c = Self.center * Self.scale
        for labelRamp in [true, false] {
            let image = try render(try resolve(Self.probeScene(optics, labelRamp: labelRamp)), on: backend)
            let expected = { (x: Double) in labelRamp ? c + (x - c) / 1.22 : x }
            let row = Self.decodedRow(image, expected: expected)
            #expect(row.count > 200)
            let worst = row.map { abs($0.decoded - expected($0.x)) }.max() ?? .infinity
            #expect(worst <= 0.5, "\(labelRamp ? "label" : "backdrop"): off by up to \(worst) px")
        }
    }

    /// The amount and height (pixels) that best explain the decoded row: a grid search in
    /// 0.05 px steps, ±3 px about the amount and ±6 px about the height.
    static func fit(
        _ row: [(x: Double, decoded: Double)], around nominal: (amount: Double, height: Double),
        _ stages: (Double, Double) -> [(amount: Double, height: Double)]
    ) -> (amount: Double, height: Double) {
        var best = (amount: nominal.amount, height: nominal.height, error: Double.infinity)
        for amountStep in -60...60 {
            let amount = nominal.amount + Double(amountStep) * 0.05
            for heightStep in -120...120 {
                let height = nominal.height + Double(heightStep) * 0.05
                guard height > 0 else { continue }
                let candidate = stages(amount, height)
                var error = 0.0
                for point in row {
                    let residual = point.decoded - staged(point.x, candidate)
                    error += residual * residual
                    if error >= best.error { break }
                }
                if error < best.error { best = (amount, height, error) }
            }
        }
        return (best.amount, best.height)
    }

    // MARK: The fringe

    /// Shift of what red decodes (its x) from the pixel, a·sat(1 + d/band): red gathers the outward
    /// taps, weights 1/2, 1/3, 1/6 at 1, 2/3, 1/3 of the spread, a mean of 7/9 of it.
    static let redMeanTap = 0.5 + 2.0 / 9 + 1.0 / 18

    /// Red's x shift at each of `pixels` inside the circle, with the pixel's outward normal and its
    /// distance to the rim; pixels whose taps could straddle the sawtooth's wrap or the sRGB
    /// curve's toe are left out.
    static func redShifts(_ image: RGBA8Image, _ pixels: [(column: Int, row: Int)])
        -> [(normal: SIMD2<Double>, d: Double, shift: Double)]
    {
        pixels.compactMap { pixel in
            let p = SIMD2(Double(pixel.column) + 0.5, Double(pixel.row) + 0.5)
            let offset = p - SIMD2(repeating: center * scale)
            let length = (offset * offset).sum().squareRoot()
            let phase = (p.x - 0.5).truncatingRemainder(dividingBy: 64)
            guard length - radius * scale <= -1, phase > 10, phase < 54,
                let x = decodeX(image[pixel.column, pixel.row].x, expected: p.x)
            else { return nil }
            return (offset / length, length - radius * scale, x - p.x)
        }
    }

    /// The amplitude and fade depth (pixels) of a·sat(1 + d/band) that best fit the shifts.
    static func fitFade(
        _ shifts: [(normal: SIMD2<Double>, d: Double, shift: Double)], around nominal: (Double, Double)
    ) -> (Double, Double) {
        var best = (amplitude: nominal.0, band: nominal.1, error: Double.infinity)
        for amplitudeStep in -100...100 {
            let amplitude = nominal.0 + Double(amplitudeStep) * 0.02
            for bandStep in -120...120 {
                let band = nominal.1 + Double(bandStep) * 0.05
                let error = shifts.reduce(0.0) { sum, point in
                    let residual = point.shift - amplitude * min(max(1 + point.d / band, 0), 1)
                    return sum + residual * residual
                }
                if error < best.error { best = (amplitude, band, error) }
            }
        }
        return (best.amplitude, best.band)
    }

    @Test(
        "The fringe: 2.3158 pt at the rim turned −15° from the normal, fading linearly to 0 at 8.8 pt inside",
        arguments: [Backend.cpu, .vulkan])
    func aberrationBand(backend: Backend) throws {
        let optics = Self.stageOptics([]) { $0.aberration = .segmentLens }
        let image = try render(try resolve(Self.probeScene(optics, labelRamp: false)), on: backend)
        let middle = Int(Self.center * Self.scale)
        let side = Int(2 * Self.center * Self.scale)
        let angle = Aberration.segmentLens.angle * .pi / 180
        let amount = Aberration.segmentLens.amount * Self.scale
        let band = Aberration.segmentLens.band * Self.scale
        // Right of the centre the normal is +x: red moves along x by 7/9 of spread · cos(angle).
        let right = Self.redShifts(image, (middle..<side).map { ($0, middle) })
        let fitted = Self.fitFade(right, around: (Self.redMeanTap * amount * cos(angle), band))
        let fittedAmount = fitted.0 / (Self.redMeanTap * cos(angle))
        #expect(abs(fittedAmount - amount) <= 0.5, "spread at the rim \(fittedAmount) px, Apple's \(amount) px")
        #expect(abs(fitted.1 - band) <= 0.5, "fade depth \(fitted.1) px, Apple's \(band) px")
        let deep = right.filter { $0.d < -band - 1 }
        #expect(deep.count > 50 && deep.allSatisfy { abs($0.shift) <= 0.25 }, "no fringe deeper than the band")
        // Over the whole band red's x shift is 7/9 of the spread times the x of the normal turned by
        // the angle, n.x·cos θ − n.y·sin θ: fit θ.
        let ring = (0..<side).flatMap { row in (0..<side).map { (column: $0, row: row) } }
        let shifts = Self.redShifts(image, ring).filter { $0.d > -band }
        #expect(shifts.count > 2000, "\(shifts.count) band pixels decoded")
        var best = (angle: 0.0, error: Double.infinity)
        for step in -450...450 {
            let theta = Double(step) / 10 * .pi / 180
            let error = shifts.reduce(0.0) { sum, point in
                let fade = min(max(1 + point.d / band, 0), 1)
                let turned = point.normal.x * cos(theta) - point.normal.y * sin(theta)
                let residual = point.shift - Self.redMeanTap * amount * fade * turned
                return sum + residual * residual
            }
            if error < best.error { best = (Double(step) / 10, error) }
        }
        let measured = best.angle
        #expect(abs(measured - Aberration.segmentLens.angle) <= 2, "turned \(measured)°, Apple's −15°")
    }

    // MARK: The general glass: face and rim on flat backdrops

    /// One flat-backdrop case: a preset's face over a colour.
    struct FaceCase: CustomTestStringConvertible, Sendable {
        let preset: OpticsPreset
        let backdrop: RGBAColor
        var testDescription: String { "\(preset.rawValue) over \(backdrop)" }
    }

    static let faceCases = [OpticsPreset.regular, .regularInteractive, .regularDark, .clear].flatMap { preset in
        [RGBAColor(240, 240, 240), RGBAColor(30, 30, 30), RGBAColor(200, 60, 40), RGBAColor(40, 120, 220)].map {
            FaceCase(preset: preset, backdrop: $0)
        }
    }

    /// The faces as lines: luma slope and offset, chroma scale of face then fill. Apple's table
    /// said light 0.318 Y + 0.70 × 0.6, dark 0.24 Y + 0.12, clear 1.075 Y + 0.075 × 1.06; these
    /// are the lines fitted to the iOS captures (`Captures/*.measured.json`).
    @Test(
        "The face composites read as the captures' lines: light Y → 0.345 Y + 0.70, interactive 0.325 Y + 0.675, dark 0.279 Y + 0.081, clear 1.04 Y + 0.075"
    )
    func faceLines() {
        // Levels, fill alpha, fill value (white 1, black 0), then the luma slope, offset and chroma scale.
        let table: [(ColorLevels, Double, Double, Double, Double, Double)] = [
            (.faceLight, 0.4, 1, 0.345, 0.70, 0.357), (.faceInteractive, 0.35, 1, 0.325, 0.675, 0.65),
            (.faceDark, 0.4, 0, 0.279, 0.081, 0.6), (.faceClear, 0, 0, 1.04, 0.075, 1.07),
        ]
        for (levels, alpha, fill, slope, offset, chroma) in table {
            let black = levels.apply(0, 0, 0).0 * (1 - alpha) + fill * alpha
            let white = levels.apply(1, 1, 1).0 * (1 - alpha) + fill * alpha
            #expect(abs(black - offset) < 1e-9 && abs(white - black - slope) < 1e-9, "\(levels)")
            // Pure red against the grey of its luma: the chroma left after face and fill.
            let red = levels.apply(1, 0, 0)
            let grey = levels.apply(0.2126, 0.2126, 0.2126)
            #expect(abs((red.0 - grey.0) * (1 - alpha) / (1 - 0.2126) - chroma) < 1e-9, "\(levels): chroma")
        }
    }

    /// QuartzCore's rim matrices, row by row (Jaui, `vibrantColorMatrixSourceOver`).
    @Test(
        "The rim's vibrant matrices are Apple's: light Y → 0.9 + 0.1 Y, chroma × 1.5; dark Y → 0.15 + 1.35 Y, chroma × 3"
    )
    func vibrantMatrices() {
        let light: [[Double]] = [
            [1.2024, -1.0014, -0.1010, 0.90], [-0.2976, 0.4987, -0.1011, 0.90], [-0.2977, -1.0012, 1.3989, 0.90],
        ]
        let dark: [[Double]] = [
            [2.6492, -1.1803, -0.1189, 0.15], [-0.3507, 1.8199, -0.1192, 0.15], [-0.3509, -1.1799, 2.8809, 0.15],
        ]
        for (levels, rows) in [(ColorLevels.vibrantLight, light), (.vibrantDark, dark)] {
            let offset = levels.apply(0, 0, 0)
            let columns = [levels.apply(1, 0, 0), levels.apply(0, 1, 0), levels.apply(0, 0, 1)]
            for (row, expected) in rows.enumerated() {
                let channel = { (value: (Double, Double, Double)) in [value.0, value.1, value.2][row] }
                let offsetValue = channel(offset)
                #expect(abs(offsetValue - expected[3]) < 5e-4)
                for column in 0..<3 {
                    #expect(abs(channel(columns[column]) - offsetValue - expected[column]) < 5e-4, "row \(row)")
                }
            }
        }
    }

    static func largestDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }

    /// The 8-bit sRGB code of a channel value in 0…1.
    static func code(_ value: Double) -> Double { (min(max(value, 0), 1) * 255 + 0.5).rounded(.down) }

    /// `levels` on a colour's codes, laid over it with `alpha` (Core Animation's source over on codes).
    static func recolored(_ codes: SIMD3<Double>, _ levels: ColorLevels, alpha: Double) -> SIMD3<Double> {
        let mapped = levels.apply(codes.x / 255, codes.y / 255, codes.z / 255)
        let recolored = SIMD3(mapped.0, mapped.1, mapped.2).clamped(lowerBound: .zero, upperBound: .one) * 255
        return (codes * (1 - alpha) + recolored * alpha + 0.5).rounded(.down)
    }

    /// `optics` over a flat `backdrop` as iOS 26 draws Apple's glass (these tests hold its numbers).
    static func flatScene(_ backdrop: RGBAColor, _ optics: Optics, frame: Rect) -> Scene {
        Scene(
            canvas: Canvas(width: 200, height: 200, scale: scale),
            background: [BackgroundLayer(.solid(backdrop))],
            glass: [GlassElement(shape: .circle, frame: frame, optics: optics)], generation: .ios26)
    }

    @Test(
        "Apple's face on flat backdrops: White / Black / Saturation composite, then the fill (light, dark, clear)",
        arguments: faceCases, [Backend.cpu, .vulkan])
    func face(_ probe: FaceCase, backend: Backend) throws {
        var optics = Optics(preset: probe.preset)
        optics.rimLight = .off
        optics.shadow = .off
        optics.innerShadow = .off
        let image = try render(
            try resolve(Self.flatScene(probe.backdrop, optics, frame: Rect(x: 20, y: 20, width: 160, height: 160))),
            on: backend)
        let codes = SIMD3(
            Self.code(probe.backdrop.red), Self.code(probe.backdrop.green), Self.code(probe.backdrop.blue))
        var expected = Self.recolored(codes, optics.face, alpha: 1)
        let fill = optics.tint
        if fill.alpha > 0 {
            let layer = SIMD3(fill.red, fill.green, fill.blue) * fill.alpha * 255
            expected = (expected * (1 - fill.alpha) + layer + 0.5).rounded(.down)
        }
        let pixel = image[200, 200]
        let actual = SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z))
        #expect(Self.largestDifference(actual, expected) <= 1, "\(probe): rendered \(actual), Apple's face \(expected)")
    }

    @Test(
        "Apple's rim on a flat backdrop: the key down-right at 1.15 (the captures' fit), 1 pt band fading by curvature 0.7, recoloured by the vibrant matrix; nothing up-right",
        arguments: [ColorLevels.vibrantLight, .vibrantDark], [Backend.cpu, .vulkan])
    func rim(_ recolor: ColorLevels, backend: Backend) throws {
        // The centre of pixel (242, 242) lies on the 45° diagonal (the key light's direction on
        // screen, Apple's −π/4 with y up) from the lens centre (200, 200), 42.5 px along each axis,
        // 1 px inside the rim; pixel (242, 157) lies as far up-right, square to both lobes.
        let k = 42.5
        let radius = (k * 2.0.squareRoot() + 1) / Self.scale
        var optics = ParityScene.plainOptics
        optics.bevelAmount = 0
        optics.rimLight = .apple
        optics.rimLight.recolor = recolor
        let backdrop = RGBAColor(90, 140, 200)
        let frame = Rect(x: 100 - radius, y: 100 - radius, width: 2 * radius, height: 2 * radius)
        let image = try render(try resolve(Self.flatScene(backdrop, optics, frame: frame)), on: backend)
        let depth = radius * Self.scale - k * 2.0.squareRoot()
        let width = optics.rimLight.width * Self.scale
        let band = (1 - 0.7 * min(depth / width, 1)) * min(max(width - depth + 0.5, 0), 1)
        #expect(optics.rimLight.key.amount == 1.15)
        let light = min(optics.rimLight.key.amount * band, 1)
        let codes = SIMD3(Self.code(backdrop.red), Self.code(backdrop.green), Self.code(backdrop.blue))
        let expected = Self.recolored(codes, recolor, alpha: light)
        let pixel = image[242, 242]
        let actual = SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z))
        #expect(
            Self.largestDifference(actual, expected) <= 1,
            "rendered \(actual), Apple's rim \(expected) at light \(light)")
        #expect(Self.largestDifference(actual, codes) >= 4, "the rim shows")
        let unlit = image[242, 157]
        #expect(
            Self.largestDifference(SIMD3(Double(unlit.x), Double(unlit.y), Double(unlit.z)), codes) <= 1,
            "up-right, square to both lobes, the rim is dark")
    }
}
