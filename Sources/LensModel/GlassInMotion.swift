import Foundation

// The shapes and looks of glass in motion: a morph's shape and optics between its two states, a
// press's swell and glow.

extension GlassElement {
    /// The one shape between `start` and `end` at `progress` (0: `start`, 1: `end`; past 1 while
    /// the spring overshoots): each frame edge and corner radius, and the optics' numbers, between
    /// the two; the rest of the look (material, theme, id) is `end`'s.
    static func morph(_ start: GlassElement, into end: GlassElement, _ progress: Double) -> GlassElement {
        var element = end
        let from = start.shapes[0].asDrawn
        let to = end.shapes[0].asDrawn
        let frame = Rect(
            x: lerp(from.frame.x, to.frame.x, progress), y: lerp(from.frame.y, to.frame.y, progress),
            width: max(1, lerp(from.frame.width, to.frame.width, progress)),
            height: max(1, lerp(from.frame.height, to.frame.height, progress)))
        // Corners as a share of half the short side: the shape stays round while it grows and its
        // corners tighten as it settles, on the cube of the progress (the capture `jarx-menu-morph`:
        // 1, 0.9, 0.72 and 0.29 of the half width at 31, 52, 72 and 100 % of its width).
        let startShare = from.shape.cornerRadii(in: from.frame).map {
            $0 / (min(from.frame.width, from.frame.height) / 2)
        }
        let endShare = to.shape.cornerRadii(in: to.frame).map { $0 / (min(to.frame.width, to.frame.height) / 2) }
        let half = min(frame.width, frame.height) / 2
        let settling = pow(min(max(progress, 0), 1), 3)
        let radii = (0..<4).map { half * min(1, max(0, lerp(startShare[$0], endShare[$0], settling))) }
        element.shapes = [PlacedShape(shape: .roundedRectangle(cornerRadii: radii), frame: frame)]
        element.optics = Optics.between(start.optics, end.optics, progress)
        element.presence = lerp(start.presence, end.presence, min(max(progress, 0), 1))
        return element
    }

    /// Swells the glass about its centre by `amount` of a press (``GlassTransition/pressScale``
    /// at 1), brightens it, and lights its touch glow at `touch` (its centre without one).
    mutating func press(_ amount: Double, touch: Point?) {
        guard amount != 0 else { return }
        let frames = shapes.map(\.frame)
        let left = frames.map(\.x).min()!
        let top = frames.map(\.y).min()!
        let bounds = Rect(
            x: left, y: top, width: frames.map { $0.x + $0.width }.max()! - left,
            height: frames.map { $0.y + $0.height }.max()! - top)
        let center = Point(x: bounds.midX, y: bounds.midY)
        let scale = 1 + (GlassTransition.pressScale - 1) * amount
        for index in shapes.indices {
            let frame = shapes[index].frame
            shapes[index].frame = Rect(
                x: center.x + (frame.x - center.x) * scale, y: center.y + (frame.y - center.y) * scale,
                width: frame.width * scale, height: frame.height * scale)
            shapes[index].shape = shapes[index].shape.scaled(by: scale)
        }
        let held = min(max(amount, 0), 1)
        optics.brightness = min(
            Limits.brightness.upperBound, optics.brightness + GlassTransition.pressBrightness * held)
        lightTouch(held, at: touch, around: bounds)
    }

    /// The touch glow of a press held by `held`: the glow an author gave the glass stays (moved
    /// to the touch); without one, a press lights its own, as wide as `pressed`'s longer side,
    /// at its centre when there is no touch.
    private mutating func lightTouch(_ held: Double, at touch: Point?, around pressed: Rect) {
        let authored = touchGlow
        touchGlow = TouchGlow(
            center: touch ?? authored?.center ?? Point(x: pressed.midX, y: pressed.midY),
            radius: authored?.radius ?? max(pressed.width, pressed.height) / 2,
            amount: max(authored?.amount ?? 0, GlassTransition.pressGlow * held))
    }
}

