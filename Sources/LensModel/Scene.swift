import Foundation

/// A scene: what lies under the glass, the label row, and the glass elements. Lengths are in points;
/// `canvas.scale` maps points to pixels. Decoding is strict: unknown keys and out-of-range values
/// throw a ``SceneError`` that names the key path.
public struct Scene: Codable, Sendable {
    /// Size in points and pixels per point.
    public var canvas: Canvas
    /// Layers painted bottom to top.
    public var background: [BackgroundLayer]
    /// The label row the glass re-tints; nil: none (controls that draw their own row forbid one).
    public var label: LabelLayer?
    /// Glass elements composited in order.
    public var glass: [GlassElement]
    /// Progressive blurs of the backdrop, under every glass element.
    public var progressiveBlurs: [ProgressiveBlur] = []
    /// Scroll-edge effects, over the progressive blurs and under every glass element.
    public var scrollEdges: [ScrollEdgeEffect] = []
    /// Controls (segmented control, tab bar, lens menu): each adds backdrop layers, text to the
    /// label row and glass, drawn after `background` and `glass`.
    public var controls: [Control]
    /// Motion over time, driving the first control; `frame(at:)` gives the still at a time.
    public var animation: SceneAnimation?
    /// Layers drawn over everything, glass included (labels on glass, focus rings).
    public var foreground: [BackgroundLayer]
    /// The theme of every glass element and control that has none of its own.
    public var theme: Theme?
    /// Accessibility settings applied to every glass element and control.
    public var accessibility: Accessibility
    /// Seconds into the scene's motion: where animated highlights are (`frame(at:)` sets it).
    public var time: Double
    /// How layers blend (labels, fills, strokes, washes, tints, the foreground, resting platters):
    /// on gamma-encoded sRGB values as Core Animation does (the default), or in linear light.
    public var blending: Blending
    /// Which iOS release's glass Apple's glass draws (default: ``GlassGeneration/current``, iOS 27);
    /// a glass element may name its own.
    public var generation: GlassGeneration = .current
    /// The system's glass setting, 0…1: 0 Clear (the default, what the captures show), 1 fully
    /// tinted (``Optics/tinted(by:)``). Apple's glass only.
    public var tinting: Double = 0

    /// A scene from its layers; the optional parts default to none, accessibility to all off, time
    /// to 0 and the glass to the current release's, untinted.
    public init(
        canvas: Canvas, background: [BackgroundLayer], label: LabelLayer? = nil, glass: [GlassElement],
        controls: [Control] = [], animation: SceneAnimation? = nil, foreground: [BackgroundLayer] = [],
        theme: Theme? = nil, accessibility: Accessibility = Accessibility(), time: Double = 0,
        blending: Blending = .srgb, generation: GlassGeneration = .current
    ) {
        self.generation = generation
        self.foreground = foreground
        self.canvas = canvas
        self.background = background
        self.label = label
        self.glass = glass
        self.controls = controls
        self.animation = animation
        self.theme = theme
        self.accessibility = accessibility
        self.time = time
        self.blending = blending
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case canvas, background, label, glass, progressiveBlurs, scrollEdges, controls, animation, foreground, theme
        case accessibility, time, blending, generation, tinting
    }

    /// Every blur under the glass in drawing order: the progressive blurs, then the scroll edges'.
    public var backdropBlurs: [ProgressiveBlur] {
        progressiveBlurs + scrollEdges.flatMap { $0.blurs(on: canvas) }
    }

