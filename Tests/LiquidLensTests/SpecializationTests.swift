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

    @Test("A lens's features are the stages its parameters switch on; the structural variant knows only its share")
    func featuresFollowTheParameters() throws {
        let parameters = try resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1, text: TextTests.renderer))
        let lens = parameters.lenses[0]
        let variant = LensVariant(
            lens: lens, shapes: parameters.shapes[...], reachesLabel: true, linearBlending: false)
        #expect(variant.known == .all)
        #expect(variant.features == [.dispersion, .warps, .tint, .rim, .dropShadow])
        let structural = variant.structural
        #expect(structural.known == .structural && structural.features == [.dispersion, .warps])
        #expect(structural.constants[5] == LensFeatures.structural.rawValue)
        var linear = lens
        linear.shadow.w = 0
        #expect(
            LensFeatures(lens: linear, linearBlending: true)
                == [.linearBlending, .dispersion, .warps, .tint, .rim])
    }

    @Test(
        "By default a lens gets its structural pipeline first and its exact one once it recurs; both draw the same pixels"
    )
    func twoTiersDrawTheSame() throws {
        let parameters = try resolve(try BenchmarkWorkload.lensHeavy.scene(0, of: 1, text: TextTests.renderer))
        let gpu = try VulkanRenderer(options: VulkanOptions(validation: true))
        let exact = LensVariant(
            lens: parameters.lenses[0], shapes: parameters.shapes[...], reachesLabel: true, linearBlending: false)
        let first = try gpu.render(parameters)
        let afterFirst = gpu.lensPipelineStore.readyVariants
        #expect(
            afterFirst.contains(exact.structural) && !afterFirst.contains(exact), "the first frame: structural only")
        let second = try gpu.render(parameters)
        gpu.lensPipelineStore.waitForBackgroundCompiles()
        #expect(gpu.lensPipelineStore.readyVariants.contains(exact), "the second request compiled the exact variant")
        let third = try gpu.render(parameters)
        #expect(first == second && second == third)
        #expect(gpu.validationMessages.isEmpty, "validation layer: \(gpu.validationMessages)")
    }
}
