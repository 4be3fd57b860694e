import Foundation
import LensModel

/// The glass controls gallery (LiquidGlassKit's vocabulary), every control drawn through the same
/// glass primitive in one theme: navigation bar, search bar with clear and cancel, buttons in three
/// sizes and the pressed, disabled and destructive states, switches (the knob is a lens that
/// lifts from 37×24 to 58×38 pt), slider, card, text field with a focus ring, floating tab bar
/// with an action button and a badge, and a bottom sheet over a dimmed backdrop. Labels sit on the
/// glass as foreground text: white on dark glass or in dark appearance, red when destructive.
public struct GlassControlsPanel: Sendable {
    /// The theme every control of the panel takes.
    public var theme: Theme
    /// Light or dark: label colours and the panel's backdrop.
    public var appearance: ControlAppearance
    /// Dynamic Type size of the labels; larger sizes can make the panel taller.
    public var contentSize: ContentSizeCategory
    /// Whether the bottom sheet is shown, over a dimmed backdrop.
    public var sheetPresented: Bool

    /// One panel's size in points.
    public static let size = (width: 360.0, height: 640.0)

    /// A panel in `theme`; light, stock text size and with the sheet presented by default.
    public init(
        theme: Theme, appearance: ControlAppearance = .light, contentSize: ContentSizeCategory = .large,
        sheetPresented: Bool = true
    ) {
        self.theme = theme
        self.appearance = appearance
        self.contentSize = contentSize
        self.sheetPresented = sheetPresented
    }

    /// The panel alone as a scene (the theme on the scene, so every control takes it).
    public func scene(scale: Double = 2, accessibility: Accessibility = Accessibility()) -> Scene {
        var scene = Scene(
            canvas: Canvas(width: Self.size.width, height: height, scale: scale), background: [], glass: [],
            theme: theme, accessibility: accessibility, generation: .ios26)
        add(to: &scene, at: Point(x: 0, y: 0))
        scene.background.append(Self.contentLines)
        return scene
    }

    /// The `controls` example: the four materials left to right, one row per appearance (light on
    /// top, dark below).
    public static func gallery(
        scale: Double = 1, appearances: [ControlAppearance] = ControlAppearance.allCases,
        contentSize: ContentSizeCategory = .large
    ) -> Scene {
        let panelHeight = GlassControlsPanel(theme: Theme(material: .clear), contentSize: contentSize).height
        var scene = Scene(
            canvas: Canvas(width: size.width * 4, height: panelHeight * Double(appearances.count), scale: scale),
            background: [], glass: [], generation: .ios26)
        for (row, appearance) in appearances.enumerated() {
            for (column, material) in Material.standard.enumerated() {
                let panel = GlassControlsPanel(
                    theme: Theme(material: material), appearance: appearance, contentSize: contentSize)
                let first = scene.glass.count
                panel.add(to: &scene, at: Point(x: size.width * Double(column), y: panelHeight * Double(row)))
                for index in first..<scene.glass.count where scene.glass[index].theme == nil {
                    scene.glass[index].theme = panel.theme
                }
            }
        }
        scene.background.append(contentLines)
        return scene
    }

    /// Diagonal lines over the content, so refraction shows.
    static let contentLines = BackgroundLayer(
        .lines(spacing: 16, width: 1.5, angle: 60, color: .white), opacity: 0.3)

    // MARK: colours

    var palette: ControlPalette { ControlPalette(theme: theme, material: nil, appearance: appearance) }
    var labelColor: RGBAColor { palette.label }
    var disabledColor: RGBAColor { palette.disabled }

    /// Type grows with Dynamic Type (the footnote scale of the content size category).
    var fontScale: Double { contentSize.footnoteSize / ContentSizeCategory.large.footnoteSize }

    // MARK: layout

    /// The panel's height in points: 640 at the stock text size, taller when Dynamic Type grows
    /// the controls.
    public var height: Double { max(Self.size.height, layOut().bottom) }

    /// Adds the panel's content, glass and labels to `scene` with its top-left corner at `origin`.
    public func add(to scene: inout Scene, at origin: Point) {
        var panel = PanelBuilder(origin: origin, scale: fontScale)
        content(&panel)
        let layout = layOut()
        for control in layout.controls { control.draw(into: &panel, sceneTheme: theme) }
        if let caption = layout.caption {
            panel.text(caption.text, caption.center, 13, .regular, palette.secondary)
        }
        scene.background += panel.background
        scene.glass += panel.glass
        scene.foreground += panel.foreground
    }

