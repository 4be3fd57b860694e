import Foundation

/// The side of a region a blur grows toward.
public enum BlurEdge: String, Codable, Sendable, CaseIterable {
    /// The top side: the blur grows upward.
    case top
    /// The bottom side: the blur grows downward.
    case bottom
    /// The left side (left to right layouts).
    case leading
    /// The right side (left to right layouts).
    case trailing
}

/// A backdrop region whose blur grows along one axis: σ is `radius` over the `hold` points next to
/// `edge`, then falls linearly to 0 at the opposite side of `frame`; `tint` is laid over the blur,
/// its alpha falling with σ. It blurs the backdrop (the label row stays sharp over it, in its
/// resting colour) and lies under every glass element, which sees it. JSON: an entry of the scene's `"progressiveBlurs"`.
public struct ProgressiveBlur: Codable, Sendable, Equatable {
    /// The blurred region, in points.
    public var frame: Rect
    /// The side where the blur is strongest.
    public var edge: BlurEdge
    /// σ of the Gaussian blur at `edge`, in points.
    public var radius: Double
    /// Depth from `edge` over which σ stays at `radius`, in points.
    public var hold: Double
    /// Colour laid over the blur; its alpha applies where σ is `radius` and falls with σ.
    public var tint: RGBAColor

    /// A blur of `radius` points at `edge` of `frame`, held for `hold` points, under `tint`.
    public init(frame: Rect, edge: BlurEdge = .top, radius: Double, hold: Double = 0, tint: RGBAColor = .clear) {
        self.frame = frame
        self.edge = edge
        self.radius = radius
        self.hold = hold
        self.tint = tint
    }

    /// The region's extent across `edge`, in points: where σ reaches 0.
    public var depth: Double { edge == .top || edge == .bottom ? frame.height : frame.width }

    enum CodingKeys: String, CodingKey, CaseIterable { case frame, edge, radius, hold, tint }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frame = try container.decode(Rect.self, forKey: .frame)
        edge = try container.value(.edge, default: .top)
        radius = try container.number(.radius, in: Limits.blurRadius)
        hold = try container.number(.hold, default: 0, in: Limits.extentOrZero)
        tint = try container.value(.tint, default: .clear)
    }
}

/// UIKit's scroll-edge effect (`UIScrollEdgeEffect`, SwiftUI `scrollEdgeEffectStyle`): under a
/// bar at the top or bottom of a scrolled region, content fades and blurs toward the screen edge.
/// `soft` fades and blurs gradually over `extent`; `hard` covers the whole extent with the bar's
/// colour over a light blur and draws a hairline divider (⅔ pt) at its inner side.
/// JSON: an entry of the scene's `"scrollEdges"`.
public struct ScrollEdgeEffect: Codable, Sendable, Equatable {
    /// The two styles iOS offers.
    public enum Style: String, Codable, Sendable, CaseIterable {
        /// A gradual fade and blur over the extent.
        case soft
        /// The bar's colour over the whole extent, with a hairline divider.
        case hard
    }

    /// The screen edge the bar sits on (`top` or `bottom`).
    public var edge: BlurEdge
    /// Soft or hard.
    public var style: Style
    /// Depth of the effect from the screen edge, in points (the bar's height with its margin).
    public var extent: Double
    /// The bar's background colour that content fades into.
    public var color: RGBAColor

    /// A `style` edge effect `extent` points deep at `edge`, fading into `color`.
    public init(edge: BlurEdge = .top, style: Style = .soft, extent: Double, color: RGBAColor = .white) {
        self.edge = edge
        self.style = style
        self.extent = extent
        self.color = color
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case edge, style, extent, color }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        edge = try container.value(.edge, default: .top)
        guard edge == .top || edge == .bottom else {
            throw DecodingError.dataCorruptedError(
                forKey: .edge, in: container, debugDescription: "a scroll edge is \"top\" or \"bottom\"")
        }
        style = try container.value(.style, default: .soft)
        extent = try container.number(.extent, in: Limits.extent)
        color = try container.value(.color, default: .white)
    }
}

