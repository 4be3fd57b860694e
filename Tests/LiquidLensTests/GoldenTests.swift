import Foundation
import LensCompare
import LensReference
import LiquidLens
import Testing

/// Golden images of the control scenes at scale 3, light and dark, beside the tests. They are
/// recorded only when `LIQUIDLENS_RECORD_GOLDENS=1` is set by a person; CI never records.
@Suite("Golden images")
struct GoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let example: BuiltInScene
        let appearance: ControlAppearance
        var name: String { "\(example.rawValue)-\(appearance.rawValue)@3x" }
        var testDescription: String { name }
    }

    static let cases = [BuiltInScene.segmented, .tabBar, .lensMenu].flatMap { example in
        ControlAppearance.allCases.map { Case(example: example, appearance: $0) }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    /// A pixel counts as different past 2 levels in any channel; at most 0.1 % may.
    static let pixelThreshold = 2
    static let allowedFraction = 0.001

    @Test("Control scenes match their golden images on both backends", arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let parameters = try LensRenderer.resolve(golden.example.scene(appearance: golden.appearance), scale: 3)
        try Self.compare(parameters, withGolden: golden.name)
    }

    @Test("The glass controls gallery matches its golden images at scale 2", arguments: ControlAppearance.allCases)
    func controlsGalleryGolden(_ appearance: ControlAppearance) throws {
        let panel = GlassControlsPanel(theme: Theme(material: .frosted), appearance: appearance)
        try Self.compare(
            try LensRenderer.resolve(panel.scene(scale: 2)), withGolden: "controls-frosted-\(appearance.rawValue)@2x")
    }

    /// Renders on both backends and compares with the golden `name` (recording it first when asked).
    static func compare(_ parameters: FrameParameters, withGolden name: String) throws {
        let cpu = ReferenceRenderer().render(parameters)
        let file = Self.folder.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["LIQUIDLENS_RECORD_GOLDENS"] == "1" {
            try PNGCodec.write(cpu, to: file)
        }
        let expected = try PNGCodec.read(contentsOf: file)
        let gpu = try SharedGPU.with { try $0.render(parameters) }
        for (backend, actual) in [("cpu", cpu), ("vulkan", gpu)] {
            let diff = try ImageDiff(actual, expected, threshold: Self.pixelThreshold)
            if Double(diff.pixelsOverThreshold) / Double(diff.pixelCount) > Self.allowedFraction {
                let folder = writeFailureImages(name: "golden-\(name)-\(backend)", actual: actual, expected: expected)
                Issue.record("\(name) on \(backend) differs from its golden:\n\(diff.report)\nimages in \(folder)")
            }
        }
    }
}
