import Foundation
import LensModel

/// The benchmark workloads of the design brief (§4). Their names are fixed so that results
/// compare across time; every frame is a function of its index, so runs are reproducible.
public enum BenchmarkWorkload: String, Sendable, CaseIterable {
    /// 1920×1080, procedural background, a label row, one lifted 900×300 capsule moving from
    /// x = 500 to x = 1420 with every optical effect on.
    case lensHeavy = "lens-heavy"
    /// An iPhone screen at scale 3 (1206×2622): tab bar, segmented control, two buttons and a
    /// card in glass; the segmented lens is dragged across for 120 frames.
    case screen
    /// The built-in `screen-motion` animation (1206×2622): cards flicked under glass, a press, the
    /// tab bar's lens dragged, a button growing into its menu, sampled evenly over its 3.8 s.
    case screenMotion = "screen-motion"
    /// 256 distinct 512×512 scenes: backgrounds, shapes and materials vary with the index.
    case thumbnails
    /// 1920×1080, the lens-heavy backdrop under 64 separate frosted panes (200×110, frost σ 6;
    /// 1.41 MP of glass) shifting 4 px per frame: what many small panes cost.
    case panes

    /// What one frame is, for reports.
    public var summary: String {
        switch self {
        case .lensHeavy: "1920×1080, one 900×300 capsule lens moving across, every effect on"
        case .screen: "1206×2622 (scale 3) screen: tab bar, segmented control, buttons, card; lens dragged"
        case .screenMotion: "1206×2622 (scale 3) screen in motion: scroll, press, lens drag, menu morph"
        case .thumbnails: "256 distinct 512×512 scenes (backgrounds, shapes, materials)"
        case .panes: "1920×1080, 64 separate 200×110 frosted panes (1.41 MP of glass) shifting"
        }
    }

    /// Frames in one run unless told otherwise.
    public var defaultFrames: Int {
        switch self {
        case .lensHeavy: 60
        case .screen: 120
        case .screenMotion: 114
        case .thumbnails: 256
        case .panes: 24
        }
    }

    /// Frame `index` of a run of `count` frames; `text` sets the lens-heavy label row.
    package func scene(_ index: Int, of count: Int, text: any TextRasterizer) throws -> Scene {
        let progress = count > 1 ? Double(index) / Double(count - 1) : 0
        switch self {
        case .lensHeavy:
            return try Self.lensHeavy(lensCenterX: 500 + 920 * progress, text: text)
        case .screen:
            return try Self.screenScene().frame(at: Self.screenDuration * progress)
        case .screenMotion:
            return BuiltInAnimation.screenMotion.frame(at: BuiltInAnimation.screenMotion.duration * progress)
        case .thumbnails:
            return Self.thumbnail(index)
        case .panes:
            return try Self.lensHeavy(lensCenterX: 960, glass: Self.panes(64, grouped: false, frame: index), text: text)
        }
    }

    // MARK: panes

    /// `count` (a square: 1, 4, 16, 64, 256) frosted panes in a grid over 1920×1080, together
    /// always 1.41 MP of glass (64 panes are 200×110), 4 px right or left by `frame`; each its own
    /// glass element, or all shapes of one (`grouped`, a container whose panes never touch).
    package static func panes(_ count: Int, grouped: Bool, frame: Int) -> [GlassElement] {
        let side = Int(Double(count).squareRoot().rounded())
        let scale = 8 / Double(side)
        let (width, height) = (200 * scale, 110 * scale)
        let (cellWidth, cellHeight) = (1920 / Double(side), 1080 / Double(side))
        let shift = frame % 2 == 0 ? 4.0 : -4.0
        let shapes = (0..<side * side).map { index in
            PlacedShape(
                shape: .roundedRectangle(cornerRadii: Array(repeating: 16 * scale.squareRoot(), count: 4)),
                frame: Rect(
                    x: Double(index % side) * cellWidth + (cellWidth - width) / 2 + shift,
                    y: Double(index / side) * cellHeight + (cellHeight - height) / 2, width: width, height: height))
        }
        var optics = Optics()
        optics.frost = 6
        optics.tint = RGBAColor(255, 255, 255, 0.1)
        if grouped { return [GlassElement(shapes: shapes, blend: 0, optics: optics)] }
        return shapes.map { GlassElement(shapes: [$0], blend: 0, optics: optics) }
    }

