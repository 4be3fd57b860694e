import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensModel
@testable import LensResolve

/// Frames of a run repaint only the backdrop layers that changed (a held control's rail and wash,
/// a moved shape), over the region they cover before and after; the backdrop is the same, bit for
/// bit, as painting every layer.
@Suite("Backdrop repaint")
struct BackdropRepaintTests {
    /// Runs whose backdrops change in a part of the canvas, in whole, or in their layer count.
    static func runs() throws -> [(String, [Scene])] {
        var moving: [Scene] = []
        for x in [20.0, 24, 90, 90] {
            var scene = BuiltInScene.probeGrid.scene
            scene.background.append(
                BackgroundLayer(.fill(shape: .circle, frame: Rect(x: x, y: 30, width: 40, height: 40), color: .white)))
            moving.append(scene)
        }
        var layerCounts = moving
        layerCounts[2].background.removeLast()
        var wholeCanvas = moving
        wholeCanvas[1].background[0].opacity = 0.5
        return [
            ("screen", try (0..<5).map { try BenchmarkWorkload.screen.scene($0, of: 5) }),
            ("segmented-drag", [0.2, 0.5, 0.9, 1.4].map { BuiltInAnimation.segmentedDrag.frame(at: $0) }),
            ("tab-bar-drag", [0.4, 0.8, 1.2].map { BuiltInAnimation.tabBarDrag.frame(at: $0) }),
            ("a moving circle", moving), ("a layer removed", layerCounts),
            ("a whole-canvas layer changed", wholeCanvas),
        ]
    }

    @Test("Each frame's backdrop, resolved in a run with one cache, equals the backdrop resolved alone")
    func sameAsFullPaint() throws {
        for (name, scenes) in try Self.runs() {
            let cache = ResolveCache()
            for (index, scene) in scenes.enumerated() {
                let inRun = try LensRenderer.resolve(scene, cache: cache).backdrop
                let alone = try LensRenderer.resolve(scene).backdrop
                #expect(inRun == alone, "\(name), frame \(index)")
            }
        }
    }
}