    /// The controls top to bottom, each row as tall as its text needs, and where the last ends.
    /// (A caption under the switches when it does not fit beside them.)
    public func layOut() -> (controls: [GlassControl], bottom: Double, caption: (text: String, center: Point)?) {
        var rows = Rows()
        layOutBars(&rows)
        layOutButtons(&rows)
        let caption = layOutSwitches(&rows)
        layOutSliderCardAndField(&rows)
        let bottom = layOutTabBarAndSheet(&rows)
        return (rows.controls, bottom, caption)
    }

    /// The controls laid out so far and the top of the next row.
    private struct Rows {
        var controls: [GlassControl] = []
        var y = 0.0

        /// Gives a control the height its text needs at its width and appends it; returns that height.
        mutating func append(fitted control: GlassControl) -> Double {
            var fitted = control
            fitted.frame.height = control.fittingHeight
            controls.append(fitted)
            return fitted.frame.height
        }
    }

    /// Bars keep their type within 1.3× of the default, as the system's do.
    private var barScale: Double { min(fontScale, 1.3) }

    /// A control of `kind` in this panel's appearance and text size.
    private func control(_ kind: GlassControl.Kind, _ frame: Rect, title: String? = nil) -> GlassControl {
        GlassControl(kind, frame: frame, title: title, appearance: appearance, contentSize: contentSize)
    }

    /// The navigation bar and the search bar below it.
    private func layOutBars(_ rows: inout Rows) {
        rows.y =
            rows.append(fitted: control(.navigationBar, Rect(x: 0, y: 0, width: 360, height: 0), title: "Controls"))
            + 12
        rows.y += rows.append(fitted: control(.searchBar, Rect(x: 16, y: rows.y, width: 328, height: 0))) + 14
    }

    /// Three button sizes, then three button states: a row each, or one button a row past 1.3×
    /// Dynamic Type.
    private func layOutButtons(_ rows: inout Rows) {
        let sizes: [(title: String, height: Double, font: Double)] = [
            ("Small", 28, 13), ("Medium", 36, 15), ("Large", 48, 17),
        ]
        let states: [(title: String, state: GlassControl.State)] = [
            ("Pressed", .pressed), ("Disabled", .disabled), ("Delete", .destructive),
        ]
        func button(_ title: String, _ frame: Rect, font: Double, state: GlassControl.State = .normal) -> GlassControl {
            var button = control(.button, frame, title: title)
            button.fontSize = font
            button.state = state
            return button
        }
        let stateHeight = max(40, 15 * fontScale * 1.6)
        guard fontScale <= 1.3 else {
            for size in sizes {
                let height = max(size.height, size.font * fontScale * 1.6)
                rows.controls.append(
                    button(size.title, Rect(x: 16, y: rows.y, width: 328, height: height), font: size.font))
                rows.y += height + 10
            }
            for state in states {
                rows.controls.append(
                    button(
                        state.title, Rect(x: 16, y: rows.y, width: 328, height: stateHeight), font: 15,
                        state: state.state))
                rows.y += stateHeight + 10
            }
            rows.y += 6
            return
        }
        let heights = sizes.map { max($0.height, $0.font * fontScale * 1.6) }
        let rowHeight = heights.max()!
        for (index, (x, width)) in [(16.0, 76.0), (104, 100), (216, 128)].enumerated() {
            let frame = Rect(x: x, y: rows.y + (rowHeight - heights[index]) / 2, width: width, height: heights[index])
            rows.controls.append(button(sizes[index].title, frame, font: sizes[index].font))
        }
        rows.y += rowHeight + 12
        for (index, x) in [16.0, 128, 240].enumerated() {
            let frame = Rect(x: x, y: rows.y, width: 104, height: stateHeight)
            rows.controls.append(button(states[index].title, frame, font: 15, state: states[index].state))
        }
        rows.y += stateHeight + 16
    }

