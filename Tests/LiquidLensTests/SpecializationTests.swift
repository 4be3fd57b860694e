import Foundation
import LensCatalog
import LensResolve
import LiquidLens
import Testing

@testable import LensVulkan

@Suite("Lens pipelines specialised by the stages a lens uses")
struct SpecializationTests {
    @Test("The GLSL feature bits are LensFeatures' bits")
    func featureBitsAgree() throws {
        let glsl = try LensCommonGLSL()
        #expect(
            glsl.lines(startingWith: "const uint F_").count == LensFeatures.glslNames.count,
            "every GLSL bit has a Swift twin")
        for (name, feature) in LensFeatures.glslNames {
            #expect(glsl.constant(name) == Int(feature.rawValue), "\(name)")
        }
        #expect(LensFeatures.glslNames.reduce(LensFeatures()) { $0.union($1.1) } == .all)
    }

    @Test("A lens's features are the stages its parameters switch on, and its pipeline is specialised for them")
    func featuresFollowTheParameters() throws {
        let parameters = try resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1, text: TextTests.renderer))
        let lens = parameters.lenses[0]
        let variant = LensVariant(
            lens: lens, shapes: parameters.shapes[...], reachesLabel: true, linearBlending: false)
        #expect(variant.features == [.dispersion, .warps, .tint, .rim, .dropShadow])
        #expect(variant.constants[5] == 1 && variant.constants[6] == variant.features.rawValue)
        var linear = lens
        linear.shadow.w = 0
        #expect(
            LensFeatures(lens: linear, linearBlending: true)
                == [.linearBlending, .dispersion, .warps, .tint, .rim])
    }

    @Test("The CPU twin declares lens_common.glsl's stage functions, in the same order")
    func twinOrder() throws {
        let glsl = try LensCommonGLSL().stageFunctions
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LensReference/ShaderFunctions.swift")
        let swift = try String(contentsOf: source, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("func "), let open = text.firstIndex(of: "(") else { return nil as String? }
            return String(text[text.index(text.startIndex, offsetBy: 5)..<open])
        }
        #expect(glsl.count > 50, "the GLSL reader found the stages: \(glsl)")
        #expect(glsl.filter { !swift.contains($0) } == [], "stages without a Swift twin")
        // The twin adds the compute shaders' entry points (compose, overlay, frost, lens) after them.
        #expect(swift.filter { glsl.contains($0) } == glsl, "the order drifts")
    }

    @Test("The specialisation constants Swift sets are the GLSL ones, by id")
    func constantIdsAgree() throws {
        let ids = try LensCommonGLSL().specializationConstantIDs
        let lensNames = [
            "SHAPE_KINDS", "SINGLE_SHAPE", "REACHES_LABEL", "SPECTRAL", "WRITES_COMPOSITE", "SPECIALIZED", "FEATURES",
        ]
        let parameters = try resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1, text: TextTests.renderer))
        let lens = LensVariant(
            lens: parameters.lenses[0], shapes: parameters.shapes[...], reachesLabel: true, linearBlending: false)
        #expect(Set(lens.constants.keys) == Set(lensNames.map { ids[$0]! }))
        let frost = FrostVariant.passes(of: parameters.lenses[0])
        #expect(frost.map(\.axis) == [2, 0, 1] && frost.allSatisfy { $0.level == parameters.lenses[0].frostLevel })
        #expect(
            Set(frost[2].constants.keys)
                == Set(["FROST_AXIS", "FROST_LEVEL", "FROST_READS_COMPOSITE"].map { ids[$0]! }))
        #expect(frost[2].constants[ids["FROST_AXIS"]!] == 1)
    }

    @Test("Frost on a stored pyramid level runs three passes, its texels first; frost at full scale runs two")
    func storedLevelPasses() throws {
        let source = try String(
            contentsOf: packageRoot.appendingPathComponent("Shaders/lens_common.glsl"), encoding: .utf8)
        #expect(source.contains("const uint FIRST_STORED_LEVEL = \(FrostPyramid.firstStoredLevel)u;"))
        let blur = ProgressiveBlur(frame: Rect(x: 0, y: 0, width: 200, height: 60), radius: 40)
        var optics = Optics()
        optics.frost = 0.5
        let glass = GlassElement(shape: .capsule, frame: Rect(x: 20, y: 80, width: 120, height: 40), optics: optics)
        var scene = Scene(
            canvas: Canvas(width: 200, height: 140, scale: 2), background: ParityScene.busyBackground, glass: [glass])
        scene.progressiveBlurs = [blur]
        let lenses = try resolve(scene).lenses
        let deep = try #require(lenses.first { $0.frostLevel >= FrostPyramid.firstStoredLevel })
        #expect(FrostVariant.passes(of: deep).map(\.axis) == [2, 0, 1])
        let shallow = try #require(lenses.first { $0.frostLevel < FrostPyramid.firstStoredLevel })
        #expect(FrostVariant.passes(of: shallow).map(\.axis) == [0, 1])
    }
}
