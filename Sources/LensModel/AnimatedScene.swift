import Foundation

/// A lens driven by a gesture, evaluated at any time in closed form (springs and easings restart
/// at each event from the state the previous piece reached).
struct LensMotion {
    /// A lens state: position (segments, or a 2-D offset in points), lift, touch presence, the
    /// segmented thumb's stretch and the tab-bar lens's squash (both from the drag's velocity).
    struct State: Equatable {
        var position: SIMD2<Double>
        var lift: Double
        var held: Double
        var stretch: Double
        var squash: Double
    }

    /// How the dragged lens follows the finger.
    enum Tracking {
        /// By the finger's movement since touch down; release selects the rest nearest the lens
        /// (the segmented control and the tab bar).
        case delta
        /// Centred on the finger from touch down; release selects the rest nearest the finger
        /// (the article's menu, whose gesture handler sets the lens centre to the touch).
        case finger
    }

    /// How the lens lifts at touch down and settles back after release.
    enum LiftTiming {
        /// The private lens: the lift spring `delay` after touch down, the unlift spring once
        /// released and past the hang time.
        case springs(delay: Double)
        /// A UIView animation: ease in-out over `duration` from touch down, and back from release.
        case eased(duration: Double)
    }

    let gesture: GestureTimeline?
    let initial: SIMD2<Double>
    /// Finger position (points) to lens position.
    let positionOfFinger: (SIMD2<Double>) -> SIMD2<Double>
    /// Keeps a dragged position inside the control (rubber band, circle).
    let constrain: (SIMD2<Double>) -> SIMD2<Double>
    /// The resting position nearest a released lens.
    let nearestRest: (SIMD2<Double>) -> SIMD2<Double>
    /// The resting position of an externally selected index.
    let restPosition: (Int) -> SIMD2<Double>
    let settle: Spring
    let tracking: Tracking
    let liftTiming: LiftTiming
    let reduceMotion: Bool
    /// Points per position unit, for the stretch from velocity.
    let pointsPerUnit: Double

    var spring: Spring { reduceMotion ? .reduceMotion : settle }

    /// Target changes after (or without) the gesture: (time, target).
    func targets() -> [(time: Double, target: SIMD2<Double>)] {
        var result: [(Double, SIMD2<Double>)] = [(0, initial)]
        guard let gesture else { return result }
        for selection in gesture.externalSelections.sorted(by: { $0.time < $1.time })
        where selection.time < gesture.down {
            result.append((selection.time, restPosition(selection.index)))
        }
        return result
    }

    /// Where the lens rests once the gesture has ended: committed on release (nearest the lens or
    /// the finger, by ``tracking``), rolled back on cancel, then any external selection that
    /// arrived during the gesture.
    func settledTarget(releasedAt position: SIMD2<Double>) -> SIMD2<Double> {
        guard let gesture else { return initial }
        let before = targets().last!.target
        let chooser = tracking == .finger ? positionOfFinger(gesture.position(at: gesture.end)) : position
        var target = gesture.cancelled ? before : nearestRest(chooser)
        if let deferred = gesture.externalSelections.filter({ $0.time >= gesture.down && $0.time <= gesture.end }).max(
            by: { $0.time < $1.time })
        {
            target = restPosition(deferred.index)
        }
        return target
    }

    /// Position and velocity of a piecewise spring through `changes`, at `t`.
    func springPosition(
        _ changes: [(time: Double, target: SIMD2<Double>)], start: (SIMD2<Double>, SIMD2<Double>), at t: Double
    ) -> (SIMD2<Double>, SIMD2<Double>) {
        var position = start.0
        var velocity = start.1
        var target = changes[0].target
        var time = changes[0].time
        for change in changes.dropFirst() where change.time <= t {
            (position, velocity) = axes(from: position, to: target, velocity: velocity, after: change.time - time)
            target = change.target
            time = change.time
        }
        return axes(from: position, to: target, velocity: velocity, after: t - time)
    }

    private func axes(from: SIMD2<Double>, to: SIMD2<Double>, velocity: SIMD2<Double>, after dt: Double) -> (
        SIMD2<Double>, SIMD2<Double>
    ) {
        let x = spring.value(from: from.x, to: to.x, velocity: velocity.x, at: dt)
        let y = spring.value(from: from.y, to: to.y, velocity: velocity.y, at: dt)
        return (SIMD2(x.position, y.position), SIMD2(x.velocity, y.velocity))
    }

