import CFreeType
import CHarfBuzz
import Foundation
import LensText
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensControls
@testable import LensModel
@testable import LensResolve

/// Runs `body` with a FreeType face of the font at `path`, sized to `pixelSize`.
func withFreeTypeFace<T>(path: String, pixelSize: Double, _ body: (FT_Face) -> T) -> T {
    var library: FT_Library?
    FT_Init_FreeType(&library)
    defer { FT_Done_FreeType(library) }
    var face: FT_Face?
    FT_New_Face(library, path, 0, &face)
    defer { FT_Done_Face(face) }
    FT_Set_Char_Size(face, 0, FT_F26Dot6(pixelSize * 64), 72, 72)
    return body(face!)
}

/// HarfBuzz's own advance for `text`, shaped directly (not through LensText).
func harfBuzzAdvance(_ text: String, path: String, pixelSize: Double) -> Double {
    withFreeTypeFace(path: path, pixelSize: pixelSize) { face in
        let font = hb_ft_font_create_referenced(face)
        defer { hb_font_destroy(font) }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        return (0..<Int(count)).reduce(0.0) { $0 + Double(positions[$1].x_advance) / 64 }
    }
}

/// FreeType's unhinted bounding box of one glyph, in pixels: (width, height).
func glyphSize(_ character: Character, path: String, pixelSize: Double) -> (Double, Double) {
    withFreeTypeFace(path: path, pixelSize: pixelSize) { face in
        FT_Load_Char(face, FT_ULong(character.unicodeScalars.first!.value), FT_Int32(FT_LOAD_NO_BITMAP))
        let metrics = face.pointee.glyph.pointee.metrics
        return (Double(metrics.width) / 64, Double(metrics.height) / 64)
    }
}

@Suite("Text")
struct TextTests {
    static let renderer: TextRenderer = try! TextRenderer()

    @Test(
        "A label's advance is HarfBuzz's, kerning included",
        arguments: ["Liquid Glass", "AVATAR", "Health 6M", "office"])
    func advanceMatchesHarfBuzz(text: String) throws {
        let path = try Self.renderer.path(for: FontSpec())
        let line = try Self.renderer.line(text, font: FontSpec(), pixelSize: 64)
        #expect(abs(line.advance - harfBuzzAdvance(text, path: path, pixelSize: 64)) < 1e-9)
    }

    @Test("Shaping applies kerning: AV is narrower than A plus V")
    func kerning() throws {
        let pair = try Self.renderer.line("AV", font: FontSpec(), pixelSize: 64).advance
        let apart =
            try Self.renderer.line("A", font: FontSpec(), pixelSize: 64).advance
            + Self.renderer.line("V", font: FontSpec(), pixelSize: 64).advance
        #expect(pair < apart - 1, "AV \(pair) vs A+V \(apart)")
    }

    @Test("The ink bounds of a glyph match FreeType's outline box within a pixel", arguments: ["H", "W", "g"])
    func inkBounds(character: String) throws {
        let path = try Self.renderer.path(for: FontSpec())
        let line = try Self.renderer.line(character, font: FontSpec(), pixelSize: 100)
        let ink = try #require(line.inkBounds)
        let (width, height) = glyphSize(Character(character), path: path, pixelSize: 100)
        #expect(abs(Double(ink.width) - width) <= 1.5, "ink width \(ink.width) vs \(width)")
        #expect(abs(Double(ink.height) - height) <= 1.5, "ink height \(ink.height) vs \(height)")
    }

