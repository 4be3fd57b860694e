import Foundation
import LensModel

// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

/// The label-row family (LensTintSegmentedControl's segmented control, the tab bar, the lens
/// menu in `LensMenuLayout.swift`): rails and platters become backdrop layers and glass, titles
/// and icons are stamped into the one label row the lens tints, badges lie on the glass.
extension ControlLayout {
    /// The stock (Large) footnote size the rail height is measured against.
    static let stockSize = ContentSizeCategory.large.footnoteSize

    /// Rail height in points for titles at `size`: 32 at the stock size, growing with the line height.
    func railHeight(font: FontSpec, size: Double) throws -> Double {
        let line = try text.line("Ag", font: font, pixelSize: size * scale).lineHeight / scale
        let stock = try text.line("Ag", font: font, pixelSize: Self.stockSize * scale).lineHeight / scale
        return Self.railHeight(lineHeight: line, stockLineHeight: stock)
    }

    /// height = max(32, 32 + (line height − stock line height)), in points.
    package static func railHeight(lineHeight: Double, stockLineHeight: Double) -> Double {
        max(32, 32 + (lineHeight - stockLineHeight))
    }

    // MARK: Segmented control

    func layout(_ control: SegmentedControl, into parts: inout Parts, keyPath: String) throws {
        let grow = control.reduceMotion ? 1 : 1 + control.railGrowth * control.held
        let titleSize = control.contentSize.footnoteSize * grow
        let railHeight = try self.railHeight(font: control.font, size: control.contentSize.footnoteSize) * grow
        let railWidth = control.width * grow
        let rail = Rect(
            x: control.center.x - railWidth / 2, y: control.center.y - railHeight / 2, width: railWidth,
            height: railHeight)
        let dark = control.appearance == .dark
        parts.background.append(
            BackgroundLayer(
                .fill(shape: .capsule, frame: rail, color: RGBAColor(118, 118, 128, dark ? 0.24 : Self.lightRailAlpha)))
        )
        if control.railDensify * control.held > 0 {
            parts.background.append(
                BackgroundLayer(
                    .fill(shape: .capsule, frame: rail, color: RGBAColor(0, 0, 0, control.railDensify * control.held))))
        }
        let segment = railWidth / Double(control.titles.count)
        var segments: [ControlPart] = []
        for (index, title) in control.titles.enumerated() {
            let line = try text.line(title, font: control.titleFont(at: index), pixelSize: titleSize * scale)
            let ink = stamp(
                line, centerX: (rail.x + segment * (Double(index) + 0.5)) * scale, centerY: control.center.y * scale,
                into: &parts.mask)
            let box = Rect(x: rail.x + segment * Double(index), y: rail.y, width: segment, height: railHeight)
            segments.append(
                ControlPart(kind: "segment", index: index, title: title, box: PixelBox(box, scale: scale), textBox: ink)
            )
        }
        let thumbHeight = (railHeight - 4 * grow) / control.thumbStretch
        let thumbWidth = (segment - 4 * grow) * control.thumbStretch
        let thumbCenter = rail.x + segment * (control.thumbPosition + 0.5)
        let thumb = Rect(
            x: thumbCenter - thumbWidth / 2, y: control.center.y - thumbHeight / 2, width: thumbWidth,
            height: thumbHeight)
        var optics = Optics(preset: .segmentLens)
        optics.softness = min(control.softness, (thumbHeight + 16 * control.lift) / 2 - 1)
        // The rim's vibrant matrix follows the glass's appearance: dark over a dark backdrop.
        if dark { optics.rimLight.recolor = .vibrantDark }
        optics.tint = dark ? RGBAColor(0, 0, 0, 0.1) : RGBAColor(255, 255, 255, 0.06)
        var lens = GlassElement(
            shape: .capsule, frame: thumb, optics: optics,
            lift: LensLift(
                progress: control.lift, growth: Point(x: 24, y: 16),
                restingBackground: Self.restingThumbFill(control)))
        lens.edgeHighlight = Self.liftedRimLine(lift: control.lift)
        let state = ControlState(
            lift: control.lift, position: control.thumbPosition,
            selectedIndex: Self.nearest(control.thumbPosition, of: control.titles.count))
        parts.summary = ControlSummary(box: rail, parts: segments + [parts.glassPart("lens")], state: state)
        parts.glass.append(lens)
        parts.resting = control.restingTitleColor ?? (dark ? LabelLayer.restingDark : LabelLayer.restingLight)
        parts.accent = control.accent
    }

