import Foundation

/// A damped spring given as damping ratio ζ and response T (ω = 2π/T), solved in closed form so
/// motion is a function of time: frames at 30, 60 or 120 fps sample the same curve.
public struct Spring: Sendable, Equatable {
    /// ζ: 1 settles without overshoot; below 1 the spring overshoots and rings.
    public var dampingRatio: Double
    /// T in seconds: the period of the undamped oscillation (ω = 2π/T).
    public var response: Double

    /// A spring of damping ratio ζ and response T (seconds).
    public init(dampingRatio: Double, response: Double) {
        self.dampingRatio = dampingRatio
        self.response = response
    }

    /// Apple's tab lens.
    public static let tabLens = Spring(dampingRatio: 0.85, response: 0.35)
    /// The small lens lifting and settling back.
    public static let lift = Spring(dampingRatio: 0.625, response: 0.27)
    /// The lens settling back down once released (after the hang time).
    public static let unlift = Spring(dampingRatio: 0.7, response: 0.5)
    /// Every spring under Reduce Motion.
    public static let reduceMotion = Spring(dampingRatio: 0.9, response: 0.2)
    /// The article's circular menu settling on an item (duration 0.28 s, damping 0.72).
    public static let menuSettle = Spring(dampingRatio: 0.72, response: 0.28)
    /// A press swelling glass and letting go: damping 0.55 with a 0.74 s damped period, the held
    /// loupe's measured on iOS 27 (`shared/reference/ios27-measurements.md`): T = 0.74 · √(1 − ζ²).
    public static let press = Spring(dampingRatio: 0.55, response: 0.62)
    /// Glass materialising or leaving: SwiftUI's default `.smooth` spring (no overshoot, 0.5 s).
    public static let materialize = Spring(dampingRatio: 1, response: 0.5)
    /// A button's glass growing into its menu: fitted to the capture `jarx-menu-morph` (a 44 pt
    /// button growing into a 257 × 541 pt menu, its frames 160, 164, 168 and 186 taken on the
    /// recording's 120 Hz grid, the morph starting 33.6 ms before the first): its left and bottom
    /// edges within 1.7 pt in every frame, its right edge within 3 pt (see CaptureTests).
    public static let morph = Spring(dampingRatio: 0.856, response: 0.306)

    /// Position and velocity `t` seconds after leaving `from` with `velocity`, heading to `to`.
    public func value(from: Double, to: Double, velocity: Double, at t: Double) -> (position: Double, velocity: Double)
    {
        let t = max(0, t)
        let omega = 2 * Double.pi / response
        let zeta = dampingRatio
        let a = from - to
        if zeta < 1 {
            let damped = omega * (1 - zeta * zeta).squareRoot()
            let b = (velocity + zeta * omega * a) / damped
            let decay = exp(-zeta * omega * t)
            let cosine = cos(damped * t), sine = sin(damped * t)
            let position = to + decay * (a * cosine + b * sine)
            let speed = decay * ((b * damped - zeta * omega * a) * cosine - (a * damped + zeta * omega * b) * sine)
            return (position, speed)
        }
        if zeta == 1 {
            let b = velocity + omega * a
            let decay = exp(-omega * t)
            return (to + decay * (a + b * t), decay * (b - omega * (a + b * t)))
        }
        let root = omega * (zeta * zeta - 1).squareRoot()
        let r1 = -zeta * omega + root, r2 = -zeta * omega - root
        let c2 = (velocity - r1 * a) / (r2 - r1)
        let c1 = a - c2
        return (to + c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t))
    }
}

/// Exponential easing in real time, p → target with time constant τ: p(t) = target + (p₀ − target)·e^(−t/τ),
/// snapping to the target within 0.005. The rail uses τ 0.10 s rising and 0.20 s falling.
public struct Easing: Sendable, Equatable {
    /// τ in seconds when the value rises towards its target.
    public var rise: Double
    /// τ in seconds when the value falls towards its target.
    public var fall: Double
    /// Distance from the target under which the value snaps to it.
    public var snap: Double

    /// The segmented control's touch presence: τ 0.10 s rising, 0.20 s falling, snapping within 0.005.
    public static let rail = Easing(rise: 0.10, fall: 0.20, snap: 0.005)

