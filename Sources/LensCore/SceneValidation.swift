/// The allowed range of every number in a scene, shared by the JSON decoder and ``Scene/validate()``.
public enum Limits {
    public static let canvasSide = 1.0...8192
    public static let scale = 1.0...4
    public static let coordinate = -100_000.0...100_000
    public static let extent = 0.5...100_000
    public static let cornerRadius = 0.0...10_000
    public static let angle = -360.0...360
    public static let unit = 0.0...1
    public static let patternSize = 1.0...10_000
    public static let lineWidth = 0.1...10_000
    public static let maskScale = 0.25...8
    public static let bevel = 0.0...1000
    public static let magnification = 0.25...8
    public static let dispersion = 0.0...0.5
    public static let frost = 0.0...50
    public static let saturation = 0.0...4
    public static let softness = 0.0...200
    public static let rimAmount = 0.0...4
    public static let rimWidth = 0.0...100
    public static let rimFalloff = 1.0...16
    public static let shadowRadius = 0.0...500
}

extension Scene {
    /// Checks every number against ``Limits`` (NaN and infinities included), for scenes built in
    /// code rather than decoded from JSON. Throws a ``SceneError`` naming the key path.
    public func validate() throws {
        try check(canvas.width, Limits.canvasSide, "canvas.width")
        try check(canvas.height, Limits.canvasSide, "canvas.height")
        try check(canvas.scale, Limits.scale, "canvas.scale")
        for (index, layer) in background.enumerated() {
            try layer.validate("background[\(index)]")
        }
        if let label {
            try check(label.origin, "label.origin")
            try check(label.scale, Limits.maskScale, "label.scale")
            try check(label.resting, "label.resting")
            try check(label.accent, "label.accent")
        }
        for (index, element) in glass.enumerated() {
            try element.validate("glass[\(index)]")
        }
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
        case .image, .probe:
            break
        }
    }
}

extension Shape {
    func validate(_ path: String) throws {
        guard case .roundedRectangle(let radii) = self else { return }
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
        try shape.validate("\(path).shape")
        try frame.validate("\(path).frame")
        let optics = "\(path).optics"
        try check(self.optics.bevelWidth, Limits.bevel, "\(optics).bevelWidth")
        try check(self.optics.bevelAmount, Limits.bevel, "\(optics).bevelAmount")
        try check(self.optics.magnification, Limits.magnification, "\(optics).magnification")
        try check(self.optics.dispersion, Limits.dispersion, "\(optics).dispersion")
        try check(self.optics.frost, Limits.frost, "\(optics).frost")
        try check(self.optics.saturation, Limits.saturation, "\(optics).saturation")
        try check(self.optics.tint, "\(optics).tint")
        try check(self.optics.softness, Limits.softness, "\(optics).softness")
        try check(self.optics.ovalization, Limits.unit, "\(optics).ovalization")
        let rim = self.optics.rimLight
        try check(rim.key.angle, Limits.angle, "\(optics).rimLight.key.angle")
        try check(rim.key.amount, Limits.rimAmount, "\(optics).rimLight.key.amount")
        try check(rim.fill.angle, Limits.angle, "\(optics).rimLight.fill.angle")
        try check(rim.fill.amount, Limits.rimAmount, "\(optics).rimLight.fill.amount")
        try check(rim.width, Limits.rimWidth, "\(optics).rimLight.width")
        try check(Double(rim.falloff), Limits.rimFalloff, "\(optics).rimLight.falloff")
        let shadow = self.optics.shadow
        try check(shadow.offset, "\(optics).shadow.offset")
        try check(shadow.radius, Limits.shadowRadius, "\(optics).shadow.radius")
        try check(shadow.opacity, Limits.unit, "\(optics).shadow.opacity")
    }
}

/// Throws unless `value` is finite and inside `range`; the message matches the JSON decoder's.
func check(_ value: Double, _ range: ClosedRange<Double>, _ path: String) throws {
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
