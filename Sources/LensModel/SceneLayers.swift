import Foundation

/// The probe backgrounds: test patterns whose pixels tell what the lens did.
public enum ProbeBackground: String, Codable, Sendable, CaseIterable {
    /// White with grey lines every 10 pt and black lines every 50 pt.
    case grid
    /// Sawtooth: red = 4·x mod 256, green = 4·y mod 256 (pixels), so a sample position can be decoded.
    case ramp
    case black
    case white
}

/// One background layer, painted over the ones below with `opacity`.
/// JSON: an object with `"type"` and that type's keys, or a probe name string for the whole background.
public struct BackgroundLayer: Codable, Sendable, Equatable {
    /// What a background layer paints.
    public enum Kind: Sendable, Equatable {
        case solid(RGBAColor)
        /// Evenly spaced stops along `angle` degrees (0 = left to right, 90 = top to bottom).
        case gradient(colors: [RGBAColor], angle: Double)
        case checker(size: Double, colors: [RGBAColor])
        /// Parallel lines `width` wide every `spacing`, at `angle` degrees.
        case lines(spacing: Double, width: Double, angle: Double, color: RGBAColor)
        /// A filled shape (a control's rail, a card) drawn into the backdrop.
        case fill(shape: Shape, frame: Rect, color: RGBAColor)
        /// A ring `width` points wide just outside a shape's edge (a focus ring).
        case stroke(shape: Shape, frame: Rect, width: Double, color: RGBAColor)
        /// A PNG scaled to fill the canvas (aspect fill); the path is relative to the scene file.
        case image(path: String)
        case probe(ProbeBackground)
        /// A coverage mask painted in one colour at a pixel position (controls' badges). Built in
        /// code only: it has no JSON form.
        case mask(AlphaImage, left: Int, top: Int, color: RGBAColor)
        /// One line of text centred at `center` (points), `size` points high, shaped and
        /// rasterised by the text renderer.
        case text(String, center: Point, size: Double, weight: FontWeight, color: RGBAColor)
    }

    /// What the layer paints.
    public var kind: Kind
    /// How much of the layer covers what is below, 0…1 (default 1).
    public var opacity: Double

    /// A layer painting `kind` at `opacity` (default 1).
    public init(_ kind: Kind, opacity: Double = 1) {
        self.kind = kind
        self.opacity = opacity
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, opacity, color, colors, angle, size, spacing, width, shape, frame, path, text, center, weight
    }

    private static let keysByType: [String: Set<CodingKeys>] = [
        "solid": [.color], "gradient": [.colors, .angle], "checker": [.size, .colors],
        "lines": [.spacing, .width, .angle, .color], "fill": [.shape, .frame, .color], "image": [.path],
        "text": [.text, .center, .size, .weight, .color], "stroke": [.shape, .frame, .width, .color],
        "grid": [], "ramp": [], "black": [], "white": [],
    ]

    // Over 60 lines on purpose: one case per layer type, a table read as one.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard let allowed = Self.keysByType[type] else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription:
                    "unknown background type \"\(type)\" (expected one of: \(Self.keysByType.keys.sorted().joined(separator: ", ")))"
            )
        }
        for key in container.allKeys where key != .type && key != .opacity && !allowed.contains(key) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "not a key of a \"\(type)\" layer")
        }
        opacity = try container.number(.opacity, default: 1, in: Limits.unit)
        switch type {
        case "solid":
            kind = .solid(try container.decode(RGBAColor.self, forKey: .color))
        case "gradient":
            let colors = try container.decode([RGBAColor].self, forKey: .colors)
            guard colors.count >= 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .colors, in: container, debugDescription: "needs at least 2 colours")
            }
            kind = .gradient(colors: colors, angle: try container.number(.angle, default: 45, in: Limits.angle))
        case "checker":
            let colors = try container.value(.colors, default: [RGBAColor(230, 230, 230), RGBAColor.white])
            guard colors.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .colors, in: container, debugDescription: "needs exactly 2 colours")
            }
            kind = .checker(size: try container.number(.size, default: 32, in: Limits.patternSize), colors: colors)
        case "lines":
            kind = .lines(
                spacing: try container.number(.spacing, default: 24, in: Limits.patternSize),
                width: try container.number(.width, default: 2, in: Limits.lineWidth),
                angle: try container.number(.angle, default: 45, in: Limits.angle),
                color: try container.value(.color, default: RGBAColor.white))
        case "fill":
            kind = .fill(
                shape: try container.decode(Shape.self, forKey: .shape),
                frame: try container.decode(Rect.self, forKey: .frame),
                color: try container.decode(RGBAColor.self, forKey: .color))
        case "image":
            kind = .image(path: try container.decode(String.self, forKey: .path))
        case "stroke":
            kind = .stroke(
                shape: try container.decode(Shape.self, forKey: .shape),
                frame: try container.decode(Rect.self, forKey: .frame),
                width: try container.number(.width, default: 2, in: Limits.lineWidth),
                color: try container.decode(RGBAColor.self, forKey: .color))
        case "text":
            let text = try container.decode(String.self, forKey: .text)
            guard !text.isEmpty, text.count <= Limits.textLength else {
                throw DecodingError.dataCorruptedError(
                    forKey: .text, in: container, debugDescription: "expected 1…\(Limits.textLength) characters")
            }
            kind = .text(
                text, center: try container.decode(Point.self, forKey: .center),
                size: try container.number(.size, default: 15, in: Limits.fontSize),
                weight: try container.value(.weight, default: .regular),
                color: try container.value(.color, default: .black))
        default:
            kind = .probe(ProbeBackground(rawValue: type)!)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(opacity, forKey: .opacity)
        switch kind {
        case .solid(let color):
            try container.encode("solid", forKey: .type)
            try container.encode(color, forKey: .color)
        case .gradient(let colors, let angle):
            try container.encode("gradient", forKey: .type)
            try container.encode(colors, forKey: .colors)
            try container.encode(angle, forKey: .angle)
        case .checker(let size, let colors):
            try container.encode("checker", forKey: .type)
            try container.encode(size, forKey: .size)
            try container.encode(colors, forKey: .colors)
        case .lines(let spacing, let width, let angle, let color):
            try container.encode("lines", forKey: .type)
            try container.encode(spacing, forKey: .spacing)
            try container.encode(width, forKey: .width)
            try container.encode(angle, forKey: .angle)
            try container.encode(color, forKey: .color)
        case .fill(let shape, let frame, let color):
            try container.encode("fill", forKey: .type)
            try container.encode(shape, forKey: .shape)
            try container.encode(frame, forKey: .frame)
            try container.encode(color, forKey: .color)
        case .image(let path):
            try container.encode("image", forKey: .type)
            try container.encode(path, forKey: .path)
        case .probe(let probe):
            try container.encode(probe.rawValue, forKey: .type)
        case .stroke(let shape, let frame, let width, let color):
            try container.encode("stroke", forKey: .type)
            try container.encode(shape, forKey: .shape)
            try container.encode(frame, forKey: .frame)
            try container.encode(width, forKey: .width)
            try container.encode(color, forKey: .color)
        case .text(let text, let center, let size, let weight, let color):
            try container.encode("text", forKey: .type)
            try container.encode(text, forKey: .text)
            try container.encode(center, forKey: .center)
            try container.encode(size, forKey: .size)
            try container.encode(weight, forKey: .weight)
            try container.encode(color, forKey: .color)
        case .mask:
            throw EncodingError.invalidValue(
                kind,
                .init(codingPath: encoder.codingPath, debugDescription: "an in-memory mask layer has no JSON form"))
        }
    }
}