    func dragged(at t: Double) -> (SIMD2<Double>, SIMD2<Double>) {
        let gesture = gesture!
        let finger = positionOfFinger(gesture.position(at: t))
        let moved: SIMD2<Double>
        switch tracking {
        case .delta:
            let atDown = springPosition(targets(), start: (initial, .zero), at: gesture.down).0
            moved = atDown + finger - positionOfFinger(gesture.position(at: gesture.down))
        case .finger:
            moved = finger
        }
        let velocity =
            positionOfFinger(gesture.position(at: t) + gesture.velocity(at: t) * 0.001)
            - positionOfFinger(gesture.position(at: t))
        return (constrain(moved), velocity * 1000)
    }

    func state(at t: Double) -> State {
        guard let gesture else {
            return State(position: initial, lift: 0, held: 0, stretch: 1, squash: 1)
        }
        var position: SIMD2<Double>
        var velocity: SIMD2<Double>
        if t < gesture.down {
            (position, velocity) = springPosition(targets(), start: (initial, .zero), at: t)
        } else if t <= gesture.end {
            (position, velocity) = dragged(at: t)
        } else {
            let (released, releaseVelocity) = dragged(at: gesture.end)
            var changes: [(time: Double, target: SIMD2<Double>)] = [(gesture.end, settledTarget(releasedAt: released))]
            for selection in gesture.externalSelections.sorted(by: { $0.time < $1.time })
            where selection.time > gesture.end {
                changes.append((selection.time, restPosition(selection.index)))
            }
            (position, velocity) = springPosition(changes, start: (released, releaseVelocity), at: t)
        }

        let lift = lift(at: t, gesture: gesture)
        var held = 0.0
        if t >= gesture.down {
            held = Easing.rail.value(from: 0, to: 1, at: min(t, gesture.end) - gesture.down)
            if t > gesture.end { held = Easing.rail.value(from: held, to: 0, at: t - gesture.end) }
        }
        let speed = velocity.x * pointsPerUnit
        return State(
            position: position, lift: min(max(lift, 0), 1), held: held,
            stretch: reduceMotion ? 1 : Motion.stretch(velocity: speed),
            squash: reduceMotion ? 1 : Motion.loupeSquash(speed: speed))
    }

    /// Lift progress at `t` (before clamping to 0…1: springs overshoot).
    func lift(at t: Double, gesture: GestureTimeline) -> Double {
        switch liftTiming {
        case .springs(let delay):
            let liftStart = gesture.down + delay
            guard t >= liftStart else { return 0 }
            let unliftStart = max(gesture.end, liftStart + Motion.hangTime)
            let liftSpring = reduceMotion ? Spring.reduceMotion : Spring.lift
            let unliftSpring = reduceMotion ? Spring.reduceMotion : Spring.unlift
            let rising = liftSpring.value(from: 0, to: 1, velocity: 0, at: min(t, unliftStart) - liftStart)
            guard t > unliftStart else { return rising.position }
            return unliftSpring.value(from: rising.position, to: 0, velocity: rising.velocity, at: t - unliftStart)
                .position
        case .eased(let duration):
            guard t >= gesture.down else { return 0 }
            let curve = TimingCurve.easeInEaseOut
            let rising = curve.value(at: (min(t, gesture.end) - gesture.down) / duration)
            guard t > gesture.end else { return rising }
            return rising * (1 - curve.value(at: (t - gesture.end) / duration))
        }
    }
}

extension Scene {
    /// The scene's glass and content at `t` of its animation's transitions and scrolls (a still's
    /// time included); its first control's gesture is ``frame(at:)``'s.
    package func applyingTimeline(at t: Double) -> Scene {
        applyingScrolls(at: t).applyingTransitions(at: t)
    }

