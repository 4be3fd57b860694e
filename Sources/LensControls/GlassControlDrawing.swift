import Foundation
import LensModel

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

extension GlassControl {
    /// The black wash a presented sheet lays over the backdrop.
    static let dimming = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3)
}

/// The label colours of glass controls: white on dark glass or in dark appearance, red when
/// destructive, faint when disabled.
struct ControlPalette {
    let isDark: Bool
    let appearance: ControlAppearance

    init(theme: Theme?, material: Material?, appearance: ControlAppearance) {
        self.appearance = appearance
        isDark = appearance == .dark || (material ?? theme?.material)?.isDark == true
    }

    var label: RGBAColor {
        isDark ? RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.95) : RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.88)
    }
    var secondary: RGBAColor {
        isDark
            ? RGBAColor(red: 0.92, green: 0.92, blue: 0.96, alpha: 0.6)
            : RGBAColor(red: 0.24, green: 0.24, blue: 0.26, alpha: 0.6)
    }
    var accent: RGBAColor { appearance == .dark ? RGBAColor(10, 132, 255) : RGBAColor(0, 122, 255) }
    static let destructive = RGBAColor(255, 59, 48)
    var disabled: RGBAColor { label.withAlpha(0.3) }
    /// A switch's well when on: systemGreen.
    var switchOn: RGBAColor { appearance == .dark ? RGBAColor(48, 209, 88) : RGBAColor(52, 199, 89) }
    /// A switch's well when off: UIKit's tint for it, tertiaryLabel (decompiled and probed on iOS
    /// 26.1: herclyon1/maa's switch checks).
    var switchOff: RGBAColor {
        appearance == .dark ? RGBAColor(235, 235, 245, 0.298) : RGBAColor(60, 60, 67, 0.298)
    }
}

extension GlassControl {
    /// Dynamic Type scale of the title; bars keep their type within 1.3× (as the system's do).
    var fontScale: Double {
        let scale = contentSize.footnoteSize / ContentSizeCategory.large.footnoteSize
        return kind == .navigationBar || kind == .floatingTabBar || kind == .bottomSheet ? min(scale, 1.3) : scale
    }

    /// The title's size in points after Dynamic Type.
    var scaledFontSize: Double { fontSize * fontScale }

    /// Navigation bar: the back button's title.
    var backTitle: String { detail.isEmpty ? "‹ Back" : "‹ " + detail }

    /// Navigation bar: whether the title fits beside the back button (else it takes a second line).
    var titleFitsBesideBack: Bool {
        let size = scaledFontSize
        return PanelBuilder.width(of: title, size: size) / 2 + PanelBuilder.width(of: backTitle, size: size) + 16
            < frame.width / 2
    }

    /// Switch: UISwitch's well, 63 × 28 pt, and its 37 × 24 pt knob, 2 pt inside it, travelling
    /// 63 − 37 − 2 × 2 = 22 pt from off to on (decompiled UIKitCore, iOS 26.1).
    static let switchWellWidth = 63.0
    static let switchWellHeight = 28.0
    static let switchKnobWidth = 37.0
    static let switchKnobHeight = 24.0
    static let switchKnobInset = (switchWellHeight - switchKnobHeight) / 2
    static let switchTravel = switchWellWidth - switchKnobWidth - 2 * switchKnobInset

    /// Search bar: the field's height.
    var searchFieldHeight: Double { max(36, scaledFontSize + 18) }

    /// Search bar: whether Cancel sits beside the field while the field keeps room for its
    /// placeholder (else Cancel goes below it).
    var cancelBesideField: Bool {
        let size = scaledFontSize
        return frame.width - PanelBuilder.width(of: "Cancel", size: size) - 12
            >= 60 + PanelBuilder.width(of: title, size: size) + 18 * fontScale
    }

    /// Card: the wrapped title and body lines (the body keeps its own line breaks).
    var cardLines: (title: [String], body: [String]) {
        let size = scaledFontSize
        return (
            PanelBuilder.wrap(title, size: size, width: frame.width - 28),
            detail.split(separator: "\n").flatMap {
                PanelBuilder.wrap(String($0), size: size * 13 / 17, width: frame.width - 28)
            }
        )
    }