    @Test("Weights and families are found by name; a missing font is a clear error")
    func fontLookup() throws {
        #expect(try Self.renderer.path(for: FontSpec()).hasSuffix("Inter-Regular.otf"), "the UI face is Inter")
        #expect(try Self.renderer.path(for: FontSpec(weight: .semibold)).hasSuffix("Inter-SemiBold.otf"))
        #expect(
            try Self.renderer.path(for: FontSpec(family: "DejaVu Sans", weight: .bold)).hasSuffix("DejaVuSans-Bold.ttf")
        )
        #expect(try Self.renderer.path(for: .symbols).hasSuffix("materialdesignicons-webfont.ttf"))
        let error = #expect(throws: TextError.self) {
            try Self.renderer.line("x", font: FontSpec(family: "No Such Font Family"), pixelSize: 20)
        }
        #expect(
            error?.description.contains("\"No Such Font Family\" is not installed") == true,
            "\(String(describing: error))")
    }

    @Test("A character the family lacks is drawn with DejaVu Sans; one no font has is a clear error")
    func glyphFallback() throws {
        let inter = FontSpec(weight: .semibold)
        let letter = try Self.renderer.line("a", font: inter, pixelSize: 40)
        let withEnvelope = try Self.renderer.line("a✉", font: inter, pixelSize: 40)
        let envelope = try Self.renderer.line(
            "✉", font: FontSpec(family: "DejaVu Sans", weight: .semibold), pixelSize: 40)
        #expect(abs(withEnvelope.advance - letter.advance - envelope.advance) < 1e-9, "✉ comes from DejaVu Sans")
        #expect(withEnvelope.lineHeight == letter.lineHeight, "the line keeps Inter's metrics")
        let gear = try Self.renderer.line(SymbolGlyph.gear, font: .symbols, pixelSize: 69)
        let ink = try #require(gear.inkBounds)
        #expect(ink.width > 40 && ink.height > 40, "a filled gear from the icon font: \(ink)")
        let error = #expect(throws: TextError.self) {
            try Self.renderer.line("\u{F0493}", font: .symbols, pixelSize: 20)
        }
        #expect(error?.description.contains("U+F0493") == true, "\(String(describing: error))")
    }

    @Test("Without Inter, DejaVu Sans stands in; without the icon font, a scene with symbols fails naming it")
    func missingFonts() throws {
        let folder = try temporaryFolder("fonts")
        let config = folder.appendingPathComponent("fonts.conf")
        try Data(
            """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>\(folder.path)/cache</cachedir></fontconfig>
            """.utf8
        ).write(to: config)
        let environment = ["FONTCONFIG_FILE": config.path]
        let segmented = try runCLI(
            ["render", "--example", "segmented", "--backend", "cpu", "--scale", "1", "-o", "s.png"],
            environment: environment, in: folder)
        #expect(segmented.status == 0, "\(segmented.stderr)")
        let menu = try runCLI(
            ["render", "--example", "lens-menu", "--backend", "cpu", "--scale", "1", "-o", "m.png"],
            environment: environment, in: folder)
        #expect(menu.status == 1)
        #expect(menu.stderr.contains("\"Material Design Icons\" is not installed"), "\(menu.stderr)")
    }

    @Test("Right-to-left text renders in visual order")
    func rightToLeft() throws {
        let font = FontSpec()
        let alef = try Self.renderer.line("א", font: font, pixelSize: 48)
        let bet = try Self.renderer.line("ב", font: font, pixelSize: 48)
        let word = try Self.renderer.line("אב", font: font, pixelSize: 48)
        func inkColumns(_ line: TextLine) -> ClosedRange<Int> {
            let ink = line.inkBounds!
            return ink.x0...(ink.x1 - 1)
        }
        // Visually bet comes first (left), alef second: the word's ink splits where bet's advance ends.
        let split = Int((word.originX + bet.advance).rounded())
        let wordInk = inkColumns(word)
        #expect(wordInk.lowerBound < split && wordInk.upperBound > split)
        func columnSums(_ line: TextLine, _ range: Range<Int>) -> [Int] {
            range.map { x in (0..<line.mask.height).reduce(0) { $0 + Int(line.mask.coverage[$1 * line.mask.width + x]) }
            }
        }
        let leftOfWord = columnSums(word, 0..<split)
        let betAlone = columnSums(bet, 0..<split)
        let alefAlone = columnSums(alef, 0..<split)
        func distance(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } }
        #expect(distance(leftOfWord, betAlone) < distance(leftOfWord, alefAlone), "the left glyph is bet")
    }

    @Test("Dynamic Type: footnote sizes rise monotonically over the twelve categories")
    func dynamicTypeSizes() {
        let sizes = ContentSizeCategory.allCases.map(\.footnoteSize)
        #expect(sizes == [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44])
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("Rail height = max(32, 32 + line height − stock line height)")
    func railHeights() throws {
        #expect(ControlLayout.railHeight(lineHeight: 15.1, stockLineHeight: 15.1) == 32)
        #expect(ControlLayout.railHeight(lineHeight: 13.9, stockLineHeight: 15.1) == 32)
        #expect(ControlLayout.railHeight(lineHeight: 20.1, stockLineHeight: 15.1) == 37)
        let layout = ControlLayout(scale: 3, width: 10, height: 10, text: Self.renderer) { _, _ in
            AlphaImage(width: 1, height: 1, coverage: [0])
        }
        var previous = 0.0
        for category in ContentSizeCategory.allCases {
            let height = try layout.railHeight(font: FontSpec(weight: .semibold), size: category.footnoteSize)
            let line =
                try Self.renderer.line("Ag", font: FontSpec(weight: .semibold), pixelSize: category.footnoteSize * 3)
                .lineHeight / 3
            let stock =
                try Self.renderer.line("Ag", font: FontSpec(weight: .semibold), pixelSize: 13 * 3).lineHeight / 3
            #expect(abs(height - max(32, 32 + line - stock)) < 1e-9)
            #expect(height >= previous)
            previous = height
        }
        #expect(previous > 50, "AX5 titles need a taller rail")
    }

    @Test(
        "A segmented title straddling the thumb's rim is split: accent inside, resting outside",
        arguments: [Backend.cpu, .vulkan])
    func segmentedSplit(backend: Backend) throws {
        func scene(thumb: Double) -> Scene {
            Scene(
                canvas: Canvas(width: 390, height: 120, scale: 2), background: [BackgroundLayer(.probe(.white))],
                glass: [],
                controls: [
                    .segmented(
                        SegmentedControl(
                            center: Point(x: 195, y: 60), width: 350, titles: ["D", "W", "M", "6M", "Y"],
                            thumbPosition: thumb,
                            lift: 0, held: 0, accent: RGBAColor(red: 0, green: 0, blue: 1), restingFillAlpha: 0,
                            // One weight for every title, so the two renders differ only in colour.
                            restingFont: FontSpec(weight: .medium)))
                ])
        }
        let split = try resolve(scene(thumb: 1.45))
        let elsewhere = try resolve(scene(thumb: 4))
        let a = try render(split, on: backend)
        let b = try render(elsewhere, on: backend)
        let thumb = try #require(split.shapes.last)
        var inside = 0
        var outside = 0
        withShaderContext(split) { _ in
            for y in 0..<split.height {
                for x in 0..<split.width {
                    let word = split.labelWords[y * Int(split.frame.labelWordsPerRow) + x / 4]
                    guard (word >> UInt32((x % 4) * 8)) & 255 == 255 else { continue }
                    let geometry = ShapeGeometry(
                        shape: .capsule,
                        frame: Rect(
                            x: Double(thumb.centerHalfSize.x - thumb.centerHalfSize.z) / 2,
                            y: Double(thumb.centerHalfSize.y - thumb.centerHalfSize.w) / 2,
                            width: Double(thumb.centerHalfSize.z), height: Double(thumb.centerHalfSize.w)), scale: 2)
                    let distance = geometry.distance(Double(x) + 0.5, Double(y) + 0.5)
                    if distance >= 1 && distance < 12 {
                        outside += 1
                        // Only the thumb's drop shadow may darken it; its hue stays the resting grey.
                        let blueness = Int(a[x, y].z) - Int(a[x, y].x)
                        let restingBlueness = Int(b[x, y].z) - Int(b[x, y].x)
                        #expect(abs(blueness - restingBlueness) <= 1, "resting outside the rim at \(x),\(y)")
                    } else if distance <= -2 && distance > -20 {
                        inside += 1
                        #expect(
                            Int(a[x, y].z) - Int(a[x, y].x) > Int(b[x, y].z) - Int(b[x, y].x) + 8,
                            "accent inside the rim at \(x),\(y)")
                    }
                }
            }
        }
        #expect(inside > 20 && outside > 20, "a glyph straddles the rim: \(inside) inside, \(outside) outside")
    }
}

