import Foundation
import LensModel

/// The built-in `scroll-edges` screen: a table scrolled under a soft top edge (the title over it)
/// and a hard bottom edge under a glass tab bar, a floating glass button over the rows, as iOS 27
/// draws them (`sdtaheri-table-top-edge-ios27`).
enum ScrollEdgesScene {
    static let size = (width: 390.0, height: 640.0)

    static func scene(_ appearance: ControlAppearance) -> Scene {
        let light = appearance == .light
        let page = light ? RGBAColor.white : RGBAColor.black
        var scene = Scene(
            canvas: Canvas(width: size.width, height: size.height, scale: 2),
            background: [BackgroundLayer(.solid(page))] + (0..<9).flatMap { rows($0, light: light) },
            glass: [floatingButton(light: light)],
            controls: [
                .tabBar(
                    TabBar(
                        center: Point(x: size.width / 2, y: size.height - 50), width: 360, height: 62,
                        items: [
                            ControlItem(title: "Inbox", symbol: SymbolGlyph.envelope, badge: 4),
                            ControlItem(title: "Starred", symbol: SymbolGlyph.star),
                            ControlItem(title: "Settings", symbol: SymbolGlyph.gear),
                        ], lensPosition: 0, lift: 0, appearance: appearance, symbolFont: .symbols))
            ],
            foreground: [
                BackgroundLayer(
                    .text(
                        "Inbox", center: Point(x: size.width / 2, y: 44), size: 17, weight: .semibold,
                        color: light ? .black : .white)),
                BackgroundLayer(
                    .text(
                        "New message",
                        center: Point(x: floatingFrame.midX, y: floatingFrame.midY),
                        size: 17, weight: .regular, color: RGBAColor(0, 136, 255))),
            ])
        scene.scrollEdges = [
            ScrollEdgeEffect(edge: .top, style: .soft, extent: 100, color: page),
            ScrollEdgeEffect(edge: .bottom, style: .hard, extent: 110, color: page),
        ]
        return scene
    }

    /// A floating glass button over the rows (Apple's regular glass, which iOS 26 and iOS 27 draw
    /// differently), as the captures' floating "Effect Style" control.
    private static func floatingButton(light: Bool) -> GlassElement {
        GlassElement(
            shape: .capsule, frame: floatingFrame, optics: Optics(preset: light ? .regular : .regularDark))
    }

    private static let floatingFrame = Rect(x: 214, y: 380, width: 156, height: 44)

    /// Row `index`: an accent bar, a title, a grey detail line and a hairline under them.
    private static func rows(_ index: Int, light: Bool) -> [BackgroundLayer] {
        let top = 20 + 72 * Double(index)
        let text = light ? RGBAColor.black : RGBAColor.white
        let detail = light ? RGBAColor(138, 138, 142) : RGBAColor(152, 152, 159)
        return [
            BackgroundLayer(
                .fill(
                    shape: .capsule, frame: Rect(x: 18, y: top + 28, width: 24, height: 6),
                    color: RGBAColor(0, 136, 255))),
            BackgroundLayer(
                .text(
                    "Message \(index + 1)", center: Point(x: 110, y: top + 22), size: 17, weight: .regular, color: text)
            ),
            BackgroundLayer(
                .text(
                    "Liquid glass over a scrolled list", center: Point(x: 150, y: top + 44), size: 13, weight: .regular,
                    color: detail)),
            BackgroundLayer(
                .fill(
                    shape: .roundedRectangle(cornerRadii: [0, 0, 0, 0]),
                    frame: Rect(x: 60, y: top + 71, width: size.width - 60, height: 0.5),
                    color: light ? RGBAColor(198, 198, 200) : RGBAColor(56, 56, 58))),
        ]
    }
}
