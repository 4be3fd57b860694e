import Foundation
import LensIO
import LiquidLens

/// `--annotations`: a frame's ``FrameAnnotations`` as the command line writes them (JSON, keys
/// sorted, indented), whole or not at all.
enum AnnotationsOutput {
    static func data(_ annotations: FrameAnnotations) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(annotations) + Data("\n".utf8)
    }

    /// Writes the annotations of `parameters` (resolved with annotations) to `url`.
    static func write(_ parameters: FrameParameters, to url: URL) throws {
        guard let annotations = parameters.annotations else { return }
        try OutputFile.write(try data(annotations), to: url)
    }
}
