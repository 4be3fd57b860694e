import Foundation
import LensControls
import LensModel

/// The embedded scenes of DESIGN.md §3 that exist so far. Names are stable.
public enum BuiltInScene: String, CaseIterable, Sendable {
    /// The showcase: a Health-style picker, its lens lifted mid-drag so the "M" is split at the rim.
    case segmented
    /// A floating glass tab bar with a lens under the selected tab and badges.
    case tabBar = "tab-bar"
    /// The `_UILiquidLensView` article's circular three-item menu on glass over a gradient.
    case lensMenu = "lens-menu"
    /// Every glass control in the four materials, light (top) and dark (bottom).
    case controls
    /// A table scrolled under a soft top edge and a hard bottom edge with a glass tab bar.
    case scrollEdges = "scroll-edges"
    case probeGrid = "probe-grid"
    case probeRamp = "probe-ramp"
    case probeBlack = "probe-black"
    case probeWhite = "probe-white"

    /// One line for `liquidlens examples`.
    public var summary: String {
        switch self {
        case .segmented: "Health-style picker (D W M 6M Y), thumb lifted mid-drag, the M split at the rim"
        case .tabBar: "floating glass tab bar, lens under the selected tab, badges"
        case .lensMenu: "circular three-item lens menu (Chats, Contacts, Settings) over a gradient"
        case .controls: "glass controls gallery: clear, frosted, tinted, dark; light above, dark below"
        case .scrollEdges: "a table under a soft top edge and a hard bottom edge with a glass tab bar"
        case .probeGrid: "circle lens over a grid (10 pt grey, 50 pt black lines)"
        case .probeRamp: "circle lens over the sawtooth ramp; displacement decodes from red/green"
        case .probeBlack: "circle lens over black: rim light and contour alone"
        case .probeWhite: "circle lens over white: drop shadow alone"
        }
    }

    /// The scene in the light appearance at the stock text size (`controls`: both appearances).
    public var scene: Scene {
        self == .controls ? GlassControlsPanel.gallery(scale: 1) : scene()
    }

    /// The scene in an appearance and at a Dynamic Type size (probes ignore both).
    public func scene(appearance: ControlAppearance = .light, contentSize: ContentSizeCategory = .large) -> Scene {
        switch self {
        case .segmented: Self.segmentedScene(appearance, contentSize)
        case .tabBar: Self.tabBarScene(appearance)
        case .lensMenu: Self.lensMenuScene(appearance)
        case .controls: GlassControlsPanel.gallery(scale: 1, appearances: [appearance], contentSize: contentSize)
        case .scrollEdges: ScrollEdgesScene.scene(appearance)
        case .probeGrid: Self.probeScene(.grid)
        case .probeRamp: Self.probeScene(.ramp)
        case .probeBlack: Self.probeScene(.black)
        case .probeWhite: Self.probeScene(.white)
        }
    }

    static func probeScene(_ probe: ProbeBackground) -> Scene {
        Scene(
            canvas: Canvas(width: 320, height: 200, scale: 1),
            background: [BackgroundLayer(.probe(probe))],
            glass: [GlassElement(shape: .circle, frame: Rect(x: 90, y: 25, width: 140, height: 140))],
            generation: .ios26)
    }

    static func backdrop(_ appearance: ControlAppearance) -> [BackgroundLayer] {
        appearance == .light
            ? [
                BackgroundLayer(
                    .gradient(
                        colors: [RGBAColor(255, 214, 165), RGBAColor(255, 173, 200), RGBAColor(160, 196, 255)],
                        angle: 20)),
                BackgroundLayer(.lines(spacing: 14, width: 1.5, angle: 60, color: .white), opacity: 0.35),
            ]
            : [
                BackgroundLayer(
                    .gradient(colors: [RGBAColor(28, 30, 60), RGBAColor(70, 24, 70), RGBAColor(18, 60, 80)], angle: 20)),
                BackgroundLayer(.lines(spacing: 14, width: 1.5, angle: 60, color: .white), opacity: 0.12),
            ]
    }

    static func segmentedScene(_ appearance: ControlAppearance, _ contentSize: ContentSizeCategory) -> Scene {
        Scene(
            canvas: Canvas(width: 390, height: 120, scale: 2), background: backdrop(appearance), glass: [],
            controls: [
                .segmented(
                    SegmentedControl(
                        center: Point(x: 195, y: 60), width: 350, titles: ["D", "W", "M", "6M", "Y"],
                        thumbPosition: 1.41,
                        lift: 1, held: 1, contentSize: contentSize, appearance: appearance))
            ], generation: .ios26)
    }

    static func tabBarScene(_ appearance: ControlAppearance) -> Scene {
        Scene(
            canvas: Canvas(width: 390, height: 150, scale: 2),
            background: backdrop(appearance) + [
                BackgroundLayer(
                    .fill(
                        shape: .circle, frame: Rect(x: 40, y: 10, width: 120, height: 120),
                        color: RGBAColor(255, 149, 0, 0.8))),
                BackgroundLayer(
                    .fill(
                        shape: .roundedRectangle(cornerRadii: [18, 18, 18, 18]),
                        frame: Rect(x: 230, y: 20, width: 130, height: 90), color: RGBAColor(52, 199, 89, 0.8))),
            ],
            glass: [],
            controls: [
                .tabBar(
                    TabBar(
                        center: Point(x: 195, y: 100), width: 360, height: 64,
                        items: [
                            ControlItem(title: "Home", symbol: SymbolGlyph.house),
                            ControlItem(title: "Favourites", symbol: SymbolGlyph.star, badge: 3),
                            ControlItem(title: "Inbox", symbol: SymbolGlyph.envelope, badge: 12),
                            ControlItem(title: "Settings", symbol: SymbolGlyph.gear),
                        ], lensPosition: 1, lift: 0.6, appearance: appearance, symbolFont: .symbols))
            ], generation: .ios26)
    }

    static func lensMenuScene(_ appearance: ControlAppearance) -> Scene {
        Scene(
            canvas: Canvas(width: 360, height: 360, scale: 2),
            background: [
                BackgroundLayer(
                    .gradient(
                        colors: appearance == .light
                            ? [RGBAColor(94, 92, 230), RGBAColor(255, 55, 95), RGBAColor(255, 204, 0)]
                            : [RGBAColor(20, 20, 60), RGBAColor(90, 20, 50), RGBAColor(60, 50, 0)], angle: 45)),
                BackgroundLayer(.checker(size: 30, colors: [.black, .white]), opacity: 0.08),
            ],
            glass: [],
            controls: [.lensMenu(lensMenu(appearance))], generation: .ios26)
    }

    /// The article's menu centred on the canvas, its lens lifted over Chats.
    static func lensMenu(_ appearance: ControlAppearance) -> LensMenu {
        var menu = LensMenu(
            center: Point(x: 180, y: 180),
            items: [
                ControlItem(title: "Chats", symbol: SymbolGlyph.bubble),
                ControlItem(title: "Contacts", symbol: SymbolGlyph.twoPeople),
                ControlItem(title: "Settings", symbol: SymbolGlyph.gear),
            ],
            lensOffset: Point(x: 0, y: 0), lift: 1, appearance: appearance, symbolFont: .symbols)
        let chats = menu.itemOffset(0)
        menu.lensOffset = Point(x: chats.x, y: chats.y)
        return menu
    }
}
