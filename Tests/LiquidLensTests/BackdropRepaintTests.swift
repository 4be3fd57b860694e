import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensModel
@testable import LensResolve

/// Frames of a run repaint only the backdrop layers that changed (a held control's rail and wash,
/// a moved shape), over the region they cover before and after, and keep an unchanged foreground;
/// the backdrop, foreground, label raster and tile lists are the same, bit for bit, as a frame
/// resolved alone.
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
        let movingForeground = [30.0, 30, 60].map { x in
            var scene = BuiltInScene.probeGrid.scene
            scene.foreground = [
                BackgroundLayer(.fill(shape: .capsule, frame: Rect(x: x, y: 40, width: 50, height: 20), color: .white))
            ]
            return scene
        }
        return [
            ("screen", try (0..<5).map { try BenchmarkWorkload.screen.scene($0, of: 5) }),
            ("segmented-drag", [0.2, 0.5, 0.9, 1.4].map { BuiltInAnimation.segmentedDrag.frame(at: $0) }),
            ("tab-bar-drag", [0.4, 0.8, 1.2].map { BuiltInAnimation.tabBarDrag.frame(at: $0) }),
            ("a moving circle", moving), ("a layer removed", layerCounts),
            ("a whole-canvas layer changed", wholeCanvas), ("a moving foreground", movingForeground),
        ]
    }

    @Test("Each frame, resolved in a run with one cache, equals the frame resolved alone")
    func sameAsFullPaint() throws {
        for (name, scenes) in try Self.runs() {
            let cache = ResolveCache()
            for (index, scene) in scenes.enumerated() {
                let inRun = try LensRenderer.resolve(scene, cache: cache)
                let alone = try LensRenderer.resolve(scene)
                let frame = "\(name), frame \(index)"
                #expect(inRun.backdrop == alone.backdrop, "backdrop, \(frame)")
                #expect(inRun.foreground == alone.foreground, "foreground, \(frame)")
                #expect(inRun.labelWords == alone.labelWords, "label, \(frame)")
                #expect(inRun.tiles == alone.tiles, "tiles, \(frame)")
                #expect(inRun.tileShapes == alone.tileShapes, "tile shapes, \(frame)")
                #expect(inRun.regions == alone.regions, "regions, \(frame)")
            }
        }
    }

    @Test("Label presence answers as a count over every pixel of the region would", arguments: [false, true])
    func labelPresence(lifted: Bool) {
        let width = 37
        let height = 29
        let wordsPerRow = (width + 3) / 4
        var words = [UInt32](repeating: 0, count: wordsPerRow * height * (lifted ? 2 : 1))
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        // Ink on a few scattered rows, some only in the lifted raster.
        for _ in 0..<12 {
            let x = next(width)
            let word = (lifted && next(2) == 0 ? wordsPerRow * height : 0) + next(height) * wordsPerRow + x / 4
            words[word] |= UInt32(1 + next(255)) << UInt32(x % 4 * 8)
        }
        let presence = LabelPresence(words: words, wordsPerRow: wordsPerRow, width: width, height: height)
        func covered(_ x: Int, _ y: Int) -> Bool {
            let shift = UInt32(x % 4 * 8)
            let word = y * wordsPerRow + x / 4
            return (words[word] >> shift) & 0xFF != 0
                || lifted && (words[wordsPerRow * height + word] >> shift) & 0xFF != 0
        }
        for _ in 0..<2000 {
            let x0 = next(width + 1)
            let y0 = next(height + 1)
            let region = PixelRegion(x0: x0, y0: y0, x1: x0 + next(width + 1 - x0), y1: y0 + next(height + 1 - y0))
            let counted = (region.y0..<region.y1).contains { y in (region.x0..<region.x1).contains { covered($0, y) } }
            #expect(presence.any(region) == counted, "\(region)")
        }
    }
}
