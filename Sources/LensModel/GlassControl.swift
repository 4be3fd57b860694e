import Foundation

/// One glass control of LiquidGlassKit's vocabulary, placed by its frame (points). Scene JSON:
/// an entry of `controls` whose `type` is the kind (`button`, `switch`, `slider`, `card`,
/// `textField`, `searchBar`, `navigationBar`, `floatingTabBar`, `bottomSheet`). Every kind is drawn
/// with the same glass element in the control's theme (else the scene's) and labels on the glass
/// as foreground text.
public struct GlassControl: Codable, Sendable, Equatable {
    /// The kinds of glass control; the raw value is the JSON `type`.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case button, `switch`, slider, card, textField, searchBar, navigationBar, floatingTabBar, bottomSheet
    }

    /// A button's state.
    public enum State: String, Codable, Sendable, CaseIterable {
        case normal, pressed, disabled, destructive
    }

    /// Which control this is.
    public var kind: Kind
    /// Where the control sits, in points.
    public var frame: Rect
    /// The button's, card's, bar's or sheet's title; a text field's text; a search bar's placeholder.
    public var title: String
    /// A card's body text.
    public var detail: String
    /// Button: normal, pressed (shrunk 4 % and brightened), disabled (faint title) or destructive (red title).
    public var state: State
    /// Switch: on or off.
    public var isOn: Bool
    /// Switch and slider: how far the knob lens is lifted where it is (0 resting, 1 held: a
    /// switch's 37×24 → 58×38 pt, a slider's 38×24 → 59×38 pt; the capture `jarx-switch-lifted`:
    /// a held knob lifts in place before it slides).
    public var held: Double
    /// Switch: where the knob is along its well, 0 (off) … 1 (on) while it slides; nil: at
    /// `isOn`'s end.
    public var knobPosition: Double?
    /// Slider: the value, 0…1.
    public var value: Double
    /// Text field: draws the focus ring.
    public var focused: Bool
    /// Bottom sheet: while presented it dims the backdrop; otherwise nothing is drawn.
    public var presented: Bool
    /// Floating tab bar: the items (title, symbol, badge) and the selected one.
    public var items: [ControlItem]
    /// Floating tab bar: index of the selected item.
    public var selected: Int
    /// Title size in points at the stock text size (Dynamic Type scales it).
    public var fontSize: Double
    /// This control's theme; nil: the scene's (with neither, shapes and label colours follow the standard preset).
    public var theme: Theme?
    /// Material of the control's glass, overriding its theme's; nil: the theme's.
    public var material: Material?
    /// Light or dark: label colours (glass of a dark material carries white labels either way).
    public var appearance: ControlAppearance
    /// Dynamic Type size: scales the title (bars cap the scale at 1.3×).
    public var contentSize: ContentSizeCategory

    /// A control of `kind` at `frame`; the title and font size default to the kind's (e.g. "Button" at 15 pt).
    public init(
        _ kind: Kind, frame: Rect, title: String? = nil, detail: String = "", state: State = .normal,
        isOn: Bool = false, held: Double = 0, value: Double = 0.5, focused: Bool = false, presented: Bool = true,
        items: [ControlItem] = [], selected: Int = 0, fontSize: Double? = nil, theme: Theme? = nil,
        material: Material? = nil, appearance: ControlAppearance = .light, contentSize: ContentSizeCategory = .large
    ) {
        self.kind = kind
        self.frame = frame
        self.title = title ?? Self.defaultTitle(kind)
        self.detail = detail
        self.state = state
        self.isOn = isOn
        self.held = held
        self.value = value
        self.focused = focused
        self.presented = presented
        self.items = items
        self.selected = selected
        self.fontSize = fontSize ?? Self.defaultFontSize(kind)
        self.theme = theme
        self.material = material
        self.appearance = appearance
        self.contentSize = contentSize
    }

    static func defaultTitle(_ kind: Kind) -> String {
        switch kind {
        case .button: "Button"
        case .card: "Card"
        case .textField: "name@example.com"
        case .searchBar: "Search"
        case .navigationBar: "Title"
        case .bottomSheet: "Sheet"
        case .switch, .slider, .floatingTabBar: ""
        }
    }

    static func defaultFontSize(_ kind: Kind) -> Double {
        switch kind {
        case .card, .navigationBar: 17
        case .switch: 13
        default: 15
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, frame, title, detail, state, isOn, held, knobPosition, value, focused, presented, items, selected,
            fontSize,
            theme, material, appearance, contentSize
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .type)
        self.init(kind, frame: try container.decode(Rect.self, forKey: .frame))
        title = try container.value(.title, default: title)
        detail = try container.value(.detail, default: "")
        for (key, text) in [(CodingKeys.title, title), (.detail, detail)] where text.count > Limits.textLength {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "at most \(Limits.textLength) characters")
        }
        state = try container.value(.state, default: .normal)
        isOn = try container.value(.isOn, default: false)
        held = try container.number(.held, default: 0, in: Limits.unit)
        if container.contains(.knobPosition) { knobPosition = try container.number(.knobPosition, in: Limits.unit) }
        value = try container.number(.value, default: 0.5, in: Limits.unit)
        focused = try container.value(.focused, default: false)
        presented = try container.value(.presented, default: true)
        items = try container.value(.items, default: [])
        guard items.count <= Limits.controlItems.upperBound else {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: container, debugDescription: "at most \(Limits.controlItems.upperBound) items")
        }
        selected = try container.value(.selected, default: 0)
        fontSize = try container.number(.fontSize, default: fontSize, in: Limits.fontSize)
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme)
        material = try container.decodeIfPresent(Material.self, forKey: .material)
        appearance = try container.value(.appearance, default: .light)
        contentSize = try container.value(.contentSize, default: .large)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .type)
        try container.encode(frame, forKey: .frame)
        try container.encode(title, forKey: .title)
        try container.encode(detail, forKey: .detail)
        try container.encode(state, forKey: .state)
        try container.encode(isOn, forKey: .isOn)
        try container.encode(held, forKey: .held)
        try container.encodeIfPresent(knobPosition, forKey: .knobPosition)
        try container.encode(value, forKey: .value)
        try container.encode(focused, forKey: .focused)
        try container.encode(presented, forKey: .presented)
        try container.encode(items, forKey: .items)
        try container.encode(selected, forKey: .selected)
        try container.encode(fontSize, forKey: .fontSize)
        try container.encodeIfPresent(theme, forKey: .theme)
        try container.encodeIfPresent(material, forKey: .material)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(contentSize, forKey: .contentSize)
    }
}
