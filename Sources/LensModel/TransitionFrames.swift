import Foundation

extension Scene {
    /// The glass and foreground at time `t` of the animation's transitions: morphing glass drawn
    /// as the one shape between its two states (its content seen through it while it moves — copies
    /// appended to the background — and on top once it settles, the shape named by the end state's
    /// id), glass that has not appeared yet or has gone left out, presence applied; then presses,
    /// on the glass drawn, by id. A glass may be shown and hidden in turn: the transition that
    /// decides it is the last of its own that has begun (the first, while none has), and each
    /// starts from the glass's settled state. A scene without transitions is returned as it is.
    package func applyingTransitions(at t: Double) -> Scene {
        guard let transitions = animation?.transitions, !transitions.isEmpty else { return self }
        var scene = self
        var frame = TransitionFrame(deciding: transitions.deciding(at: t))
        for (number, transition) in transitions.enumerated() where transition.kind != .press {
            guard let index = glass.firstIndex(where: { $0.id == transition.glass }) else { continue }
            let decides = frame.deciding[transition.glass] == number
            let progress = min(max(transition.progress(at: t), 0), 1)
            let begun = t >= transition.time
            switch transition.kind {
            case .morph:
                scene.morph(transition, number, from: index, of: glass, at: t, in: &frame)
            case .materialize where decides:
                if !begun { frame.hidden.insert(index) }
                scene.glass[index].presence *= progress
                frame.shown[index] = progress
            case .dematerialize where decides:
                scene.glass[index].presence *= 1 - progress
                frame.shown[index] = 1 - progress
            case .appear where decides && !begun, .disappear where decides && begun:
                frame.hidden.insert(index)
            default:
                break
            }
        }
        scene.fadeLeftContent(transitions, frame)
        scene.glass = scene.glass.enumerated()
            .filter { !frame.hidden.contains($0.offset) && $0.element.presence > 0 }.map(\.element)
        for transition in transitions where transition.kind == .press {
            let amount = transition.pressAmount(at: t)
            let touch = transition.touchPoint(at: t)
            if let index = scene.glass.firstIndex(where: { $0.id == transition.glass }) {
                scene.glass[index].press(amount, touch: touch)
            } else if let index = scene.glass.firstIndex(where: { $0.shapes.contains { $0.id == transition.glass } }),
                let shape = scene.glass[index].shapes.firstIndex(where: { $0.id == transition.glass })
            {
                scene.glass[index].press(shape: shape, amount, touch: touch)
            } else {
                scene.pressAccessory(transition.glass, amount, touch: touch)
            }
        }
        // The frame holds the transitions' outcome; the glass they name may be gone from it.
        scene.animation?.transitions = []
        return scene
    }

    /// Hands a press to the tab bar whose accessory button is `id`, which draws it: presses add
    /// up, as on glass, and one that has not begun leaves the button as the scene gave it.
    private mutating func pressAccessory(_ id: String, _ amount: Double, touch: Point?) {
        guard amount != 0 else { return }
        for index in controls.indices {
            guard case .tabBar(var bar) = controls[index], var accessory = bar.accessory, accessory.id == id else {
                continue
            }
            let range = Limits.pressAmount
            accessory.pressed = min(max(accessory.pressed + amount, range.lowerBound), range.upperBound)
            accessory.touch = touch ?? accessory.touch
            bar.accessory = accessory
            controls[index] = .tabBar(bar)
        }
    }

