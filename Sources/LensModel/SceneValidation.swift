import Foundation

/// The allowed range of every number in a scene, shared by the JSON decoder and ``Scene/validate()``.
public enum Limits {
    /// Canvas width and height, in points.
    public static let canvasSide = 1.0...8192
    /// Pixels per side of a resolved frame (canvas size × scale).
    public static let pixelSide = 1...8192
    /// Canvas scale, in pixels per point.
    public static let scale = 1.0...4
    /// Any x or y position or offset, in points.
    public static let coordinate = -100_000.0...100_000
    /// Widths and heights of frames and controls, in points.
    public static let extent = 0.5...100_000
    /// Corner radii of shapes and themes, in points.
    public static let cornerRadius = 0.0...10_000
    /// Angles in degrees: gradients, lines, rim lobes, gradient tints.
    public static let angle = -360.0...360
    /// Fractions, alphas, opacities and colour channels.
    public static let unit = 0.0...1
    /// Checker square size and line spacing, in points.
    public static let patternSize = 1.0...10_000
    /// Width of background lines and strokes, in points.
    public static let lineWidth = 0.1...10_000
    /// Label mask pixels per point.
    public static let maskScale = 0.25...8
    /// Bevel width H, bevel amount A (resting too) and physical thickness, in points.
    public static let bevel = 0.0...1000
    /// Magnification factor of the optics.
    public static let magnification = 0.25...8
    /// Dispersion spread k.
    public static let dispersion = 0.0...0.5
    /// Frost σ (resting too), in points.
    public static let frost = 0.0...50
    /// Saturation and contrast factors (1: unchanged).
    public static let saturation = 0.0...4
    /// Tint-mask feather, in points.
    public static let softness = 0.0...200
    /// Rim lobe amounts and the Fresnel amount.
    public static let rimAmount = 0.0...4
    /// Widths of the rim-light band, the contour and the edge highlight, in points.
    public static let rimWidth = 0.0...100
    /// Rim-light falloff exponent (rounded to a whole number when decoded).
    public static let rimFalloff = 1.0...16
    /// Shadow radius, in points.
    public static let shadowRadius = 0.0...500
    /// Reach of a touch glow, in points.
    public static let touchGlowRadius = 1.0...2000
    /// Squircle superellipse exponent.
    public static let squircleExponent = 2.0...12
    /// Shapes in one glass group.
    public static let groupShapes = 1.0...64
    /// Smooth-minimum radius of a glass group, in points.
    public static let blend = 0.0...1000
    /// Index of refraction of the physical model.
    public static let ior = 1.0...3
    /// Brightness added to every channel, linear light.
    public static let brightness = -1.0...1
    /// White and black levels of a YCbCr composite (face and rim recolour).
    public static let levels = -2.0...4
    /// Amount of a displacement stage, in points (positive samples outward).
    public static let stageAmount = -500.0...500
    /// Depth of a displacement stage's band, in points.
    public static let stageHeight = 0.01...1000
    /// Spread of the aberration fringe, in points.
    public static let aberration = 0.0...50
    /// Share of the rim band's depth that fades its light (Apple's curvature).
    public static let rimCurvature = 0.0...1
    /// Largest scene file, in bytes.
    public static let sceneFileBytes = 16 << 20
    /// Deepest nesting of JSON arrays and objects.
    public static let jsonNesting = 32
    /// Glass elements in one scene.
    public static let glassElements = 256
    /// σ of a progressive blur at its strongest, in points.
    public static let blurRadius = 0.0...200
    /// A depth that may be 0 (a progressive blur's hold), in points.
    public static let extentOrZero = 0.0...100_000
    /// Progressive blurs, and scroll-edge effects, in one scene.
    public static let backdropBlurs = 16
    /// Blur radius of a custom material, in points.
    public static let materialBlur = 0.0...100
    /// Text sizes in points: text layers and glass-control titles.
    public static let fontSize = 1.0...500
    /// Scene time, in seconds (up to a day).
    public static let time = 0.0...86_400
    /// Most colours of a gradient tint (it needs at least 2).
    public static let gradientStops = 8
    /// Frames in one batch manifest.
    public static let batchFrames = 1_000_000
    /// Controls in one scene.
    public static let controls = 64
    /// Layers in a scene's background, and in its foreground.
    public static let backgroundLayers = 512
    /// Most points of a gesture path (it needs at least 2).
    public static let gesturePoints = 100_000
    /// Titles of one segmented control.
    public static let segmentTitles = 1...12
    /// Characters of a control title (segment, tab or menu item).
    public static let titleLength = 64
    /// Characters of a text layer, or of a glass control's title or detail.
    public static let textLength = 256
    /// Badge count of a control item.
    public static let badge = 0...9999
    /// Items of a tab bar; a glass control may have none, up to the same maximum.
    public static let controlItems = 1...8
    /// Squash-and-stretch factor of a segmented control's thumb (1: at rest).
    public static let thumbStretch = 0.75...1.15
    /// A tab bar lens's squash under a fast drag: its height's share of its height at rest.
    public static let lensSquash = 0.5...1.0
    /// Height of a tab bar, in points.
    public static let tabBarHeight = 24.0...200
    /// Gap between a tab bar and its accessory button, in points.
    public static let accessorySpacing = 0.0...200
    /// How far a press has gone (0 at rest, 1 held; its spring overshoots on both sides).
    public static let pressAmount = -1.0...2
    /// Diameter of a lens menu, in points.
    public static let lensMenuDiameter = 150.0...2000
    /// Length of a scene animation, in seconds.
    public static let animationDuration = 0.01...600
    /// Times inside an animation (transitions, releases), in seconds.
    public static let animationTime = 0.0...600
    /// Damping ratio ζ of an animation's spring.
    public static let dampingRatio = 0.05...4
    /// Response T of an animation's spring, in seconds.
    public static let springResponse = 0.01...10
    /// Characters of a glass element's id.
    public static let glassIDLength = 64
    /// Transitions in one animation, and flicks.
    public static let transitions = 1024
    /// Characters of a batch frame name.
    public static let batchNameLength = 64
    /// Sweeps in one batch manifest.
    public static let batchSweeps = 8
    /// Keys sampled at random in one batch manifest.
    public static let batchSamples = 64
    /// The largest seed of random frames, and the largest whole number one may draw (JSON's
    /// exact integers).
    public static let batchSeed = 1 << 53

