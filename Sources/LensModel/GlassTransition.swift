import Foundation

/// A change a glass element goes through during an animation, found by its ``GlassElement/id``:
/// growing into another glass as one shape (SwiftUI's `glassEffectID` in a `GlassEffectContainer`,
/// UIKit's menu presentation), materialising or dematerialising
/// (`glassEffectTransition(.materialize)`), appearing or disappearing as a plain cut
/// (`.identity`), or swelling under a press.
///
/// JSON, in the animation's `"transitions"`:
/// ```json
/// {"type": "morph", "glass": "button", "to": "menu", "time": 0.2, "content": [1, 2], "startContent": [0]}
/// {"type": "materialize", "glass": "badge", "time": 0.5}
/// {"type": "press", "glass": "play", "time": 0.3, "release": 0.9, "touch": [[0.3, 120, 80], [0.9, 150, 80]]}
/// ```
public struct GlassTransition: Codable, Sendable, Equatable {
    /// What happens to the glass.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `glass` grows into `to` as one shape: frame, corner radii, optics and shadow between the
        /// two on the spring; `to` is hidden until then and drawn in its place once settled.
        case morph
        /// The glass appears from nothing: its lensing, frost, tint, rim and shadow grow in together.
        case materialize
        /// The glass leaves: the reverse of ``materialize``.
        case dematerialize
        /// The glass appears at `time`, whole (the `.identity` transition: a plain cut).
        case appear
        /// The glass disappears at `time`, whole.
        case disappear
        /// A press from `time` to `release`: the glass swells about its centre, brightens, and its
        /// touch glow follows the touch.
        case press
    }

    /// What happens.
    public var kind: Kind
    /// The glass it acts on (for a morph, the glass it starts as), by ``GlassElement/id``.
    public var glass: String
    /// A morph's end state, by id.
    public var to: String?
    /// Seconds from the start of the animation when it begins.
    public var time: Double
    /// A press's release, in seconds; nil: held to the end.
    public var release: Double?
    /// Where a press touches, `[t, x, y]` in seconds and points: one point, or a path the glow
    /// follows; nil: the glass's centre.
    public var touch: [GesturePoint]?
    /// The spring it moves on; nil: the kind's (``Spring/morph``, ``Spring/materialize``, ``Spring/press``).
    public var spring: Spring?
    /// A morph's content: indices into the scene's foreground layers, seen through the glass while
    /// the shape grows and on top of it, sharp, as it settles.
    public var content: [Int]
    /// A morph's start content (the button's glyph): indices into the foreground layers, which
    /// move with the shape and fade out over the first half of its growth.
    public var startContent: [Int]
    /// A morph whose shape materialises as it grows, its presence rising with the spring's
    /// progress (UIKit's menu presentation: the capture `jarx-menu-morph` shows the shape at 4 %,
    /// 45 %, 64 % and 100 % of the settled menu's contrast at 16, 43, 67 and 99 % of its growth);
    /// false: the shape is whole throughout (SwiftUI's `glassEffectID` between two glass).
    public var materializes: Bool

    /// A transition of `kind` on the glass `glass`, starting at `time` seconds.
    public init(
        _ kind: Kind, glass: String, to: String? = nil, time: Double, release: Double? = nil,
        touch: [GesturePoint]? = nil, spring: Spring? = nil, content: [Int] = [], startContent: [Int] = [],
        materializes: Bool = false
    ) {
        self.kind = kind
        self.glass = glass
        self.to = to
        self.time = time
        self.release = release
        self.touch = touch
        self.spring = spring
        self.content = content
        self.startContent = startContent
        self.materializes = materializes
    }

    /// The spring it moves on.
    public var effectiveSpring: Spring {
        spring
            ?? {
                switch kind {
                case .morph: .morph
                case .materialize, .dematerialize, .appear, .disappear: .materialize
                case .press: .press
                }
            }()
    }

    /// How much a press swells a glass (the tab bar's press swell measured on iOS 27: 361.3 × 62.0 →
    /// 376.3 × 64.7 pt, `shared/reference/ios27-measurements.md`).
    public static let pressScale = 1.042
    /// Brightness a press adds, in linear light, at full press.
    public static let pressBrightness = 0.06
    /// The touch glow a press lights on glass that has none of its own, at full press.
    public static let pressGlow = 0.5
    /// The bridge a pressed shape of a group reaches its neighbours with, at full press: the
    /// smooth minimum's radius in points (`fabbar-lifted`: the touched bar's neck to its "+",
    /// 19.1 pt high across a 2.2 pt gap, fits 10 pt).
    public static let pressMergeBlend = 10.0

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, glass, to, time, release, touch, spring, content, startContent, materializes
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.choice(Kind.self, required: .type)
        glass = try container.decode(String.self, forKey: .glass)
        to = try container.decodeIfPresent(String.self, forKey: .to)
        time = try container.number(.time, in: Limits.animationTime)
        release = try container.decodeIfPresent(Double.self, forKey: .release)
        if let release { try container.check(release, in: Limits.animationTime, .release) }
        touch = try container.decodeIfPresent([GesturePoint].self, forKey: .touch)
        spring = try container.decodeIfPresent(Spring.self, forKey: .spring)
        content = try container.value(.content, default: [])
        startContent = try container.value(.startContent, default: [])
        materializes = try container.value(.materializes, default: false)
        // Which keys each kind takes is checked with the scene (`checkKeys`), for decoded scenes
        // and scenes built in code alike.
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .type)
        try container.encode(glass, forKey: .glass)
        try container.encodeIfPresent(to, forKey: .to)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(release, forKey: .release)
        try container.encodeIfPresent(touch, forKey: .touch)
        try container.encodeIfPresent(spring, forKey: .spring)
        if !content.isEmpty { try container.encode(content, forKey: .content) }
        if !startContent.isEmpty { try container.encode(startContent, forKey: .startContent) }
        if materializes { try container.encode(materializes, forKey: .materializes) }
    }
}

extension Spring: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case dampingRatio, response }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            dampingRatio: try container.number(.dampingRatio, in: Limits.dampingRatio),
            response: try container.number(.response, in: Limits.springResponse))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dampingRatio, forKey: .dampingRatio)
        try container.encode(response, forKey: .response)
    }
}
