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
                shapes: shapes,
                backdropLuminance: BackdropLuminance(backdrop: backdrop, width: width, height: height).mean(
                    under: geometry), optics: optics)
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
}
