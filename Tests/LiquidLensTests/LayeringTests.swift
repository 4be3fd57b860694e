import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensResolve

/// What sits on glass is drawn above it, and the built-in animations keep their glass in frame.
@Suite("Layering and framing")
struct LayeringTests {
    static let badgeRed = RGBAColor(255, 59, 48)

    static func layout(_ scene: Scene, scale: Double) -> ControlLayout {
        ControlLayout(
            scale: scale, width: Int((scene.canvas.width * scale).rounded()),
            height: Int((scene.canvas.height * scale).rounded()), text: TextTests.renderer
        ) { _, _ in AlphaImage(width: 1, height: 1, coverage: [0]) }
    }

    static func isBadge(_ layer: BackgroundLayer) -> Bool {
        if case .fill(_, _, let color) = layer.kind { return color == badgeRed }
        return false
    }

    @Test("Tab-bar badges lie on the glass: neither the platter tints them nor the lens magnifies them")
    func badgesOverGlass() throws {
        let scene = BuiltInScene.tabBar.scene
        let parts = try Self.layout(scene, scale: scene.canvas.scale).parts(for: scene)
        #expect(!parts.background.contains(where: Self.isBadge), "no badge under the glass")
        let badges = parts.foreground.filter(Self.isBadge)
        #expect(badges.count == 2)
        let image = try render(LensRenderer.resolve(scene), on: .cpu)
        for badge in badges {
            guard case .fill(_, let frame, _) = badge.kind else { continue }
            // Inside the capsule's left end, clear of the count.
            let x = Int(((frame.x + 2.5) * scene.canvas.scale).rounded())
            let y = Int((frame.midY * scene.canvas.scale).rounded())
            let pixel = image[x, y]
            #expect(
                abs(Int(pixel.x) - 255) <= 1 && abs(Int(pixel.y) - 59) <= 1 && abs(Int(pixel.z) - 48) <= 1,
                "badge red at \(x),\(y): \(pixel)")
        }
    }

    @Test("Glass controls draw their labels, focus ring and badge above their glass")
    func glassControlLabelsOverGlass() throws {
        let field = GlassControl(.textField, frame: Rect(x: 10, y: 10, width: 200, height: 44), focused: true)
        let bar = GlassControl(
            .floatingTabBar, frame: Rect(x: 10, y: 80, width: 300, height: 56),
            items: [ControlItem(title: "Inbox", symbol: "✉", badge: 3)])
        let scene = Scene(
            canvas: Canvas(width: 320, height: 160, scale: 1), background: [], glass: [],
            controls: [.glass(field), .glass(bar)])
        let parts = try Self.layout(scene, scale: 1).parts(for: scene)
        func isText(_ layer: BackgroundLayer) -> Bool {
            if case .text = layer.kind { return true }
            return false
        }
        func isStroke(_ layer: BackgroundLayer) -> Bool {
            if case .stroke = layer.kind { return true }
            return false
        }
        #expect(!parts.background.contains(where: isText) && !parts.background.contains(where: Self.isBadge))
        #expect(parts.foreground.contains(where: isStroke), "the focus ring")
        #expect(parts.foreground.contains(where: Self.isBadge) && parts.foreground.filter(isText).count >= 3)
    }

    @Test(
        "Every built-in animation keeps its glass inside the canvas in every frame (60 fps)",
        arguments: BuiltInAnimation.allCases)
    func glassStaysInFrame(_ animation: BuiltInAnimation) throws {
        let canvas = animation.scene.canvas
        let layout = Self.layout(animation.scene, scale: 1)
        var worst = (overhang: 0.0, time: 0.0)
        for index in 0...Int(animation.duration * 60) {
            let t = Double(index) / 60
            for element in try layout.expand(animation.frame(at: t)).glass {
                let progress = element.lift?.progress ?? 1
                let growth = element.lift?.growth ?? Point(x: 0, y: 0)
                for placed in element.shapes {
                    let shape = ShapeGeometry(
                        shape: placed.shape, frame: placed.frame, scale: 1,
                        growth: (growth.x * progress, growth.y * progress))
                    let overhang = max(
                        shape.halfWidth - shape.centerX, shape.centerX + shape.halfWidth - canvas.width,
                        shape.halfHeight - shape.centerY, shape.centerY + shape.halfHeight - canvas.height)
                    if overhang > worst.overhang { worst = (overhang, t) }
                }
            }
        }
        #expect(
            worst.overhang <= 0, "\(animation.rawValue): glass \(worst.overhang) pt past the edge at \(worst.time) s")
    }
}
