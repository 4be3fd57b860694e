import Foundation
import LensResolve
import LiquidLens
import Testing

@testable import LensReference

/// Glass geometry and optics, continued: content below, lift, presets and the polynomial log/exp.
extension GeometryOpticsTests {
    @Test("warpsContentBelow off shows the content below unmoved", arguments: [Backend.cpu, .vulkan])
    func warpsOff(backend: Backend) throws {
        var optics = Optics()
        optics.warpsContentBelow = false
        optics.magnification = 1.4
        optics.rimLight = .off
        optics.shadow = .off
        let parameters = try resolve(
            Self.scene([
                GlassElement(shape: .circle, frame: Rect(x: 40, y: 40, width: 160, height: 160), optics: optics)
            ]))
        var plain = parameters
        plain.lenses = []
        plain.regions = []
        let image = try render(parameters, on: backend)
        #expect(image == ReferenceRenderer().render(plain))
    }

    @Test(
        "Lift progress drives size, refraction, magnification, frost, resting background, lifted content, rim and shadows"
    )
    func liftProgress() throws {
        var optics = Optics()
        optics.bevelAmount = 20
        optics.bevelWidth = 10
        optics.magnification = 1.2
        optics.frost = 4
        optics.fresnel = 0.4
        optics.innerShadow = .appleInner
        optics.contour = Contour(width: 1, opacity: 0.3)
        let mask = AlphaImage(width: 10, height: 10, coverage: [UInt8](repeating: 255, count: 100))
        let label = LabelLayer(mask: .image(mask), scale: 1, liftedMask: .image(mask), liftedColor: .white)
        func resolved(_ progress: Double) throws -> (LensParams, ShapeParams) {
            let lift = LensLift(
                progress: progress, growth: Point(x: 24, y: 16), restingBackground: RGBAColor(255, 255, 255, 0.4),
                restingBevelAmount: 0, restingFrost: 0, restingShadow: 0.5)
            let element = GlassElement(
                shape: .capsule, frame: Rect(x: 22, y: 100, width: 196, height: 28), optics: optics, lift: lift)
            let parameters = try resolve(Self.scene([element], label: label))
            return (parameters.lenses[0], parameters.shapes[0])
        }
        let (resting, restingShape) = try resolved(0)
        let (half, halfShape) = try resolved(0.5)
        let (lifted, liftedShape) = try resolved(1)
        #expect(restingShape.centerHalfSize.z == 98 && restingShape.centerHalfSize.w == 14)
        #expect(halfShape.centerHalfSize.z == 104 && halfShape.centerHalfSize.w == 18)
        #expect(liftedShape.centerHalfSize.z == 110 && liftedShape.centerHalfSize.w == 22, "196×28 grows to 220×44")
        #expect(resting.bevelAmount == 0 && half.bevelAmount == 10 && lifted.bevelAmount == 20)
        #expect(resting.inverseMagnification == 1 && abs(1 / lifted.inverseMagnification - 1.2) < 1e-6)
        // σ 4 px runs at the ¼-scale level with σ √(16 − 1.25 − 2.67)/4 ≈ 0.87 texels: radius 3.
        #expect(resting.kernelRadius == 0 && lifted.frostLevel == 2 && lifted.kernelRadius == 3)
        #expect(
            abs(resting.restingFill.w - 0.4) < 1e-6 && abs(half.restingFill.w - 0.2) < 1e-6 && lifted.restingFill.w == 0
        )
        #expect(resting.liftedContentAlpha == 0 && half.liftedContentAlpha == 0.5 && lifted.liftedContentAlpha == 1)
        // At rest the lens is flat: no rim, Fresnel, contour or inner shadow; half its drop shadow.
        for (lens, share) in [(resting, Float(0)), (half, 0.5), (lifted, 1)] {
            #expect(lens.keyLight.z == Float(optics.rimLight.key.amount) * share)
            #expect(lens.fillLight.z == Float(optics.rimLight.fill.amount) * share)
            #expect(lens.fresnel == Float(optics.fresnel) * share)
            #expect(lens.contourOpacity == Float(optics.contour.opacity) * share)
            #expect(lens.innerShadow.w == Float(optics.innerShadow.opacity) * share)
            #expect(abs(lens.shadow.w - Float(optics.shadow.opacity) * (0.5 + 0.5 * share)) < 1e-7)
        }
    }

    @Test(
        "Under a lifted lens the regular label is punched out and the lifted label shows",
        arguments: [Backend.cpu, .vulkan])
    func liftedContent(backend: Backend) throws {
        // Regular label: a bar at x 100–120; lifted label: a bar at x 140–160. Both rows 100–140.
        var regular = AlphaImage(width: 240, height: 240, coverage: [UInt8](repeating: 0, count: 240 * 240))
        var lifted = regular
        for y in 100..<140 {
            for x in 100..<120 { regular.coverage[y * 240 + x] = 255 }
            for x in 140..<160 { lifted.coverage[y * 240 + x] = 255 }
        }
        let label = LabelLayer(
            mask: .image(regular), scale: 1, resting: .black, accent: RGBAColor(red: 0, green: 0, blue: 1),
            liftedMask: .image(lifted), liftedColor: RGBAColor(red: 1, green: 0, blue: 0))
        var optics = Optics()
        optics.bevelAmount = 0
        optics.rimLight = .off
        optics.shadow = .off
        let element = GlassElement(
            shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]), frame: Rect(x: 60, y: 60, width: 120, height: 120),
            optics: optics, lift: LensLift(progress: 1))
        let scene = Scene(
            canvas: Canvas(width: 240, height: 240, scale: 1), background: [BackgroundLayer(.probe(.white))],
            label: label, glass: [element])
        let parameters = try resolve(scene)
        let image = try render(parameters, on: backend)
        #expect(image[110, 120] == SIMD4(255, 255, 255, 255), "regular label punched out under the lens")
        #expect(image[150, 120] == SIMD4(255, 0, 0, 255), "lifted label seen through the glass")
        #expect(image[110, 50] == SIMD4(255, 255, 255, 255))
    }

    @Test("Presets carry Apple's measured values; explicit keys override them")
    func presets() throws {
        #expect(Optics(preset: .regular).bevelWidth == 20 && Optics(preset: .regular).bevelAmount == 60)
        let loupe = Optics(preset: .loupe)
        #expect(loupe.bevelWidth == 8 && loupe.bevelAmount == 28 && loupe.magnification == 1.25)
        // Apple's lens has the inner shadow; the general glass does not (the captures' faces are flat).
        #expect(
            Optics(preset: .segmentLens).innerShadow == DropShadow(offset: Point(x: 0, y: 7), radius: 3, opacity: 0.12))
        #expect(Optics(preset: .regular).innerShadow == Optics().innerShadow)
        #expect(Optics(preset: .liftedSegmented).magnification == 1.22)
        let decoded = try JSONDecoder().decode(
            Optics.self, from: Data(#"{"preset": "loupe", "magnification": 1.5}"#.utf8))
        #expect(decoded.bevelAmount == 28 && decoded.magnification == 1.5)
    }

    @Test("Polynomial log2/exp2 track the true functions (the squircle corner relies on them)")
    func polynomialPower() {
        let context = shaderContext()
        for base: Float in [0.001, 0.3, 1, 2.5, 17, 300] {
            for exponent: Float in [0.2, 1, 4.5, 5] {
                let expected = Float(pow(Double(base), Double(exponent)))
                let actual = context.powerPolynomial(base, exponent)
                #expect(
                    abs(actual - expected) <= 1e-5 * max(1, expected), "\(base)^\(exponent): \(actual) vs \(expected)")
            }
        }
    }
}
