import Foundation

/// The glass controls gallery (LiquidGlassKit's vocabulary), every control drawn through the same
/// glass primitive in one theme: navigation bar, search bar with clear and cancel, buttons in three
/// sizes and the pressed, disabled and destructive states, switches (the knob is a lens that
/// lifts from 37×24 to 58×38 pt), slider, card, text field with a focus ring, floating tab bar
/// with an action button and a badge, and a bottom sheet over a dimmed backdrop. Labels sit on the
/// glass as foreground text: white on dark glass or in dark appearance, red when destructive.
public struct GlassControlsPanel: Sendable {
    public var theme: Theme
    public var appearance: ControlAppearance
    public var contentSize: ContentSizeCategory
    public var sheetPresented: Bool

    /// One panel's size in points.
    public static let size = (width: 360.0, height: 640.0)

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
            theme: theme, accessibility: accessibility)
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
            background: [], glass: [])
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

    var isDark: Bool { appearance == .dark || theme.material.isDark }
    var labelColor: RGBAColor {
        isDark ? RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.95) : RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.88)
    }
    var secondaryColor: RGBAColor {
        isDark
            ? RGBAColor(red: 0.92, green: 0.92, blue: 0.96, alpha: 0.6)
            : RGBAColor(red: 0.24, green: 0.24, blue: 0.26, alpha: 0.6)
    }
    var accentColor: RGBAColor { appearance == .dark ? RGBAColor(10, 132, 255) : RGBAColor(0, 122, 255) }
    public static let destructiveColor = RGBAColor(255, 59, 48)
    var disabledColor: RGBAColor {
        RGBAColor(red: labelColor.red, green: labelColor.green, blue: labelColor.blue, alpha: 0.3)
    }

    /// Type grows with Dynamic Type (the footnote scale of the content size category).
    var fontScale: Double { contentSize.footnoteSize / ContentSizeCategory.large.footnoteSize }

    // MARK: building

    /// The panel's height in points: 640 at the stock text size, taller when Dynamic Type grows
    /// the controls.
    public var height: Double {
        var panel = PanelBuilder(origin: Point(x: 0, y: 0), scale: fontScale)
        layOut(&panel)
        return max(Self.size.height, panel.cursor + (sheetPresented ? 0 : 16))
    }

    /// Adds the panel's content, glass and labels to `scene` with its top-left corner at `origin`.
    public func add(to scene: inout Scene, at origin: Point) {
        var panel = PanelBuilder(origin: origin, scale: fontScale)
        content(&panel)
        layOut(&panel)
        scene.background += panel.background
        scene.glass += panel.glass
        scene.foreground += panel.foreground
    }

    /// The controls top to bottom; each row is as tall as its text needs.
    private func layOut(_ panel: inout PanelBuilder) {
        navigationBar(&panel)
        searchBar(&panel)
        buttons(&panel)
        switches(&panel)
        slider(&panel)
        card(&panel)
        textField(&panel)
        tabBar(&panel)
        if sheetPresented { bottomSheet(&panel) }
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
            panel.fill(
                square, Rect(x: 0, y: 0, width: 360, height: height), RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3))
        }
    }

    /// Bars keep their type within 1.3× the stock size (as the system's bars do).
    private var barScale: Double { min(fontScale, 1.3) }

    private func navigationBar(_ panel: inout PanelBuilder) {
        let size = 17 * barScale
        let titleFits =
            PanelBuilder.width(of: "Controls", size: size) / 2 + PanelBuilder.width(of: "‹ Back", size: size) + 16 < 180
        let height = titleFits ? max(52, size + 26) : 2 * size + 30
        panel.glass(.roundedRectangle(cornerRadii: [0, 0, 0, 0]), Rect(x: 0, y: 0, width: 360, height: height))
        let backY = titleFits ? height / 2 : size / 2 + 12
        panel.text(
            "‹ Back", Point(x: 12 + PanelBuilder.width(of: "‹ Back", size: size) / 2, y: backY), 17, .regular,
            accentColor, scale: barScale)
        panel.text(
            "Controls", Point(x: 180, y: titleFits ? height / 2 : height - size / 2 - 10), 17, .semibold, labelColor,
            scale: barScale)
        panel.cursor = height + 12
    }

    private func searchBar(_ panel: inout PanelBuilder) {
        let size = 15 * fontScale
        let height = max(36, size + 18)
        let cancelWidth = PanelBuilder.width(of: "Cancel", size: size)
        // Cancel sits beside the field while the field keeps room for its placeholder, else below it.
        let beside = 328 - cancelWidth - 12 >= 60 + PanelBuilder.width(of: "Search", size: size) + 18 * fontScale
        let field = Rect(x: 16, y: panel.cursor, width: beside ? 328 - cancelWidth - 12 : 328, height: height)
        panel.glass(.capsule, field)
        let icon = min(10 * fontScale, height - 16)
        panel.stroke(.circle, Rect(x: 30, y: field.midY - icon / 2, width: icon, height: icon), 1.5, secondaryColor)
        panel.text(
            "Search", Point(x: 38 + icon + PanelBuilder.width(of: "Search", size: size) / 2, y: field.midY), 15,
            .regular,
            secondaryColor)
        let clear = min(18 * fontScale, height - 8)
        panel.fill(
            .circle, Rect(x: field.x + field.width - clear - 8, y: field.midY - clear / 2, width: clear, height: clear),
            secondaryColor)
        panel.text(
            "✕", Point(x: field.x + field.width - clear / 2 - 8, y: field.midY), 10, .bold, isDark ? .black : .white)
        let cancelY = beside ? field.midY : field.y + height + 8 + size / 2
        panel.text("Cancel", Point(x: 344 - cancelWidth / 2, y: cancelY), 15, .regular, accentColor)
        panel.cursor = beside ? field.y + height + 14 : cancelY + size / 2 + 14
    }

    private func buttons(_ panel: inout PanelBuilder) {
        let sizes: [(title: String, height: Double, font: Double)] = [
            ("Small", 28, 13), ("Medium", 36, 15), ("Large", 48, 17),
        ]
        let states: [(title: String, color: RGBAColor)] = [
            ("Pressed", labelColor), ("Disabled", disabledColor), ("Delete", Self.destructiveColor),
        ]
        let rowOfThree = fontScale <= 1.3
        func place(_ title: String, height: Double, font: Double, color: RGBAColor, x: Double, width: Double) {
            let buttonHeight = max(height, font * fontScale * 1.6)
            var frame = Rect(x: x, y: panel.cursor, width: width, height: buttonHeight)
            var optics = Optics()
            if title == "Pressed" {
                frame = Rect(
                    x: frame.x + width * 0.02, y: frame.y + buttonHeight * 0.02, width: width * 0.96,
                    height: buttonHeight * 0.96)
                optics.brightness = 0.08
            }
            panel.glass(theme.controlShape(height: frame.height), frame, optics: optics)
            panel.text(title, Point(x: frame.midX, y: frame.midY), font, .semibold, color)
            if !rowOfThree { panel.cursor += buttonHeight + 10 }
        }
        if rowOfThree {
            let rowHeight = sizes.map { max($0.height, $0.font * fontScale * 1.6) }.max()!
            let top = panel.cursor
            for (size, (x, width)) in zip(sizes, [(16.0, 76.0), (104, 100), (216, 128)]) {
                panel.cursor = top + (rowHeight - max(size.height, size.font * fontScale * 1.6)) / 2
                place(size.title, height: size.height, font: size.font, color: labelColor, x: x, width: width)
            }
            panel.cursor = top + rowHeight + 12
            let stateHeight = max(40, 15 * fontScale * 1.6)
            for (state, x) in zip(states, [16.0, 128, 240]) {
                place(state.title, height: 40, font: 15, color: state.color, x: x, width: 104)
            }
            panel.cursor += stateHeight + 16
        } else {
            for size in sizes {
                place(size.title, height: size.height, font: size.font, color: labelColor, x: 16, width: 328)
            }
            for state in states { place(state.title, height: 40, font: 15, color: state.color, x: 16, width: 328) }
            panel.cursor += 6
        }
    }

    private func switches(_ panel: inout PanelBuilder) {
        let green = RGBAColor(52, 199, 89)
        let off = appearance == .light ? RGBAColor(120, 120, 128, 0.32) : RGBAColor(120, 120, 128, 0.5)
        let top = panel.cursor + 7
        let tracks: [(x: Double, on: Bool, lifted: Bool)] = [(16, false, false), (100, true, false), (184, true, true)]
        for track in tracks {
            let rail = Rect(x: track.x, y: top, width: 64, height: 28)
            panel.fill(.capsule, rail, track.on ? green : off)
            let knobX = track.lifted ? rail.midX - 18.5 : (track.on ? rail.x + rail.width - 39.5 : rail.x + 2.5)
            let lift = LensLift(
                progress: track.lifted ? 1 : 0, growth: Point(x: 21, y: 14), restingBackground: .white)
            panel.lens(.capsule, Rect(x: knobX, y: rail.midY - 12, width: 37, height: 24), lift: lift)
        }
        let size = 13 * fontScale
        let caption = PanelBuilder.wrap("Off · On · Held", size: size, width: 100)
        if caption.count == 1 {
            panel.text(caption[0], Point(x: 300, y: top + 14), 13, .regular, secondaryColor)
            panel.cursor = top + 28 + 20
        } else {
            panel.text("Off · On · Held", Point(x: 180, y: top + 42 + size / 2), 13, .regular, secondaryColor)
            panel.cursor = top + 48 + size + 12
        }
    }

    private func slider(_ panel: inout PanelBuilder) {
        let trackY = panel.cursor + 12
        panel.fill(
            .capsule, Rect(x: 16, y: trackY - 3, width: 328, height: 6),
            appearance == .light ? RGBAColor(120, 120, 128, 0.3) : RGBAColor(120, 120, 128, 0.55))
        panel.fill(.capsule, Rect(x: 16, y: trackY - 3, width: 200, height: 6), accentColor)
        panel.lens(
            .capsule, Rect(x: 197, y: trackY - 12, width: 38, height: 24),
            lift: LensLift(progress: 0, growth: Point(x: 21, y: 14), restingBackground: .white))
        panel.cursor = trackY + 12 + 20
    }

    private func card(_ panel: inout PanelBuilder) {
        let radius = max(theme.cornerRadius, 20)
        let titleSize = 17 * fontScale
        let bodySize = 13 * fontScale
        let title = PanelBuilder.wrap("Liquid Glass", size: titleSize, width: 300)
        let body =
            PanelBuilder.wrap("\(theme.material.name) material, \(appearance.rawValue)", size: bodySize, width: 300)
            + PanelBuilder.wrap("refracts, frosts and tints what is below", size: bodySize, width: 300)
        let titleHeight = Double(title.count) * titleSize * 1.3
        let height = 24 + titleHeight + 8 + Double(body.count) * bodySize * 1.45 + 20
        let frame = Rect(x: 16, y: panel.cursor, width: 328, height: height)
        panel.glass(
            theme.shape == .squircle
                ? .squircle(cornerRadii: [radius, radius, radius, radius], exponent: 5)
                : .roundedRectangle(cornerRadii: [radius, radius, radius, radius]), frame)
        for (index, line) in title.enumerated() {
            let y = frame.y + 24 + (Double(index) + 0.5) * titleSize * 1.3
            panel.text(line, Point(x: frame.midX, y: y), 17, .semibold, labelColor)
        }
        for (index, line) in body.enumerated() {
            let y = frame.y + 24 + titleHeight + 8 + (Double(index) + 0.5) * bodySize * 1.45
            panel.text(line, Point(x: frame.midX, y: y), 13, .regular, secondaryColor)
        }
        panel.cursor = frame.y + height + 20
    }

    private func textField(_ panel: inout PanelBuilder) {
        let size = 15 * fontScale
        let lines = PanelBuilder.wrap("name@example.com", size: size, width: 300)
        let height = max(40, Double(lines.count) * size * 1.4 + 18)
        let frame = Rect(x: 16, y: panel.cursor, width: 328, height: height)
        let shape = Shape.roundedRectangle(cornerRadii: [10, 10, 10, 10])
        panel.glass(shape, frame)
        for (index, line) in lines.enumerated() {
            let y = frame.midY + (Double(index) - Double(lines.count - 1) / 2) * size * 1.4
            panel.text(line, Point(x: frame.midX, y: y), 15, .regular, secondaryColor)
        }
        panel.stroke(shape, frame, 2, accentColor)
        panel.cursor = frame.y + height + 22
    }

    private func tabBar(_ panel: inout PanelBuilder) {
        let height = max(56, 10 * barScale + 20 * barScale + 22)
        let bar = Rect(x: 16, y: panel.cursor, width: 256, height: height)
        panel.glass(.capsule, bar)
        let items = [("⌂", "Home"), ("★", "Starred"), ("✉", "Inbox")]
        for (index, item) in items.enumerated() {
            let x = bar.x + 48 + Double(index) * 80
            let color = index == 0 ? accentColor : secondaryColor
            panel.text(item.0, Point(x: x, y: bar.y + height * 0.38), 20, .regular, color, scale: barScale)
            panel.text(item.1, Point(x: x, y: bar.y + height * 0.76), 10, .medium, color, scale: barScale)
        }
        let badge = Rect(x: bar.x + 176, y: bar.y + 6, width: 20, height: 16)
        panel.fill(.capsule, badge, Self.destructiveColor, foreground: true)
        panel.text("3", Point(x: badge.midX, y: badge.midY), 11, .bold, .white, scale: 1)
        let action = Rect(x: 288, y: bar.y, width: height, height: height)
        panel.glass(.circle, action)
        panel.text("+", Point(x: action.midX, y: action.midY), 28, .regular, labelColor, scale: barScale)
        panel.cursor = bar.y + height + 12
    }

    private func bottomSheet(_ panel: inout PanelBuilder) {
        let top = max(596, panel.cursor)
        let size = 15 * barScale
        let sheet = Rect(x: 0, y: top, width: 360, height: max(80, size + 50))
        panel.glass(.roundedRectangle(cornerRadii: [24, 24, 0, 0]), sheet)
        panel.fill(.capsule, Rect(x: 162, y: top + 6, width: 36, height: 5), secondaryColor, foreground: true)
        panel.text("Sheet", Point(x: 180, y: top + 18 + size / 2), 15, .semibold, labelColor, scale: barScale)
        panel.cursor = top + 44
    }
}