    /// The light rail's alpha of (118, 118, 128): UIKit's tertiarySystemFill is 0.12, which gives
    /// (239, 239, 240) over white; the captures show (238, 238, 239) (cn-segmented) and
    /// (235, 235, 236) (cnb-segmented), and 0.135 lies between them.
    static let lightRailAlpha = 0.135

    /// A light tab bar's lifted lens dims what it shows: over the white bar it reads 245, not 255
    /// (`fabbar-lifted`: the lens's middle, 244.9; `jarx-switch-lifted`'s held knob reads the same
    /// over its white row), black 0.04 on the sRGB codes, faded in with the lift.
    static func liftedLightDim(lift: Double) -> RGBAColor { RGBAColor(0, 0, 0, 0.04 * lift) }
    /// The light lens's drop shadow: 0.45 (`fabbar-lifted`: 213 on the page under the lens, where
    /// the bar's shadow leaves 240; the segment lens's 0.18 gives 229).
    static let liftedLightShadow = 0.45

    /// The lifted lens's thin bright line all round its silhouette, faded in with the lift: the
    /// capture `union-lens-lifted` shows 121–127 levels on every side of the lens (the rim light's
    /// two lobes light only two corners).
    static func liftedRimLine(lift: Double) -> EdgeHighlight {
        let alpha = liftedRimLineAlpha * lift
        return EdgeHighlight(width: liftedRimLineWidth, alphas: [alpha, alpha, alpha])
    }
    static let liftedRimLineWidth = 0.67
    static let liftedRimLineAlpha = 0.4

    /// The settled thumb in dark appearance: UIKit's dark selected-segment grey (no dark capture
    /// yet; light is white, as the captures show).
    static let restingThumbDark = RGBAColor(99, 99, 102)

    /// The settled thumb's fill: the control's own, else the appearance's, its alpha times
    /// `restingFillAlpha`.
    static func restingThumbFill(_ control: SegmentedControl) -> RGBAColor {
        let fill = control.restingFill ?? (control.appearance == .dark ? restingThumbDark : .white)
        return fill.withAlpha(fill.alpha * control.restingFillAlpha)
    }

    // MARK: Tab bar

    /// The bar's growth under the finger, measured from iOS 26 captures (`union-resting`,
    /// `union-lens-lifted`): a 362 × 62 pt bar grows to 376 × 64.7 pt.
    static let tabBarTouchGrowth = 0.04

