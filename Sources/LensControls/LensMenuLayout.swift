import Foundation
import LensModel

/// The `_UILiquidLensView` article's circular menu, laid out as its demo builds it: the platter's
/// own regular glass, the items' symbols and titles in the label row, and the lens over them.
extension ControlLayout {
    func layout(_ menu: LensMenu, into parts: inout Parts, keyPath: String) throws {
        let platter = Rect(
            x: menu.center.x - menu.diameter / 2, y: menu.center.y - menu.diameter / 2, width: menu.diameter,
            height: menu.diameter)
        var optics = Self.regularGlass(shortSide: menu.diameter, appearance: menu.appearance)
        optics.tintsLabel = false
        var summary = ControlSummary(box: platter, parts: [parts.glassPart("platter")])
        parts.glass.append(GlassElement(shape: .circle, frame: platter, optics: optics))
        let titleMiddle = (LensMenu.titleBand.lowerBound + LensMenu.titleBand.upperBound) / 2
        for (index, item) in menu.items.enumerated() {
            let frame = Self.itemFrame(menu, index)
            try drawIcon(
                item, size: LensMenu.symbolSize, center: Point(x: frame.midX, y: frame.y + LensMenu.symbolCenterY),
                font: menu.symbolFont ?? menu.font, into: &parts.mask, keyPath: "\(keyPath).items[\(index)]")
            let title = try text.line(item.title, font: menu.font, pixelSize: LensMenu.titleSize * scale)
            let ink = stamp(
                title, centerX: frame.midX * scale, centerY: (frame.y + titleMiddle) * scale, into: &parts.mask)
            summary.parts.append(
                ControlPart(
                    kind: "item", index: index, title: item.title, box: PixelBox(frame, scale: scale), textBox: ink))
        }
        summary.parts.append(parts.glassPart("lens"))
        summary.state = ControlState(lift: menu.lift, selectedIndex: Self.nearestItem(menu))
        parts.summary = summary
        parts.glass.append(lens(menu))
        parts.resting = LensMenu.labelColor(menu.appearance)
        parts.accent = menu.resolvedAccent
    }

    /// The item whose place on the ring is nearest the lens's centre.
    static func nearestItem(_ menu: LensMenu) -> Int? {
        menu.items.indices.min { first, second in
            let a = menu.itemOffset(first)
            let b = menu.itemOffset(second)
            let lens = menu.lensOffset
            return hypot(a.x - lens.x, a.y - lens.y) < hypot(b.x - lens.x, b.y - lens.y)
        }
    }

    /// Item `index`'s 104 × 62 pt frame, centred on its place on the ring.
    static func itemFrame(_ menu: LensMenu, _ index: Int) -> Rect {
        let offset = menu.itemOffset(index)
        let size = LensMenu.itemSize
        return Rect(
            x: menu.center.x + offset.x - size.x / 2, y: menu.center.y + offset.y - size.y / 2, width: size.x,
            height: size.y)
    }

    /// The menu's lens, 96 pt resting and 116 pt lifted, in its style.
    func lens(_ menu: LensMenu) -> GlassElement {
        let resting = LensMenu.restingLensDiameter
        let frame = Rect(
            x: menu.center.x + menu.lensOffset.x - resting / 2, y: menu.center.y + menu.lensOffset.y - resting / 2,
            width: resting, height: resting)
        let growth = LensMenu.liftedLensDiameter - resting
        let border = LensMenu.lensBorder.alpha
        switch menu.lensStyle {
        case .liquidLens:
            var optics = Optics(preset: .segmentLens)
            optics.softness = 10
            if menu.appearance == .dark { optics.rimLight.recolor = .vibrantDark }
            var lens = GlassElement(
                shape: .circle, frame: frame, optics: optics,
                lift: LensLift(
                    progress: menu.lift, growth: Point(x: growth, y: growth),
                    restingBackground: LensMenu.restingLensFill))
            // The border belongs to the resting background view, so it fades out with it.
            let fading = border * (1 - menu.lift)
            lens.edgeHighlight = EdgeHighlight(width: 1 / scale, alphas: [fading, fading, fading])
            return lens
        case .fallback:
            var optics = Optics()
            optics.tint = LensMenu.fallbackLensFill
            optics.shadow = .off
            var lens = GlassElement(
                shape: .circle, frame: frame, optics: optics,
                lift: LensLift(progress: menu.lift, growth: Point(x: growth, y: growth)))
            lens.renderingPath = .fallback
            lens.edgeHighlight = EdgeHighlight(width: 1, alphas: [border, border, border])
            return lens
        }
    }

    /// `UIGlassEffect(.regular)` in `appearance` on a surface whose short side is `shortSide` points:
    /// the preset's face, fill and rim with its size laws read at S = `shortSide` (bevel
    /// H = min(S/4, 20) and A = min(0.8·S, 60), frost 1.333 + 2.667·u, a (0, 8) shadow, radius 32,
    /// opacity 0.4·(0.5 − 0.25·u), u = sat((S − 48)/112)).
    static func regularGlass(shortSide: Double, appearance: ControlAppearance) -> Optics {
        let optics = Optics(preset: appearance == .dark ? .regularDark : .regular)
        return optics.sizeLaw.applied(to: optics, minor: shortSide)
    }
}