    /// Most pixels a frame may have: the largest square frame. A resolver may be given a lower
    /// budget (``pixelSide`` still bounds each side).
    public static let maxPixels = pixelSide.upperBound * pixelSide.upperBound
}

extension Scene {
    /// Checks every number against ``Limits`` (NaN and infinities included), for scenes built in
    /// code rather than decoded from JSON. Throws a ``SceneError`` naming the key path.
    public func validate() throws {
        try check(canvas.width, Limits.canvasSide, "canvas.width")
        try check(canvas.height, Limits.canvasSide, "canvas.height")
        try check(canvas.scale, Limits.scale, "canvas.scale")
        try check(tinting, Limits.unit, "tinting")
        for (index, layer) in background.enumerated() {
            try layer.validate("background[\(index)]")
        }
        if let label {
            try check(label.origin, "label.origin")
            try check(label.scale, Limits.maskScale, "label.scale")
            try check(label.resting, "label.resting")
            try check(label.accent, "label.accent")
            try check(label.liftedColor, "label.liftedColor")
        }
        for (index, element) in glass.enumerated() {
            try element.validate("glass[\(index)]")
        }
        try validateBlurs()
        try checkAnimationReferences()
        for (index, layer) in foreground.enumerated() {
            try layer.validate("foreground[\(index)]")
        }
        for (index, control) in controls.enumerated() {
            if case .tabBar(let bar) = control {
                try check(bar.touchOffset, "controls[\(index)].touchOffset")
                try check(bar.lensSquash, Limits.lensSquash, "controls[\(index)].lensSquash")
                try bar.accessory?.validate("controls[\(index)].accessory")
                try bar.adaptive?.validate("controls[\(index)].adaptive")
            }
            if case .segmented(let segmented) = control {
                try check(
                    segmented.thumbPosition, -1...Double(segmented.titles.count),
                    "controls[\(index)].thumbPosition")
            }
            guard case .glass(let glass) = control else { continue }
            let path = "controls[\(index)]"
            try glass.frame.validate("\(path).frame")
            try check(glass.held, Limits.unit, "\(path).held")
            if let knob = glass.knobPosition { try check(knob, Limits.unit, "\(path).knobPosition") }
            try check(glass.value, Limits.unit, "\(path).value")
            try check(glass.fontSize, Limits.fontSize, "\(path).fontSize")
            try glass.theme?.validate("\(path).theme")
            try glass.material?.validate("\(path).material")
        }
        try theme?.validate("theme")
        try check(time, Limits.time, "time")
    }
}

