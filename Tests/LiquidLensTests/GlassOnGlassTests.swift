import Foundation
import LiquidLens
import Testing

@testable import LensResolve

/// A frosted, tinted platter and a clear lens over a busy backdrop.
private func platterScene(withLens: Bool) -> Scene {
    var clear = Optics()
    clear.bevelAmount = 0
    clear.rimLight = .off
    clear.shadow = .off
    var platter = Optics()
    platter.frost = 8
    platter.tint = RGBAColor(255, 255, 255, 0.3)
    platter.shadow = .off
    var glass = [GlassElement(shape: .capsule, frame: Rect(x: 10, y: 30, width: 180, height: 80), optics: platter)]
    if withLens {
        glass.append(GlassElement(shape: .circle, frame: Rect(x: 60, y: 35, width: 70, height: 70), optics: clear))
    }
    return Scene(canvas: ParityScene.canvas, background: ParityScene.busyBackground, glass: glass)
}

@Suite("Glass on glass")
struct GlassOnGlassTests {
    @Test("A clear lens on a frosted platter shows the platter", arguments: [Backend.cpu, .vulkan])
    func clearLensShowsPlatter(_ backend: Backend) throws {
        let stacked = try render(resolve(platterScene(withLens: true)), on: backend)
        let platterAlone = try render(resolve(platterScene(withLens: false)), on: backend)
        // Inside the lens, clear of its antialiased rim.
        let difference = meanDifference(stacked, platterAlone, x: 75..<115, y: 50..<90)
        #expect(difference <= 3, "the lens differs from the platter by \(difference) levels on average")
    }

    @Test("Only glass lying on glass blurs the composite, and glass below writes it only where it is read")
    func compositeOnlyWhereGlassLiesOnGlass() throws {
        let stacked = try resolve(platterScene(withLens: true))
        #expect(stacked.lenses.map(\.readsComposite) == [0, 1])
        let written = stacked.lenses[0].compositeRegion
        let source = stacked.regions[1].source
        #expect(written.x <= UInt32(source.x0) && written.z >= UInt32(source.x1), "covers what the lens samples")
        #expect(written.x > 0 && written.z < 200, "stays near the lens, not the whole platter")
        #expect(stacked.lenses[1].compositeRegion == .zero, "no glass above the lens")

        var apart = ParityScene.plainOptics
        apart.frost = 2
        let separate = try resolve(
            Scene(
                canvas: ParityScene.canvas, background: ParityScene.busyBackground,
                glass: [
                    GlassElement(shape: .circle, frame: Rect(x: 5, y: 40, width: 60, height: 60), optics: apart),
                    GlassElement(shape: .circle, frame: Rect(x: 130, y: 40, width: 60, height: 60), optics: apart),
                ]))
        #expect(!separate.usesComposite, "glass side by side never pays for the composite")
    }

    @Test("A frosted pane beside a dark one reads the composite exactly where its frost sees the dark one's pixels")
    func paneGaps() throws {
        var dark = Optics()
        dark.tint = RGBAColor(0, 0, 0, 1)
        dark.shadow = .off
        var frosted = Optics()
        frosted.frost = 6
        frosted.bevelAmount = 0
        frosted.rimLight = .off
        frosted.shadow = .off
        var apart: [Int] = []
        var reading: [Int] = []
        for gap in stride(from: 0, through: 48, by: 4) {
            let left = GlassElement(
                shape: .roundedRectangle(cornerRadii: [16, 16, 16, 16]),
                frame: Rect(x: 20, y: 30, width: 120, height: 80),
                optics: dark)
            let right = GlassElement(
                shape: .roundedRectangle(cornerRadii: [16, 16, 16, 16]),
                frame: Rect(x: 140 + Double(gap), y: 30, width: 120, height: 80), optics: frosted)
            let parameters = try resolve(
                Scene(
                    canvas: Canvas(width: 320, height: 140, scale: 1),
                    background: [BackgroundLayer(.solid(RGBAColor(255, 255, 255, 1)))], glass: [left, right]))
            guard parameters.lenses[1].readsComposite == 0 else {
                reading.append(gap)
                continue
            }
            apart.append(gap)
            // Blurring the composite, the dark pane written into it everywhere, changes nothing.
            var forced = parameters
            forced.lenses[1].readsComposite = 1
            forced.lenses[0].compositeRegion = parameters.regions[0].lens.bounds
            #expect(try render(forced, on: .cpu) == render(parameters, on: .cpu), "gap \(gap) px")
        }
        #expect(!reading.isEmpty && !apart.isEmpty, "apart at \(apart), reading at \(reading)")
    }
}