/// Collects a panel's layers and glass, offset to where the panel sits.
struct PanelBuilder {
    let origin: Point
    /// Dynamic Type scale of the panel's text.
    let scale: Double
    /// Where the next row starts, in panel points.
    var cursor = 0.0
    var background: [BackgroundLayer] = []
    var glass: [GlassElement] = []
    var foreground: [BackgroundLayer] = []

    func placed(_ frame: Rect) -> Rect {
        Rect(x: frame.x + origin.x, y: frame.y + origin.y, width: frame.width, height: frame.height)
    }

    mutating func fill(_ shape: Shape, _ frame: Rect, _ color: RGBAColor, foreground: Bool = false) {
        let layer = BackgroundLayer(.fill(shape: shape, frame: placed(frame), color: color))
        if foreground { self.foreground.append(layer) } else { background.append(layer) }
    }

    mutating func stroke(_ shape: Shape, _ frame: Rect, _ width: Double, _ color: RGBAColor) {
        foreground.append(BackgroundLayer(.stroke(shape: shape, frame: placed(frame), width: width, color: color)))
    }

    /// A line of text `size` points at the stock text size, scaled by `scale` (default: the panel's).
    mutating func text(
        _ text: String, _ center: Point, _ size: Double, _ weight: FontWeight, _ color: RGBAColor, scale: Double? = nil
    ) {
        foreground.append(
            BackgroundLayer(
                .text(
                    text, center: Point(x: center.x + origin.x, y: center.y + origin.y),
                    size: size * (scale ?? self.scale),
                    weight: weight, color: color)))
    }