extension Theme {
    func validate(_ path: String) throws {
        try material.validate("\(path).material")
        try check(cornerRadius, Limits.cornerRadius, "\(path).cornerRadius")
        try check(shadow.offset, "\(path).shadow.offset")
        try check(shadow.radius, Limits.shadowRadius, "\(path).shadow.radius")
        try check(shadow.opacity, Limits.unit, "\(path).shadow.opacity")
        try edgeHighlight.validate("\(path).edgeHighlight")
        try gradientTint?.validate("\(path).gradientTint")
    }
}

extension Material {
    func validate(_ path: String) throws {
        switch self {
        case .clear, .frosted, .dark, .apple:
            return
        case .tinted(let color):
            try check(color, "\(path).color")
        case .custom(let blur, let tint, let saturation, let opacity):
            try check(blur, Limits.materialBlur, "\(path).blur")
            try check(tint, "\(path).tint")
            try check(saturation, Limits.saturation, "\(path).saturation")
            try check(opacity, Limits.unit, "\(path).opacity")
        }
    }
}

extension EdgeHighlight {
    func validate(_ path: String) throws {
        try check(width, Limits.rimWidth, "\(path).width")
        guard alphas.count == 3 else { throw SceneError(keyPath: "\(path).alphas", message: "expected three alphas") }
        for (index, alpha) in alphas.enumerated() { try check(alpha, Limits.unit, "\(path).alphas[\(index)]") }
    }
}

extension GradientTint {
    func validate(_ path: String) throws {
        guard (2...Limits.gradientStops).contains(colors.count) else {
            throw SceneError(
                keyPath: "\(path).colors", message: "a gradient tint has 2…\(Limits.gradientStops) colours")
        }
        for (index, color) in colors.enumerated() { try check(color, "\(path).colors[\(index)]") }
        try check(angle, Limits.angle, "\(path).angle")
        try check(intensity, Limits.unit, "\(path).intensity")
    }
}

extension BackgroundLayer {
    func validate(_ path: String) throws {
        try check(opacity, Limits.unit, "\(path).opacity")
        switch kind {
        case .solid(let color):
            try check(color, "\(path).color")
        case .gradient(let colors, let angle):
            guard colors.count >= 2 else {
                throw SceneError(keyPath: "\(path).colors", message: "needs at least 2 colours")
            }
            for (index, color) in colors.enumerated() { try check(color, "\(path).colors[\(index)]") }
            try check(angle, Limits.angle, "\(path).angle")
        case .checker(let size, let colors):
            guard colors.count == 2 else {
                throw SceneError(keyPath: "\(path).colors", message: "needs exactly 2 colours")
            }
            for (index, color) in colors.enumerated() { try check(color, "\(path).colors[\(index)]") }
            try check(size, Limits.patternSize, "\(path).size")
        case .lines(let spacing, let width, let angle, let color):
            try check(spacing, Limits.patternSize, "\(path).spacing")
            try check(width, Limits.lineWidth, "\(path).width")
            try check(angle, Limits.angle, "\(path).angle")
            try check(color, "\(path).color")
        case .fill(let shape, let frame, let color):
            try shape.validate("\(path).shape")
            try frame.validate("\(path).frame")
            try check(color, "\(path).color")
        case .mask(_, _, _, let color):
            try check(color, "\(path).color")
        case .stroke(let shape, let frame, let width, let color):
            try shape.validate("\(path).shape")
            try frame.validate("\(path).frame")
            try check(width, Limits.lineWidth, "\(path).width")
            try check(color, "\(path).color")
        case .text(_, let center, let size, _, let color):
            try check(center, "\(path).center")
            try check(size, Limits.fontSize, "\(path).size")
            try check(color, "\(path).color")
        case .image, .probe:
            break
        }
    }
}

