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
            canvas: Canvas(width: Self.size.width, height: Self.size.height, scale: scale), background: [], glass: [],
            theme: theme, accessibility: accessibility)
        add(to: &scene, at: Point(x: 0, y: 0))
        scene.background.append(Self.contentLines)
        return scene
    }

    /// The `controls` example: the four materials left to right, one row per appearance (light on
    /// top, dark below).
    public static func gallery(scale: Double = 1, appearances: [ControlAppearance] = ControlAppearance.allCases)
        -> Scene
    {
        var scene = Scene(
            canvas: Canvas(width: size.width * 4, height: size.height * Double(appearances.count), scale: scale),
            background: [], glass: [])
        for (row, appearance) in appearances.enumerated() {
            for (column, material) in Material.standard.enumerated() {
                let panel = GlassControlsPanel(theme: Theme(material: material), appearance: appearance)
                let first = scene.glass.count
                panel.add(to: &scene, at: Point(x: size.width * Double(column), y: size.height * Double(row)))
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

    /// Adds the panel's content, glass and labels to `scene` with its top-left corner at `origin`.
    public func add(to scene: inout Scene, at origin: Point) {
        var panel = PanelBuilder(origin: origin, scale: fontScale)
        content(&panel)
        navigationBar(&panel)
        searchBar(&panel)
        buttons(&panel)
        switches(&panel)
        slider(&panel)
        card(&panel)
        textField(&panel)
        tabBar(&panel)
        if sheetPresented { bottomSheet(&panel) }
        scene.background += panel.background
        scene.glass += panel.glass
        scene.foreground += panel.foreground
    }

    private func content(_ panel: inout PanelBuilder) {
        let colors =
            appearance == .light
            ? [RGBAColor(255, 214, 165), RGBAColor(255, 173, 200), RGBAColor(160, 196, 255)]
            : [RGBAColor(28, 30, 60), RGBAColor(70, 24, 70), RGBAColor(18, 60, 80)]
        let square = Shape.roundedRectangle(cornerRadii: [0, 0, 0, 0])
        panel.fill(square, Rect(x: 0, y: 0, width: 360, height: 640), colors[0])
        panel.fill(square, Rect(x: 0, y: 180, width: 360, height: 460), colors[1].withAlpha(0.7))
        panel.fill(square, Rect(x: 0, y: 400, width: 360, height: 240), colors[2].withAlpha(0.7))
        panel.fill(.circle, Rect(x: 220, y: 40, width: 150, height: 150), RGBAColor(255, 149, 0, 0.85))
        panel.fill(.circle, Rect(x: -30, y: 250, width: 160, height: 160), RGBAColor(52, 199, 89, 0.8))
        panel.fill(
            .roundedRectangle(cornerRadii: [24, 24, 24, 24]), Rect(x: 200, y: 430, width: 180, height: 130),
            RGBAColor(88, 86, 214, 0.85))
        if sheetPresented {
            panel.fill(
                .roundedRectangle(cornerRadii: [0, 0, 0, 0]), Rect(x: 0, y: 0, width: 360, height: 640),
                RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3))
        }
    }

    private func controlShape(height: Double) -> Shape {
        switch theme.shape {
        case .capsule: .capsule
        case .roundedRectangle:
            .roundedRectangle(cornerRadii: Array(repeating: min(theme.cornerRadius, height / 2), count: 4))
        case .squircle:
            .squircle(cornerRadii: Array(repeating: min(theme.cornerRadius, height / 2), count: 4), exponent: 5)
        }
    }

    private func navigationBar(_ panel: inout PanelBuilder) {
        let height = max(52, 30 * fontScale + 16)
        panel.glass(.roundedRectangle(cornerRadii: [0, 0, 0, 0]), Rect(x: 0, y: 0, width: 360, height: height))
        panel.text("Controls", Point(x: 180, y: height / 2), 17, .semibold, labelColor)
        panel.text("‹ Back", Point(x: 40, y: height / 2), 17, .regular, accentColor)
    }

    private func searchBar(_ panel: inout PanelBuilder) {
        let height = max(36, 17 * fontScale + 16)
        let field = Rect(x: 16, y: 64, width: 258, height: height)
        panel.glass(.capsule, field)
        panel.stroke(.circle, Rect(x: 30, y: field.midY - 6, width: 10, height: 10), 1.5, secondaryColor)
        panel.text("Search", Point(x: 74, y: field.midY), 15, .regular, secondaryColor)
        panel.fill(.circle, Rect(x: 248, y: field.midY - 9, width: 18, height: 18), secondaryColor)
        panel.text("✕", Point(x: 257, y: field.midY), 10, .bold, isDark ? .black : .white)
        panel.text("Cancel", Point(x: 316, y: field.midY), 15, .regular, accentColor)
    }

    private func buttons(_ panel: inout PanelBuilder) {
        let sizes: [(title: String, x: Double, width: Double, height: Double, font: Double)] = [
            ("Small", 16, 76, 28, 13), ("Medium", 104, 100, 36, 15), ("Large", 216, 128, 48, 17),
        ]
        for size in sizes {
            let height = max(size.height, size.font * fontScale * 1.6)
            let frame = Rect(x: size.x, y: 140 - height / 2, width: size.width, height: height)
            panel.glass(controlShape(height: height), frame)
            panel.text(size.title, Point(x: frame.midX, y: frame.midY), size.font, .semibold, labelColor)
        }
        let height = max(40, 15 * fontScale * 1.6)
        let states: [(title: String, x: Double, color: RGBAColor)] = [
            ("Pressed", 16, labelColor), ("Disabled", 128, disabledColor), ("Delete", 240, Self.destructiveColor),
        ]
        for state in states {
            var frame = Rect(x: state.x, y: 192 - height / 2, width: 104, height: height)
            var optics = Optics()
            if state.title == "Pressed" {
                frame = Rect(
                    x: frame.x + 2.5, y: frame.y + height * 0.02, width: frame.width - 5, height: height * 0.96)
                optics.brightness = 0.08
            }
            panel.glass(controlShape(height: frame.height), frame, optics: optics)
            panel.text(state.title, Point(x: frame.midX, y: frame.midY), 15, .semibold, state.color)
        }
    }

    private func switches(_ panel: inout PanelBuilder) {
        let green = RGBAColor(52, 199, 89)
        let off = appearance == .light ? RGBAColor(120, 120, 128, 0.32) : RGBAColor(120, 120, 128, 0.5)
        let tracks: [(x: Double, on: Bool, lifted: Bool)] = [(16, false, false), (100, true, false), (184, true, true)]
        for track in tracks {
            let rail = Rect(x: track.x, y: 236, width: 64, height: 28)
            panel.fill(.capsule, rail, track.on ? green : off)
            let knobX = track.lifted ? rail.midX - 18.5 : (track.on ? rail.x + rail.width - 39.5 : rail.x + 2.5)
            let lift = LensLift(
                progress: track.lifted ? 1 : 0, growth: Point(x: 21, y: 14), restingBackground: .white)
            panel.lens(.capsule, Rect(x: knobX, y: rail.midY - 12, width: 37, height: 24), lift: lift)
        }
        panel.text("Off · On · Held", Point(x: 304, y: 250), 13, .regular, secondaryColor)
    }

    private func slider(_ panel: inout PanelBuilder) {
        let trackY = 296.0
        panel.fill(
            .capsule, Rect(x: 16, y: trackY - 3, width: 328, height: 6),
            appearance == .light ? RGBAColor(120, 120, 128, 0.3) : RGBAColor(120, 120, 128, 0.55))
        panel.fill(.capsule, Rect(x: 16, y: trackY - 3, width: 200, height: 6), accentColor)
        panel.lens(
            .capsule, Rect(x: 197, y: trackY - 12, width: 38, height: 24),
            lift: LensLift(progress: 0, growth: Point(x: 21, y: 14), restingBackground: .white))
    }

    private func card(_ panel: inout PanelBuilder) {
        let radius = max(theme.cornerRadius, 20)
        let height = max(112, 60 * fontScale + 50)
        let frame = Rect(x: 16, y: 328, width: 328, height: height)
        panel.glass(
            theme.shape == .squircle
                ? .squircle(cornerRadii: [radius, radius, radius, radius], exponent: 5)
                : .roundedRectangle(cornerRadii: [radius, radius, radius, radius]), frame)
        panel.text("Liquid Glass", Point(x: frame.midX, y: frame.y + 30 * fontScale), 17, .semibold, labelColor)
        panel.text(
            "\(theme.material.name) material, \(appearance.rawValue)",
            Point(x: frame.midX, y: frame.y + 58 * fontScale),
            13, .regular, secondaryColor)
        panel.text(
            "refracts, frosts and tints what is below", Point(x: frame.midX, y: frame.y + 80 * fontScale), 13,
            .regular, secondaryColor)
    }

    private func textField(_ panel: inout PanelBuilder) {
        let height = max(40, 15 * fontScale + 22)
        let frame = Rect(x: 16, y: 464, width: 328, height: height)
        let shape = Shape.roundedRectangle(cornerRadii: [10, 10, 10, 10])
        panel.glass(shape, frame)
        panel.text("name@example.com", Point(x: frame.midX, y: frame.midY), 15, .regular, secondaryColor)
        panel.stroke(shape, frame, 2, accentColor)
    }

    private func tabBar(_ panel: inout PanelBuilder) {
        let height = max(56, 10 * fontScale + 42)
        let bar = Rect(x: 16, y: 526, width: 256, height: height)
        panel.glass(.capsule, bar)
        let items = [("⌂", "Home"), ("★", "Starred"), ("✉", "Inbox")]
        for (index, item) in items.enumerated() {
            let x = bar.x + 48 + Double(index) * 80
            let color = index == 0 ? accentColor : secondaryColor
            panel.text(item.0, Point(x: x, y: bar.y + height * 0.38), 20, .regular, color)
            panel.text(item.1, Point(x: x, y: bar.y + height * 0.76), 10, .medium, color)
        }
        let badge = Rect(x: bar.x + 176, y: bar.y + 6, width: 20, height: 16)
        panel.fill(.capsule, badge, Self.destructiveColor, foreground: true)
        panel.text("3", Point(x: badge.midX, y: badge.midY), 11, .bold, .white)
        let action = Rect(x: 288, y: bar.y, width: height, height: height)
        panel.glass(.circle, action)
        panel.text("+", Point(x: action.midX, y: action.midY), 28, .regular, labelColor)
    }

    private func bottomSheet(_ panel: inout PanelBuilder) {
        let sheet = Rect(x: 0, y: 596, width: 360, height: 80)
        panel.glass(.roundedRectangle(cornerRadii: [24, 24, 0, 0]), sheet)
        panel.fill(.capsule, Rect(x: 162, y: 602, width: 36, height: 5), secondaryColor, foreground: true)
        panel.text("Sheet", Point(x: 180, y: 622), 15, .semibold, labelColor)
    }
}

/// Collects a panel's layers and glass, offset to where the panel sits.
struct PanelBuilder {
    let origin: Point
    let scale: Double
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

    mutating func text(_ text: String, _ center: Point, _ size: Double, _ weight: FontWeight, _ color: RGBAColor) {
        foreground.append(
            BackgroundLayer(
                .text(
                    text, center: Point(x: center.x + origin.x, y: center.y + origin.y), size: size * scale,
                    weight: weight, color: color)))
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