/// The glyph alpha mask of a label row.
public enum LabelMask: Sendable, Equatable {
    /// A PNG (alpha channel, or grey level when it has no alpha); path relative to the scene file.
    case file(String)
    /// An in-memory mask, as the built-in scenes draw them.
    case image(AlphaImage)
}

/// A label row drawn in its resting colour, re-tinted to the accent colour under the glass.
/// With a lifted mask, the glass shows the lifted (selected-appearance) row instead: the regular
/// row is punched out under the lens as the lift progresses.
public struct LabelLayer: Codable, Sendable, Equatable {
    /// The row's glyph coverage, ``scale`` mask pixels per point.
    public var mask: LabelMask
    /// Where the mask's top-left corner sits, in points.
    public var origin: Point
    /// Mask pixels per point.
    public var scale: Double
    /// Colour of the row away from the glass (default ``restingLight``).
    public var resting: RGBAColor
    /// Colour the row turns under the glass (default ``defaultAccent``, systemBlue).
    public var accent: RGBAColor
    /// The selected-appearance row, same origin and scale as `mask`.
    public var liftedMask: LabelMask?
    /// Colour of the lifted row (default black).
    public var liftedColor: RGBAColor

    /// secondaryLabel in the light appearance: (60, 60, 67) at 0.6.
    public static let restingLight = RGBAColor(60, 60, 67, 0.6)
    /// secondaryLabel in the dark appearance: (235, 235, 245) at 0.6.
    public static let restingDark = RGBAColor(235, 235, 245, 0.6)
    /// systemBlue.
    public static let defaultAccent = RGBAColor(0, 122, 255)

    /// A row at `origin` (default the canvas corner), 2 mask pixels per point, light resting colour and systemBlue
    /// accent by default, with no lifted row.
    public init(
        mask: LabelMask, origin: Point = Point(x: 0, y: 0), scale: Double = 2,
        resting: RGBAColor = restingLight, accent: RGBAColor = defaultAccent,
        liftedMask: LabelMask? = nil, liftedColor: RGBAColor = .black
    ) {
        self.mask = mask
        self.origin = origin
        self.scale = scale
        self.resting = resting
        self.accent = accent
        self.liftedMask = liftedMask
        self.liftedColor = liftedColor
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case mask, origin, scale, resting, accent, liftedMask, liftedColor
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mask = .file(try container.decode(String.self, forKey: .mask))
        origin = try container.value(.origin, default: Point(x: 0, y: 0))
        scale = try container.number(.scale, default: 2, in: Limits.maskScale)
        resting = try container.value(.resting, default: Self.restingLight)
        accent = try container.value(.accent, default: Self.defaultAccent)
        liftedMask = try container.decodeIfPresent(String.self, forKey: .liftedMask).map(LabelMask.file)
        liftedColor = try container.value(.liftedColor, default: .black)
    }

    public func encode(to encoder: any Encoder) throws {
        func path(_ mask: LabelMask) throws -> String {
            guard case .file(let path) = mask else {
                throw EncodingError.invalidValue(
                    mask,
                    .init(codingPath: encoder.codingPath, debugDescription: "an in-memory label mask has no JSON form"))
            }
            return path
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(try path(mask), forKey: .mask)
        try container.encode(origin, forKey: .origin)
        try container.encode(scale, forKey: .scale)
        try container.encode(resting, forKey: .resting)
        try container.encode(accent, forKey: .accent)
        try container.encodeIfPresent(try liftedMask.map(path), forKey: .liftedMask)
        try container.encode(liftedColor, forKey: .liftedColor)
    }
}