extension Shape {
    func validate(_ path: String) throws {
        let radii: [Double]
        switch self {
        case .circle, .ellipse, .capsule:
            return
        case .roundedRectangle(let cornerRadii):
            radii = cornerRadii
        case .squircle(let cornerRadii, let exponent):
            radii = cornerRadii
            try check(exponent, Limits.squircleExponent, "\(path).exponent")
        }
        guard radii.count == 4 else {
            throw SceneError(keyPath: "\(path).cornerRadii", message: "expected 4 radii (tl, tr, br, bl)")
        }
        for (index, radius) in radii.enumerated() {
            try check(radius, Limits.cornerRadius, "\(path).cornerRadii[\(index)]")
        }
    }
}

extension Rect {
    func validate(_ path: String) throws {
        try check(x, Limits.coordinate, "\(path).x")
        try check(y, Limits.coordinate, "\(path).y")
        try check(width, Limits.extent, "\(path).width")
        try check(height, Limits.extent, "\(path).height")
    }
}

extension GlassElement {
    func validate(_ path: String) throws {
        try check(Double(shapes.count), Limits.groupShapes, "\(path).shapes")
        for (index, placed) in shapes.enumerated() {
            let plain = shapes.count == 1 && blend == 0 && placed.tint == nil && placed.id == nil
            let shapePath = plain ? path : "\(path).shapes[\(index)]"
            try placed.shape.validate("\(shapePath).shape")
            try placed.frame.validate("\(shapePath).frame")
            if let tint = placed.tint { try check(tint, "\(shapePath).tint") }
            try checkID(placed.id, "\(shapePath).id")
        }
        try adaptive?.validate("\(path).adaptive")
        if gradientTint != nil && shapes.contains(where: { $0.tint != nil }) {
            throw SceneError(
                keyPath: "\(path).gradientTint",
                message: "a group whose shapes have their own tints takes no gradient tint")
        }
        try check(blend, Limits.blend, "\(path).blend")
        try optics.validate("\(path).optics")
        if let lift {
            try check(lift.progress, Limits.unit, "\(path).lift.progress")
            try check(lift.growth, "\(path).lift.growth")
            try check(lift.restingBackground, "\(path).lift.restingBackground")
            try check(lift.restingBevelAmount, Limits.bevel, "\(path).lift.restingBevelAmount")
            try check(lift.restingFrost, Limits.frost, "\(path).lift.restingFrost")
            try check(lift.restingShadow, Limits.unit, "\(path).lift.restingShadow")
        }
        try material?.validate("\(path).material")
        try theme?.validate("\(path).theme")
        try edgeHighlight?.validate("\(path).edgeHighlight")
        try gradientTint?.validate("\(path).gradientTint")
        if let highlight { try check(highlight.intensity, Limits.unit, "\(path).highlight.intensity") }
        try check(presence, Limits.unit, "\(path).presence")
        try checkID(id, "\(path).id")
        if let touchGlow {
            try check(touchGlow.center, "\(path).touchGlow.center")
            try check(touchGlow.radius, Limits.touchGlowRadius, "\(path).touchGlow.radius")
            try check(touchGlow.amount, Limits.unit, "\(path).touchGlow.amount")
        }
    }
}

/// A glass or shape id: 1…``Limits/glassIDLength`` characters where given.
func checkID(_ id: String?, _ path: String) throws {
    if let id, id.isEmpty || id.count > Limits.glassIDLength {
        throw SceneError(keyPath: path, message: "expected 1…\(Limits.glassIDLength) characters")
    }
}

/// Throws unless `value` is finite and inside `range`; the message matches the JSON decoder's.
package func check(_ value: Double, _ range: ClosedRange<Double>, _ path: String) throws {
    guard value.isFinite, range.contains(value) else {
        throw SceneError(keyPath: path, message: rangeMessage(value, range))
    }
}

func check(_ point: Point, _ path: String) throws {
    try check(point.x, Limits.coordinate, "\(path)[0]")
    try check(point.y, Limits.coordinate, "\(path)[1]")
}

func check(_ color: RGBAColor, _ path: String) throws {
    for (index, channel) in [color.red, color.green, color.blue, color.alpha].enumerated() {
        try check(channel, Limits.unit, "\(path)[\(index)]")
    }
}

func rangeMessage(_ value: Double, _ range: ClosedRange<Double>) -> String {
    "must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted), got \(value.formatted)"
}
