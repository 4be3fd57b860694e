import Foundation
import LensModel

/// What a control's layout says about it for ``ControlAnnotation``: its box in points, its parts
/// (boxes in pixels; a glass part's box is filled in once its glass is drawn) and its lens's state.
struct ControlSummary {
    var box: Rect
    var parts: [ControlPart]
    var state: ControlState?

    init(box: Rect, parts: [ControlPart] = [], state: ControlState? = nil) {
        self.box = box
        self.parts = parts
        self.state = state
    }
}

extension ControlLayout.Parts {
    /// A part that is the glass `offset` places past those laid out so far (its box comes later).
    func glassPart(_ kind: String, offset: Int = 0) -> ControlPart {
        ControlPart(kind: kind, box: PixelBox.zero, glass: glass.count + offset)
    }

    /// Notes control `index`'s annotation from the summary its layout left and the `glass` it
    /// added (indices among the controls' glass).
    mutating func annotate(_ control: Control, index: Int, glass: Range<Int>, scale: Double) {
        let summary = self.summary ?? ControlSummary(box: Rect(x: 0, y: 0, width: 0, height: 0))
        annotations.append(
            ControlAnnotation(
                index: index, type: control.typeName, box: PixelBox(summary.box, scale: scale),
                glass: Array(glass), parts: summary.parts, state: summary.state))
        self.summary = nil
    }
}

extension ControlLayout {
    /// The index nearest `position` among `count` places (0 … count − 1).
    static func nearest(_ position: Double, of count: Int) -> Int {
        min(max(Int(position.rounded()), 0), max(count - 1, 0))
    }

    /// A glass control's summary: its frame, each glass it drew (a knob when it lifts), and for a
    /// switch or slider the knob's state.
    static func summary(of control: GlassControl, glass: ArraySlice<GlassElement>, firstGlass: Int) -> ControlSummary {
        let parts = glass.enumerated().map { offset, element in
            ControlPart(
                kind: element.lift == nil ? "glass" : "knob", box: PixelBox.zero,
                glass: firstGlass + offset)
        }
        let state: ControlState? =
            switch control.kind {
            case .switch: ControlState(lift: control.held, position: control.knobPosition ?? (control.isOn ? 1 : 0))
            case .slider: ControlState(lift: control.held, position: control.value)
            default: nil
            }
        return ControlSummary(box: control.frame, parts: parts, state: state)
    }
}
