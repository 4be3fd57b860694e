import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel

/// The `_UILiquidLensView` article's circular menu, held to the article's numbers: its geometry,
/// type, colours, lenses and platter, and its gesture.
@Suite("Lens menu (the article's demo)")
struct LensMenuTests {
    static let menu = BuiltInScene.lensMenu(.light)
    static let scale = 3.0

    static func parts(_ menu: LensMenu) throws -> ControlLayout.Parts {
        try ControlLayout(scale: scale, width: 1080, height: 1080, text: TextTests.renderer) { _, _ in
            AlphaImage(width: 1, height: 1, coverage: [0])
        }.parts(
            for: Scene(
                canvas: Canvas(width: 360, height: 360, scale: 3), background: [], glass: [],
                controls: [
                    .lensMenu(menu)
                ]))
    }

    /// Ink pixels of `mask` inside `rect` (points), and the ink's vertical extent in points.
    static func ink(_ mask: AlphaImage, in rect: Rect) -> (count: Int, top: Double, bottom: Double) {
        var count = 0
        var top = Int.max
        var bottom = Int.min
        for y in Int(rect.y * scale)..<Int((rect.y + rect.height) * scale) {
            for x in Int(rect.x * scale)..<Int((rect.x + rect.width) * scale)
            where mask.coverage[y * mask.width + x] > 0 {
                count += 1
                top = min(top, y)
                bottom = max(bottom, y + 1)
            }
        }
        return (count, Double(top) / scale, Double(bottom) / scale)
    }

    @Test("310 pt across; items 104 × 62 pt on 0.27 × the diameter about a centre 5 pt above the platter's")
    func geometry() throws {
        #expect(Self.menu.diameter == 310)
        let decoded = try Scene.decode(
            Data(
                #"{"canvas": {"width": 360, "height": 360}, "controls": [{"type": "lensMenu", "center": [180, 180], "items": [{"title": "A"}, {"title": "B"}, {"title": "C"}]}]}"#
                    .utf8))
        guard case .lensMenu(let fromJSON) = decoded.controls[0] else { throw CancellationError() }
        #expect(fromJSON.diameter == 310 && fromJSON.lensStyle == .liquidLens && fromJSON.accent == nil)
        for (index, degrees) in [-90.0, 150, 30].enumerated() {
            let frame = ControlLayout.itemFrame(Self.menu, index)
            let radians = degrees * .pi / 180
            #expect(frame.width == 104 && frame.height == 62)
            #expect(abs(frame.midX - (180 + 0.27 * 310 * cos(radians))) < 1e-9)
            #expect(abs(frame.midY - (180 - 5 + 0.27 * 310 * sin(radians))) < 1e-9)
        }
        let parts = try Self.parts(Self.menu)
        let platter = try #require(parts.glass.first)
        #expect(platter.shapes.map(\.frame) == [Rect(x: 25, y: 25, width: 310, height: 310)])
    }

    @Test("Each item: a 23 pt semibold icon-font symbol above a 13 pt semibold title whose line box is y 39–59")
    func itemType() throws {
        var menu = Self.menu
        menu.lensOffset = Point(x: 0, y: 0)
        let mask = try Self.parts(menu).mask
        let frame = ControlLayout.itemFrame(menu, 1)
        let titleFont = FontSpec(weight: .semibold)
        #expect(menu.font == titleFont && menu.symbolFont == .symbols)
        let title = try TextTests.renderer.line("Contacts", font: titleFont, pixelSize: 13 * Self.scale)
        let titleInk = Self.ink(mask, in: Rect(x: frame.x, y: frame.y + 36, width: frame.width, height: 26))
        #expect(titleInk.count == title.mask.coverage.filter { $0 > 0 }.count, "the title at 13 pt semibold")
        #expect(titleInk.top >= frame.y + 39 && titleInk.bottom <= frame.y + 59, "inside the title's frame")
        #expect(abs((titleInk.top + titleInk.bottom) / 2 - (frame.y + 49)) < 1, "centred in it")
        let symbol = try TextTests.renderer.line(SymbolGlyph.twoPeople, font: .symbols, pixelSize: 23 * Self.scale)
        let symbolInk = Self.ink(mask, in: Rect(x: frame.x, y: frame.y, width: frame.width, height: 36))
        #expect(symbolInk.count == symbol.mask.coverage.filter { $0 > 0 }.count, "the symbol at 23 pt")
        #expect(abs((symbolInk.top + symbolInk.bottom) / 2 - (frame.y + 18)) < 1.5, "centred 18 pt below the top")
    }

