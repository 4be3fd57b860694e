import Foundation
import LensModel
import LensResolve
import LiquidLens
import Testing

@testable import LensReference

@Suite("Analytic checks of the lens model")
struct AnalyticTests {
    static func shapeParams(_ shape: Shape, _ frame: Rect) throws -> ShapeParams {
        let scene = Scene(
            canvas: Canvas(width: 256, height: 256, scale: 1), background: [],
            glass: [GlassElement(shape: shape, frame: frame)])
        return try resolve(scene).shapes[0]
    }

    struct SDFCase: Sendable, CustomTestStringConvertible {
        let shape: Shape
        let frame: Rect
        /// (point relative to the frame centre, expected signed distance)
        let samples: [(SIMD2<Float>, Float)]
        var testDescription: String { "\(shape)" }
    }

    static let sdfCases: [SDFCase] = [
        SDFCase(
            shape: .circle, frame: Rect(x: 78, y: 78, width: 100, height: 100),
            samples: sdfSamples([
                (SIMD2(50, 0), 0), (SIMD2(0, 0), -50), (SIMD2(30, 40), 0), (SIMD2(60, 80), 50), (SIMD2(-3, -4), -45),
            ])),
        SDFCase(
            shape: .capsule, frame: Rect(x: 28, y: 98, width: 200, height: 60),
            samples: sdfSamples([
                (SIMD2(100, 0), 0), (SIMD2(0, 30), 0), (SIMD2(0, 40), 10), (SIMD2(0, 0), -30), (SIMD2(-70, -30), 0),
                (SIMD2(-110, 0), 10), (SIMD2(85, 20), 25 - 30),
            ])),
        SDFCase(
            shape: .roundedRectangle(cornerRadii: [10, 20, 30, 0]), frame: Rect(x: 78, y: 88, width: 100, height: 80),
            samples: sdfSamples([
                (SIMD2(-50, -40), 200.0.squareRoot() - 10), (SIMD2(50, -40), 800.0.squareRoot() - 20),
                (SIMD2(50, 40), 1800.0.squareRoot() - 30), (SIMD2(-50, 40), 0), (SIMD2(-55, 45), 50.0.squareRoot()),
                (SIMD2(0, 0), -40), (SIMD2(0, -40), 0), (SIMD2(60, 0), 10),
            ])),
    ]

    static func sdfSamples(_ pairs: [(SIMD2<Float>, Double)]) -> [(SIMD2<Float>, Float)] {
        pairs.map { ($0.0, Float($0.1)) }
    }

    @Test("Signed distances of each shape", arguments: sdfCases)
    func signedDistances(_ case_: SDFCase) throws {
        let shape = try Self.shapeParams(case_.shape, case_.frame)
        let context = shaderContext()
        for (point, expected) in case_.samples {
            let distance = context.shapeDistance(point, shape)
            #expect(abs(distance - expected) < 1e-3, "\(case_.shape) at \(point): \(distance), expected \(expected)")
        }
    }

    @Test("Antialiased coverage of a circle sums to πr² within 0.5%", arguments: [7.3, 20.0, 40.3, 90.6])
    func circleArea(radius: Double) throws {
        let shape = try Self.shapeParams(
            .circle, Rect(x: 128.2 - radius, y: 127.7 - radius, width: 2 * radius, height: 2 * radius))
        let context = shaderContext()
        var area = 0.0
        for y in 0..<256 {
            for x in 0..<256 {
                let local =
                    SIMD2(Float(x) + 0.5, Float(y) + 0.5) - SIMD2(shape.centerHalfSize.x, shape.centerHalfSize.y)
                area += Double(context.coverage(context.shapeDistance(local, shape)))
            }
        }
        let expected = Double.pi * radius * radius
        #expect(abs(area - expected) / expected < 0.005, "coverage \(area) vs πr² \(expected)")
    }

    @Test(
        "On the ramp probe the decoded displacement follows A·(1−√(1−x²)) and is zero on the flat face",
        arguments: [Backend.cpu, .vulkan])
    func rampDisplacement(backend: Backend) throws {
        let radius = 80.0, bevelWidth = 20.0, bevelAmount = 30.0
        let center = SIMD2<Double>(120, 120)
        var optics = ParityScene.plainOptics
        optics.bevelWidth = bevelWidth
        optics.bevelAmount = bevelAmount
        let scene = Scene(
            canvas: Canvas(width: 240, height: 240, scale: 1), background: [BackgroundLayer(.probe(.ramp))],
            glass: [
                GlassElement(
                    shape: .circle,
                    frame: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius),
                    optics: optics)
            ])
        let parameters = try resolve(scene)
        let image = try render(parameters, on: backend)