    /// The scene at time `t` of its animation: the first control moved by the gesture, the glass
    /// through its transitions, the content scrolled.
    public func frame(at t: Double) -> Scene {
        var scene = applyingTimeline(at: t)
        scene.time = t
        // The control as the transitions left it (a press on a tab bar's button).
        guard let animation, let control = scene.controls.first else { return scene }
        switch control {
        case .segmented(var segmented):
            let motion = Self.motion(segmented, gesture: animation.gesture)
            let state = motion.state(at: t)
            segmented.thumbPosition = state.position.x
            segmented.lift = state.lift
            segmented.held = state.held
            segmented.thumbStretch = state.stretch
            scene.controls[0] = .segmented(segmented)
        case .tabBar(var bar):
            let motion = Self.motion(bar, gesture: animation.gesture)
            let state = motion.state(at: t)
            bar.lensPosition = state.position.x
            bar.lift = state.lift
            // The lifted lens squashes; the resting pill it settles into does not.
            bar.lensSquash = 1 - (1 - state.squash) * state.lift
            scene.controls[0] = .tabBar(bar)
        case .lensMenu(var menu):
            let state = Self.motion(menu, gesture: animation.gesture).state(at: t)
            menu.lensOffset = Point(x: state.position.x, y: state.position.y)
            menu.lift = state.lift
            scene.controls[0] = .lensMenu(menu)
        case .glass:
            break
        }
        return scene
    }

    /// The selection a gesture leaves behind (the committed or rolled-back index).
    public var settledSelection: Int? {
        guard let animation, let control = controls.first else { return nil }
        switch control {
        case .segmented(let segmented):
            return Int(
                Self.motion(segmented, gesture: animation.gesture).state(at: animation.duration + 10).position.x
                    .rounded())
        case .tabBar(let bar):
            return Int(
                Self.motion(bar, gesture: animation.gesture).state(at: animation.duration + 10).position.x.rounded())
        case .lensMenu(let menu):
            return menu.nearestItem(
                to: Self.motion(menu, gesture: animation.gesture).state(at: animation.duration + 10).position)
        case .glass:
            return nil
        }
    }

    static func linearMotion(
        count: Int, pitch segment: Double, left: Double, initial: Double, gesture: GestureTimeline?, settle: Spring,
        reduceMotion: Bool
    ) -> LensMotion {
        let last = Double(count - 1)
        return LensMotion(
            gesture: gesture, initial: SIMD2(initial, 0),
            positionOfFinger: { SIMD2(($0.x - left) / segment - 0.5, 0) },
            constrain: { SIMD2(Motion.rubberBand($0.x, lower: 0, upper: last, dimension: 1), 0) },
            nearestRest: { SIMD2(min(max($0.x.rounded(), 0), last), 0) },
            restPosition: { SIMD2(min(max(Double($0), 0), last), 0) },
            settle: settle, tracking: .delta, liftTiming: .springs(delay: Motion.liftDelay), reduceMotion: reduceMotion,
            pointsPerUnit: segment)
    }

    static func motion(_ control: SegmentedControl, gesture: GestureTimeline?) -> LensMotion {
        linearMotion(
            count: control.titles.count, pitch: control.width / Double(control.titles.count),
            left: control.center.x - control.width / 2,
            initial: control.thumbPosition, gesture: gesture, settle: .tabLens, reduceMotion: control.reduceMotion)
    }

    /// The lens follows the finger a tab's pitch per tab.
    static func motion(_ bar: TabBar, gesture: GestureTimeline?) -> LensMotion {
        linearMotion(
            count: bar.items.count, pitch: bar.tabs.pitch, left: bar.tabs.left, initial: bar.lensPosition,
            gesture: gesture, settle: .tabLens, reduceMotion: false)
    }

    /// The article's menu: the lens centred on the finger (held inside the circle) from touch down,
    /// lifting at once; release settles it on the item nearest the finger.
    static func motion(_ menu: LensMenu, gesture: GestureTimeline?) -> LensMotion {
        let limit = menu.maxLensDistance
        return LensMotion(
            gesture: gesture, initial: SIMD2(menu.lensOffset.x, menu.lensOffset.y),
            positionOfFinger: { SIMD2($0.x - menu.center.x, $0.y - menu.center.y) },
            constrain: { offset in
                let length = (offset * offset).sum().squareRoot()
                return length > limit ? offset / length * limit : offset
            },
            nearestRest: { menu.itemOffset(menu.nearestItem(to: $0)) },
            restPosition: { menu.itemOffset(min(max($0, 0), 2)) },
            settle: .menuSettle, tracking: .finger,
            liftTiming: menu.lensStyle == .fallback
                ? .eased(duration: LensMenu.fallbackLiftDuration) : .springs(delay: 0),
            reduceMotion: false, pointsPerUnit: 0)
    }
}