    /// Under the finger the dark platter's fill lightens from black to this grey (capture
    /// `union-lens-lifted`: the bar over black goes from 18.5 to 36 levels).
    static let touchedDarkFill = RGBAColor(38, 38, 38, 0.4)
    /// The dark tab lens at rest is a pill of white over the bar; lifted it adds nothing: what it
    /// refracts keeps its level (`union-lens-lifted`: the bar's black stays 0 in the lens, the
    /// bar's grey its grey). UIKit's tab bar lights it more than union's segmented capsule:
    /// `native` 0.14 (`mecid-tabs`: 55.5 levels over the bar's 23; `cn-tab-bar`: 56.5 over the
    /// bar's 23.5 at the pill's left end, 60 over 28 at its right: 0.140–0.142),
    /// `segmentedCapsule` 0.065 (`union-resting`: 34 over 18.5).
    static func darkRestingPill(_ style: TabBarStyle) -> RGBAColor {
        switch style {
        case .native: RGBAColor(255, 255, 255, 0.14)
        case .segmentedCapsule, .segmentedControl: RGBAColor(255, 255, 255, 0.065)
        }
    }
    /// The light resting pill: black 0.06 (`union-resting`), and 0.095 for a native segmented
    /// control (`fabbar-lifted`: 228 over its 252 bar).
    static func lightRestingPill(_ style: TabBarStyle) -> RGBAColor {
        style == .segmentedControl ? RGBAColor(0, 0, 0, 0.095) : RGBAColor(0, 0, 0, 0.06)
    }
    /// The titles and symbols away from the lens. UIKit's tab bar draws them in the label colour:
    /// white 0.95 dark (`cn-tab-bar`: (243, 244, 245) over the bar at 30 levels; `mecid-tabs`: 255)
    /// and, by the same rule, black 0.95 light (`fabbar-lifted`'s segmented control: 0 over its
    /// 252 bar, 11 over the touched white one). Union's segmented capsule draws secondaryLabel
    /// grey dark (`union-resting`).
    static func restingTitles(_ style: TabBarStyle, dark: Bool) -> RGBAColor {
        switch (style, dark) {
        case (.native, true), (.segmentedControl, true): RGBAColor(255, 255, 255, 0.95)
        case (.native, false), (.segmentedControl, false): RGBAColor(0, 0, 0, 0.95)
        case (.segmentedCapsule, true): LabelLayer.restingDark
        case (.segmentedCapsule, false): RGBAColor(60, 60, 67, 0.85)
        }
    }
    /// The touched bar's glow about the finger (`union-lens-lifted`: the bar beside the lens fits
    /// white 0.017 in linear light, gone 130 pt from the finger, within 0.3 levels; 36 → 53 levels
    /// at the finger).
    static let tabBarTouchGlowRadius = 130.0
    static let tabBarTouchGlowAmount = 0.017

    func layout(_ bar: TabBar, into parts: inout Parts, keyPath: String) throws {
        let dark = bar.appearance == .dark
        let resting = Rect(
            x: bar.center.x - bar.width / 2, y: bar.center.y - bar.height / 2, width: bar.width, height: bar.height)
        // `.interactive()` glass swells about its centre while touched; the lift is the touch here.
        let grow = 1 + Self.tabBarTouchGrowth * bar.lift
        let frame = Rect(
            x: bar.center.x - bar.width * grow / 2, y: bar.center.y - bar.height * grow / 2, width: bar.width * grow,
            height: bar.height * grow)
        // The floating bar is UIGlassEffect(.regular), the items in its content view.
        var platter = Self.regularGlass(shortSide: bar.height, appearance: bar.appearance)
        platter.tintsLabel = false
        if dark { platter.tint = platter.tint.mixed(with: Self.touchedDarkFill, by: bar.lift) }
        var platterElement = GlassElement(shape: .capsule, frame: frame, optics: platter)
        let (firstItem, itemWidth) = bar.tabs
        var tabs: [ControlPart] = []
        for (index, item) in bar.items.enumerated() {
            let centerX = firstItem + itemWidth * (Double(index) + 0.5)
            let iconCenter = Point(x: centerX, y: bar.center.y - bar.height * 0.12)
            try drawIcon(
                item, size: 24, center: iconCenter, font: bar.symbolFont ?? bar.font, into: &parts.mask,
                keyPath: "\(keyPath).items[\(index)]")
            let title = try text.line(item.title, font: bar.font, pixelSize: 10 * scale)
            let ink = stamp(
                title, centerX: centerX * scale, centerY: (bar.center.y + bar.height * 0.24) * scale, into: &parts.mask)
            let box = Rect(x: centerX - itemWidth / 2, y: frame.y, width: itemWidth, height: frame.height)
            tabs.append(
                ControlPart(
                    kind: "tab", index: index, title: item.title, box: PixelBox(box, scale: scale), textBox: ink))
            if let badge = item.badge {
                try drawBadge(badge, at: Point(x: iconCenter.x + 14, y: iconCenter.y - 6), font: bar.font, into: &parts)
            }
        }
        let lens = tabLens(bar, restingTop: resting.y)
        let lensFrame = lens.shapes[0].frame
        // The finger is on the lens: the bar glows about it, and the lens shows the glow.
        if bar.lift > 0 {
            platterElement.touchGlow = TouchGlow(
                center: Point(
                    x: lensFrame.x + lensFrame.width / 2 + bar.touchOffset.x,
                    y: lensFrame.y + lensFrame.height / 2 + bar.touchOffset.y),
                radius: Self.tabBarTouchGlowRadius, amount: Self.tabBarTouchGlowAmount * bar.lift)
        }
        if let accessory = bar.accessory { try merge(&platterElement, with: accessory, of: bar, into: &parts) }
        let accessoryPart = platterElement.shapes.dropFirst().first.map {
            ControlPart(kind: "accessory", title: bar.accessory?.symbol, box: PixelBox($0.frame, scale: scale))
        }
        let state = ControlState(
            lift: bar.lift, position: bar.lensPosition,
            selectedIndex: Self.nearest(bar.lensPosition, of: bar.items.count))
        parts.summary = ControlSummary(
            box: frame,
            parts: tabs + [parts.glassPart("platter", offset: 0), parts.glassPart("lens", offset: 1)]
                + (accessoryPart.map { [$0] } ?? []), state: state)
        parts.glass.append(platterElement)
        parts.glass.append(lens)
        parts.resting = Self.restingTitles(bar.style, dark: dark)
        parts.accent = bar.accent
    }