    /// Text field: the wrapped text lines.
    var fieldLines: [String] { PanelBuilder.wrap(title, size: scaledFontSize, width: frame.width - 28) }

    /// The height the control needs at its frame's width and text size: bars, fields and cards
    /// grow with Dynamic Type; the other kinds keep the height they are given.
    public var fittingHeight: Double {
        let size = scaledFontSize
        switch kind {
        case .navigationBar:
            return titleFitsBesideBack ? max(52, size + 26) : 2 * size + 30
        case .searchBar:
            return cancelBesideField ? searchFieldHeight : searchFieldHeight + 8 + size
        case .card:
            let lines = cardLines
            return 24 + Double(lines.title.count) * size * 1.3 + 8 + Double(lines.body.count) * size * 13 / 17 * 1.45
                + 20
        case .textField:
            return max(40, Double(fieldLines.count) * size * 1.4 + 18)
        case .button, .switch, .slider, .floatingTabBar, .bottomSheet:
            return frame.height
        }
    }

    /// Slider: the knob, a 38 × 24 pt capsule lens over a 6 pt track.
    static let sliderKnobWidth = 38.0
    static let sliderKnobHeight = 24.0
    static let sliderTrackHeight = 6.0
    /// Switch and slider knobs: how much a held knob's lens grows, in points.
    static let knobLiftGrowth = Point(x: 21, y: 14)
    /// Switch and slider knobs: the frost σ at rest (the clear material's, under the white knob);
    /// a held knob clears as it lifts (`jarx-switch-lifted`: the well's edges sharp through it).
    static let knobRestingFrost = Material.clear.blur / 2

    /// A switch's or slider's knob lifted by ``held``: white and frosted at rest, casting its
    /// shadow, growing by ``knobLiftGrowth`` and clearing as it lifts.
    var knobLift: LensLift {
        LensLift(
            progress: held, growth: Self.knobLiftGrowth, restingBackground: .white,
            restingFrost: Self.knobRestingFrost, restingShadow: 1)
    }
    /// Floating tab bar: the badge's height, and its width, which grows by 7 pt a digit past 6 pt of
    /// margin and is never narrower than a circle.
    static let badgeHeight = 16.0
    static func badgeWidth(_ label: String) -> Double { max(badgeHeight, 6 + Double(label.count) * 7) }
    /// Floating tab bar: the size of the "+" on its action button, in points.
    static let actionSymbolSize = 28.0

    /// Draws the control into `panel` (frames relative to its origin).
    func draw(into panel: inout PanelBuilder, sceneTheme: Theme?) {
        let theme = self.theme ?? sceneTheme ?? ThemePreset.standard.theme
        let colors = ControlPalette(theme: theme, material: material ?? self.theme?.material, appearance: appearance)
        let first = panel.glass.count
        switch kind {
        case .button: drawButton(into: &panel, theme: theme, colors: colors)
        case .switch: drawSwitch(into: &panel, colors: colors)
        case .slider: drawSlider(into: &panel, colors: colors)
        case .card: drawCard(into: &panel, theme: theme, colors: colors)
        case .textField: drawTextField(into: &panel, colors: colors)
        case .searchBar: drawSearchBar(into: &panel, colors: colors)
        case .navigationBar: drawNavigationBar(into: &panel, colors: colors)
        case .floatingTabBar: drawFloatingTabBar(into: &panel, colors: colors)
        case .bottomSheet: drawBottomSheet(into: &panel, colors: colors)
        }
        for index in first..<panel.glass.count where panel.glass[index].material == nil {
            panel.glass[index].theme = self.theme
            panel.glass[index].material = material
        }
    }

    /// The control's text at `center`, at its font size (or `points`) after Dynamic Type.
    private func drawText(
        _ string: String, _ center: Point, _ color: RGBAColor, size points: Double? = nil,
        weight: FontWeight = .regular, into panel: inout PanelBuilder
    ) {
        panel.text(string, center, points ?? fontSize, weight, color, scale: fontScale)
    }