@Suite("Controls")
struct ControlTests {
    static func layout(
        _ controls: [Control],
        loadIcon: @escaping (String, String) throws -> AlphaImage = { _, _ in
            AlphaImage(width: 1, height: 1, coverage: [0])
        }
    ) throws -> ControlLayout.Parts {
        try ControlLayout(scale: 2, width: 780, height: 300, text: TextTests.renderer, loadIcon: loadIcon).parts(
            for: Scene(canvas: Canvas(width: 390, height: 150), background: [], glass: [], controls: controls))
    }

    static func segmented(held: Double, reduceMotion: Bool) -> Control {
        .segmented(
            SegmentedControl(
                center: Point(x: 195, y: 60), width: 300, titles: ["A", "B", "C"], thumbPosition: 1, held: held,
                reduceMotion: reduceMotion))
    }

    @Test(
        "Held, the whole control grows by 1 + railGrowth·p and the rail darkens by railDensify·p; Reduce Motion keeps the size"
    )
    func heldState() throws {
        func rail(_ parts: ControlLayout.Parts) -> (Rect, Double) {
            guard case .fill(_, let frame, _) = parts.background[0].kind else {
                return (Rect(x: 0, y: 0, width: 0, height: 0), -1)
            }
            let wash =
                parts.background.count > 1
                ? {
                    if case .fill(_, _, let color) = parts.background[1].kind { return color.alpha } else { return 0 }
                }() : 0
            return (frame, wash)
        }
        let (resting, restingWash) = rail(try Self.layout([Self.segmented(held: 0, reduceMotion: false)]))
        let (held, heldWash) = rail(try Self.layout([Self.segmented(held: 1, reduceMotion: false)]))
        let (reduced, _) = rail(try Self.layout([Self.segmented(held: 1, reduceMotion: true)]))
        #expect(resting.width == 300 && abs(held.width - 330) < 1e-9 && reduced.width == 300)
        #expect(abs(held.midX - resting.midX) < 1e-9 && abs(held.midY - resting.midY) < 1e-9, "grows about its centre")
        #expect(restingWash == 0 && abs(heldWash - 0.25) < 1e-9)
    }

