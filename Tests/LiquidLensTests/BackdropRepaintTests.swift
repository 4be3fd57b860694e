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

    /// Mask-to-canvas ratios from 1/8 to 16, with fractional origins: the label raster, which
    /// samples only pixels whose taps can reach ink, equals a bilinear resample of every pixel.
    @Test(
        "The label raster equals a resample of every pixel, at every ratio of mask to canvas scale",
        arguments: [0.25, 0.5, 1, 2, 8])
    func labelRasterSkipsOnlyEmptyPixels(maskScale: Double) throws {
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var coverage = [UInt8](repeating: 0, count: 23 * 9)
        for _ in 0..<14 { coverage[next(coverage.count)] = UInt8(1 + next(255)) }
        let mask = AlphaImage(width: 23, height: 9, coverage: coverage)
        let raster = LabelRaster { _, _, _ in throw CocoaError(.fileNoSuchFile) }
        for scale in [1.0, 2, 3, 4] {
            let label = LabelLayer(mask: .image(mask), origin: Point(x: 1.37, y: 0.61), scale: maskScale)
            let width = Int(((1.37 + 23 / maskScale) * scale).rounded(.up)) + 3
            let height = Int(((0.61 + 9 / maskScale) * scale).rounded(.up)) + 3
            let words = try raster.words(label, scale: scale, width: width, height: height)
            let wordsPerRow = (width + 3) / 4
            func tap(_ x: Int, _ y: Int) -> Double {
                x >= 0 && y >= 0 && x < mask.width && y < mask.height ? Double(coverage[y * mask.width + x]) : 0
            }
            // The label's box as the raster clips it: its mask's extent and a pixel beyond; nothing outside.
            let boxX = Int((1.37 * scale).rounded(.down)) - 1..<Int(((1.37 + 23 / maskScale) * scale).rounded(.up)) + 1
            let boxY = Int((0.61 * scale).rounded(.down)) - 1..<Int(((0.61 + 9 / maskScale) * scale).rounded(.up)) + 1
            for y in 0..<height {
                for x in 0..<width {
                    let u = ((Double(x) + 0.5) / scale - 1.37) * maskScale - 0.5
                    let v = ((Double(y) + 0.5) / scale - 0.61) * maskScale - 0.5
                    let (x0, y0) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
                    let (tx, ty) = (u - Double(x0), v - Double(y0))
                    let top = tap(x0, y0) + (tap(x0 + 1, y0) - tap(x0, y0)) * tx
                    let bottom = tap(x0, y0 + 1) + (tap(x0 + 1, y0 + 1) - tap(x0, y0 + 1)) * tx
                    let inBox = boxX.contains(x) && boxY.contains(y)
                    let expected = inBox ? UInt32(max(0, min(255, (top + (bottom - top) * ty).rounded()))) : 0
                    let actual = (words[y * wordsPerRow + x / 4] >> UInt32(x % 4 * 8)) & 0xFF
                    #expect(actual == expected, "mask scale \(maskScale), canvas scale \(scale), pixel (\(x), \(y))")
                }
            }
        }
    }
}