    /// An easing with time constants `rise` and `fall` (seconds) and snap distance `snap`.
    public init(rise: Double, fall: Double, snap: Double) {
        self.rise = rise
        self.fall = fall
        self.snap = snap
    }

    /// The value `t` seconds after leaving `from` for `to`; τ is `rise` heading up, `fall` heading down.
    public func value(from: Double, to: Double, at t: Double) -> Double {
        let tau = to >= from ? rise : fall
        let value = to + (from - to) * exp(-max(0, t) / tau)
        return abs(value - to) < snap ? to : value
    }
}

/// A Core Animation timing curve: a cubic Bézier from (0, 0) to (1, 1) through two control points,
/// mapping the share of a duration elapsed to the share of the change made.
public struct TimingCurve: Sendable, Equatable {
    /// First control point (x in 0…1).
    public var first: Point
    /// Second control point (x in 0…1).
    public var second: Point

    /// `kCAMediaTimingFunctionEaseInEaseOut`, UIView's default curve: (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = TimingCurve(first: Point(x: 0.42, y: 0), second: Point(x: 0.58, y: 1))

    /// A curve through the control points `first` and `second`.
    public init(first: Point, second: Point) {
        self.first = first
        self.second = second
    }

    /// The share of the change made when `progress` (clamped to 0…1) of the duration has elapsed.
    public func value(at progress: Double) -> Double {
        guard progress > 0 else { return 0 }
        guard progress < 1 else { return 1 }
        let x = progress
        func bezier(_ t: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
        }
        // x(t) rises monotonically for control points inside 0…1: bisect it, then read y there.
        var low = 0.0
        var high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if bezier(mid, first.x, second.x) < x { low = mid } else { high = mid }
        }
        return bezier((low + high) / 2, first.y, second.y)
    }
}

/// Timing and shaping of the lens under a touch: lift delay, hang time, squash and stretch, rubber band.
public enum Motion {
    /// The lens stays lifted at least this long.
    public static let hangTime = 0.22
    /// The segmented and tab-bar lenses lift this long after touch down (the circular menu lifts at once).
    public static let liftDelay = 0.1

    /// Squash and stretch from drag velocity (points per second): sx = clamp(1 + v/2500, 0.75, 1.15).
    public static func stretch(velocity: Double) -> Double {
        min(max(1 + velocity / 2500, 0.75), 1.15)
    }

    /// A dragged tab-bar lens's height, as a share of its height at rest, at `speed` points per
    /// second: 1 − 0.4 · v / (v + 162). Fitted to the loupe measured on iOS 27
    /// (`ios27-measurements.md`: 73 pt high at rest; 44–48 pt at about 1100 pt/s, 49–57 at 540,
    /// about 55 at 270; its width stays within 0.9…1).
    public static func loupeSquash(speed: Double) -> Double {
        let v = abs(speed)
        return 1 - 0.4 * v / (v + 162)
    }

    /// iOS-style rubber band past [lower, upper]: an overshoot d shows as c·d·D/(D + c·d), c = 0.55.
    public static func rubberBand(_ value: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        func band(_ overshoot: Double) -> Double { 0.55 * overshoot * dimension / (dimension + 0.55 * overshoot) }
        if value < lower { return lower - band(lower - value) }
        if value > upper { return upper + band(value - upper) }
        return value
    }
}

/// A point of a gesture path: time in seconds, position in points.
public struct GesturePoint: Codable, Sendable, Equatable {
    /// Seconds from the start of the animation (≥ 0).
    public var time: Double
    /// Finger x in points.
    public var x: Double
    /// Finger y in points.
    public var y: Double

    /// The finger at (`x`, `y`) points, `time` seconds into the animation.
    public init(time: Double, x: Double, y: Double) {
        self.time = time
        self.x = x
        self.y = y
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let values = [
            try container.decode(Double.self), try container.decode(Double.self), try container.decode(Double.self),
        ]
        guard container.isAtEnd, values.allSatisfy(\.isFinite), values[0] >= 0 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected [time, x, y] with finite numbers, time ≥ 0")
        }
        self.init(time: values[0], x: values[1], y: values[2])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(time)
        try container.encode(x)
        try container.encode(y)
    }
}

