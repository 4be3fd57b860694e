import Foundation
import LiquidLens
import Testing

@testable import LensCatalog

@Suite("bench's panes: many small panes of one total area")
struct PanesWorkloadTests {
    @Test(
        "1 to 256 panes: 1.41 MP of glass together, each inside its own grid cell on the canvas, apart or grouped",
        arguments: [1, 4, 16, 64, 256])
    func layout(_ count: Int) throws {
        for grouped in [false, true] where !(grouped && Double(count) > Limits.groupShapes.upperBound) {
            let glass = BenchmarkWorkload.panes(count, grouped: grouped, frame: 0)
            #expect(glass.count == (grouped ? 1 : count))
            let frames = glass.flatMap(\.shapes).map(\.frame)
            #expect(frames.count == count)
            let area: Double = frames.reduce(0) { $0 + $1.width * $1.height }
            let expected: Double = 64 * 200 * 110
            #expect(abs(area - expected) < 1e-6 * expected)
            let side = Int(Double(count).squareRoot())
            let (cellWidth, cellHeight) = (1920 / Double(side), 1080 / Double(side))
            for (index, frame) in frames.enumerated() {
                let cellX = Double(index % side) * cellWidth
                let cellY = Double(index / side) * cellHeight
                #expect(frame.x >= cellX && frame.x + frame.width <= cellX + cellWidth, "pane \(index) of \(count)")
                #expect(frame.y >= cellY && frame.y + frame.height <= cellY + cellHeight, "pane \(index) of \(count)")
            }
        }
        let scene = try BenchmarkWorkload.lensHeavy(
            lensCenterX: 960, glass: BenchmarkWorkload.panes(count, grouped: false, frame: 3))
        #expect(try LensRenderer.resolve(scene).lenses.count == count, "each pane its own glass group")
    }

    @Test("The workload is the 64 separate panes, shifting 4 px each way frame by frame")
    func workload() throws {
        let first = try BenchmarkWorkload.panes.scene(0, of: 24)
        let second = try BenchmarkWorkload.panes.scene(1, of: 24)
        #expect(first.glass.count == 64 && second.glass.count == 64)
        #expect(second.glass[0].shapes[0].frame.x - first.glass[0].shapes[0].frame.x == -8)
        #expect(first.glass.allSatisfy { $0.optics.frost == 6 })
    }
}
