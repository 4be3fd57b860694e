import Foundation
import LensModel

/// Makes a frame's ``FrameAnnotations`` from what the resolver drew: each glass element's shapes
/// in pixels and resolved optics, the controls' annotations from their layouts, and the backdrop
/// under each glass.
struct FrameAnnotator {
    /// The expanded scene: its own glass first, then the controls'.
    let scene: Scene
    /// How many of `scene.glass` are the scene's own (the rest are its controls').
    let ownGlass: Int
    let scale: Double
    let width: Int
    let height: Int
    let backdrop: [UInt32]

    /// The annotations of glass drawn as `drawn` (one entry per element of `scene.glass`) and of
    /// `controls` as their layouts left them (glass indices among the controls' glass).
    func annotations(
        drawn: [(geometry: [ShapeGeometry], optics: Optics)], controls: [ControlAnnotation]
    ) -> FrameAnnotations {
        var owners: [Int: Int] = [:]
        for control in controls {
            for glass in control.glass { owners[ownGlass + glass] = control.index }
        }
        let glass = zip(scene.glass, drawn).enumerated().map { index, pair in
            let (element, (geometry, optics)) = pair
            let shapes = geometry.map {
                PixelBox(
                    x: $0.centerX - $0.halfWidth, y: $0.centerY - $0.halfHeight, width: 2 * $0.halfWidth,
                    height: 2 * $0.halfHeight)
            }
            let box = PixelBox.union(shapes) ?? PixelBox.zero
            return GlassAnnotation(
                source: owners[index].map { "controls[\($0)]" } ?? "glass[\(index)]", id: element.id, box: box,
                shapes: shapes, backdropLuminance: backdropLuminance(under: geometry, within: box), optics: optics)
        }
        let placed = controls.map { control in
            var control = control
            control.glass = control.glass.map { ownGlass + $0 }
            control.parts = control.parts.map { part in
                guard let index = part.glass.map({ ownGlass + $0 }) else { return part }
                var part = part
                part.glass = index
                part.box = glass[index].box
                return part
            }
            return control
        }
        return FrameAnnotations(
            width: width, height: height, scale: scale, time: scene.time, glass: glass, controls: placed)
    }

    /// The mean relative luminance (linear light, Rec. 709 weights) of the backdrop pixels whose
    /// centres lie inside any of the shapes (whose boxes `box` holds); nil when none does.
    func backdropLuminance(under geometry: [ShapeGeometry], within box: PixelBox) -> Double? {
        let decode = ColorTables.srgbDecode
        var sum = 0.0
        var count = 0
        let x0 = max(0, Int(box.x.rounded(.down)))
        let x1 = min(width, Int((box.x + box.width).rounded(.up)))
        let y0 = max(0, Int(box.y.rounded(.down)))
        let y1 = min(height, Int((box.y + box.height).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
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