    /// The tab bar's lens at its position, lifted by the bar's lift and squashed by a fast drag,
    /// its look by the bar's appearance; `restingTop` is the unswollen bar's top edge.
    func tabLens(_ bar: TabBar, restingTop: Double) -> GlassElement {
        let dark = bar.appearance == .dark
        var lens = Optics(preset: .segmentLens)
        let inset = bar.style.lensInset
        lens.softness = min(10, (bar.height - 2 * inset.y) / 2 - 1)
        if dark {
            lens.rimLight.recolor = .vibrantDark
        } else {
            lens.tint = Self.liftedLightDim(lift: bar.lift)
            lens.shadow.opacity = Self.liftedLightShadow
        }
        // A fast drag squashes the lens, lift included, about its centre.
        let (firstItem, itemWidth) = bar.tabs
        let restingHeight = bar.height - 2 * inset.y
        let growth = bar.style.liftedLensGrowth.y * bar.lift
        let height = max(1, bar.lensSquash * (restingHeight + growth) - growth)
        let frame = Rect(
            x: firstItem + itemWidth * bar.lensPosition + inset.x,
            y: restingTop + inset.y + bar.style.lensDrop + (restingHeight - height) / 2,
            width: itemWidth - 2 * inset.x, height: height)
        var element = GlassElement(
            shape: .capsule, frame: frame, optics: lens,
            lift: LensLift(
                progress: bar.lift, growth: bar.style.liftedLensGrowth,
                restingBackground: dark ? Self.darkRestingPill(bar.style) : Self.lightRestingPill(bar.style)))
        element.edgeHighlight = Self.liftedRimLine(lift: bar.lift)
        return element
    }

    // MARK: Drawing