    private func drawButton(into panel: inout PanelBuilder, theme: Theme, colors: ControlPalette) {
        var frame = self.frame
        var optics = Optics()
        if state == .pressed {
            frame = Rect(
                x: frame.x + frame.width * 0.02, y: frame.y + frame.height * 0.02, width: frame.width * 0.96,
                height: frame.height * 0.96)
            optics.brightness = 0.08
        }
        panel.glass(theme.controlShape(height: frame.height), frame, optics: optics)
        let color =
            switch state {
            case .normal, .pressed: colors.label
            case .disabled: colors.disabled
            case .destructive: ControlPalette.destructive
            }
        drawText(title, Point(x: frame.midX, y: frame.midY), color, weight: .semibold, into: &panel)
    }

    private func drawSwitch(into panel: inout PanelBuilder, colors: ControlPalette) {
        let rail = Rect(
            x: frame.x, y: frame.midY - Self.switchWellHeight / 2, width: Self.switchWellWidth,
            height: Self.switchWellHeight)
        panel.fill(.capsule, rail, isOn ? colors.switchOn : colors.switchOff)
        let knobX = rail.x + Self.switchKnobInset + Self.switchTravel * (knobPosition ?? (isOn ? 1 : 0))
        panel.lens(
            .capsule,
            Rect(
                x: knobX, y: rail.midY - Self.switchKnobHeight / 2, width: Self.switchKnobWidth,
                height: Self.switchKnobHeight),
            lift: knobLift)
        guard !title.isEmpty else { return }
        drawText(
            title,
            Point(x: rail.x + rail.width + 12 + PanelBuilder.width(of: title, size: scaledFontSize) / 2, y: rail.midY),
            colors.secondary, into: &panel)
    }

    private func drawSlider(into panel: inout PanelBuilder, colors: ControlPalette) {
        let trackY = frame.midY
        let track = Self.sliderTrackHeight
        // Light: UIKit's systemFill (capture `cn-slider`: the unfilled track reads 229 on white).
        panel.fill(
            .capsule, Rect(x: frame.x, y: trackY - track / 2, width: frame.width, height: track),
            colors.appearance == .light ? RGBAColor(120, 120, 128, 0.2) : RGBAColor(120, 120, 128, 0.55))
        let knob = frame.x + (frame.width - Self.sliderKnobWidth) * value
        panel.fill(
            .capsule,
            Rect(x: frame.x, y: trackY - track / 2, width: knob + Self.sliderKnobWidth / 2 - frame.x, height: track),
            colors.accent)
        panel.lens(
            .capsule,
            Rect(
                x: knob, y: trackY - Self.sliderKnobHeight / 2, width: Self.sliderKnobWidth,
                height: Self.sliderKnobHeight),
            lift: knobLift)
    }

    private func drawCard(into panel: inout PanelBuilder, theme: Theme, colors: ControlPalette) {
        let size = scaledFontSize
        let radius = max(theme.cornerRadius, 20)
        panel.glass(
            theme.shape == .squircle
                ? .squircle(cornerRadii: [radius, radius, radius, radius], exponent: 5)
                : .roundedRectangle(cornerRadii: [radius, radius, radius, radius]), frame)
        let (titleLines, body) = cardLines
        let bodySize = size * 13 / 17
        for (index, line) in titleLines.enumerated() {
            drawText(
                line, Point(x: frame.midX, y: frame.y + 24 + (Double(index) + 0.5) * size * 1.3), colors.label,
                weight: .semibold, into: &panel)
        }
        let bodyTop = frame.y + 24 + Double(titleLines.count) * size * 1.3 + 8
        for (index, line) in body.enumerated() {
            drawText(
                line, Point(x: frame.midX, y: bodyTop + (Double(index) + 0.5) * bodySize * 1.45), colors.secondary,
                size: fontSize * 13 / 17, into: &panel)
        }
    }

    private func drawTextField(into panel: inout PanelBuilder, colors: ControlPalette) {
        let shape = Shape.roundedRectangle(cornerRadii: [10, 10, 10, 10])
        panel.glass(shape, frame)
        let lines = fieldLines
        for (index, line) in lines.enumerated() {
            let y = frame.midY + (Double(index) - Double(lines.count - 1) / 2) * scaledFontSize * 1.4
            drawText(line, Point(x: frame.midX, y: y), colors.secondary, into: &panel)
        }
        if focused { panel.stroke(shape, frame, 2, colors.accent) }
    }

