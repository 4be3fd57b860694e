import Foundation
import LiquidLens
import Testing

/// Where a translucent black (0.88) meets a light grey (242, 242, 247): each path that blends layers.
enum BlendPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case backdropLayer, labelRow, foregroundLayer, glassTint, restingPlatter

    var testDescription: String { rawValue }

    static let grey = RGBAColor(242, 242, 247)
    static let translucentBlack = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.88)

    /// A 40×40 pt scene at scale 1 whose centre pixel shows the blend.
    func scene(_ blending: Blending) -> Scene {
        let canvas = Canvas(width: 40, height: 40, scale: 1)
        let whole = Rect(x: 0, y: 0, width: 40, height: 40)
        let square = Shape.roundedRectangle(cornerRadii: [0, 0, 0, 0])
        var scene = Scene(
            canvas: canvas, background: [BackgroundLayer(.solid(Self.grey))], glass: [], blending: blending)
        switch self {
        case .backdropLayer:
            scene.background.append(BackgroundLayer(.fill(shape: square, frame: whole, color: Self.translucentBlack)))
        case .labelRow:
            let mask = AlphaImage(width: 40, height: 40, coverage: [UInt8](repeating: 255, count: 1600))
            scene.label = LabelLayer(mask: .image(mask), scale: 1, resting: Self.translucentBlack)
        case .foregroundLayer:
            scene.foreground = [BackgroundLayer(.fill(shape: square, frame: whole, color: Self.translucentBlack))]
        case .glassTint, .restingPlatter:
            var optics = Optics()
            optics.bevelAmount = 0
            optics.rimLight = .off
            optics.shadow = .off
            var element = GlassElement(
                shape: square, frame: Rect(x: -10, y: -10, width: 60, height: 60), optics: optics)
            if self == .glassTint {
                element.optics.tint = Self.translucentBlack
            } else {
                element.lift = LensLift(progress: 0, restingBackground: Self.translucentBlack)
            }
            scene.glass = [element]
        }
        return scene
    }
}

@Suite("Core Animation blending")
struct BlendingTests {
    @Test(
        "Black at 0.88 over (242, 242, 247) gives (29, 29, 30) on sRGB values by default and (92, 92, 94) in linear light",
        arguments: BlendPath.allCases, [Backend.cpu, .vulkan])
    func translucentBlackOverGrey(_ path: BlendPath, _ backend: Backend) throws {
        for (blending, expected) in [(Blending.srgb, SIMD3<Int>(29, 29, 30)), (.linear, SIMD3<Int>(92, 92, 94))] {
            let image = try render(resolve(path.scene(blending)), on: backend)
            let index = (20 * image.width + 20) * 4
            let pixel = SIMD3(Int(image.pixels[index]), Int(image.pixels[index + 1]), Int(image.pixels[index + 2]))
            let error = (pixel &- expected).replacing(with: expected &- pixel, where: pixel .< expected).max()
            #expect(error <= 1, "\(blending): got \(pixel), expected \(expected) ± 1")
        }
    }

    @Test("Scenes blend on sRGB values unless they say \"blending\": \"linear\"")
    func sceneKey() throws {
        let json = #"{"canvas": {"width": 10, "height": 10}, "glass": []}"#
        #expect(try Scene.decode(Data(json.utf8)).blending == .srgb)
        let linear = #"{"canvas": {"width": 10, "height": 10}, "glass": [], "blending": "linear"}"#
        #expect(try Scene.decode(Data(linear.utf8)).blending == .linear)
        let wrong = #"{"canvas": {"width": 10, "height": 10}, "glass": [], "blending": "gamma"}"#
        #expect(throws: SceneError.self) { try Scene.decode(Data(wrong.utf8)) }
    }
}
