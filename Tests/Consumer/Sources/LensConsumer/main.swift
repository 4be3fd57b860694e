// Renders the showcase and a scene built in code on both backends, checks they agree, and writes
// the showcase: what a user of the library does first.
import Foundation
import LiquidLens

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "consumer.png")
let gpu = try LensRenderer(backend: .vulkan)
let cpu = try LensRenderer(backend: .cpu)
let scene = Scene(
    canvas: Canvas(width: 200, height: 120),
    background: [BackgroundLayer(.checker(size: 10, colors: [.black, .white]))],
    glass: [GlassElement(shape: .capsule, frame: Rect(x: 30, y: 30, width: 140, height: 60))])
for candidate in [BuiltInScene.segmented.scene, scene] {
    let difference = try ImageDiff(try gpu.render(candidate), try cpu.render(candidate))
    guard difference.maxError.max() <= 1 else {
        FileHandle.standardError.write(Data("GPU and CPU differ by \(difference.maxError) levels\n".utf8))
        exit(1)
    }
}
let image = try gpu.render(BuiltInScene.segmented.scene)
try PNGCodec.write(image, to: output)
print("rendered \(image.width)×\(image.height) px on \(gpu.device?.name ?? "the CPU") to \(output.path)")