    private func drawSearchBar(into panel: inout PanelBuilder, colors: ControlPalette) {
        let size = scaledFontSize
        let height = searchFieldHeight
        let cancelWidth = PanelBuilder.width(of: "Cancel", size: size)
        let beside = cancelBesideField
        let field = Rect(
            x: frame.x, y: frame.y, width: beside ? frame.width - cancelWidth - 12 : frame.width, height: height)
        panel.glass(.capsule, field)
        let icon = min(10 * fontScale, height - 16)
        panel.stroke(
            .circle, Rect(x: field.x + 14, y: field.midY - icon / 2, width: icon, height: icon), 1.5,
            colors.secondary)
        drawText(
            title, Point(x: field.x + 22 + icon + PanelBuilder.width(of: title, size: size) / 2, y: field.midY),
            colors.secondary, into: &panel)
        let clear = min(18 * fontScale, height - 8)
        panel.fill(
            .circle,
            Rect(x: field.x + field.width - clear - 8, y: field.midY - clear / 2, width: clear, height: clear),
            colors.secondary)
        panel.text(
            "✕", Point(x: field.x + field.width - clear / 2 - 8, y: field.midY), 10, .bold,
            colors.isDark ? .black : .white, scale: fontScale)
        let cancelY = beside ? field.midY : field.y + height + 8 + size / 2
        drawText("Cancel", Point(x: frame.x + frame.width - cancelWidth / 2, y: cancelY), colors.accent, into: &panel)
    }

    private func drawNavigationBar(into panel: inout PanelBuilder, colors: ControlPalette) {
        let size = scaledFontSize
        panel.glass(.roundedRectangle(cornerRadii: [0, 0, 0, 0]), frame)
        let back = backTitle
        let titleFits = titleFitsBesideBack
        drawText(
            back,
            Point(
                x: frame.x + 12 + PanelBuilder.width(of: back, size: size) / 2,
                y: titleFits ? frame.midY : frame.y + size / 2 + 12), colors.accent, into: &panel)
        drawText(
            title, Point(x: frame.midX, y: titleFits ? frame.midY : frame.y + frame.height - size / 2 - 10),
            colors.label, weight: .semibold, into: &panel)
    }

    private func drawFloatingTabBar(into panel: inout PanelBuilder, colors: ControlPalette) {
        let bar = Rect(x: frame.x, y: frame.y, width: frame.width - frame.height - 16, height: frame.height)
        panel.glass(.capsule, bar)
        let slot = bar.width / Double(max(items.count, 1))
        for (index, item) in items.enumerated() {
            let x = bar.x + slot * (Double(index) + 0.5)
            let color = index == selected ? colors.accent : colors.secondary
            panel.text(
                item.symbol ?? "•", Point(x: x, y: bar.y + bar.height * 0.38), 20, .regular, color, scale: fontScale)
            panel.text(item.title, Point(x: x, y: bar.y + bar.height * 0.76), 10, .medium, color, scale: fontScale)
            if let badge = item.badge {
                let label = String(badge)
                let badgeFrame = Rect(x: x + 8, y: bar.y + 6, width: Self.badgeWidth(label), height: Self.badgeHeight)
                panel.fill(.capsule, badgeFrame, ControlPalette.destructive, foreground: true)
                panel.text(label, Point(x: badgeFrame.midX, y: badgeFrame.midY), 11, .bold, .white, scale: 1)
            }
        }
        let action = Rect(
            x: frame.x + frame.width - frame.height, y: frame.y, width: frame.height, height: frame.height)
        panel.glass(.circle, action)
        panel.text(
            "+", Point(x: action.midX, y: action.midY), Self.actionSymbolSize, .regular, colors.label, scale: fontScale)
    }

    private func drawBottomSheet(into panel: inout PanelBuilder, colors: ControlPalette) {
        guard presented else { return }
        panel.glass(.roundedRectangle(cornerRadii: [24, 24, 0, 0]), frame)
        panel.fill(
            .capsule, Rect(x: frame.midX - 18, y: frame.y + 6, width: 36, height: 5), colors.secondary,
            foreground: true)
        drawText(
            title, Point(x: frame.midX, y: frame.y + 18 + scaledFontSize / 2), colors.label, weight: .semibold,
            into: &panel)
    }
}