/// A selection made from outside the gesture (a model change) at `time`.
public struct ExternalSelection: Codable, Sendable, Equatable {
    /// Seconds from the start of the animation.
    public var time: Double
    /// The segment, tab or menu item selected (0 = first).
    public var index: Int

    /// Selects `index` at `time` seconds.
    public init(time: Double, index: Int) {
        self.time = time
        self.index = index
    }
}

/// One touch on the scene's first control: down at the first path point, dragged along the path,
/// released (or cancelled) at the last. The selection is committed once, on release; a cancelled
/// gesture rolls back; external selections during the gesture wait until it ends.
public struct GestureTimeline: Codable, Sendable, Equatable {
    /// Finger positions with rising times (2…100000 when decoded): down at the first, up at the last.
    public var path: [GesturePoint]
    /// Whether the touch ends cancelled: the selection rolls back instead of being committed.
    public var cancelled: Bool
    /// Selections from outside the gesture, in any order; those made during it apply when it ends.
    public var externalSelections: [ExternalSelection]

    /// A touch along `path`, released (not cancelled) and with no external selections by default.
    public init(path: [GesturePoint], cancelled: Bool = false, externalSelections: [ExternalSelection] = []) {
        self.path = path
        self.cancelled = cancelled
        self.externalSelections = externalSelections
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case path, cancelled, externalSelections }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode([GesturePoint].self, forKey: .path)
        guard path.count >= 2, path.count <= Limits.gesturePoints,
            zip(path, path.dropFirst()).allSatisfy({ $0.time < $1.time })
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .path, in: container,
                debugDescription: "needs 2 to \(Limits.gesturePoints) points with rising times")
        }
        cancelled = try container.value(.cancelled, default: false)
        externalSelections = try container.value(.externalSelections, default: [])
    }

    var down: Double { path.first!.time }
    var end: Double { path.last!.time }

    /// Finger position at `t` (linear between points, held at the ends).
    func position(at t: Double) -> SIMD2<Double> {
        guard let next = path.firstIndex(where: { $0.time >= t }) else { return SIMD2(path.last!.x, path.last!.y) }
        guard next > 0 else { return SIMD2(path[0].x, path[0].y) }
        let a = path[next - 1], b = path[next]
        let f = (t - a.time) / (b.time - a.time)
        return SIMD2(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
    }

    /// Finger velocity at `t` in points per second (of the path piece containing t).
    func velocity(at t: Double) -> SIMD2<Double> {
        guard let next = path.firstIndex(where: { $0.time >= t }), next > 0 else { return .zero }
        let a = path[next - 1], b = path[next]
        return SIMD2(b.x - a.x, b.y - a.y) / (b.time - a.time)
    }
}

/// An animation: a duration, the gesture driving the scene's first control, its glass's
/// transitions and the flicks that scroll content under the glass.
public struct SceneAnimation: Codable, Sendable, Equatable {
    /// Length in seconds (0.01…600 when decoded).
    public var duration: Double
    /// The touch on the first control; nil: the lens rests where the control puts it, unlifted.
    public var gesture: GestureTimeline?
    /// What the glass elements go through, in order: morphs, materialising, presses.
    public var transitions: [GlassTransition]
    /// Flicks of background content, each adding its own decelerating offset.
    public var scrolls: [ContentScroll]

    /// An animation `duration` seconds long driven by `gesture`, its glass going through
    /// `transitions`, its content flicked by `scrolls`.
    public init(
        duration: Double, gesture: GestureTimeline?, transitions: [GlassTransition] = [], scrolls: [ContentScroll] = []
    ) {
        self.duration = duration
        self.gesture = gesture
        self.transitions = transitions
        self.scrolls = scrolls
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case duration, gesture, transitions, scrolls }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = try container.number(.duration, in: Limits.animationDuration)
        gesture = try container.decodeIfPresent(GestureTimeline.self, forKey: .gesture)
        transitions = try container.value(.transitions, default: [])
        scrolls = try container.value(.scrolls, default: [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(gesture, forKey: .gesture)
        if !transitions.isEmpty { try container.encode(transitions, forKey: .transitions) }
        if !scrolls.isEmpty { try container.encode(scrolls, forKey: .scrolls) }
    }
}
