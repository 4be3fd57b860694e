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

/// `--masks`: a frame's `FrameMasks` as greyscale PNGs beside its image, `<stem>.glass.png` and
/// `<stem>.tint.png`, or as a WebDataset sample's `glass.png` and `tint.png`.
enum MaskOutput {
    /// The suffixes of the masks' names after the image's stem, in the order `documents` gives them.
    static let suffixes = ["glass.png", "tint.png"]

    /// The masks' file names beside an image whose name without its extension is `stem`.
    static func fileNames(stem: String) -> [String] {
        suffixes.map { "\(stem).\($0)" }
    }

    /// The masks of `parameters` as PNG files' contents, named by their suffixes.
    static func documents(_ parameters: FrameParameters) throws -> [(String, Data)] {
        let masks = LensRenderer.masks(of: parameters)
        return try zip(suffixes, [masks.glass, masks.tint]).map { ($0, try PNGCodec.encode($1)) }
    }

    /// Writes the masks of `parameters` into `folder` beside an image whose stem is `stem`, each
    /// file whole or not at all.
    static func write(_ parameters: FrameParameters, stem: String, in folder: URL) throws {
        for (suffix, data) in try documents(parameters) {
            try OutputFile.write(data, to: folder.appendingPathComponent("\(stem).\(suffix)"))
        }
    }
}