    // MARK: lens-heavy and its scaling sweeps

    /// The lens-heavy optics: band 60 px, amount 120 px, ×1.22, dispersion 0.02, frost σ 4,
    /// saturation 1.5, white tint 0.1, rim lights, drop shadow, tint softness 10 px.
    package static var lensHeavyOptics: Optics {
        var optics = Optics()
        optics.bevelWidth = 60
        optics.bevelAmount = 120
        optics.magnification = 1.22
        optics.dispersion = 0.02
        optics.frost = 4
        optics.saturation = 1.5
        optics.tint = RGBAColor(255, 255, 255, 0.1)
        optics.softness = 10
        optics.rimLight = RimLight(
            key: RimLobe(angle: -45, amount: 0.5), fill: RimLobe(angle: 135, amount: 0.5), width: 2, falloff: 2)
        optics.shadow = DropShadow(offset: Point(x: 0, y: 8), radius: 24, opacity: 0.3)
        return optics
    }

    /// The lens-heavy frame, optionally at another size (geometry scales with the width), with
    /// other optics on its lens, or other glass instead of it; `text` sets the label row.
    package static func lensHeavy(
        lensCenterX: Double, width: Double = 1920, height: Double = 1080, optics: Optics = lensHeavyOptics,
        glass: [GlassElement]? = nil, text: any TextRasterizer
    ) throws -> Scene {
        let factor = width / 1920
        let lens = GlassElement(
            shape: .capsule,
            frame: Rect(
                x: (lensCenterX - 450) * factor, y: height / 2 - 150 * factor, width: 900 * factor,
                height: 300 * factor),
            optics: optics)
        return Scene(
            canvas: Canvas(width: width, height: height, scale: 1),
            background: [
                BackgroundLayer(
                    .gradient(
                        colors: [
                            RGBAColor(255, 94, 58), RGBAColor(255, 205, 2), RGBAColor(52, 199, 89),
                            RGBAColor(88, 86, 214),
                        ], angle: 30)),
                BackgroundLayer(.checker(size: 64, colors: [.black, .white]), opacity: 0.15),
                BackgroundLayer(.lines(spacing: 48, width: 3, angle: 45, color: .white), opacity: 0.6),
            ],
            label: try label(width: width, height: height, text: text), glass: glass ?? [lens], generation: .ios26)
    }

    /// A text row across the middle of the frame: 96 px type at 1920 wide, smaller if the row
    /// would not fit in 90 % of the width.
    private static func label(width: Double, height: Double, text rasterizer: any TextRasterizer) throws -> LabelLayer {
        let text = "Liquid Glass lenses, offscreen"
        let font = FontSpec(weight: .bold)
        var pixelSize = 96 * width / 1920
        var line = try rasterizer.line(text, font: font, pixelSize: pixelSize)
        if line.advance > 0.9 * width {
            pixelSize *= 0.9 * width / line.advance
            line = try rasterizer.line(text, font: font, pixelSize: pixelSize)
        }
        return LabelLayer(
            mask: .image(line.mask),
            origin: Point(
                x: (width - line.advance) / 2 - line.originX, y: height / 2 - line.baseline + pixelSize * 0.35),
            scale: 1, resting: RGBAColor(20, 20, 30), accent: RGBAColor(0, 122, 255))
    }

    // MARK: screen

    private static let screenDuration = 2.4

