import Foundation
import LensCatalog
import LiquidLens
import Testing

/// The GPU-vs-CPU matrix: each shape, each optics feature on and off, each probe background,
/// a lens straddling a glyph, a lens at the canvas edge, and the built-in scenes.
struct ParityScene: CustomTestStringConvertible, Sendable {
    let name: String
    let scene: Scene
    var testDescription: String { name }

    static let canvas = Canvas(width: 200, height: 140, scale: 1)

    /// A busy backdrop, so any sampling difference shows.
    static let busyBackground: [BackgroundLayer] = [
        BackgroundLayer(
            .gradient(colors: [RGBAColor(255, 80, 40), RGBAColor(40, 200, 120), RGBAColor(60, 60, 255)], angle: 30)),
        BackgroundLayer(.checker(size: 16, colors: [.black, .white]), opacity: 0.25),
        BackgroundLayer(.lines(spacing: 9, width: 1.5, angle: 60, color: .white), opacity: 0.8),
    ]

    /// A glyph row that the lens rim crosses: a bar, a W and an M.
    static let label: LabelLayer = {
        var mask = AlphaImage(width: 200, height: 40, coverage: [UInt8](repeating: 0, count: 200 * 40))
        StrokeFont.draw("W M W", into: &mask, x: 40, y: 8, size: 24)
        for y in 10..<30 { for x in 140..<146 { mask.coverage[y * 200 + x] = 255 } }
        return LabelLayer(mask: .image(mask), origin: Point(x: 0, y: 50), scale: 1)
    }()

    static let plainOptics: Optics = {
        var optics = Optics()
        optics.rimLight = .off
        optics.shadow = .off
        return optics
    }()

    static func lens(
        _ shape: Shape = .capsule, frame: Rect = Rect(x: 45, y: 35, width: 110, height: 70),
        _ change: (inout Optics) -> Void = { _ in }
    ) -> GlassElement {
        var optics = Optics()
        change(&optics)
        return GlassElement(shape: shape, frame: frame, optics: optics)
    }

    /// A frosted, tinted platter with a lifted lens lying on it, over the label row.
    static let glassOnGlass: [GlassElement] = [
        lens(.capsule, frame: Rect(x: 10, y: 30, width: 180, height: 80)) {
            $0.frost = 6; $0.tint = RGBAColor(255, 255, 255, 0.3); $0.tintsLabel = false
        },
        lens(.capsule, frame: Rect(x: 50, y: 40, width: 90, height: 60)) {
            $0.magnification = 1.2; $0.frost = 1
        },
    ]

    static func busy(_ name: String, label: LabelLayer? = nil, _ glass: [GlassElement]) -> ParityScene {
        ParityScene(name: name, scene: Scene(canvas: canvas, background: busyBackground, label: label, glass: glass))
    }