extension GlassElement {
    /// Swells one shape of the group about its centre, as ``press(_:touch:)`` swells a glass, and
    /// lets the group's bridge reach from it to its neighbours: the smooth minimum's radius grows to
    /// ``GlassTransition/pressMergeBlend`` with the press where the group's own is smaller. Its
    /// touch glow lights about the touch (the shape's centre without one); the group's brightness
    /// is the whole container's and stays.
    package mutating func press(shape index: Int, _ amount: Double, touch: Point?) {
        guard amount != 0 else { return }
        let frame = shapes[index].frame
        let scale = 1 + (GlassTransition.pressScale - 1) * amount
        shapes[index].frame = Rect(
            x: frame.midX - frame.width * scale / 2, y: frame.midY - frame.height * scale / 2,
            width: frame.width * scale, height: frame.height * scale)
        shapes[index].shape = shapes[index].shape.scaled(by: scale)
        let held = min(max(amount, 0), 1)
        blend = max(blend, GlassTransition.pressMergeBlend * held)
        lightTouch(held, at: touch, around: frame)
    }
}

extension PlacedShape {
    /// The shape with the frame it is drawn in: a circle in the square of its frame's short side,
    /// centred (the renderer draws it so); any other shape fills its frame.
    var asDrawn: PlacedShape {
        guard shape == .circle, frame.width != frame.height else { return self }
        let side = min(frame.width, frame.height)
        return PlacedShape(
            shape: .circle,
            frame: Rect(
                x: frame.x + (frame.width - side) / 2, y: frame.y + (frame.height - side) / 2, width: side,
                height: side))
    }
}

extension Shape {
    /// Corner radii (tl, tr, br, bl) in points of this shape in `frame`, for a morph: a circle or
    /// capsule's half its short side. Only circles, capsules and rounded rectangles morph
    /// (``SceneAnimation`` validation refuses the others).
    func cornerRadii(in frame: Rect) -> [Double] {
        switch self {
        case .circle, .capsule, .ellipse: Array(repeating: min(frame.width, frame.height) / 2, count: 4)
        case .roundedRectangle(let radii), .squircle(let radii, _): radii
        }
    }

    /// Whether a morph can start or end in this shape.
    var morphs: Bool {
        switch self {
        case .circle, .capsule, .roundedRectangle: true
        case .ellipse, .squircle: false
        }
    }

    /// The shape with its corner radii scaled by `scale` (with its frame).
    func scaled(by scale: Double) -> Shape {
        switch self {
        case .circle, .capsule, .ellipse: self
        case .roundedRectangle(let radii): .roundedRectangle(cornerRadii: radii.map { $0 * scale })
        case .squircle(let radii, let exponent): .squircle(cornerRadii: radii.map { $0 * scale }, exponent: exponent)
        }
    }
}

extension Optics {
    /// The optics between `start` and `end` at `progress`: every number on the way, the choices
    /// (model, profile, stages) `end`'s.
    static func between(_ start: Optics, _ end: Optics, _ progress: Double) -> Optics {
        // Every number within its limit: a lively spring overshoots past the end state.
        func mix(_ path: WritableKeyPath<Optics, Double>, _ limit: ClosedRange<Double>) -> Double {
            min(max(lerp(start[keyPath: path], end[keyPath: path], progress), limit.lowerBound), limit.upperBound)
        }
        var optics = end
        let clamped = min(max(progress, 0), 1)
        optics.bevelWidth = mix(\.bevelWidth, Limits.bevel)
        optics.bevelAmount = mix(\.bevelAmount, Limits.bevel)
        optics.magnification = mix(\.magnification, Limits.magnification)
        optics.dispersion = mix(\.dispersion, Limits.dispersion)
        optics.frost = mix(\.frost, Limits.frost)
        optics.saturation = mix(\.saturation, Limits.saturation)
        optics.brightness = mix(\.brightness, Limits.brightness)
        optics.contrast = mix(\.contrast, Limits.saturation)
        optics.fresnel = mix(\.fresnel, Limits.rimAmount)
        optics.tint = start.tint.mixed(with: end.tint, by: clamped)
        optics.shadow = DropShadow.between(start.shadow, end.shadow, clamped)
        optics.innerShadow = DropShadow.between(start.innerShadow, end.innerShadow, clamped)
        return optics
    }
}

extension DropShadow {
    static func between(_ a: DropShadow, _ b: DropShadow, _ f: Double) -> DropShadow {
        DropShadow(
            offset: Point(x: lerp(a.offset.x, b.offset.x, f), y: lerp(a.offset.y, b.offset.y, f)),
            radius: lerp(a.radius, b.radius, f), opacity: lerp(a.opacity, b.opacity, f))
    }
}

private func lerp(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
