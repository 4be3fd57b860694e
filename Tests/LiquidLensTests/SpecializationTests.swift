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
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Shaders/lens_common.glsl"), encoding: .utf8)
        let declared = source.split(separator: "\n").filter { $0.hasPrefix("const uint F_") }
        #expect(declared.count == LensFeatures.glslNames.count, "every GLSL bit has a Swift twin")
        for (name, feature) in LensFeatures.glslNames {
            let line = declared.first { $0.hasPrefix("const uint \(name) = ") }
            let value = line.flatMap {
                UInt32($0.split(separator: "=")[1].prefix { $0 != "u" }.trimmingCharacters(in: .whitespaces))
            }
            #expect(value == feature.rawValue, "\(name)")
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
}