    static let all: [ParityScene] =
        [
            busy("circle", [lens(.circle)]),
            busy("capsule", [lens(.capsule)]),
            busy("rounded-rectangle", [lens(.roundedRectangle(cornerRadii: [4, 30, 12, 0]))]),
            busy(
                "no-refraction",
                [GlassElement(shape: .capsule, frame: Rect(x: 45, y: 35, width: 110, height: 70), optics: plainOptics)]),
            busy(
                "bevel",
                [
                    lens {
                        $0.bevelWidth = 12; $0.bevelAmount = 30
                    }
                ]),
            busy("bevel-off", [lens { $0.bevelAmount = 0 }]),
            busy("magnification", [lens { $0.magnification = 1.3 }]),
            busy("minification", [lens { $0.magnification = 0.8 }]),
            busy("dispersion", [lens { $0.dispersion = 0.08 }]),
            busy("frost", [lens { $0.frost = 3 }]),
            busy("saturation", [lens { $0.saturation = 1.8 }]),
            busy("desaturation", [lens { $0.saturation = 0 }]),
            busy("tint", [lens { $0.tint = RGBAColor(30, 144, 255, 0.35) }]),
            busy(
                "rim-light",
                [
                    lens {
                        $0.rimLight = RimLight(
                            key: RimLobe(angle: -45, amount: 1.5), fill: RimLobe(angle: 135, amount: 1), width: 4,
                            falloff: 3)
                    }
                ]),
            busy("rim-light-off", [lens { $0.rimLight = .off }]),
            busy("shadow", [lens { $0.shadow = DropShadow(offset: Point(x: 4, y: 10), radius: 16, opacity: 0.5) }]),
            busy("shadow-hard", [lens { $0.shadow = DropShadow(offset: Point(x: 6, y: 6), radius: 0, opacity: 0.6) }]),
            busy("shadow-off", [lens { $0.shadow = .off }]),
            busy(
                "touch-glow-under-a-lens",
                {
                    var glass = glassOnGlass
                    glass[0].touchGlow = TouchGlow(center: Point(x: 120, y: 60), radius: 70, amount: 0.2)
                    return glass
                }()),
            busy("ovalization-off", [lens(.roundedRectangle(cornerRadii: [20, 20, 20, 20])) { $0.ovalization = 0 }]),
            busy(
                "tint-mask-straddling-glyph", label: label,
                [
                    lens(frame: Rect(x: 20, y: 40, width: 100, height: 60)) {
                        $0.magnification = 1.2; $0.dispersion = 0.03
                    }
                ]),
            busy(
                "tint-mask-hard-edge", label: label,
                [lens(frame: Rect(x: 70, y: 45, width: 90, height: 50)) { $0.softness = 0 }]),
            busy(
                "canvas-edge",
                [
                    lens(.circle, frame: Rect(x: -40, y: 70, width: 110, height: 110)) {
                        $0.magnification = 1.2; $0.frost = 2
                    }
                ]),
            busy(
                "two-lenses", label: label,
                [
                    lens(.circle, frame: Rect(x: 10, y: 20, width: 90, height: 90)),
                    lens(frame: Rect(x: 70, y: 40, width: 120, height: 60)) { $0.frost = 2 },
                ]),
            busy(
                "everything", label: label,
                [
                    lens(frame: Rect(x: 30, y: 40, width: 140, height: 64)) {
                        $0.magnification = 1.22; $0.dispersion = 0.02; $0.frost = 2; $0.saturation = 1.5
                        $0.tint = RGBAColor(255, 255, 255, 0.1)
                    }
                ]),
            busy("glass-on-frosted-platter", label: label, glassOnGlass),
            busy(
                "three-levels",
                [
                    lens(
                        .roundedRectangle(cornerRadii: [20, 20, 20, 20]),
                        frame: Rect(x: 5, y: 5, width: 190, height: 130)
                    ) {
                        $0.frost = 4; $0.tint = RGBAColor(0, 0, 0, 0.2)
                    },
                    lens(.circle, frame: Rect(x: 30, y: 20, width: 100, height: 100)) { $0.dispersion = 0.05 },
                    lens(frame: Rect(x: 80, y: 50, width: 100, height: 50)) {
                        $0.frost = 1; $0.magnification = 1.3
                    },
                ]),
            busy(
                "segment-lens", label: label,
                [lens(frame: Rect(x: 30, y: 42, width: 110, height: 50)) { $0 = Optics(preset: .segmentLens) }]),
            busy(
                "segment-lens-magnified", label: label,
                [
                    lens(frame: Rect(x: 60, y: 38, width: 110, height: 56)) {
                        $0 = Optics(preset: .segmentLens)
                        $0.magnification = 1.22
                    }
                ]),
            busy(
                "segment-lens-group-at-edge", label: label,
                [
                    GlassElement(
                        shapes: [
                            PlacedShape(shape: .capsule, frame: Rect(x: -20, y: 45, width: 90, height: 44)),
                            PlacedShape(shape: .circle, frame: Rect(x: 70, y: 30, width: 60, height: 60)),
                        ], blend: 14, optics: Optics(preset: .segmentLens))
                ]),
            busy(
                "group-with-tinted-shape", label: label,
                [
                    GlassElement(
                        shapes: [
                            PlacedShape(shape: .capsule, frame: Rect(x: 12, y: 45, width: 110, height: 48)),
                            PlacedShape(
                                shape: .circle, frame: Rect(x: 128, y: 43, width: 52, height: 52),
                                tint: RGBAColor(0, 122, 255, 0.85)),
                        ], blend: 16, optics: Optics(preset: .regular))
                ]),
            busy("regular-glass", label: label, [lens { $0 = Optics(preset: .regular) }]),
            busy("regular-dark-glass", label: label, [lens { $0 = Optics(preset: .regularDark) }]),
            busy("clear-glass", label: label, [lens { $0 = Optics(preset: .clear) }]),
            ParityScene(
                name: "scale-2",
                scene: Scene(
                    canvas: Canvas(width: 100, height: 70, scale: 2), background: busyBackground,
                    glass: [lens(frame: Rect(x: 20, y: 15, width: 60, height: 40))])),
        ]
        + ProbeBackground.allCases.map { probe in
            ParityScene(
                name: "probe-\(probe.rawValue)",
                scene: Scene(
                    canvas: canvas, background: [BackgroundLayer(.probe(probe))],
                    glass: [lens(.circle, frame: Rect(x: 40, y: 10, width: 120, height: 120))]))
        }
        + BuiltInScene.allCases.map { ParityScene(name: "example-\($0.rawValue)", scene: $0.scene) }
        // Glass in motion: the morph as a button, growing, nearly settled, settled and closing;
        // glass materialising, pressed and leaving; the screen scrolling under a press on the tab
        // bar's "+", under the dragged tab-bar lens, and under its menu growing; a still half
        // materialised.
        + [
            (BuiltInAnimation.menuMorph, [0.1, 0.25, 0.3, 0.45, 1.0, 1.35]),
            (.glassTransitions, [0.35, 0.8, 1.1, 1.8]),
            (.screenMotion, [1.1, 2.0, 3.05]),
        ]
        .flatMap { animation, times in
            times.map { ParityScene(name: "\(animation.rawValue)-at-\($0)", scene: animation.frame(at: $0)) }
        }
        + [
            {
                var glass = lens { $0.frost = 3 }
                glass.presence = 0.5
                return busy("presence-half", [glass])
            }()
        ]
        + FeatureGallery.cells.map { ParityScene(name: "gallery-\($0.name)", scene: $0.scene) }
        + [ContentSizeCategory.extraSmall, .large, .accessibility3, .accessibility5].flatMap { size in
            ControlAppearance.allCases.map { appearance in
                ParityScene(
                    name: "segmented-\(size.rawValue)-\(appearance.rawValue)",
                    scene: BuiltInScene.segmented.scene(appearance: appearance, contentSize: size))
            }
        }
        + [BuiltInScene.tabBar, .lensMenu].map {
            ParityScene(name: "\($0.rawValue)-dark", scene: $0.scene(appearance: .dark))
        }
        // At rest the thumb is an opaque fill with the titles laid again over it.
        + ControlAppearance.allCases.map { appearance in
            var scene = BuiltInScene.segmented.scene(appearance: appearance)
            if case .segmented(var control) = scene.controls[0] {
                control.lift = 0
                control.held = 0
                control.thumbPosition = 1
                scene.controls[0] = .segmented(control)
            }
            return ParityScene(name: "segmented-resting-\(appearance.rawValue)", scene: scene)
        }
        + [(LensMenu.LensStyle.liquidLens, 0.0), (.fallback, 0.5)].map { style, lift in
            var scene = BuiltInScene.lensMenu.scene
            if case .lensMenu(var menu) = scene.controls[0] {
                menu.lensStyle = style
                menu.lift = lift
                scene.controls[0] = .lensMenu(menu)
            }
            return ParityScene(name: "lens-menu-\(style.rawValue)-lift-\(lift)", scene: scene)
        }
}
