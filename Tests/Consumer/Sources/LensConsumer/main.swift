// Renders the showcase and a scene built in code on both backends, holds the pairs to the parity
// limits with a DiffReport (as a test suite in another package would), and writes the showcase
// and the JUnit results: what a user of the library does first.
import Foundation
import LensCompare
import LiquidLens

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "consumer.png")
let gpu = try LensRenderer(backend: .vulkan)
let cpu = try LensRenderer(backend: .cpu)
let scene = Scene(
    canvas: Canvas(width: 200, height: 120),
    background: [BackgroundLayer(.checker(size: 10, colors: [.black, .white]))],
    glass: [GlassElement(shape: .capsule, frame: Rect(x: 30, y: 30, width: 140, height: 60))])
var report = DiffReport(title: "consumer: GPU vs CPU")
for (name, candidate) in [("showcase", BuiltInScene.segmented.scene), ("capsule", scene)] {
    report.pairs.append(
        try DiffReport.Pair.compare(
            name: name, actual: try gpu.render(candidate), expected: try cpu.render(candidate),
            configuration: DiffConfiguration(thresholds: .parity)))
}
try report.writeJUnit(to: output.deletingPathExtension().appendingPathExtension("xml"))
guard report.passed else {
    FileHandle.standardError.write(Data("GPU and CPU differ:\n\(report.failureSummary)\n".utf8))
    exit(1)
}
let image = try gpu.render(BuiltInScene.segmented.scene)
try PNGCodec.write(image, to: output)
print("rendered \(image.width)×\(image.height) px on \(gpu.device?.name ?? "the CPU") to \(output.path)")
