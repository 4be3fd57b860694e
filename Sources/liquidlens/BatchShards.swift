import Foundation
import LensIO
import LiquidLens

/// `batch --format webdataset`: tar shards of `--samples-per-shard` frames, each sample the
/// frame's image, its annotations and its scene, for dataset loaders (WebDataset, Hugging Face
/// `datasets`).
extension BatchCommand {
    /// What `--format` names: image files (or a stream) of one format, or WebDataset shards.
    enum BatchFormat: Equatable, ExpressibleByArgument {
        case image(ImageFormat)
        case webDataset

        static var argumentParser: ValueParser<BatchFormat> {
            let image = ImageFormat.argumentParser
            return ValueParser(
                expectation: image.expectation + ", or webdataset", completions: image.completions + ["webdataset"],
                describe: { if case .image(let format) = $0 { image.describe(format) } else { "webdataset" } }
            ) { text in
                text == "webdataset" ? .webDataset : ImageFormat(fileExtension: text).map(BatchFormat.image)
            }
        }
    }

    /// The format of each frame's image: the files', or the samples' (`--frame-format`, PNG by default).
    var imageFormat: ImageFormat {
        switch format {
        case .image(let format): format
        case .webDataset: frameFormat ?? .png
        }
    }

    /// This shard's frames in tars of `--samples-per-shard`, each named by its first frame
    /// (`random-00001.tar`), so tars of one run and of a sharded one never share a name.
    func tarShards(_ manifest: BatchManifest, slice: Range<Int>, in folder: URL) -> [(
        WebDatasetWriter.Shard, Range<Int>
    )] {
        stride(from: slice.lowerBound, to: slice.upperBound, by: samplesPerShard).map { first in
            let frames = first..<min(first + samplesPerShard, slice.upperBound)
            let url = folder.appendingPathComponent("\(manifest.name)-\(manifest.frameNumber(first)).tar")
            return (WebDatasetWriter.Shard(url: url, count: frames.count), frames)
        }
    }

    /// Whether the tar `shard` of an earlier run is whole and holds what this run writes: with
    /// `--masks`, each sample's masks (a run without them wrote none).
    func isComplete(_ shard: WebDatasetWriter.Shard) -> Bool {
        guard TarShard.isComplete(shard.url) else { return false }
        guard masks else { return true }
        let names = TarShard.memberNames(shard.url) ?? []
        return MaskOutput.suffixes.allSatisfy { suffix in
            names.filter { $0.hasSuffix(".\(suffix)") }.count == shard.count
        }
    }

    /// A sample's key: the frame's name, with no dot (WebDataset reads a key up to its first dot).
    static func sampleKey(_ manifest: BatchManifest, _ index: Int) -> String {
        manifest.outputStem(index).replacingOccurrences(of: ".", with: "_")
    }

    /// A sample's files but its image: its annotations and its scene, as JSON, and with `masks`
    /// its glass and tint masks (`glass.png`, `tint.png`).
    static func sampleDocuments(_ parameters: FrameParameters, scene: Scene, masks: Bool) throws
        -> WebDatasetWriter.Documents
    {
        let encoder = AnnotationsOutput.encoder(indented: false)
        var documents: WebDatasetWriter.Documents = [("scene.json", try encoder.encode(scene))]
        if let annotations = parameters.annotations {
            documents.insert(("json", try encoder.encode(annotations)), at: 0)
        }
        if masks { documents += try MaskOutput.documents(parameters) }
        return documents
    }
}
