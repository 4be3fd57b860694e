import Foundation
import LensModel

/// One scene per shape and per optical feature, each alone on the same busy backdrop: the
/// contact sheet `liquidlens gallery` renders, and the GPU-vs-CPU parity matrix.
public enum FeatureGallery {
    /// One gallery scene and its name.
    public struct Cell: Sendable {
        /// Stable name of the cell (e.g. `circle`, `group-bridge`), as the gallery lists it.
        public let name: String
        /// The cell's scene, one cell in size at scale 1.
        public let scene: Scene
    }

    /// Cell size in points (scale 1).
    public static let cellWidth = 160.0
    /// Cell height in points (scale 1).
    public static let cellHeight = 120.0
    /// Cells per row of the contact sheet.
    public static let columns = 6

    static let background: [BackgroundLayer] = [
        BackgroundLayer(
            .gradient(
                colors: [
                    RGBAColor(255, 94, 58), RGBAColor(255, 205, 2), RGBAColor(52, 199, 89), RGBAColor(88, 86, 214),
                ], angle: 30)),
        BackgroundLayer(.checker(size: 16, colors: [.black, .white]), opacity: 0.18),
        BackgroundLayer(.lines(spacing: 10, width: 1.5, angle: 60, color: .white), opacity: 0.7),
    ]

    static func labelMask(weight: Double) -> AlphaImage {
        var mask = AlphaImage(width: 160, height: 30, coverage: [UInt8](repeating: 0, count: 160 * 30))
        StrokeFont.draw("W M W", into: &mask, x: 28, y: 4, size: 22, weight: weight)
        return mask
    }

    static let label = LabelLayer(mask: .image(labelMask(weight: 1)), origin: Point(x: 0, y: 45), scale: 1)

    static let liftedLabel = LabelLayer(
        mask: .image(labelMask(weight: 1)), origin: Point(x: 0, y: 45), scale: 1,
        liftedMask: .image(labelMask(weight: 1.8)), liftedColor: .white)

    static let lensFrame = Rect(x: 25, y: 22, width: 110, height: 76)

    static func cell(
        _ name: String, shape: Shape = .capsule, frame: Rect = lensFrame, label: LabelLayer? = nil,
        lift: LensLift? = nil, _ change: (inout Optics) -> Void = { _ in }
    ) -> Cell {
        var optics = Optics()
        optics.bevelWidth = 14
        optics.bevelAmount = 30
        change(&optics)
        return Cell(
            name: name,
            scene: Scene(
                canvas: Canvas(width: cellWidth, height: cellHeight, scale: 1), background: background, label: label,
                glass: [GlassElement(shape: shape, frame: frame, optics: optics, lift: lift)], generation: .ios26))
    }

    static func group(_ name: String, _ shapes: [PlacedShape], blend: Double) -> Cell {
        var optics = Optics()
        optics.bevelWidth = 8
        optics.bevelAmount = 16
        return Cell(
            name: name,
            scene: Scene(
                canvas: Canvas(width: cellWidth, height: cellHeight, scale: 1), background: background,
                glass: [GlassElement(shapes: shapes, blend: blend, optics: optics)], generation: .ios26))
    }

    /// A blur growing toward the top over the cell's upper two thirds (σ 8 pt at the edge,
    /// lightly tinted), a capsule of glass below it seeing it.
    static func progressiveBlur() -> Cell {
        var scene = cell("progressive-blur", frame: Rect(x: 25, y: 66, width: 110, height: 44)).scene
        scene.progressiveBlurs = [
            ProgressiveBlur(
                frame: Rect(x: 0, y: 0, width: cellWidth, height: 80), radius: 8, tint: RGBAColor(255, 255, 255, 0.3))
        ]
        return Cell(name: "progressive-blur", scene: scene)
    }

    static let ring: [PlacedShape] = (0..<16).map { index in
        let angle = Double(index) / 16 * 2 * .pi
        return PlacedShape(
            shape: .circle, frame: Rect(x: 80 + 38 * cos(angle) - 9, y: 60 + 38 * sin(angle) - 9, width: 18, height: 18)
        )
    }