    @Test("Titles in .label, under the lens in .systemIndigo, light and dark", arguments: ControlAppearance.allCases)
    func colours(_ appearance: ControlAppearance) throws {
        let parts = try Self.parts(BuiltInScene.lensMenu(appearance))
        #expect(parts.resting == (appearance == .light ? RGBAColor.black : .white))
        #expect(parts.accent == (appearance == .light ? RGBAColor(88, 86, 214) : RGBAColor(94, 92, 230)))
    }

    @Test("The resting lens is 96 pt, white 0.38 with a 1 px white 0.55 border that fades as it lifts to 116 pt")
    func restingLens() throws {
        var menu = Self.menu
        menu.lift = 0
        let resting = try #require(try Self.parts(menu).glass.last)
        #expect(resting.shapes[0].frame.width == 96 && resting.lift?.growth == Point(x: 20, y: 20))
        #expect(resting.lift?.restingBackground == RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.38))
        #expect(resting.edgeHighlight == EdgeHighlight(width: 1 / Self.scale, alphas: [0.55, 0.55, 0.55]))
        #expect(resting.renderingPath == nil, "the private lens: refracting glass")
        menu.lift = 1
        let lifted = try #require(try Self.parts(menu).glass.last)
        #expect(lifted.edgeHighlight?.alphas == [0, 0, 0])
    }

    @Test("The public fallback lens: a plain circle of white 0.3 with a 1 pt white 0.55 border, same sizes")
    func fallbackLens() throws {
        var menu = Self.menu
        menu.lensStyle = .fallback
        menu.lift = 0.5
        let lens = try #require(try Self.parts(menu).glass.last)
        #expect(lens.renderingPath == .fallback)
        #expect(lens.optics.tint == RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.3) && lens.optics.shadow == .off)
        #expect(lens.edgeHighlight == EdgeHighlight(width: 1, alphas: [0.55, 0.55, 0.55]))
        #expect(lens.shapes[0].frame.width == 96 && lens.lift?.growth == Point(x: 20, y: 20))
        #expect(lens.lift?.restingBackground.alpha == 0, "no resting background: the fill is the lens")
    }

    @Test(
        "The platter is UIGlassEffect(.regular) at 310 pt: H 20, A 60, blur 4 pt, Apple's face and white 0.4 fill, (0, 8) r32 α 0.4 × 0.25"
    )
    func platterGlass() throws {
        let platter = try #require(try Self.parts(Self.menu).glass.first).optics
        #expect(platter.bevelWidth == 20 && platter.bevelAmount == 60 && abs(platter.frost - 4) < 1e-9)
        #expect(platter.face == .faceLight && platter.rimLight == .apple)
        #expect(platter.tint == RGBAColor(255, 255, 255, 0.4) && !platter.tintsLabel)
        #expect(platter.shadow == DropShadow(offset: Point(x: 0, y: 8), radius: 32, opacity: 0.4 * 0.25))
        let small = ControlLayout.regularGlass(shortSide: 48, appearance: .dark)
        #expect(small.bevelWidth == 12 && abs(small.bevelAmount - 38.4) < 1e-9 && abs(small.frost - 1.333) < 1e-9)
        #expect(small.face == .faceDark && small.rimLight.recolor == .vibrantDark)
        #expect(small.tint == RGBAColor(0, 0, 0, 0.4) && small.shadow.opacity == 0.4 * 0.5)
    }

    // MARK: The gesture

    /// The menu with a touch along `path` (times in seconds, points relative to the menu centre).
    static func touch(_ path: [(Double, Double, Double)], style: LensMenu.LensStyle = .liquidLens) -> Scene {
        var menu = Self.menu
        menu.lift = 0
        menu.lensStyle = style
        return Scene(
            canvas: Canvas(width: 360, height: 360, scale: 1), background: [], glass: [], controls: [.lensMenu(menu)],
            animation: SceneAnimation(
                duration: 3,
                gesture: GestureTimeline(path: path.map { GesturePoint(time: $0.0, x: 180 + $0.1, y: 180 + $0.2) })))
    }