    /// The screen scene: 402×874 pt at scale 3, its segmented control dragged left to right.
    private static func screenScene() throws -> Scene {
        let json = """
            {
              "canvas": { "width": 402, "height": 874, "scale": 3 },
              "background": [
                { "type": "gradient", "colors": ["#0a84ff", "#bf5af2", "#ff375f", "#ff9f0a"], "angle": 70 },
                { "type": "checker", "size": 24, "colors": ["#000000", "#ffffff"], "opacity": 0.08 },
                { "type": "lines", "spacing": 18, "width": 1.5, "angle": 30, "color": "#ffffff", "opacity": 0.3 },
                { "type": "fill", "shape": "circle", "frame": { "x": 40, "y": 200, "width": 180, "height": 180 },
                  "color": "#ffd60a" },
                { "type": "fill", "shape": { "type": "roundedRectangle", "cornerRadius": 30 },
                  "frame": { "x": 190, "y": 430, "width": 190, "height": 150 }, "color": "#30d158" }
              ],
              "glass": [
                { "shape": { "type": "roundedRectangle", "cornerRadius": 28 },
                  "frame": { "x": 20, "y": 300, "width": 362, "height": 200 },
                  "optics": { "preset": "regular", "frost": 6, "tint": [1, 1, 1, 0.12] } },
                { "shape": "capsule", "frame": { "x": 20, "y": 560, "width": 170, "height": 52 },
                  "optics": { "preset": "regular", "tint": [0.04, 0.52, 1, 0.35] } },
                { "shape": "capsule", "frame": { "x": 212, "y": 560, "width": 170, "height": 52 },
                  "optics": { "preset": "clear" } }
              ],
              "controls": [
                { "type": "segmented", "center": [201, 120], "width": 362, "titles": ["Day", "Week", "Month", "Year"],
                  "thumbPosition": 0, "lift": 0, "held": 0, "accent": "#0a84ff" },
                { "type": "tabBar", "center": [201, 800], "width": 362, "height": 64, "lensPosition": 1,
                  "items": [{ "title": "Home", "symbol": "⌂" }, { "title": "Starred", "symbol": "★" },
                            { "title": "Inbox", "symbol": "✉", "badge": 3 }, { "title": "Settings", "symbol": "⚙" }] }
              ],
              "animation": {
                "duration": 2.4,
                "gesture": { "path": [[0.1, 66, 120], [0.3, 70, 120], [2.0, 336, 121], [2.2, 338, 121]] }
              }
            }
            """
        return try Scene.decode(Data(json.utf8))
    }

    // MARK: thumbnails

    /// Thumbnail `index`: background, shape and material chosen from the index by a fixed hash.
    package static func thumbnail(_ index: Int) -> Scene {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func color() -> RGBAColor {
            RGBAColor(Int(next() * 255), Int(next() * 255), Int(next() * 255))
        }
        var background = [BackgroundLayer(.gradient(colors: [color(), color(), color()], angle: next() * 180))]
        if next() < 0.6 {
            background.append(
                BackgroundLayer(
                    .checker(size: 16 + 48 * next(), colors: [.black, .white]), opacity: 0.1 + 0.2 * next()))
        }
        if next() < 0.7 {
            background.append(
                BackgroundLayer(
                    .lines(spacing: 12 + 36 * next(), width: 1 + 3 * next(), angle: next() * 180 - 90, color: .white),
                    opacity: 0.3 + 0.4 * next()))
        }
        let shapes: [Shape] = [
            .circle, .capsule, .roundedRectangle(cornerRadii: [40, 40, 40, 40]),
            .squircle(cornerRadii: [60, 60, 60, 60], exponent: 5),
        ]
        let shape = shapes[Int(next() * Double(shapes.count))]
        let side = 200 + 160 * next()
        let aspect = shape == .circle ? 1 : 0.55 + 0.45 * next()
        let frame = Rect(
            x: (512 - side) * next(), y: (512 - side * aspect) * next(), width: side, height: side * aspect)
        let presets = OpticsPreset.allCases
        var optics = Optics(preset: presets[Int(next() * Double(presets.count))])
        optics.frost = [0, 2, 4, 8][Int(next() * 4)]
        optics.tint = next() < 0.5 ? .clear : RGBAColor(255, 255, 255, 0.1 + 0.2 * next())
        optics.dispersion = next() < 0.5 ? 0 : 0.02
        return Scene(
            canvas: Canvas(width: 512, height: 512, scale: 1), background: background,
            glass: [GlassElement(shape: shape, frame: frame, optics: optics)], generation: .ios26)
    }
}