    /// Draws a line of text centred on (centerX, centerY) in pixels: the ink's vertical middle is
    /// taken as the middle of ascent and descent; the pen lands on whole pixels for crisp glyphs.
    /// Returns the ink's box in pixels (nil for a line without ink).
    @discardableResult
    func stamp(_ line: TextLine, centerX: Double, centerY: Double, into mask: inout AlphaImage) -> PixelBox? {
        let left = (centerX - line.advance / 2 - line.originX).rounded()
        let top = (centerY + (line.ascent - line.descent) / 2 - line.baseline).rounded()
        stamp(line.mask, left: Int(left), top: Int(top), into: &mask)
        return line.inkBounds.map {
            PixelBox(
                x: left + Double($0.x0), y: top + Double($0.y0), width: Double($0.x1 - $0.x0),
                height: Double($0.y1 - $0.y0))
        }
    }

    func stamp(_ source: AlphaImage, left: Int, top: Int, into mask: inout AlphaImage) {
        for y in 0..<source.height {
            let row = top + y
            guard row >= 0, row < mask.height else { continue }
            for x in 0..<source.width {
                let column = left + x
                guard column >= 0, column < mask.width else { continue }
                let value = source.coverage[y * source.width + x]
                let index = row * mask.width + column
                mask.coverage[index] = max(mask.coverage[index], value)
            }
        }
    }

    func drawIcon(
        _ item: ControlItem, size: Double, center: Point, font: FontSpec, into mask: inout AlphaImage, keyPath: String
    ) throws {
        if let path = item.icon {
            let icon = try loadIcon(path, "\(keyPath).icon")
            let target = Int((size * scale).rounded())
            let scaled = Self.resample(icon, to: target)
            stamp(
                scaled, left: Int((center.x * scale).rounded()) - target / 2,
                top: Int((center.y * scale).rounded()) - target / 2, into: &mask)
        } else if let symbol = item.symbol {
            let line = try text.line(symbol, font: font, pixelSize: size * scale)
            stamp(line, centerX: center.x * scale, centerY: center.y * scale, into: &mask)
        }
    }

    /// A red capsule with the count in white, drawn in the foreground: it sits on the glass, so
    /// neither the platter tints it nor the lens magnifies it.
    func drawBadge(_ count: Int, at center: Point, font: FontSpec, into parts: inout Parts) throws {
        let line = try text.line(
            String(count), font: FontSpec(family: font.family, weight: .bold), pixelSize: 11 * scale)
        let height = 18.0
        let width = max(height, line.advance / scale + 10)
        parts.foreground.append(
            BackgroundLayer(
                .fill(
                    shape: .capsule,
                    frame: Rect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height),
                    color: RGBAColor(255, 59, 48))))
        let left = (center.x * scale - line.advance / 2 - line.originX).rounded()
        let top = (center.y * scale + (line.ascent - line.descent) / 2 - line.baseline).rounded()
        parts.foreground.append(BackgroundLayer(.mask(line.mask, left: Int(left), top: Int(top), color: .white)))
    }

    /// Bilinear resample of a square-ish icon to `size`×`size` pixels.
    static func resample(_ image: AlphaImage, to size: Int) -> AlphaImage {
        var out = AlphaImage(width: size, height: size, coverage: [UInt8](repeating: 0, count: size * size))
        let sx = Double(image.width) / Double(size)
        let sy = Double(image.height) / Double(size)
        func value(_ x: Int, _ y: Int) -> Double {
            Double(image.coverage[min(max(y, 0), image.height - 1) * image.width + min(max(x, 0), image.width - 1)])
        }
        for y in 0..<size {
            for x in 0..<size {
                let u = (Double(x) + 0.5) * sx - 0.5
                let v = (Double(y) + 0.5) * sy - 0.5
                let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                let tx = u - Double(x0), ty = v - Double(y0)
                let top = value(x0, y0) + (value(x0 + 1, y0) - value(x0, y0)) * tx
                let bottom = value(x0, y0 + 1) + (value(x0 + 1, y0 + 1) - value(x0, y0 + 1)) * tx
                out.coverage[y * size + x] = UInt8(min(255, max(0, (top + (bottom - top) * ty).rounded())))
            }
        }
        return out
    }
}