    static func close(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    static func lens(_ scene: Scene, at t: Double) -> LensMenu {
        guard case .lensMenu(let menu) = scene.frame(at: t).controls[0] else { fatalError("not a lens menu") }
        return menu
    }

    @Test("From .began the lens is centred on the finger and lifting; no delay, no finger-delta tracking")
    func lensJumpsToFingerAndLifts() {
        let scene = Self.touch([(0.2, 20, -30), (0.6, 40, 10), (0.8, 40, 10)])
        #expect(Self.close(Self.lens(scene, at: 0.1).lensOffset, Point(x: 0, y: -88.7)), "over Chats before the touch")
        #expect(Self.close(Self.lens(scene, at: 0.2).lensOffset, Point(x: 20, y: -30)))
        #expect(Self.close(Self.lens(scene, at: 0.4).lensOffset, Point(x: 30, y: -10)))
        #expect(Self.lens(scene, at: 0.2).lift == 0 && Self.lens(scene, at: 0.25).lift > 0.3)
    }

    @Test("The lens is clamped to radius − 116/2 − 10 from the centre")
    func clamp() {
        #expect(Self.menu.maxLensDistance == 87)
        let scene = Self.touch([(0.2, 0, 0), (0.5, 300, 400), (0.8, 300, 400)])
        let offset = Self.lens(scene, at: 0.6).lensOffset
        #expect(abs((offset.x * offset.x + offset.y * offset.y).squareRoot() - 87) < 1e-9)
        #expect(abs(offset.x / offset.y - 0.75) < 1e-9, "along the finger's direction")
    }

    @Test("Release selects the item nearest the finger, not the clamped lens")
    func nearestByFinger() {
        let angle = -32.0 * .pi / 180
        let finger = SIMD2(cos(angle), sin(angle)) * 200
        let clamped = finger / 200 * 87
        #expect(Self.menu.nearestItem(to: finger) == 0 && Self.menu.nearestItem(to: clamped) == 2)
        let scene = Self.touch([(0.2, 0, 0), (0.5, finger.x, finger.y), (0.8, finger.x, finger.y)])
        #expect(scene.settledSelection == 0, "Chats is nearest the finger; Settings would be nearest the lens")
    }

    @Test("After release the lens settles on a spring of duration 0.28 s, damping 0.72")
    func settle() {
        let scene = Self.touch([(0.2, 0, 0), (0.5, 60, 20), (0.8, 60, 20)])
        let target = Self.menu.itemOffset(2)
        for t in [0.85, 0.95, 1.1] {
            let offset = Self.lens(scene, at: t).lensOffset
            let x = Spring(dampingRatio: 0.72, response: 0.28).value(from: 60, to: target.x, velocity: 0, at: t - 0.8)
            let y = Spring(dampingRatio: 0.72, response: 0.28).value(from: 20, to: target.y, velocity: 0, at: t - 0.8)
            #expect(abs(offset.x - x.position) < 1e-9 && abs(offset.y - y.position) < 1e-9)
        }
        #expect(Spring.menuSettle == Spring(dampingRatio: 0.72, response: 0.28))
    }

    @Test("The fallback lens grows over 0.25 s ease in-out from .began and shrinks over 0.25 s from release")
    func fallbackTiming() {
        let scene = Self.touch([(0.2, 0, 0), (0.6, 10, 10), (1, 10, 10)], style: .fallback)
        #expect(Self.lens(scene, at: 0.2).lift == 0)
        #expect(abs(Self.lens(scene, at: 0.325).lift - 0.5) < 1e-6, "half way at half the duration")
        #expect(Self.lens(scene, at: 0.25).lift < 0.2, "eases in")
        #expect(Self.lens(scene, at: 0.45).lift == 1 && Self.lens(scene, at: 0.9).lift == 1)
        #expect(abs(Self.lens(scene, at: 1.125).lift - 0.5) < 1e-6 && Self.lens(scene, at: 1.25).lift == 0)
        #expect(abs(TimingCurve.easeInEaseOut.value(at: 0.25) - 0.1291) < 1e-3)
    }
}
