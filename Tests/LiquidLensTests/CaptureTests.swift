import Foundation
import LiquidLens
import Testing

/// The renderer held to real iOS 26 captures: each capture's numbers (`Captures/*.measured.json`,
/// measured from `shared/reference/captures`) against our render of the scene that re-creates it.
@Suite("Captures: against iOS")
struct CaptureTests {
    static let recording = ProcessInfo.processInfo.environment["LIQUIDLENS_RECORD_CAPTURES"] == "1"

    static func render(_ record: CaptureRecord, on backend: Backend) throws -> RGBA8Image {
        let url = CaptureRecord.folder.appendingPathComponent(record.scene)
        let scene = try Scene.load(contentsOf: url)
        return try LiquidLensTests.render(
            try resolve(scene, directory: url.deletingLastPathComponent()), on: backend)
    }

    @Test(
        "Every held window is within tolerance of the capture; both backends render the capture's size, to the bit",
        arguments: CaptureRecord.names)
    func heldWindows(_ name: String) throws {
        var record = try CaptureRecord.load(name)
        let image = try Self.render(record, on: .vulkan)
        #expect(try Self.render(record, on: .cpu) == image, "\(name): the backends differ")
        if let capture = try? record.readCapture() {
            #expect(capture.width == image.width && capture.height == image.height, "\(name): size")
        }
        #expect(record.windows.contains { $0.held }, "\(name) holds nothing")
        for index in record.windows.indices {
            let window = record.windows[index]
            let ours = window.measure(image)
            let distance = window.distance(ours, pixelsPerPoint: record.pixelsPerPoint)
            if window.held {
                #expect(
                    distance <= window.tolerance,
                    "\(name) · \(window.name): \(distance) \(window.unit) from the capture (at most \(window.tolerance)); capture \(window.capture), ours \(ours)"
                )
            }
            record.windows[index].ours = ours
        }
        if Self.recording { try record.save(as: name) }
    }

    @Test("The Fidelity article's profile plot is drawn from the stored numbers")
    func plot() throws {
        let svg = CapturePlot.svg(try CaptureRecord.names.map(CaptureRecord.load))
        if Self.recording { try Data(svg.utf8).write(to: CapturePlot.resource, options: .atomic) }
        #expect(try String(contentsOf: CapturePlot.resource, encoding: .utf8) == svg, "re-record the plot")
    }

    /// The stored numbers are what the captures show; skipped only where the captures are not
    /// beside the project (they are never copied into it).
    @Test(
        "The stored numbers re-measure from the captures",
        .enabled(if: FileManager.default.fileExists(atPath: CaptureRecord.capturesFolder.path)),
        arguments: CaptureRecord.names)
    func remeasure(_ name: String) throws {
        var record = try CaptureRecord.load(name)
        let capture = try record.readCapture()
        // Renders made before a fit, to record as `before` (`LIQUIDLENS_RECORD_CAPTURES_BEFORE=folder`).
        let before = ProcessInfo.processInfo.environment["LIQUIDLENS_RECORD_CAPTURES_BEFORE"].flatMap {
            try? PNGCodec.read(contentsOf: URL(fileURLWithPath: $0).appendingPathComponent("\(name).png"))
        }
        for index in record.windows.indices {
            let measured = record.windows[index].measure(capture)
            if Self.recording {
                record.windows[index].capture = measured
                if let before { record.windows[index].before = record.windows[index].measure(before) }
            }
            #expect(measured == record.windows[index].capture, "\(name) · \(record.windows[index].name)")
        }
        if Self.recording { try record.save(as: name) }
    }
}
