import Foundation

/// A flick of scrolled content: background layers (cards, rows, their text) moved up by
/// `distance` points from `time`, decelerating as `UIScrollView` does at its normal rate, so the
/// glass above refracts content in motion.
public struct ContentScroll: Codable, Sendable, Equatable {
    /// When the finger lets go, in seconds; the content is still before it.
    public var time: Double
    /// How far the content travels in all, in points; positive moves it up (scrolling down the list).
    public var distance: Double
    /// The background layers that scroll (fills, strokes and text), by index.
    public var layers: [Int]

    /// `UIScrollView.DecelerationRate.normal`: the velocity kept after each millisecond.
    public static let decelerationRate = 0.998

    /// A flick at `time` of `layers`, travelling `distance` points.
    public init(time: Double, distance: Double, layers: [Int]) {
        self.time = time
        self.distance = distance
        self.layers = layers
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case time, distance, layers }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.number(.time, in: Limits.animationTime)
        distance = try container.number(.distance, in: Limits.coordinate)
        layers = try container.decode([Int].self, forKey: .layers)
    }

    /// How far the content has moved at `t`: d · (1 − r^ms), the distance a flick decelerating
    /// at rate r per millisecond has covered (its release velocity is d · (1 − r) / r per ms).
    public func offset(at t: Double) -> Double {
        guard t > time else { return 0 }
        return distance * (1 - pow(Self.decelerationRate, (t - time) * 1000))
    }
}

extension Scene {
    /// The scene with its scrolled layers moved to where the animation's flicks have taken them
    /// at `t` (each flick adds its own offset).
    package func applyingScrolls(at t: Double) -> Scene {
        guard let scrolls = animation?.scrolls, !scrolls.isEmpty else { return self }
        var scene = self
        for scroll in scrolls {
            let offset = scroll.offset(at: t)
            for index in Set(scroll.layers) where background.indices.contains(index) {
                scene.background[index] = scene.background[index].moved(up: offset)
            }
        }
        scene.animation?.scrolls = []
        return scene
    }
}

extension BackgroundLayer {
    /// Whether a scroll can move this layer: it has a place of its own (fills, strokes, text).
    var scrolls: Bool {
        switch kind {
        case .fill, .stroke, .text: true
        case .solid, .gradient, .checker, .lines, .image, .probe, .mask: false
        }
    }

    /// The layer `offset` points higher on the canvas, kept within ``Limits/coordinate`` (flicks
    /// add up, so a far-off layer could otherwise leave the range the resolver accepts).
    func moved(up offset: Double) -> BackgroundLayer {
        var layer = self
        switch kind {
        case .fill(let shape, let frame, let color):
            layer.kind = .fill(shape: shape, frame: frame.moved(up: offset), color: color)
        case .stroke(let shape, let frame, let width, let color):
            layer.kind = .stroke(shape: shape, frame: frame.moved(up: offset), width: width, color: color)
        case .text(let string, let center, let size, let weight, let color):
            layer.kind = .text(
                string, center: Point(x: center.x, y: clampedCoordinate(center.y - offset)), size: size, weight: weight,
                color: color)
        case .solid, .gradient, .checker, .lines, .image, .probe, .mask:
            break
        }
        return layer
    }
}

extension Rect {
    fileprivate func moved(up offset: Double) -> Rect {
        Rect(x: x, y: clampedCoordinate(y - offset), width: width, height: height)
    }
}

private func clampedCoordinate(_ value: Double) -> Double {
    min(max(value, Limits.coordinate.lowerBound), Limits.coordinate.upperBound)
}

extension SceneAnimation {
    /// Checks each flick against `scene`: its time within the animation, its layers background
    /// layers that can move, each listed once. Throws a ``SceneError`` naming the key path.
    func checkScrolls(in scene: Scene) throws {
        guard scrolls.count <= Limits.transitions else {
            throw SceneError(
                keyPath: "animation.scrolls", message: "\(scrolls.count) flicks; the limit is \(Limits.transitions)")
        }
        for (index, scroll) in scrolls.enumerated() {
            let path = "animation.scrolls[\(index)]"
            try check(scroll.time, 0...duration, "\(path).time")
            try check(scroll.distance, Limits.coordinate, "\(path).distance")
            if scroll.layers.isEmpty { throw SceneError(keyPath: "\(path).layers", message: "no layer scrolls") }
            try checkLayerIndices(scroll.layers, of: scene.background.count, "background", "\(path).layers") {
                layer, key in
                guard scene.background[layer].scrolls else {
                    throw SceneError(
                        keyPath: key,
                        message: "background[\(layer)] fills the canvas; only fills, strokes and text scroll")
                }
            }
        }
    }
}
