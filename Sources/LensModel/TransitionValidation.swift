import Foundation

extension Scene {
    /// Each glass id names one glass, the animation's transitions name glass that exist and its
    /// scrolls move background layers that can move (checked when a scene is decoded and when it
    /// is validated).
    func checkAnimationReferences() throws {
        var named = Set<String>()
        for (index, element) in glass.enumerated() {
            let shapeIDs = element.shapes.enumerated().map { ($1.id, "glass[\(index)].shapes[\($0)].id") }
            for case let (id?, path) in [(element.id, "glass[\(index)].id")] + shapeIDs {
                guard named.insert(id).inserted else {
                    throw SceneError(keyPath: path, message: "\"\(id)\" names another glass or shape already")
                }
            }
        }
        for (id, path) in accessoryIDs where !named.insert(id).inserted {
            throw SceneError(keyPath: path, message: "\"\(id)\" names another glass, shape or tab bar's button already")
        }
        try animation?.validate(in: self)
        try animation?.checkScrolls(in: self)
    }
}

extension GlassTransition {
    /// The keys a scene built in code may set that the decoder would refuse: `to`, `content`,
    /// `startContent` and `materializes` on a morph only (`to` required there), `release` and
    /// `touch` on a press only, the touch path's length.
    func checkKeys(_ path: String) throws {
        if kind == .morph && to == nil { throw SceneError(keyPath: "\(path).to", message: "a morph needs \"to\"") }
        let morphKeys = [
            ("to", to != nil), ("content", !content.isEmpty), ("startContent", !startContent.isEmpty),
            ("materializes", materializes),
        ]
        for (key, set) in morphKeys where kind != .morph && set {
            throw SceneError(keyPath: "\(path).\(key)", message: "only a morph has \"\(key)\"")
        }
        for (key, set) in [("release", release != nil), ("touch", touch != nil)] where kind != .press && set {
            throw SceneError(keyPath: "\(path).\(key)", message: "only a press has \"\(key)\"")
        }
        if let touch, touch.isEmpty || touch.count > Limits.gesturePoints {
            throw SceneError(keyPath: "\(path).touch", message: "expected 1…\(Limits.gesturePoints) points")
        }
    }
}

extension SceneAnimation {
    /// Checks each transition against `scene`: its glass (and a morph's end) named by an id in the
    /// scene, a morph between circles, capsules or rounded rectangles of one shape each, its
    /// content and start content in the foreground, each layer going with one glass, the
    /// transitions showing and hiding a glass taking turns, a press released after it starts,
    /// times within the animation. Throws a ``SceneError`` naming the key path.
    func validate(in scene: Scene) throws {
        let ids = Set(scene.glass.compactMap(\.id))
        // Shapes of a group and tab bars' accessory buttons: only a press reaches them.
        let shapeIDs = Set(scene.glass.flatMap { $0.shapes.compactMap(\.id) } + scene.accessoryIDs.map(\.id))
        guard transitions.count <= Limits.transitions else {
            throw SceneError(
                keyPath: "animation.transitions",
                message: "\(transitions.count) transitions; the limit is \(Limits.transitions)")
        }
        for (index, transition) in transitions.enumerated() {
            let path = "animation.transitions[\(index)]"
            try transition.checkKeys(path)
            // A press may name one shape of a group; the rest act on whole glass.
            let reachable = transition.kind == .press ? ids.union(shapeIDs) : ids
            for (key, id) in [("glass", transition.glass), ("to", transition.to)] {
                guard let id else { continue }
                guard reachable.contains(id) else {
                    let known = reachable.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                    let shapeNote =
                        shapeIDs.contains(id)
                        ? "; \"\(id)\" is a shape of a group or a tab bar's button, which only a press acts on" : ""
                    throw SceneError(
                        keyPath: "\(path).\(key)",
                        message: "no glass has the id \"\(id)\" (ids: \(known.isEmpty ? "none" : known))\(shapeNote)")
                }
            }
            try check(transition.time, 0...duration, "\(path).time")
            if let release = transition.release {
                try check(release, transition.time...Limits.animationTime.upperBound, "\(path).release")
            }
            for (point, touch) in (transition.touch ?? []).enumerated() {
                try check(touch.time, Limits.animationTime, "\(path).touch[\(point)].time")
                try check(Point(x: touch.x, y: touch.y), "\(path).touch[\(point)]")
            }
            if let spring = transition.spring {
                try check(spring.dampingRatio, Limits.dampingRatio, "\(path).spring.dampingRatio")
                try check(spring.response, Limits.springResponse, "\(path).spring.response")
            }
            try checkContent(transition, in: scene, path)
            if transition.kind == .morph { try checkMorph(transition, in: scene, path) }
        }
        try checkTurns()
        try checkCarriedOnce()
    }