    /// Switches off, on and held, 7 pt into their row; their caption beside the last, or under
    /// the row (returned) when it does not fit.
    private func layOutSwitches(_ rows: inout Rows) -> (text: String, center: Point)? {
        let inset = 7.0
        let captionText = "Off · On · Held"
        let captionSize = 13 * fontScale
        let captionBeside = PanelBuilder.wrap(captionText, size: captionSize, width: 100).count == 1
        for (index, x) in [16.0, 100, 184].enumerated() {
            var toggle = control(
                .switch,
                Rect(
                    x: x, y: rows.y + inset, width: GlassControl.switchWellWidth, height: GlassControl.switchWellHeight)
            )
            toggle.isOn = index > 0
            toggle.held = index == 2 ? 1 : 0
            // The held switch half-way across its well, sliding.
            if index == 2 { toggle.knobPosition = 0.5 }
            if index == 2 && captionBeside { toggle.title = captionText }
            toggle.fontSize = 13
            rows.controls.append(toggle)
        }
        defer { rows.y += captionBeside ? inset + GlassControl.switchWellHeight + 20 : inset + 48 + captionSize + 12 }
        return captionBeside ? nil : (captionText, Point(x: 180, y: rows.y + inset + 42 + captionSize / 2))
    }

    /// A slider with its knob at x = 197 pt, a card, and a focused text field.
    private func layOutSliderCardAndField(_ rows: inout Rows) {
        let trackWidth = 328.0
        var slider = control(.slider, Rect(x: 16, y: rows.y, width: trackWidth, height: GlassControl.sliderKnobHeight))
        slider.value = (197.0 - 16) / (trackWidth - GlassControl.sliderKnobWidth)
        rows.controls.append(slider)
        rows.y += GlassControl.sliderKnobHeight + 20

        var card = control(.card, Rect(x: 16, y: rows.y, width: 328, height: 0), title: "Liquid Glass")
        card.detail =
            "\(theme.material.name) material, \(appearance.rawValue)\nrefracts, frosts and tints what is below"
        rows.y += rows.append(fitted: card) + 20

        var field = control(.textField, Rect(x: 16, y: rows.y, width: 328, height: 0))
        field.focused = true
        rows.y += rows.append(fitted: field) + 22
    }

    /// The floating tab bar and, at 596 pt or below the rest, the bottom sheet; returns where the
    /// panel's content ends.
    private func layOutTabBarAndSheet(_ rows: inout Rows) -> Double {
        let tabHeight = max(56, 10 * barScale + 20 * barScale + 22)
        var tabs = control(.floatingTabBar, Rect(x: 16, y: rows.y, width: 256 + 16 + tabHeight, height: tabHeight))
        tabs.items = [
            ControlItem(title: "Home", symbol: "⌂"), ControlItem(title: "Starred", symbol: "★"),
            ControlItem(title: "Inbox", symbol: "✉", badge: 3),
        ]
        rows.controls.append(tabs)
        rows.y += tabHeight + 12

        let sheetTop = max(596, rows.y)
        let sheetHeight = max(80, 15 * barScale + 50)
        var sheet = control(.bottomSheet, Rect(x: 0, y: sheetTop, width: 360, height: sheetHeight))
        sheet.presented = sheetPresented
        rows.controls.append(sheet)
        return sheetPresented ? sheetTop + 44 : rows.y + 16
    }

    private func content(_ panel: inout PanelBuilder) {
        let colors =
            appearance == .light
            ? [RGBAColor(255, 214, 165), RGBAColor(255, 173, 200), RGBAColor(160, 196, 255)]
            : [RGBAColor(28, 30, 60), RGBAColor(70, 24, 70), RGBAColor(18, 60, 80)]
        let square = Shape.roundedRectangle(cornerRadii: [0, 0, 0, 0])
        let height = self.height
        panel.fill(square, Rect(x: 0, y: 0, width: 360, height: height), colors[0])
        panel.fill(square, Rect(x: 0, y: 180, width: 360, height: height - 180), colors[1].withAlpha(0.7))
        panel.fill(square, Rect(x: 0, y: 400, width: 360, height: height - 400), colors[2].withAlpha(0.7))
        panel.fill(.circle, Rect(x: 220, y: 40, width: 150, height: 150), RGBAColor(255, 149, 0, 0.85))
        panel.fill(.circle, Rect(x: -30, y: 250, width: 160, height: 160), RGBAColor(52, 199, 89, 0.8))
        panel.fill(
            .roundedRectangle(cornerRadii: [24, 24, 24, 24]), Rect(x: 200, y: 430, width: 180, height: 130),
            RGBAColor(88, 86, 214, 0.85))
        if sheetPresented {
            panel.fill(square, Rect(x: 0, y: 0, width: 360, height: height), GlassControl.dimming)
        }
    }
}
