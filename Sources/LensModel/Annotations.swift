import Foundation

/// What a frame shows, for datasets: every glass element's and control part's box in pixels,
/// each control's state, the glass's effective optics (after presets, themes, materials, size
/// laws and sweeps) and the backdrop's mean luminance under each glass element. Made by the
/// resolver from the frame it draws, so the boxes are the drawn shapes' (a lifted lens grown).
public struct FrameAnnotations: Codable, Sendable, Equatable {
    /// The frame's width in pixels.
    public var width: Int
    /// The frame's height in pixels.
    public var height: Int
    /// The frame's pixels per point.
    public var scale: Double
    /// The scene's time in seconds (a still's `time`, an animation frame's).
    public var time: Double
    /// Every glass element in drawing order: the scene's own first, then the controls'.
    public var glass: [GlassAnnotation]
    /// The controls in the scene's order.
    public var controls: [ControlAnnotation]

    /// Annotations of a `width`×`height` px frame at `scale`.
    public init(
        width: Int, height: Int, scale: Double, time: Double, glass: [GlassAnnotation] = [],
        controls: [ControlAnnotation] = []
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.time = time
        self.glass = glass
        self.controls = controls
    }
}

/// A box in pixels, written `[x, y, width, height]` from the frame's top-left corner (COCO's
/// `bbox` order).
public struct PixelBox: Codable, Sendable, Equatable {
    /// The left edge, in pixels from the frame's left.
    public var x: Double
    /// The top edge, in pixels from the frame's top.
    public var y: Double
    /// The width in pixels.
    public var width: Double
    /// The height in pixels.
    public var height: Double

    /// The box with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty box at the origin (a glass part's box before its glass is drawn).
    public static let zero = PixelBox(x: 0, y: 0, width: 0, height: 0)

    /// `rect` (points) at `scale` pixels per point.
    public init(_ rect: Rect, scale: Double) {
        self.init(x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale)
    }

    /// The smallest box holding every box of `boxes`; nil for none.
    public static func union(_ boxes: [PixelBox]) -> PixelBox? {
        guard let first = boxes.first else { return nil }
        let x0 = boxes.map(\.x).min() ?? first.x
        let y0 = boxes.map(\.y).min() ?? first.y
        let x1 = boxes.map { $0.x + $0.width }.max() ?? first.x
        let y1 = boxes.map { $0.y + $0.height }.max() ?? first.y
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            x: try container.decode(Double.self), y: try container.decode(Double.self),
            width: try container.decode(Double.self), height: try container.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in [x, y, width, height] { try container.encode((value * 100).rounded() / 100) }
    }
}

/// One glass element of a frame.
public struct GlassAnnotation: Codable, Sendable, Equatable {
    /// Where it comes from: `glass[2]` (the scene's glass at its time) or `controls[0]`.
    public var source: String
    /// The element's `id`, when it has one.
    public var id: String?
    /// The box of its shapes as drawn (a lifted lens grown, a pressed glass swollen).
    public var box: PixelBox
    /// Each shape's box.
    public var shapes: [PixelBox]
    /// The mean relative luminance (0 black … 1 white, linear light, Rec. 709 weights) of the
    /// backdrop inside its shapes; nil when no pixel centre lies inside.
    public var backdropLuminance: Double?
    /// The optics it is drawn with.
    public var optics: Optics

    /// A glass element's annotation.
    public init(
        source: String, id: String?, box: PixelBox, shapes: [PixelBox], backdropLuminance: Double?, optics: Optics
    ) {
        self.source = source
        self.id = id
        self.box = box
        self.shapes = shapes
        self.backdropLuminance = backdropLuminance
        self.optics = optics
    }
}

/// One control of a frame: its box, its parts and its state.
public struct ControlAnnotation: Codable, Sendable, Equatable {
    /// Its index in the scene's `controls`.
    public var index: Int
    /// Its `type` as the scene names it: `segmented`, `tabBar`, `lensMenu`, `button`, `switch`, …
    public var type: String
    /// The control's whole box.
    public var box: PixelBox
    /// The indices in ``FrameAnnotations/glass`` of the glass it draws.
    public var glass: [Int]
    /// Its segments, tabs, items, lens, platter, knob…
    public var parts: [ControlPart]
    /// Its lens's state; nil for controls without one.
    public var state: ControlState?

    /// A control's annotation.
    public init(
        index: Int, type: String, box: PixelBox, glass: [Int] = [], parts: [ControlPart] = [],
        state: ControlState? = nil
    ) {
        self.index = index
        self.type = type
        self.box = box
        self.glass = glass
        self.parts = parts
        self.state = state
    }
}

/// A part of a control: a segment or tab with its title, a menu item, the lens, the platter, a
/// knob.
public struct ControlPart: Codable, Sendable, Equatable {
    /// `segment`, `tab`, `item`, `lens`, `platter`, `accessory` or `glass`.
    public var kind: String
    /// Its place among the parts of its kind (a segment's, tab's or item's index).
    public var index: Int?
    /// Its title.
    public var title: String?
    /// Its box; a glass part's is its glass's box as drawn.
    public var box: PixelBox
    /// The ink box of its title as drawn; nil without a title or ink.
    public var textBox: PixelBox?
    /// The index in ``FrameAnnotations/glass`` of the glass it is.
    public var glass: Int?

    /// A part's annotation.
    public init(
        kind: String, index: Int? = nil, title: String? = nil, box: PixelBox, textBox: PixelBox? = nil,
        glass: Int? = nil
    ) {
        self.kind = kind
        self.index = index
        self.title = title
        self.box = box
        self.textBox = textBox
        self.glass = glass
    }
}

/// The state of a control's lens.
public struct ControlState: Codable, Sendable, Equatable {
    /// 0 resting … 1 lifted.
    public var lift: Double
    /// The lens's position in segments, tabs or items (0 at the first), as the scene sets it.
    public var position: Double?
    /// The segment, tab or item the lens is nearest.
    public var selectedIndex: Int?

    /// A lens's state.
    public init(lift: Double, position: Double? = nil, selectedIndex: Int? = nil) {
        self.lift = lift
        self.position = position
        self.selectedIndex = selectedIndex
    }
}