    /// The transitions that show or hide one glass take turns, one at a time: each shows it after
    /// one that hid it, or hides it after one that showed it; two at the same time would leave
    /// their order to the list.
    private func checkTurns() throws {
        for (id, timeline) in transitions.timelines.sorted(by: { $0.key < $1.key }) {
            for (earlier, later) in zip(timeline, timeline.dropFirst()) {
                let change = transitions[later].visibilityChanges.first { $0.id == id }!
                let path = "animation.transitions[\(later)].\(change.key)"
                guard transitions[later].time > transitions[earlier].time else {
                    throw SceneError(
                        keyPath: path,
                        message:
                            "\"\(id)\" is shown or hidden by animation.transitions[\(earlier)] at the same time; one at a time"
                    )
                }
                let before = transitions[earlier].visibilityChanges.first { $0.id == id }!.change
                guard before != change.change else {
                    let verb = change.change == .shows ? "shown" : "hidden"
                    throw SceneError(
                        keyPath: path,
                        message:
                            "\"\(id)\" is already \(verb) by animation.transitions[\(earlier)]; a glass is shown and hidden in turn"
                    )
                }
            }
        }
    }

    /// Each foreground layer goes with one glass: morphs may carry it in turn (a menu's rows in
    /// as it opens, out as it closes), always with the same glass; with two it would be moved twice.
    private func checkCarriedOnce() throws {
        var carriedBy: [Int: (transition: Int, id: String)] = [:]
        for (index, transition) in transitions.enumerated() {
            for (key, id, list) in transition.carriedLayers {
                for (position, layer) in list.enumerated() {
                    if let earlier = carriedBy[layer], earlier.id != id {
                        throw SceneError(
                            keyPath: "animation.transitions[\(index)].\(key)[\(position)]",
                            message:
                                "foreground layer \(layer) goes with \"\(earlier.id)\" in animation.transitions[\(earlier.transition)], not with \"\(id)\""
                        )
                    }
                    carriedBy[layer] = (index, id)
                }
            }
        }
    }

    /// A morph's content and start content: foreground layers, each listed once in either.
    private func checkContent(_ transition: GlassTransition, in scene: Scene, _ path: String) throws {
        var earlier: [Int] = []
        for (key, _, list) in transition.carriedLayers {
            try checkLayerIndices(list, of: scene.foreground.count, "foreground", "\(path).\(key)", after: earlier)
            earlier += list
        }
    }

    private func checkMorph(_ transition: GlassTransition, in scene: Scene, _ path: String) throws {
        for (key, id) in [("glass", transition.glass), ("to", transition.to)] {
            guard let id, let element = scene.glass.first(where: { $0.id == id }) else { continue }
            guard element.shapes.count == 1, element.shapes[0].shape.morphs else {
                throw SceneError(
                    keyPath: "\(path).\(key)",
                    message: "a morph's glass is one circle, capsule or rounded rectangle; \"\(id)\" is not")
            }
        }
        if transition.glass == transition.to {
            throw SceneError(keyPath: "\(path).to", message: "a glass cannot morph into itself")
        }
    }
}

/// Checks that each of `indices` names one of `count` layers of `kind` ("foreground",
/// "background") and none is listed twice (nor among `earlier`, listed under another key before
/// them); `each` checks a layer in range before its repeats are. Throws at `path[position]`.
func checkLayerIndices(
    _ indices: [Int], of count: Int, _ kind: String, _ path: String, after earlier: [Int] = [],
    each: (Int, String) throws -> Void = { _, _ in }
) throws {
    for (position, layer) in indices.enumerated() {
        let key = "\(path)[\(position)]"
        guard (0..<count).contains(layer) else {
            throw SceneError(keyPath: key, message: "the scene has \(count) \(kind) layer(s); \(layer) is not one")
        }
        try each(layer, key)
        if indices[..<position].contains(layer) || earlier.contains(layer) {
            throw SceneError(keyPath: key, message: "\(layer) is listed twice")
        }
    }
}