    /// Draws morph `number` at `t` on the ends it decides, between their states in `original`
    /// (the scene's glass before any transition): before it begins its end state waits hidden;
    /// once it has, its start is hidden and its end drawn as the shape between the two. Each end's
    /// carried layers move with the shape.
    private mutating func morph(
        _ transition: GlassTransition, _ number: Int, from index: Int, of original: [GlassElement], at t: Double,
        in frame: inout TransitionFrame
    ) {
        guard let to = transition.to, let target = original.firstIndex(where: { $0.id == to }),
            !original[index].shapes.isEmpty, !original[target].shapes.isEmpty
        else { return }
        let decidesStart = frame.deciding[transition.glass] == number
        let decidesEnd = frame.deciding[to] == number
        let begun = t >= transition.time
        let spring = transition.progress(at: t)
        if !begun && decidesEnd { frame.hidden.insert(target) }
        if begun && decidesStart { frame.hidden.insert(index) }
        if begun && decidesEnd {
            glass[target] = GlassElement.morph(original[index], into: original[target], spring)
            let progress = min(max(spring, 0), 1)
            if transition.materializes { glass[target].presence *= progress }
            frame.shown[target] = transition.materializes ? progress : 1
        }
        // Where the shape is now: as this morph draws it, or where it rests.
        let now = (begun ? (decidesEnd ? glass[target] : original[target]) : original[index]).shapes[0].frame
        if decidesEnd {
            let shown = begun ? GlassTransition.contentOpacity(spring) : 0
            let sharp = GlassTransition.settledContentShare(spring)
            carryContent(
                transition.content, from: original[target].shapes[0].frame, to: now, opacity: shown * sharp,
                underGlass: shown * (1 - sharp))
            frame.carried.formUnion(transition.content)
        }
        if decidesStart {
            carryContent(
                transition.startContent, from: original[index].shapes[0].frame, to: now,
                opacity: begun ? GlassTransition.startContentOpacity(spring) : 1, underGlass: 0)
            frame.carried.formUnion(transition.startContent)
        }
    }

    /// Layers a morph carries with a glass that a later transition decides (one that does not
    /// carry them) stay where they settled and go with the glass: hidden with it, fading as it does.
    private mutating func fadeLeftContent(_ transitions: [GlassTransition], _ frame: TransitionFrame) {
        var owner: [Int: String] = [:]
        for transition in transitions {
            for (_, id, layers) in transition.carriedLayers { for layer in layers { owner[layer] = id } }
        }
        for (layer, id) in owner where !frame.carried.contains(layer) && foreground.indices.contains(layer) {
            guard let index = glass.firstIndex(where: { $0.id == id }) else { continue }
            foreground[layer].opacity *= frame.hidden.contains(index) ? 0 : frame.shown[index] ?? 1
        }
    }

    /// A morph's content `layers`, laid out in the frame `laidOut` (the end state's, or the start's
    /// for its start content), carried to the shape's frame `now` (the capture: rows at 0.58× their
    /// pitch when the shape is half grown): on top at `opacity`, and a copy under the glass at
    /// `underGlass`, which the moving shape frosts and bends at its rim.
    private mutating func carryContent(
        _ layers: [Int], from laidOut: Rect, to now: Rect, opacity: Double, underGlass: Double
    ) {
        for layer in Set(layers).sorted() where foreground.indices.contains(layer) {
            let carried = foreground[layer].mapped(from: laidOut, to: now)
            if underGlass > 0 {
                var copy = carried
                copy.opacity *= underGlass
                background.append(copy)
            }
            foreground[layer] = carried
            foreground[layer].opacity *= opacity
        }
    }
}

extension GlassTransition {
    /// A morph's content at morph progress `progress`: fading in from a tenth of the growth to
    /// 70 % of it (the capture `jarx-menu-morph`: faint lines under the glass at 17 %, blurred rows
    /// at 41 %, legible ones at 68 %).
    static func contentOpacity(_ progress: Double) -> Double {
        let x = min(max((progress - 0.1) / 0.6, 0), 1)
        return x * x * (3 - 2 * x)
    }