extension ScrollEdgeEffect {
    /// The hard style's blur σ (points), fill alpha, divider alpha and divider thickness (points),
    /// measured from the iOS 27 captures sdtaheri-grid-ios27 and sdtaheri-table-top-edge-ios27
    /// (read 2026-12-06; see Fidelity, "Scroll edges, measured"): the divider is two pixels at 3×
    /// that darken white to 241 and the grid's page grey to 230; σ and fill are the pair that best
    /// holds the washed rows of both captures, their colours and their profiles down the rows
    /// (a grid over σ 1–6 pt and fills 0.60–0.85).
    static let hard = (radius: 5.0, fill: 0.66, divider: 0.055, dividerWidth: 2.0 / 3)
    /// The soft style's σ and fill alpha at the screen edge, each falling to 0 at `extent`: no
    /// capture shows it yet, so these are a first reading of Apple's soft style, not a fit.
    static let soft = (radius: 8.0, fill: 0.8)

    /// The progressive blurs that draw the effect across `canvas`: the soft style one ramp, the
    /// hard style a uniform blur under the bar's colour and a hairline divider at its inner side.
    public func blurs(on canvas: Canvas) -> [ProgressiveBlur] {
        let top = edge == .top ? 0 : canvas.height - extent
        let region = Rect(x: 0, y: top, width: canvas.width, height: extent)
        guard style == .hard else {
            return [ProgressiveBlur(frame: region, edge: edge, radius: Self.soft.radius, tint: faded(Self.soft.fill))]
        }
        let fill = faded(Self.hard.fill)
        let hairline = Self.hard.dividerWidth
        let lineTop = edge == .top ? extent - hairline : top
        let line = Rect(x: 0, y: lineTop, width: canvas.width, height: hairline)
        let divider = RGBAColor(red: 0, green: 0, blue: 0, alpha: Self.hard.divider)
        return [
            ProgressiveBlur(frame: region, edge: edge, radius: Self.hard.radius, hold: extent, tint: fill),
            ProgressiveBlur(
                frame: line, edge: edge, radius: Self.hard.radius, hold: hairline, tint: divider.over(fill)),
        ]
    }

    private func faded(_ alpha: Double) -> RGBAColor {
        RGBAColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * alpha)
    }
}

extension RGBAColor {
    /// This colour laid over `below` (straight alpha, on the channel values).
    func over(_ below: RGBAColor) -> RGBAColor {
        let alpha = self.alpha + below.alpha * (1 - self.alpha)
        guard alpha > 0 else { return .clear }
        func channel(_ top: Double, _ bottom: Double) -> Double {
            (top * self.alpha + bottom * below.alpha * (1 - self.alpha)) / alpha
        }
        return RGBAColor(
            red: channel(red, below.red), green: channel(green, below.green), blue: channel(blue, below.blue),
            alpha: alpha)
    }
}

extension Scene {
    /// The progressive blurs' and scroll edges' numbers (scenes built in code skip the decoder).
    func validateBlurs() throws {
        for (key, count) in [("progressiveBlurs", progressiveBlurs.count), ("scrollEdges", scrollEdges.count)]
        where count > Limits.backdropBlurs {
            throw SceneError(keyPath: key, message: "\(count) entries; the limit is \(Limits.backdropBlurs)")
        }
        for (index, blur) in progressiveBlurs.enumerated() {
            let path = "progressiveBlurs[\(index)]"
            try blur.frame.validate("\(path).frame")
            try check(blur.radius, Limits.blurRadius, "\(path).radius")
            try check(blur.hold, Limits.extentOrZero, "\(path).hold")
            try check(blur.tint, "\(path).tint")
        }
        for (index, effect) in scrollEdges.enumerated() {
            let path = "scrollEdges[\(index)]"
            guard effect.edge == .top || effect.edge == .bottom else {
                throw SceneError(keyPath: "\(path).edge", message: "a scroll edge is \"top\" or \"bottom\"")
            }
            try check(effect.extent, Limits.extent, "\(path).extent")
            try check(effect.color, "\(path).color")
        }
    }
}
