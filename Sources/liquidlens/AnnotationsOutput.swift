import Foundation
import LensIO
import LiquidLens

/// `--annotations`: a frame's ``FrameAnnotations`` as the command line writes them (JSON, keys
/// sorted, indented), whole or not at all.
enum AnnotationsOutput {
    static func data(_ annotations: FrameAnnotations) throws -> Data {
        try encoder(indented: true).encode(annotations) + Data("\n".utf8)
    }

    /// The JSON encoder of the documents the command line writes for datasets (annotations,
    /// samples' scenes, COCO): keys sorted, every `Double` written as one (`12.0`), so loaders
    /// that type a column per file agree across shards; indented for a person to read.
    static func encoder(indented: Bool) -> TypedJSONEncoder {
        TypedJSONEncoder(indented: indented)
    }

    /// Writes the annotations of `parameters` (resolved with annotations) to `url`.
    static func write(_ parameters: FrameParameters, to url: URL) throws {
        guard let annotations = parameters.annotations else { return }
        try OutputFile.write(try data(annotations), to: url)
    }

    /// Writes an animation's annotations to `url`, compact (one frame's can be long).
    static func write(_ animation: AnimationAnnotations, to url: URL) throws {
        try OutputFile.write(try encoder(indented: false).encode(animation) + Data("\n".utf8), to: url)
    }
}

/// `animate --annotations`: every frame's annotations in order, each with its `time`.
struct AnimationAnnotations: Encodable {
    /// The frames per second the animation was sampled at.
    let fps: Double
    let frames: [FrameAnnotations]
}