    /// Every cell, in contact-sheet order.
    public static let cells: [Cell] = [
        cell("circle", shape: .circle, frame: Rect(x: 32, y: 12, width: 96, height: 96)),
        cell("ellipse", shape: .ellipse),
        cell("capsule"),
        cell("rounded-rectangle", shape: .roundedRectangle(cornerRadii: [6, 30, 12, 0])),
        cell("squircle", shape: .squircle(cornerRadii: [28, 28, 28, 28], exponent: 5)),
        group(
            "group-bridge",
            [
                PlacedShape(shape: .capsule, frame: Rect(x: 12, y: 38, width: 64, height: 44)),
                PlacedShape(shape: .capsule, frame: Rect(x: 86, y: 38, width: 64, height: 44)),
            ], blend: 24),
        group(
            "group-merged",
            [
                PlacedShape(shape: .circle, frame: Rect(x: 30, y: 25, width: 70, height: 70)),
                PlacedShape(
                    shape: .roundedRectangle(cornerRadii: [10, 10, 10, 10]),
                    frame: Rect(x: 80, y: 40, width: 55, height: 55)),
            ], blend: 16),
        group("group-16-shapes", ring, blend: 10),
        cell("bevel-off") { $0.bevelAmount = 0 },
        cell("physical-convex-circle") {
            $0.model = .physical; $0.profile = .convexCircle; $0.ior = 1.5
        },
        cell("physical-convex-squircle") {
            $0.model = .physical; $0.profile = .convexSquircle; $0.ior = 1.5
        },
        cell("physical-concave") {
            $0.model = .physical; $0.profile = .concave; $0.ior = 1.5
        },
        cell("physical-lip") {
            $0.model = .physical; $0.profile = .lip; $0.ior = 1.5
        },
        cell("magnification") { $0.magnification = 1.3 },
        cell("dispersion-channels") { $0.dispersion = 0.08 },
        cell("dispersion-spectral") {
            $0.dispersion = 0.08; $0.dispersionMode = .spectral
        },
        cell("frost") { $0.frost = 4 },
        cell("rim-light") {
            $0.rimLight = RimLight(
                key: RimLobe(angle: -45, amount: 1.5), fill: RimLobe(angle: 135, amount: 1), width: 4, falloff: 3)
        },
        cell("fresnel") { $0.fresnel = 1.5 },
        cell("contour") { $0.contour = Contour(width: 1.5, opacity: 0.5) },
        cell("inner-shadow") { $0.innerShadow = DropShadow(offset: Point(x: 0, y: 7), radius: 3, opacity: 0.4) },
        cell("drop-shadow") { $0.shadow = DropShadow(offset: Point(x: 4, y: 10), radius: 16, opacity: 0.6) },
        cell("saturation") { $0.saturation = 2 },
        cell("brightness-contrast") {
            $0.brightness = 0.1; $0.contrast = 0.6
        },
        cell("tint") { $0.tint = RGBAColor(30, 144, 255, 0.35) },
        cell("dark-appearance") { $0.appearance = .dark },
        cell("tint-mask", frame: Rect(x: 10, y: 22, width: 100, height: 76), label: label) { $0.magnification = 1.15 },
        cell(
            "resting", label: liftedLabel,
            lift: LensLift(progress: 0, growth: Point(x: 24, y: 16), restingBackground: RGBAColor(255, 255, 255, 0.38))),
        cell(
            "half-lifted", label: liftedLabel,
            lift: LensLift(
                progress: 0.5, growth: Point(x: 24, y: 16), restingBackground: RGBAColor(255, 255, 255, 0.38))),
        cell(
            "lifted-content", label: liftedLabel,
            lift: LensLift(progress: 1, growth: Point(x: 24, y: 16), restingBackground: RGBAColor(255, 255, 255, 0.38))),
        cell("warps-off", label: label) {
            $0.warpsContentBelow = false; $0.tint = RGBAColor(255, 255, 255, 0.15)
        },
        cell("preset-regular") { $0 = Optics(preset: .regular) },
        cell("preset-clear") { $0 = Optics(preset: .clear) },
        cell("preset-loupe", shape: .circle, frame: Rect(x: 40, y: 20, width: 80, height: 80), label: label) {
            $0 = Optics(preset: .loupe)
        },
        cell("preset-lifted-segmented", frame: Rect(x: 30, y: 38, width: 100, height: 44), label: label) {
            $0 = Optics(preset: .liftedSegmented)
        },
        cell("preset-segment-lens", frame: Rect(x: 30, y: 38, width: 100, height: 44), label: label) {
            $0 = Optics(preset: .segmentLens)
        },
        progressiveBlur(),
    ]
}