    /// Estimated width of a line of DejaVu Sans at `size` points (0.5 em per character, a little
    /// over its average of about 0.45): layout happens before the text is shaped, so it leaves room rather than
    /// measuring.
    static func width(of text: String, size: Double) -> Double { Double(text.count) * size * 0.5 }

    /// Greedy word wrap to `width` points by the same estimate; a word longer than a line is cut.
    static func wrap(_ text: String, size: Double, width: Double) -> [String] {
        // Cut long words by a wider estimate (0.62 em): they are often all wide letters.
        let perLine = max(1, Int(width / (size * 0.62)))
        var words: [Substring] = []
        for word in text.split(separator: " ") {
            var rest = word
            while rest.count > perLine {
                words.append(rest.prefix(perLine))
                rest = rest.dropFirst(perLine)
            }
            words.append(rest)
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if !line.isEmpty && Self.width(of: candidate, size: size) > width {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A glass surface in the theme (material, shadow, edge, path come from the scene's theme).
    mutating func glass(_ shape: Shape, _ frame: Rect, optics: Optics = Optics()) {
        var element = GlassElement(shape: shape, frame: placed(frame), optics: optics)
        element.optics.bevelWidth = min(12, frame.height / 4)
        element.optics.bevelAmount = min(24, frame.height / 3)
        glass.append(element)
    }

    /// A lens (a switch or slider knob): clear glass with the lifted-segmented optics.
    mutating func lens(_ shape: Shape, _ frame: Rect, lift: LensLift) {
        glass.append(
            GlassElement(
                shape: shape, frame: placed(frame), optics: Optics(preset: .liftedSegmented), lift: lift,
                material: .clear))
    }
}