    /// Whether resolving needs the text renderer (controls or text layers).
    public var needsText: Bool {
        func hasText(_ layers: [BackgroundLayer]) -> Bool {
            layers.contains { if case .text = $0.kind { return true } else { return false } }
        }
        return !controls.isEmpty || hasText(background) || hasText(foreground)
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        canvas = try container.decode(Canvas.self, forKey: .canvas)
        if let probe = try? container.decode(ProbeBackground.self, forKey: .background) {
            background = [BackgroundLayer(.probe(probe))]
        } else if let single = try? container.decode(BackgroundLayer.self, forKey: .background) {
            background = [single]
        } else if container.contains(.background) {
            background = try container.decode([BackgroundLayer].self, forKey: .background)
        } else {
            background = [BackgroundLayer(.probe(.white))]
        }
        label = try container.decodeIfPresent(LabelLayer.self, forKey: .label)
        glass = try container.value(.glass, default: [])
        controls = try container.value(.controls, default: [])
        progressiveBlurs = try container.value(.progressiveBlurs, default: [])
        scrollEdges = try container.value(.scrollEdges, default: [])
        for (key, count, limit) in [
            (CodingKeys.glass, glass.count, Limits.glassElements), (.controls, controls.count, Limits.controls),
            (.background, background.count, Limits.backgroundLayers),
            (.progressiveBlurs, progressiveBlurs.count, Limits.backdropBlurs),
            (.scrollEdges, scrollEdges.count, Limits.backdropBlurs),
        ] where count > limit {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(count) entries; the limit is \(limit)")
        }
        animation = try container.decodeIfPresent(SceneAnimation.self, forKey: .animation)
        foreground = try container.value(.foreground, default: [])
        if foreground.count > Limits.backgroundLayers {
            throw DecodingError.dataCorruptedError(
                forKey: .foreground, in: container,
                debugDescription: "\(foreground.count) entries; the limit is \(Limits.backgroundLayers)")
        }
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme)
        accessibility = try container.value(.accessibility, default: Accessibility())
        time = try container.number(.time, default: 0, in: Limits.time)
        blending = try container.value(.blending, default: .srgb)
        generation = try container.choice(GlassGeneration.self, .generation) ?? .current
        tinting = try container.number(.tinting, default: 0, in: Limits.unit)
        if label != nil && controls.contains(where: \.usesLabelRow) {
            throw DecodingError.dataCorruptedError(
                forKey: .label, in: container,
                debugDescription: "controls draw the label row themselves; remove \"label\"")
        }
        try checkAnimationReferences()
    }

    /// Reads and validates a scene file.
    public static func load(contentsOf url: URL) throws -> Scene {
        try decode(try SceneError.readFile(url, document: "scene"))
    }

    /// Decodes and validates scene JSON. Size and nesting are checked before parsing, so a hostile
    /// file cannot exhaust memory or the stack.
    public static func decode(_ data: Data) throws -> Scene {
        guard data.count <= Limits.sceneFileBytes else {
            throw SceneError(
                keyPath: "", message: "scene JSON is \(data.count) bytes; the limit is \(Limits.sceneFileBytes)")
        }
        let depth = Self.nestingDepth(data)
        guard depth <= Limits.jsonNesting else {
            throw SceneError(
                keyPath: "", message: "scene JSON nests \(depth) levels deep; the limit is \(Limits.jsonNesting)")
        }
        do {
            return try JSONDecoder().decode(Scene.self, from: data)
        } catch let error as DecodingError {
            // The decoder only says "not valid JSON"; the parser says where and why.
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            } catch {
                throw SceneError.notJSON(data, document: "scene", parserError: error)
            }
            throw SceneError(error)
        }
    }

    /// The deepest nesting of arrays and objects, skipping strings.
    static func nestingDepth(_ data: Data) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

/// The canvas in points and the pixels per point.
public struct Canvas: Codable, Sendable {
    /// Width in points (1…8192).
    public var width: Double
    /// Height in points (1…8192).
    public var height: Double
    /// Pixels per point (1…4): the frame is `width` × `scale` pixels wide, rounded.
    public var scale: Double

    /// A canvas of `width` × `height` points at `scale` pixels per point (default 2).
    public init(width: Double, height: Double, scale: Double = 2) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case width, height, scale }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.number(.width, in: Limits.canvasSide)
        height = try container.number(.height, in: Limits.canvasSide)
        scale = try container.number(.scale, default: 2, in: Limits.scale)
    }
}

/// An sRGB colour with straight alpha, each channel in 0…1. JSON: `"#RRGGBB"`, `"#RRGGBBAA"` or
/// `[r, g, b]` / `[r, g, b, a]` with numbers in 0…1.
public struct RGBAColor: Codable, Sendable, Equatable {
    /// Red, sRGB-encoded, 0…1.
    public var red: Double
    /// Green, sRGB-encoded, 0…1.
    public var green: Double
    /// Blue, sRGB-encoded, 0…1.
    public var blue: Double
    /// Straight (not premultiplied) alpha, 0…1.
    public var alpha: Double

    /// A colour from sRGB channels and alpha in 0…1; opaque unless `alpha` is given.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From 8-bit sRGB channels and an alpha in 0…1.
    public init(_ red: Int, _ green: Int, _ blue: Int, _ alpha: Double = 1) {
        self.init(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: alpha)
    }