    @Test(
        "The segment and tab lenses: an opaque resting thumb (white, dark grey) under the titles; a rim line of 0.4 × the lift"
    )
    func lensRestingAndLifted() throws {
        for lift in [0.0, 0.5, 1] {
            for appearance in [ControlAppearance.light, .dark] {
                let segmented = try Self.layout([
                    .segmented(
                        SegmentedControl(
                            center: Point(x: 195, y: 60), width: 300, titles: ["A", "B"], thumbPosition: 0, lift: lift,
                            held: 0, appearance: appearance))
                ])
                let tabBar = try Self.layout([
                    .tabBar(
                        TabBar(
                            center: Point(x: 195, y: 60), width: 300,
                            items: [ControlItem(title: "A"), ControlItem(title: "B")], lensPosition: 0, lift: lift,
                            appearance: appearance))
                ])
                let thumb = try #require(segmented.glass.last)
                let fill = appearance == .dark ? RGBAColor(99, 99, 102) : .white
                #expect(thumb.lift?.restingBackground == fill && thumb.lift?.restingShadow == 0)
                for lens in [thumb, try #require(tabBar.glass.last)] {
                    #expect(
                        lens.edgeHighlight == EdgeHighlight(width: 0.67, alphas: Array(repeating: 0.4 * lift, count: 3))
                    )
                }
            }
        }
    }

    @Test("The thumb's feather is clamped to half its height minus one")
    func softnessClamp() throws {
        let parts = try Self.layout([Self.segmented(held: 0, reduceMotion: false)])
        let thumb = try #require(parts.glass.last)
        // Rail 32 pt, thumb 28 pt resting, 44 pt lifted (progress 1): softness min(10, 44/2 − 1) = 10.
        #expect(thumb.optics.softness == 10)
        let tall = try Self.layout([
            .segmented(
                SegmentedControl(
                    center: Point(x: 195, y: 60), width: 300, titles: ["A"], thumbPosition: 0, lift: 0, held: 0,
                    softness: 40))
        ])
        let softness = try #require(tall.glass.last?.optics.softness)
        #expect(abs(softness - (28.0 / 2 - 1)) < 1e-9)
    }

    /// A 360 × 80 pt canvas of white with `control` alone on it.
    static func overWhite(_ control: SegmentedControl, scale: Double) -> Scene {
        Scene(
            canvas: Canvas(width: 360, height: 80, scale: scale), background: [BackgroundLayer(.probe(.white))],
            glass: [], controls: [.segmented(control)])
    }

    /// `cnb-segmented.png`'s "Colored" control: UIKit's `selectedSegmentTintColor` makes the settled
    /// thumb an opaque (254, 43, 77) pill under the titles.
    @Test(
        "A settled thumb takes the control's resting fill on both backends; without one, white",
        arguments: [Backend.cpu, .vulkan])
    func restingFill(backend: Backend) throws {
        func thumbFace(_ fill: RGBAColor?) throws -> SIMD4<UInt8> {
            let control = SegmentedControl(
                center: Point(x: 180, y: 40), width: 348, titles: ["One", "Two", "Three"], thumbPosition: 0, lift: 0,
                held: 0, restingFill: fill)
            // Left of "One", inside the thumb (x 8…120 pt at 1 px/pt).
            return try render(try resolve(Self.overWhite(control, scale: 1)), on: backend)[20, 40]
        }
        let tinted = try thumbFace(RGBAColor(254, 43, 77))
        let plain = try thumbFace(nil)
        #expect(
            abs(Int(tinted.x) - 254) <= 2 && abs(Int(tinted.y) - 43) <= 2 && abs(Int(tinted.z) - 77) <= 2, "\(tinted)")
        #expect(plain.x >= 253 && plain.y >= 253 && plain.z >= 253, "\(plain)")
    }

    @Test("The selected segment is the one the thumb is nearest, the later one halfway, clamped to the titles")
    func selectedIndex() {
        let positions = [(-1.0, 0), (0.49, 0), (0.5, 1), (1.49, 1), (2, 2), (3, 2), (.nan, 0)]
        for (position, index) in positions {
            let control = SegmentedControl(
                center: Point(x: 0, y: 0), width: 90, titles: ["A", "B", "C"], thumbPosition: position)
            #expect(control.selectedIndex == index, "thumb at \(position)")
        }
    }

    /// `cn-segmented.png` and `cnb-segmented.png`: the selected title is a weight step heavier
    /// than the others (UIKit's `.selected` and `.normal` title attributes).
    @Test(
        "The selected title is drawn in the control's font, the others a weight lighter or in its resting font, on both backends",
        arguments: [Backend.cpu, .vulkan])
    func restingFont(backend: Backend) throws {
        /// The ink of each title: its pixels' coverage of black over the rail or thumb, summed.
        func inks(thumbPosition: Double, restingFont: FontSpec?) throws -> [Double] {
            let control = SegmentedControl(
                center: Point(x: 180, y: 40), width: 348, titles: ["One", "Two", "Three"],
                thumbPosition: thumbPosition, lift: 0, held: 0, accent: RGBAColor(0, 0, 0),
                restingTitleColor: RGBAColor(0, 0, 0), font: FontSpec(weight: .semibold), restingFont: restingFont)
            let image = try render(try resolve(Self.overWhite(control, scale: 2)), on: backend)
            return (0..<3).map { segment in
                // The middle of each 116 pt segment, clear of the thumb's ends, over the titles' rows.
                let left = (6 + 116 * segment + 30) * 2
                let base = Double(image[left - 4, 80].x)
                var ink = 0.0
                for y in 66..<94 {
                    for x in left..<left + 56 * 2 { ink += max(0, base - Double(image[x, y].x)) / base }
                }
                return ink
            }
        }
        let lighter = try inks(thumbPosition: 0, restingFont: nil)
        let same = try inks(thumbPosition: 0, restingFont: FontSpec(weight: .semibold))
        let medium = try inks(thumbPosition: 0, restingFont: FontSpec(weight: .medium))
        let moved = try inks(thumbPosition: 1, restingFont: nil)
        #expect(lighter == medium, "nil rests semibold titles at medium")
        #expect(abs(lighter[0] - same[0]) < 1e-9, "the selected title keeps the control's font")
        for segment in 1...2 { #expect(lighter[segment] < 0.9 * same[segment], "\(lighter) vs \(same)") }
        #expect(moved[0] < 0.9 * same[0] && abs(moved[1] - same[1]) < 0.02 * same[1], "\(moved) vs \(same)")
    }

    /// `cn-tab-bar.png` (serverpod/cupertino_native, misc/screenshots @ ba77f9ce, 3 px/pt): a
    /// native UITabBar over an illustration, measured at its rims: the bar 251.7 × 62 pt, three
    /// tabs whose icons sit 78.3 pt apart, the first 47.2 pt from the bar's left end, and the
    /// resting lens 86.3 × 52 pt, 4 pt in from the bar's left and 5 pt from its top and bottom
    /// (the pill's edges at half its level over the bar's, rows 78.5 and 234.5 against the bar's
    /// 63.5 and 249.5; `CaptureTests` holds the same edges in the re-created capture).
    @Test(
        "A native tab bar lays out its tabs and resting lens as the captured UITabBar does; a segmented capsule as union's"
    )
    func tabBarStyles() throws {
        func layout(_ style: TabBarStyle, width: Double, items: Int) throws -> (
            lens: Rect, bar: Rect, growth: Point
        ) {
            let bar = TabBar(
                center: Point(x: 200, y: 100), width: width,
                items: (0..<items).map { ControlItem(title: "Tab \($0)") }, lensPosition: 0, style: style)
            let parts = try Self.layout([.tabBar(bar)])
            let lens = try #require(parts.glass.last?.shapes.first?.frame)
            let platter = try #require(parts.glass.first?.shapes.first?.frame)
            return (lens, platter, try #require(parts.glass.last?.lift?.growth))
        }
        let native = try layout(.native, width: 251.7, items: 3)
        #expect(abs(native.lens.x - native.bar.x - 4) < 0.1 && abs(native.lens.width - 86.3) < 0.4)
        #expect(abs(native.lens.y - native.bar.y - 5) < 0.1 && abs(native.lens.height - 52) < 0.1)
        #expect(abs(native.lens.x + native.lens.width / 2 - native.bar.x - 47.2) < 0.2)
        // Lifted, UIKit insets the pill's bounds by −8; union's thumb grows 30 × 18.5 pt.
        #expect(native.growth.x == 16 && native.growth.y == 16)
        // union-resting's capsule: a 362 × 62 pt bar, the lens 113 × 51 pt, 6.2 pt in from the end,
        // 6 pt below the bar's top and 5 pt above its bottom.
        let capsule = try layout(.segmentedCapsule, width: 362, items: 3)
        #expect(abs(capsule.lens.x - capsule.bar.x - 6.2) < 0.1 && abs(capsule.lens.width - 113.3) < 0.1)
        #expect(abs(capsule.lens.height - 51) < 0.1 && abs(capsule.lens.y - capsule.bar.y - 6) < 0.1)
        #expect(capsule.growth.x == 30 && capsule.growth.y == 18.5)
    }

    @Test("A tab item's PNG icon is drawn into the label row beside its title")
    func pngIcon() throws {
        let square = AlphaImage(width: 8, height: 8, coverage: [UInt8](repeating: 255, count: 64))
        func bar(icon: String?) -> Control {
            .tabBar(
                TabBar(
                    center: Point(x: 195, y: 100), width: 300, items: [ControlItem(title: "Home", icon: icon)],
                    lensPosition: 0))
        }
        let without = try Self.layout([bar(icon: nil)])
        let with = try Self.layout([bar(icon: "square.png")]) { path, _ in
            #expect(path == "square.png")
            return square
        }
        let inkWithout = without.mask.coverage.filter { $0 > 0 }.count
        let inkWith = with.mask.coverage.filter { $0 > 0 }.count
        #expect(inkWith >= inkWithout + 40 * 40, "a 24 pt icon at scale 2 adds about 48×48 px of ink")
    }
}