        var checkedBand = 0
        var checkedFlat = 0
        var worst = 0.0
        for y in 0..<240 {
            for x in 0..<240 {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let offset = p - center
                let length = (offset * offset).sum().squareRoot()
                let distance = length - radius
                guard distance < -1 else { continue }
                let t = min(max(1 + distance / bevelWidth, 0), 1)
                let shift = bevelAmount * (1 - (1 - t * t).squareRoot())
                let expected = p - offset / length * shift
                guard let decoded = decodeRamp(image[x, y], expected: expected) else { continue }
                let error = max(abs(decoded.x - expected.x), abs(decoded.y - expected.y))
                worst = max(worst, error)
                if distance < -bevelWidth - 1 {
                    checkedFlat += 1
                    #expect(decoded == p, "flat face moved at \(x),\(y): decoded \(decoded)")
                } else {
                    checkedBand += 1
                }
            }
        }
        #expect(worst <= 0.5, "largest displacement error \(worst) px")
        #expect(checkedBand > 3000 && checkedFlat > 10000, "band \(checkedBand), flat \(checkedFlat) pixels checked")
    }

    @Test(
        "A glyph straddling the rim is split at the rim: accent inside the feather, resting outside",
        arguments: [Backend.cpu, .vulkan])
    func tintSplitAtRim(backend: Backend) throws {
        // A vertical bar glyph from y 20 to 120 crosses the top rim of a rectangle lens at y = 50.
        var mask = AlphaImage(width: 200, height: 140, coverage: [UInt8](repeating: 0, count: 200 * 140))
        for y in 20..<120 { for x in 90..<110 { mask.coverage[y * 200 + x] = 255 } }
        var optics = ParityScene.plainOptics
        optics.bevelAmount = 0
        optics.softness = 10
        let scene = Scene(
            canvas: Canvas(width: 200, height: 140, scale: 1), background: [BackgroundLayer(.probe(.white))],
            label: LabelLayer(
                mask: .image(mask), scale: 1, resting: RGBAColor(red: 0, green: 0, blue: 0),
                accent: RGBAColor(red: 0, green: 0, blue: 1)),
            glass: [
                GlassElement(
                    shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    frame: Rect(x: 40, y: 50, width: 120, height: 70), optics: optics)
            ])
        let parameters = try resolve(scene)
        let image = try render(parameters, on: backend)

        // Outside the silhouette: resting colour (black), no blue anywhere on the glyph.
        for y in 20..<50 {
            for x in 90..<110 {
                #expect(image[x, y] == SIMD4(0, 0, 0, 255), "outside the rim at \(x),\(y): \(image[x, y])")
            }
        }
        // Inside: the accent share grows from the rim over the 10 px feather, then is full accent.
        var previousBlue = 0
        for y in 50..<60 {
            let pixel = image[100, y]
            #expect(pixel.x == 0 && pixel.y == 0, "no resting tone mixed into red/green at y \(y)")
            #expect(Int(pixel.z) > previousBlue, "accent grows into the feather at y \(y): \(pixel)")
            previousBlue = Int(pixel.z)
        }
        #expect(image[100, 50].z > 0, "the first row inside the rim is already tinted")
        for y in 60..<110 {
            #expect(image[100, y] == SIMD4(0, 0, 255, 255), "full accent deeper than the feather at y \(y)")
        }
        // Off the glyph inside the lens: the white backdrop, untinted.
        #expect(image[60, 80] == SIMD4(255, 255, 255, 255))
    }
}

@Suite("Colour tables")
struct ColorTableTests {
    @Test("Encoding a decoded sRGB code gives the code back (the compose pass relies on it)")
    func decodeEncodeIsIdentity() {
        let tables = OpticsTables.fixedTables
        let shader = shaderContext(tables: tables)
        for code in UInt32(0)..<256 {
            #expect(shader.srgbEncode(shader.srgbDecode(code)) == code)
        }
    }

    @Test("Encoding counts the thresholds at or below the value, for every float bucket edge and between")
    func encodeCountsThresholds() {
        let shader = shaderContext(tables: OpticsTables.fixedTables)
        let thresholds = ColorTables.srgbEncodeThresholds
        var values: [Float] = [-1, 0, .nan, 1, 2, .infinity] + thresholds + thresholds.map { $0.nextDown }
        for bucket in stride(from: 0, to: ColorTables.encodeBucketCount, by: 7) {
            let start = Float(bitPattern: UInt32(bucket) << 16)
            values += [start, start.nextUp, Float(bitPattern: (UInt32(bucket) << 16) | 0x8000)]
        }
        for value in values {
            let expected = value.isNaN ? 0 : UInt32(thresholds.filter { $0 <= value }.count)
            #expect(shader.srgbEncode(value) == expected, "value \(value)")
        }
    }

    @Test("Encoding rounds to the nearest sRGB code", arguments: [0.0, 0.0001, 0.002, 0.05, 0.18, 0.5, 0.9, 1.0, 1.5])
    func encodeRounds(linear: Double) {
        let expected = UInt32((ColorTables.linearToSRGB(min(linear, 1)) * 255).rounded())
        let tables = OpticsTables.fixedTables
        let shader = shaderContext(tables: tables)
        #expect(shader.srgbEncode(Float(linear)) == expected)
    }
}