    /// This colour moved `amount` (0…1) of the way to `other`, channel by channel and in alpha.
    public func mixed(with other: RGBAColor, by amount: Double) -> RGBAColor {
        RGBAColor(
            red: red + (other.red - red) * amount, green: green + (other.green - green) * amount,
            blue: blue + (other.blue - blue) * amount, alpha: alpha + (other.alpha - alpha) * amount)
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Fully transparent (white channels at alpha 0): the default "no tint".
    public static let clear = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let parsed = RGBAColor(hex: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "colour \"\(text)\" is not #RRGGBB or #RRGGBBAA")
            }
            self = parsed
            return
        }
        let values: [Double]
        do {
            values = try container.decode([Double].self)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a colour: \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a] in 0…1")
        }
        guard values.count == 3 || values.count == 4, values.allSatisfy({ $0.isFinite && Limits.unit.contains($0) })
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "colour arrays hold 3 or 4 numbers in 0…1, got \(values)")
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([red, green, blue, alpha])
    }

    init?(hex: String) {
        var digits = Substring(hex)
        guard digits.first == "#" else { return nil }
        digits = digits.dropFirst()
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: Double(full >> 24 & 0xFF) / 255, green: Double(full >> 16 & 0xFF) / 255,
            blue: Double(full >> 8 & 0xFF) / 255, alpha: Double(full & 0xFF) / 255)
    }

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Relative luminance of the sRGB colour (0 black … 1 white).
    public var luminance: Double {
        ColorTables.relativeLuminance(
            ColorTables.srgbToLinear(red), ColorTables.srgbToLinear(green), ColorTables.srgbToLinear(blue))
    }

    /// Linear light, premultiplied by alpha, as the shaders read colours.
    public var linearPremultiplied: SIMD4<Float> {
        SIMD4(
            Float(ColorTables.srgbToLinear(red) * alpha), Float(ColorTables.srgbToLinear(green) * alpha),
            Float(ColorTables.srgbToLinear(blue) * alpha), Float(alpha))
    }

    /// Premultiplied by alpha in the space layers blend in: sRGB-encoded values for `.srgb`,
    /// linear light for `.linear`.
    public func premultiplied(for blending: Blending) -> SIMD4<Float> {
        switch blending {
        case .srgb: SIMD4(Float(red * alpha), Float(green * alpha), Float(blue * alpha), Float(alpha))
        case .linear: linearPremultiplied
        }
    }
}

/// A point or offset in points. JSON: `[x, y]`.
public struct Point: Codable, Sendable, Equatable {
    /// Horizontal position or offset in points, positive to the right.
    public var x: Double
    /// Vertical position or offset in points, positive downwards.
    public var y: Double

    /// The point (`x`, `y`), in points.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let values = try container.decode([Double].self)
        guard values.count == 2, values.allSatisfy({ $0.isFinite && Limits.coordinate.contains($0) }) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected [x, y] with finite numbers")
        }
        self.init(x: values[0], y: values[1])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([x, y])
    }
}

/// A rectangle in points, origin at the top left.
public struct Rect: Codable, Sendable, Equatable {
    /// Left edge in points.
    public var x: Double
    /// Top edge in points.
    public var y: Double
    /// Width in points (decoded scenes: 0.5…100000).
    public var width: Double
    /// Height in points (decoded scenes: 0.5…100000).
    public var height: Double

    /// The rectangle with its top-left corner at (`x`, `y`), in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.number(.x, in: Limits.coordinate)
        y = try container.number(.y, in: Limits.coordinate)
        width = try container.number(.width, in: Limits.extent)
        height = try container.number(.height, in: Limits.extent)
    }

    /// Horizontal centre in points.
    public var midX: Double { x + width / 2 }
    /// Vertical centre in points.
    public var midY: Double { y + height / 2 }
}

/// The space layers blend in. Core Animation blends 8-bit layers on their gamma-encoded sRGB
/// values, so black at 0.88 over (242, 242, 247) gives (29, 29, 30); in linear light it gives
/// (92, 92, 94). JSON: `"blending": "srgb"` (default) or `"linear"`.
public enum Blending: String, Codable, Sendable, CaseIterable {
    /// On gamma-encoded sRGB values, as Core Animation and CSS do.
    case srgb
    /// In linear light.
    case linear
}
