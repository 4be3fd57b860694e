import Foundation
import LensModel

/// Lays a scene's controls out into plain scene parts, one model for both control families:
/// backdrop layers (rails, washes, badges, fills), glass elements (platters, lenses, knobs),
/// foreground layers (glass controls' labels) and the label row (label-row controls' titles).
/// The resolver sees only the expanded scene.
package struct ControlLayout {
    let scale: Double
    let width: Int
    let height: Int
    let text: any TextRasterizer
    let loadIcon: (_ path: String, _ keyPath: String) throws -> AlphaImage

    /// What the controls add to the scene.
    struct Parts {
        var background: [BackgroundLayer] = []
        var glass: [GlassElement] = []
        var foreground: [BackgroundLayer] = []
        var mask: AlphaImage
        var resting = LabelLayer.restingLight
        var accent = LabelLayer.defaultAccent
        /// The controls' annotations, in the scene's order once laid out; glass indices count
        /// the controls' glass only.
        var annotations: [ControlAnnotation] = []
        /// What the control being laid out says about itself.
        var summary: ControlSummary?
    }

    /// A layout for a `width`×`height` px canvas at `scale`; `loadIcon` loads a control's icon
    /// file as a coverage mask (failures name `keyPath`).
    package init(
        scale: Double, width: Int, height: Int, text: any TextRasterizer,
        loadIcon: @escaping (_ path: String, _ keyPath: String) throws -> AlphaImage
    ) {
        self.scale = scale
        self.width = width
        self.height = height
        self.text = text
        self.loadIcon = loadIcon
    }

    /// `scene` with its controls replaced by what they draw (``parts(for:)``).
    package func expand(_ scene: Scene) throws -> Scene {
        try expandAnnotated(scene).scene
    }

    /// ``expand(_:)``, and each control's annotation (glass indices counted from the first of
    /// the controls' glass, glass parts' boxes still to be filled).
    package func expandAnnotated(_ scene: Scene) throws -> (scene: Scene, controls: [ControlAnnotation]) {
        let parts = try parts(for: scene)
        var expanded = scene
        expanded.controls = []
        expanded.background += parts.background
        expanded.glass += parts.glass
        expanded.foreground += parts.foreground
        if scene.controls.contains(where: \.usesLabelRow) {
            expanded.label = LabelLayer(
                mask: .image(parts.mask), scale: scale, resting: parts.resting, accent: parts.accent)
        }
        return (expanded, parts.annotations.sorted { $0.index < $1.index })
    }

    /// What `scene`'s controls draw: label-row controls first, in order, then glass controls in
    /// order, their glass after the scene's and their labels in the foreground. The scene's
    /// Reduce Motion covers its controls.
    func parts(for scene: Scene) throws -> Parts {
        let controls = scene.controls.map { control -> Control in
            guard scene.accessibility.reduceMotion, case .segmented(var segmented) = control else { return control }
            segmented.reduceMotion = true
            return .segmented(segmented)
        }
        var parts = Parts(
            mask: AlphaImage(width: width, height: height, coverage: [UInt8](repeating: 0, count: width * height)))
        for (index, control) in controls.enumerated() {
            let keyPath = "controls[\(index)]"
            let firstGlass = parts.glass.count
            do {
                switch control {
                case .segmented(let segmented): try layout(segmented, into: &parts, keyPath: keyPath)
                case .tabBar(let bar): try layout(bar, into: &parts, keyPath: keyPath)
                case .lensMenu(let menu): try layout(menu, into: &parts, keyPath: keyPath)
                case .glass: continue
                }
            } catch let error as SceneError {
                throw error
            } catch {
                throw SceneError(keyPath: "controls", message: "\(error)")
            }
            parts.annotate(control, index: index, glass: firstGlass..<parts.glass.count, scale: scale)
        }
        drawGlassControls(scene, into: &parts)
        return parts
    }

    /// The glass family (LiquidGlassKit's buttons, switches, cards, bars, sheets); a presented
    /// sheet dims the backdrop first.
    private func drawGlassControls(_ scene: Scene, into parts: inout Parts) {
        var panel = PanelBuilder(origin: Point(x: 0, y: 0), scale: 1)
        let firstGlass = parts.glass.count
        for (index, control) in scene.controls.enumerated() {
            guard case .glass(let glass) = control else { continue }
            if glass.kind == .bottomSheet && glass.presented {
                panel.fill(
                    .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height), GlassControl.dimming)
            }
            let drawn = panel.glass.count
            glass.draw(into: &panel, sceneTheme: scene.theme)
            parts.summary = Self.summary(
                of: glass, glass: panel.glass[drawn...], firstGlass: firstGlass + drawn)
            parts.annotate(
                control, index: index, glass: firstGlass + drawn..<firstGlass + panel.glass.count, scale: scale)
        }
        parts.background += panel.background
        parts.glass += panel.glass
        parts.foreground += panel.foreground
    }
}