    /// How much of a morph's shown content is on top of the glass, sharp, at morph progress
    /// `progress`; the rest lies under it. The capture `jarx-menu-morph`: mid-morph the rows are
    /// seen through the glass, frosted and bent at its rim; in the settled menu they are sharp.
    /// Whole from 0.995, so a spring still creeping toward 1 leaves nothing under the glass.
    static func settledContentShare(_ progress: Double) -> Double {
        let x = min(max((progress - 0.85) / 0.145, 0), 1)
        return x * x * (3 - 2 * x)
    }

    /// A morph's start content at morph progress `progress`: whole at the start, gone once the
    /// shape is half grown, as the end's content begins to show.
    static func startContentOpacity(_ progress: Double) -> Double {
        let x = min(max(progress / 0.5, 0), 1)
        return 1 - x * x * (3 - 2 * x)
    }

    /// The spring's progress from 0 toward 1 at `t` (0 before `time`; past 1 while it overshoots).
    func progress(at t: Double) -> Double {
        t < time ? 0 : effectiveSpring.value(from: 0, to: 1, velocity: 0, at: t - time).position
    }

    /// How far a press has gone at `t`: the spring toward 1 from `time`, back toward 0 from
    /// `release`; above 1 while it overshoots.
    func pressAmount(at t: Double) -> Double {
        guard let release, t >= release else { return progress(at: t) }
        let spring = effectiveSpring
        let atRelease = spring.value(from: 0, to: 1, velocity: 0, at: release - time)
        return spring.value(from: atRelease.position, to: 0, velocity: atRelease.velocity, at: t - release).position
    }

    /// The touch at `t`: the path's point, linearly between its times; nil without one.
    func touchPoint(at t: Double) -> Point? {
        guard let touch, let first = touch.first else { return nil }
        guard let after = touch.firstIndex(where: { $0.time > t }) else {
            return Point(x: touch.last!.x, y: touch.last!.y)
        }
        guard after > 0 else { return Point(x: first.x, y: first.y) }
        let a = touch[after - 1]
        let b = touch[after]
        let f = (t - a.time) / max(b.time - a.time, 1e-9)
        return Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
    }
}

extension BackgroundLayer {
    /// The layer with its geometry carried from `source` to `destination`: positions kept in
    /// proportion, text sizes and corner radii by the width's scale. Layers without geometry of
    /// their own (fills of the whole canvas, images) stay.
    func mapped(from source: Rect, to destination: Rect) -> BackgroundLayer {
        let sx = destination.width / source.width
        let sy = destination.height / source.height
        func point(_ p: Point) -> Point {
            Point(x: destination.x + (p.x - source.x) * sx, y: destination.y + (p.y - source.y) * sy)
        }
        func rect(_ r: Rect) -> Rect {
            let origin = point(Point(x: r.x, y: r.y))
            func extent(_ value: Double) -> Double {
                min(max(value, Limits.extent.lowerBound), Limits.extent.upperBound)
            }
            return Rect(x: origin.x, y: origin.y, width: extent(r.width * sx), height: extent(r.height * sy))
        }
        var layer = self
        switch kind {
        case .text(let string, let center, let size, let weight, let color):
            let scaled = min(max(size * sx, Limits.fontSize.lowerBound), Limits.fontSize.upperBound)
            layer.kind = .text(string, center: point(center), size: scaled, weight: weight, color: color)
        case .fill(let shape, let frame, let color):
            layer.kind = .fill(shape: shape.scaled(by: sx), frame: rect(frame), color: color)
        case .stroke(let shape, let frame, let width, let color):
            layer.kind = .stroke(shape: shape.scaled(by: sx), frame: rect(frame), width: width, color: color)
        case .solid, .gradient, .checker, .lines, .image, .probe, .mask:
            break
        }
        return layer
    }
}

/// What the transitions decided for one frame, by glass index: which transition decides each
/// glass id, the glass hidden, how much of a fading glass shows, the layers carried so far.
private struct TransitionFrame {
    let deciding: [String: Int]
    var hidden = Set<Int>()
    var shown: [Int: Double] = [:]
    var carried = Set<Int>()
}
