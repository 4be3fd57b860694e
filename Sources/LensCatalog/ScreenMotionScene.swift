import Foundation
import LensModel

/// A whole iPhone screen in motion (402 × 874 pt at scale 3, 1206 × 2622 px): a list of cards
/// flicked up under a glass navigation bar, the floating "+" in the tab bar's glass container
/// pressed, the tab bar's lens lifted and dragged from Home to Inbox (the bar reaching the "+"
/// while lifted), and the bar's "more" button growing into its menu. Bar and button sizes from
/// `ios27-measurements.md` (tab bar 62 pt high, 20.3 pt side margins, toolbar buttons 45.3 pt at
/// y 61.3).
enum ScreenMotionScene {
    static let canvas = Canvas(width: 402, height: 874, scale: 3)
    static let backButton = Rect(x: 15.3, y: 61.3, width: 45.3, height: 45.3)
    static let moreButton = Rect(x: 341.4, y: 61.3, width: 45.3, height: 45.3)
    static let menu = Rect(x: 146.7, y: 61.3, width: 240, height: 248)
    /// The tab bar's accessory "+": 62 pt, 9.4 pt past the bar's trailing end.
    static let plusButton = Rect(x: 319.7, y: 791, width: 62, height: 62)
    static let menuRows = ["Select", "New Folder", "Sort by Date", "Show Unread", "Settings"]

    /// The scene, `duration` seconds long: the flick at 0.05 s, the press 0.9–1.3 s, the drag
    /// 1.5–2.6 s, the morph from 2.9 s.
    static func scene(duration: Double) -> Scene {
        let (list, listLayers) = listLayers(from: 1)
        // The bar's glyphs lie on the glass; the "more" button's dots leave with it as it grows.
        let glyphs = [
            text("‹", x: backButton.midX, y: backButton.midY, size: 30, weight: .medium, RGBAColor(0, 122, 255)),
            text("•••", x: moreButton.midX, y: moreButton.midY, size: 15, weight: .bold, RGBAColor(0, 122, 255)),
        ]
        let dots = menuRows.count + 1
        return Scene(
            canvas: canvas,
            background: [BackgroundLayer(.solid(RGBAColor(242, 242, 247)))] + list,
            glass: glass, controls: [.tabBar(tabBar)],
            animation: SceneAnimation(
                duration: duration,
                gesture: GestureTimeline(path: [
                    GesturePoint(time: 1.5, x: 58, y: 822), GesturePoint(time: 1.7, x: 60, y: 822),
                    GesturePoint(time: 2.4, x: 206, y: 823), GesturePoint(time: 2.6, x: 208, y: 823),
                ]),
                transitions: [
                    GlassTransition(
                        .press, glass: "plus", time: 0.9, release: 1.3,
                        touch: [GesturePoint(time: 0.9, x: plusButton.midX, y: plusButton.midY)]),
                    GlassTransition(
                        .morph, glass: "more", to: "menu", time: 2.9, content: Array(menuRows.indices),
                        startContent: [dots], materializes: true),
                ],
                scrolls: [ContentScroll(time: 0.05, distance: 520, layers: listLayers)]),
            foreground: menuRowLayers + glyphs, generation: .ios26)
    }

    /// The scrolled list: the large title and twelve cards (a coloured avatar, a title and a
    /// line of detail on white), as layers numbered from `first`.
    private static func listLayers(from first: Int) -> ([BackgroundLayer], [Int]) {
        let colors = [
            RGBAColor(0, 122, 255), RGBAColor(255, 149, 0), RGBAColor(52, 199, 89), RGBAColor(255, 45, 85),
            RGBAColor(175, 82, 222), RGBAColor(48, 176, 199),
        ]
        let titles = [
            ("Design review", "Tomorrow at 10:00 · Room 4"), ("Lens fits", "iOS 27 captures, round two"),
            ("Launch notes", "Draft shared with the team"), ("Weekly sync", "Agenda and open questions"),
            ("Photos", "38 new from the weekend"), ("Flight to Oslo", "Gate B12 · boarding 14:35"),
        ]
        var layers = [text("Inbox", x: 76, y: 146, size: 34, weight: .bold, RGBAColor(0, 0, 0))]
        for index in 0..<12 {
            let card = Rect(x: 16, y: 180 + 124 * Double(index), width: 370, height: 110)
            let (title, detail) = titles[index % titles.count]
            layers += [
                BackgroundLayer(
                    .fill(shape: .roundedRectangle(cornerRadii: [22, 22, 22, 22]), frame: card, color: .white)),
                BackgroundLayer(
                    .fill(
                        shape: .circle, frame: Rect(x: card.x + 18, y: card.y + 31, width: 48, height: 48),
                        color: colors[index % colors.count])),
                text(title, x: card.x + 215, y: card.y + 42, size: 19, weight: .semibold, RGBAColor(0, 0, 0)),
                text(detail, x: card.x + 215, y: card.y + 72, size: 15, weight: .regular, RGBAColor(110, 110, 115)),
            ]
        }
        return (layers, Array(first..<(first + layers.count)))
    }

    /// The leading and "more" buttons of the navigation bar and the menu the "more" button grows
    /// into (a menu's platter, materialising as it grows).
    private static var glass: [GlassElement] {
        // The regular look's numbers in its optics too: a morph blends optics, not materials.
        func element(
            _ id: String, _ shape: Shape, _ frame: Rect, optics: Optics = Optics(preset: .regular),
            material: Material? = .apple(.regular)
        ) -> GlassElement {
            var element = GlassElement(shape: shape, frame: frame, optics: optics, material: material)
            element.id = id
            return element
        }
        return [
            element("back", .circle, backButton),
            element("more", .circle, moreButton),
            element(
                "menu", .roundedRectangle(cornerRadii: [34, 34, 34, 34]), menu, optics: BuiltInMotionScenes.menuPlatter,
                material: nil),
        ]
    }

    /// The tab bar: four items in 290 pt, 20.3 pt from the left edge, the lens on Home, and the
    /// "+" in its glass container.
    private static var tabBar: TabBar {
        var bar = TabBar(
            center: Point(x: 20.3 + 145, y: 822), width: 290,
            items: [
                ControlItem(title: "Home", symbol: "⌂"), ControlItem(title: "Starred", symbol: "★"),
                ControlItem(title: "Inbox", symbol: "✉", badge: 3), ControlItem(title: "Settings", symbol: "⚙"),
            ], lensPosition: 0)
        bar.accessory = TabBarAccessory(
            diameter: plusButton.width, spacing: plusButton.x - (bar.center.x + bar.width / 2), id: "plus")
        return bar
    }

    /// The menu's rows, laid out in the settled menu 44 pt apart (the morph carries them).
    private static var menuRowLayers: [BackgroundLayer] {
        menuRows.enumerated().map { index, row in
            text(row, x: menu.midX, y: menu.y + 36 + 44 * Double(index), size: 17, weight: .regular, RGBAColor(0, 0, 0))
        }
    }

    private static func text(
        _ string: String, x: Double, y: Double, size: Double, weight: FontWeight, _ color: RGBAColor
    ) -> BackgroundLayer {
        BackgroundLayer(.text(string, center: Point(x: x, y: y), size: size, weight: weight, color: color))
    }
}
