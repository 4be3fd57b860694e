import Foundation

/// The embedded scenes of DESIGN.md §3 that exist so far. Names are stable.
public enum BuiltInScene: String, CaseIterable, Sendable {
    /// The showcase: a Health-style picker, its lens lifted mid-drag so the "M" is split at the rim.
    case segmented
    case probeGrid = "probe-grid"
    case probeRamp = "probe-ramp"
    case probeBlack = "probe-black"
    case probeWhite = "probe-white"

    /// One line for `liquidlens examples`.
    public var summary: String {
        switch self {
        case .segmented: "Health-style picker (D W M 6M Y), lens lifted mid-drag, the M split at the rim"
        case .probeGrid: "circle lens over a grid (10 pt grey, 50 pt black lines)"
        case .probeRamp: "circle lens over the sawtooth ramp; displacement decodes from red/green"
        case .probeBlack: "circle lens over black: rim light and contour alone"
        case .probeWhite: "circle lens over white: drop shadow alone"
        }
    }

    public var scene: Scene {
        switch self {
        case .segmented: Self.segmentedScene()
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
            glass: [GlassElement(shape: .circle, frame: Rect(x: 90, y: 25, width: 140, height: 140))])
    }

    /// The picker's label row drawn with ``StrokeFont``, titles centred in their segments.
    static func segmentedLabel(titles: [String], railX: Double, railWidth: Double, railMidY: Double, capHeight: Double)
        -> LabelLayer
    {
        let maskScale = 4.0
        let originY = railMidY - capHeight / 2 - 2
        var mask = AlphaImage(
            width: Int((railWidth * maskScale).rounded(.up)), height: Int(((capHeight + 4) * maskScale).rounded(.up)),
            coverage: [UInt8](
                repeating: 0,
                count: Int((railWidth * maskScale).rounded(.up)) * Int(((capHeight + 4) * maskScale).rounded(.up))))
        let segmentWidth = railWidth / Double(titles.count)
        for (index, title) in titles.enumerated() {
            let centerX = segmentWidth * (Double(index) + 0.5)
            let left = centerX - StrokeFont.advance(of: title) * capHeight / 2
            StrokeFont.draw(title, into: &mask, x: left * maskScale, y: 2 * maskScale, size: capHeight * maskScale)
        }
        return LabelLayer(mask: .image(mask), origin: Point(x: railX, y: originY), scale: maskScale)
    }

    static func segmentedScene() -> Scene {
        let rail = Rect(x: 20, y: 54, width: 350, height: 32)
        var optics = Optics()
        optics.bevelWidth = 8
        optics.bevelAmount = 3
        optics.magnification = 1.05
        optics.dispersion = 0.04
        optics.saturation = 1.3
        optics.tint = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.08)
        optics.shadow = DropShadow(offset: Point(x: 0, y: 4), radius: 12, opacity: 0.18)
        optics.rimLight = RimLight(
            key: RimLobe(angle: -45, amount: 0.9), fill: RimLobe(angle: 135, amount: 0.6), width: 1.5, falloff: 2)
        return Scene(
            canvas: Canvas(width: 390, height: 140, scale: 2),
            background: [
                BackgroundLayer(
                    .gradient(
                        colors: [RGBAColor(255, 214, 165), RGBAColor(255, 173, 200), RGBAColor(160, 196, 255)],
                        angle: 20)),
                BackgroundLayer(.lines(spacing: 14, width: 1.5, angle: 60, color: .white), opacity: 0.35),
                BackgroundLayer(.fill(shape: .capsule, frame: rail, color: RGBAColor(255, 255, 255, 0.55))),
            ],
            label: segmentedLabel(
                titles: ["D", "W", "M", "6M", "Y"], railX: rail.x, railWidth: rail.width, railMidY: rail.midY,
                capHeight: 12),
            glass: [GlassElement(shape: .capsule, frame: Rect(x: 112, y: 48, width: 84, height: 44), optics: optics)])
    }
}
