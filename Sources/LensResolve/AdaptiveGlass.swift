import Foundation
import LensModel

/// The mean relative luminance (linear light, Rec. 709 weights) of a backdrop under shapes: what
/// annotations report and adaptive glass decides by.
struct BackdropLuminance {
    let backdrop: [UInt32]
    let width: Int
    let height: Int

    /// The mean over the pixels whose centres lie inside any of `geometry`'s shapes; nil when none
    /// does.
    func mean(under geometry: [ShapeGeometry]) -> Double? {
        let x0 = max(0, Int((geometry.map { $0.centerX - $0.halfWidth }.min() ?? 0).rounded(.down)))
        let x1 = min(width, Int((geometry.map { $0.centerX + $0.halfWidth }.max() ?? 0).rounded(.up)))
        let y0 = max(0, Int((geometry.map { $0.centerY - $0.halfHeight }.min() ?? 0).rounded(.down)))
        let y1 = min(height, Int((geometry.map { $0.centerY + $0.halfHeight }.max() ?? 0).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
        let decode = ColorTables.srgbDecode
        var sum = 0.0
        var count = 0
        for y in y0..<y1 {
            for x in x0..<x1 where geometry.contains(where: { $0.distance(Double(x) + 0.5, Double(y) + 0.5) < 0 }) {
                let pixel = backdrop[y * width + x]
                sum += ColorTables.relativeLuminance(
                    Double(decode[Int(pixel & 0xFF)]), Double(decode[Int(pixel >> 8 & 0xFF)]),
                    Double(decode[Int(pixel >> 16 & 0xFF)]))
                count += 1
            }
        }
        return count == 0 ? nil : sum / Double(count)
    }
}

/// Gives a scene's adaptive glass elements and tab bars (`AdaptiveAppearance`) the appearance the
/// luminance under them asks for, starting from the one they had: in a sequence the cache's from
/// the frame before, else the one the scene gives.
struct AdaptiveGlass {
    let luminance: BackdropLuminance
    let scale: Double
    let cache: ResolveCache?

    func adapt(_ scene: Scene) -> Scene {
        var scene = scene
        for index in scene.glass.indices {
            guard let adaptive = scene.glass[index].adaptive else { continue }
            let element = scene.glass[index]
            let geometry = element.shapes.map { ShapeGeometry(shape: $0.shape, frame: $0.frame, scale: scale) }
            let dark = isDark(
                adaptive, "glass[\(index)]", under: geometry, given: element.optics.appearance == .dark)
            scene.glass[index].appear(dark: dark)
        }
        for index in scene.controls.indices {
            guard case .tabBar(var bar) = scene.controls[index], let adaptive = bar.adaptive else { continue }
            let frame = Rect(
                x: bar.center.x - bar.width / 2, y: bar.center.y - bar.height / 2, width: bar.width,
                height: bar.height)
            let geometry = [ShapeGeometry(shape: .capsule, frame: frame, scale: scale)]
            let dark = isDark(adaptive, "controls[\(index)]", under: geometry, given: bar.appearance == .dark)
            bar.appearance = dark ? .dark : .light
            scene.controls[index] = .tabBar(bar)
        }
        return scene
    }

    private func isDark(
        _ adaptive: AdaptiveAppearance, _ source: String, under geometry: [ShapeGeometry], given: Bool
    ) -> Bool {
        let was = cache?.lastAdaptiveDark(source) ?? given
        let dark = luminance.mean(under: geometry).map { adaptive.isDark(over: $0, wasDark: was) } ?? was
        cache?.keepAdaptiveDark(source, dark)
        return dark
    }
}

extension GlassElement {
    /// Takes the dark or light appearance: the optics', and Apple's regular glass its variant.
    mutating func appear(dark: Bool) {
        optics.appearance = dark ? .dark : .light
        switch material {
        case .apple(.regular), .apple(.regularInteractive): if dark { material = .apple(.regularDark) }
        case .apple(.regularDark): if !dark { material = .apple(.regular) }
        default: break
        }
    }
}
