import Foundation
import LensIO
import LiquidLens

/// `liquidlens batch`: every frame of a manifest (scene list, sweep or random frames) into a folder or stdout.
struct BatchCommand: Command {
    /// `--shard i/n`: slice `index` of `count` (0-based).
    struct Shard {
        let index: Int
        let count: Int
    }

    static let name = "batch"
    static let abstract =
        "Render every frame of a batch manifest (a scene list, a parameter sweep or random frames) into a folder."
    static let discussion: String? = """
        The manifest lists scenes ({"scenes": ["a.json", {"example": "tab-bar"}, {"workload":
        "screen"}]}, a workload being the frame bench verifies) or sweeps one
        scene ({"scene": "a.json", "sweep": [{"key": "glass[0].frame.x", "from": 0, "to": 300,
        "steps": 16}]}); several sweeps multiply. "count": N with "sample": [{"key": …, "uniform":
        [lo, hi]}] (or "normal", "integer", "choice") draws N random frames, each frame's values
        fixed by "seed" and its number. Output names are deterministic (00001-a.png,
        frame-00001.png), so --shard I/N (0-based) splits a batch across machines and the union
        of all shards equals one unsharded run. Frames are written atomically; --resume keeps
        the complete ones. --format jpeg or webp (at --quality) writes previews and thumbnails,
        qoi lossless frames quickly; webdataset tar shards of --samples-per-shard samples (each
        the image, its annotations and its scene; with --masks its glass.png and tint.png)
        for dataset loaders. --annotations and --masks write a frame's boxes and masks beside
        its image. With -o - (or a named pipe) the frames stream there one after another (rgba,
        ppm or pam for pipes).
        """

    @Argument("manifest", help: "A batch manifest JSON file.") var manifestPath: String
    var output = OutputOption(
        valueName: "dir", help: "The folder to write (default: the manifest's name), - for stdout, or a pipe.")
    @Option(
        "format",
        help:
            "png, jpeg, webp or qoi; rgba (raw), ppm or pam for pipes (names end .png, .jpg, .webp, .qoi, …); webdataset: tar shards of samples."
    )
    var format: BatchFormat = .image(.png)
    @Option(
        "frame-format", valueName: "format", help: "WebDataset samples' images: png (default), jpeg, webp or qoi.",
        parser: .frameFormat)
    var frameFormat: ImageFormat?
    @Option(
        "samples-per-shard", valueName: "n", help: "WebDataset: frames in each tar (default: 1000).",
        parser: .integer(in: 1...1_000_000))
    var samplesPerShard = 1000
    @Option("png-compression", valueName: "level", help: "fast, default or best.")
    var compression: PNGCompression = .default
    var quality = QualityOption()
    @Option(
        "jobs", short: "j", valueName: "n", help: "Images encoded at once (default: the core count).",
        parser: .integer(in: 1...256))
    var jobs: Int?
    @Option("shard", valueName: "i/n", help: "Render only slice i of n (0-based).", parser: .shard)
    var shard = Shard(index: 0, count: 1)
    @Flag("resume", help: "Skip frames whose output is already complete.") var resume: Bool
    @Flag(
        "annotations",
        help:
            "Also write each frame's annotations (glass and control-part boxes, states, optics) as <name>.json beside it."
    )
    var annotates: Bool
    @Flag(
        "masks",
        help:
            "Also write each frame's glass and accent-label masks (8-bit grey) as <name>.glass.png and <name>.tint.png beside it (WebDataset: in its sample)."
    )
    var masks: Bool
    var framesInFlight = FramesInFlightOption()
    var backend = BackendOption()
    var backdrop = BackdropOption()
    var glass = GlassOption()
    var device = DeviceOption()
    var compile = CompileOption()
    var progress = ProgressOption()

    func run() throws {
        let manifestURL = URL(fileURLWithPath: manifestPath)
        let manifest = try loadFile(manifestPath, expected: .manifest, BatchManifest.load(contentsOf:))
        let outputURL = Console.outputURL(output.path ?? manifestURL.deletingPathExtension().lastPathComponent)
        let sink = try frameSink(outputURL)
        try checkOptionsTogether(sink)
        quality.noteIfUnused(writing: imageFormat, quiet: progress.quiet)
        noteVulkanOptionsUnused(backend.choice, device: device, compile: compile, quiet: progress.quiet)
        let (todo, tars) = framesToRender(manifest, sink: sink)
        let quiet = progress.style == .none
        if todo.isEmpty {
            if !quiet { printError("nothing to render: every frame of this shard is complete") }
            return
        }
        let renderer = try makeRenderer(
            backend.choice, device.vulkanOptions, job: try job(manifest, frames: todo.count, first: todo[0]),
            whileCompiling: compile.policy, quiet: quiet)
        let rendered = try render(todo, of: manifest, with: renderer, into: sink, tars: tars)
        if !quiet {
            let what =
                format == .webDataset
                ? "\(tars.count) WebDataset shards of \(imageFormat.rawValue)" : imageFormat.rawValue
            printError("wrote \(rendered) frames to \(Console.name(outputURL)) (\(what), \(renderer.backendName))")
            noteCompiles(renderer, compile)
        }
    }

    /// Options that do not go together with the output: a stream takes no files beside its frames.
    private func checkOptionsTogether(_ sink: FrameSink) throws {
        guard case .stream = sink else {
            if frameFormat != nil && format != .webDataset {
                throw UsageError(message: "--frame-format sets a WebDataset sample's image; use --format for files")
            }
            return
        }
        if let option = [
            (annotates, "--annotations"), (masks, "--masks"), (format == .webDataset, "--format webdataset"),
        ]
        .first(where: \.0)?.1 {
            throw UsageError(message: "\(option) writes files; give -o a folder, not a stream")
        }
    }

    /// The file name of frame `index` in a folder output.
    private func fileName(_ manifest: BatchManifest, _ index: Int) -> String {
        manifest.outputStem(index) + "." + imageFormat.fileExtension
    }

    /// Whether frame `index` is written: its image complete, and its annotations and masks with
    /// `--annotations` and `--masks` (a frame of a run without them is rendered again).
    private func isComplete(_ index: Int, of manifest: BatchManifest, in folder: URL) -> Bool {
        imageFormat.isComplete(folder.appendingPathComponent(fileName(manifest, index)))
            && companionNames(manifest, index).allSatisfy {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
    }

    /// Frame `index`'s annotations file: written before its image, so a frame whose image is
    /// complete has both.
    private func annotationsName(_ manifest: BatchManifest, _ index: Int) -> String {
        manifest.outputStem(index) + ".json"
    }

    /// The files written beside frame `index`'s image, before it: its annotations and its masks
    /// when asked for.
    private func companionNames(_ manifest: BatchManifest, _ index: Int) -> [String] {
        (annotates ? [annotationsName(manifest, index)] : [])
            + (masks ? MaskOutput.fileNames(stem: manifest.outputStem(index)) : [])
    }

    /// This shard's frames still to render, announced, and the WebDataset shards they fill: with
    /// `--resume`, those whose file (or tar) in the output folder is not complete. Leftover
    /// temporary files of this shard's outputs are removed first; another shard, or a second run
    /// of this one, may be writing into the same folder.
    private func framesToRender(
        _ manifest: BatchManifest, sink: FrameSink
    ) -> (todo: [Int], tars: [WebDatasetWriter.Shard]) {
        let slice = manifest.shard(shard.index, of: shard.count)
        var todo = Array(slice)
        var tars: [WebDatasetWriter.Shard] = []
        if case .folder(let folder) = sink, format == .webDataset {
            var plan = tarShards(manifest, slice: slice, in: folder)
            TemporaryFile.removeLeftovers(in: folder, ownNames: Set(plan.map(\.0.url.lastPathComponent)))
            if resume { plan.removeAll { isComplete($0.0) } }
            tars = plan.map(\.0)
            todo = plan.flatMap { Array($0.1) }
        } else if case .folder(let folder) = sink {
            let names =
                slice.map { fileName(manifest, $0) } + slice.flatMap { companionNames(manifest, $0) }
            TemporaryFile.removeLeftovers(in: folder, ownNames: Set(names))
            if resume { todo.removeAll { isComplete($0, of: manifest, in: folder) } }
        }
        let skipped = slice.count - todo.count
        if progress.style != .none {
            printError(
                "batch: \(slice.count) of \(manifest.count) frames (shard \(shard.index)/\(shard.count))"
                    + (skipped > 0 ? ", \(skipped) already complete" : ""))
        }
        return (todo, tars)
    }

    /// Renders the frames `todo` into `sink` (or into the WebDataset shards `tars`), encoding on
    /// `--jobs` workers while the next frames render; the number of frames written. An
    /// interruption stops it with every written file complete.
    private func render(
        _ todo: [Int], of manifest: BatchManifest, with renderer: LensRenderer, into sink: FrameSink,
        tars: [WebDatasetWriter.Shard]
    ) throws -> Int {
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let encoder = EncodingQueue(workers: workers)
        let samples =
            format == .webDataset
            ? WebDatasetWriter(
                shards: tars, format: imageFormat, compression: compression, quality: quality.value, workers: workers)
            : nil
        let progress = Progress(total: todo.count, style: self.progress.style)
        let cache = ResolveCache()
        var documents: [Int: WebDatasetWriter.Documents] = [:]
        func finishWriting() throws {
            try encoder.finish()
            try samples?.finish()
        }
        Interruption.watch()
        var rendered = 0
        do {
            try renderer.renderBatch(count: todo.count, framesInFlight: framesInFlight.count) { position in
                if Interruption.requested { throw Interrupted(message: "") }
                let (parameters, scene) = try resolveFrame(todo[position], of: manifest, cache: cache)
                if samples != nil {
                    documents[position] = try Self.sampleDocuments(parameters, scene: scene, masks: masks)
                } else if case .folder(let folder) = sink {
                    try writeCompanions(parameters, frame: todo[position], of: manifest, in: folder)
                }
                return parameters
            } deliver: { position, image in
                if let samples {
                    try samples.add(
                        position: position, key: Self.sampleKey(manifest, todo[position]), image: image,
                        documents: documents.removeValue(forKey: position) ?? [])
                } else {
                    try write(image, frame: todo[position], of: manifest, into: sink, encoder: encoder)
                }
                rendered += 1
                progress.advance(index: todo[position], values: manifest.keyValuesJSON(todo[position]))
            }
            try finishWriting()
            if case .stream(let stream) = sink { try stream.close() }
        } catch is Interrupted {
            try? finishWriting()
            progress.finish()
            throw Interrupted(
                message:
                    "interrupted after \(rendered) of \(todo.count) frames; every file written is complete: rerun the same command with --resume to render the rest"
            )
        } catch {
            try? finishWriting()
            progress.finish()
            throw error
        }
        progress.finish()
        return rendered
    }

    /// Writes frame `index`'s annotations and masks, as asked for, into `folder`.
    private func writeCompanions(
        _ parameters: FrameParameters, frame index: Int, of manifest: BatchManifest, in folder: URL
    ) throws {
        if annotates {
            try AnnotationsOutput.write(parameters, to: folder.appendingPathComponent(annotationsName(manifest, index)))
        }
        if masks { try MaskOutput.write(parameters, stem: manifest.outputStem(index), in: folder) }
    }

    /// Writes frame `index`'s image into `sink`: onto the stream, or to its file by `encoder`.
    private func write(
        _ image: RGBA8Image, frame index: Int, of manifest: BatchManifest, into sink: FrameSink,
        encoder: EncodingQueue
    ) throws {
        switch sink {
        case .stream(let stream):
            try stream.write(try imageFormat.encode(image, compression: compression, quality: quality.value))
        case .folder(let folder):
            try encoder.write(
                image, to: folder.appendingPathComponent(fileName(manifest, index)), format: imageFormat,
                compression: compression, quality: quality.value)
        }
    }

    /// Frame `index` of the manifest, resolved; a scene error names the manifest, the frame and its output.
    private func resolveFrame(
        _ index: Int, of manifest: BatchManifest, cache: ResolveCache
    ) throws -> (FrameParameters, Scene) {
        do {
            let (source, directory) = try manifest.scene(index)
            let scene = glass.apply(to: source)
            let parameters = try LensRenderer.resolve(
                try backdrop.apply(to: scene, scale: manifest.scale), baseDirectory: directory,
                scale: manifest.scale, cache: cache, pixelBudget: CommandEnvironment.pixelBudget,
                annotating: annotates || format == .webDataset)
            return (parameters, scene)
        } catch let error as SceneError {
            throw CommandFailure(
                message: "\(manifestPath), frame \(index + 1) (\(manifest.outputStem(index))): \(error)")
        }
    }

    /// The batch as `--backend auto` weighs it: its frames, each the size of the first.
    private func job(_ manifest: BatchManifest, frames: Int, first: Int) throws -> RenderJob {
        do {
            let scene = try backdrop.apply(to: try manifest.scene(first).scene, scale: manifest.scale)
            return RenderJob(frames: frames, scene: scene, scale: manifest.scale)
        } catch let error as SceneError {
            throw CommandFailure(
                message: "\(manifestPath), frame \(first + 1) (\(manifest.outputStem(first))): \(error)")
        }
    }

    /// Where the frames go: files in a folder, or one stream they follow each other in.
    private enum FrameSink {
        case folder(URL)
        case stream(StreamingOutput)
    }

    /// The sink `url` names: a folder (made when missing), or standard output, a pipe or a device.
    private func frameSink(_ url: URL) throws -> FrameSink {
        let destination = try OutputDestination(of: url)
        switch destination {
        case .standardOutput, .stream:
            // Checked before a pipe is opened, which waits for its reader.
            if resume { throw UsageError(message: "--resume needs an output folder, not a stream") }
            if case .stream(let node) = destination { return .stream(try StreamingOutput(opening: node)) }
            return .stream(StreamingOutput())
        case .folder(let folder):
            return .folder(folder)
        case .file(let target):
            guard !FileManager.default.fileExists(atPath: target.path) else {
                throw CommandFailure(
                    message: "cannot write \(url.path): it is a file; batch writes a folder of frames, or - for stdout")
            }
            return .folder(target)
        }
    }
}

extension ValueParser where Value == BatchCommand.Shard {
    /// `i/n` with 0 ≤ i < n.
    static var shard: Self {
        Self(expectation: "i/n with 0 ≤ i < n", describe: { "\($0.index)/\($0.count)" }) { text in
            let parts = text.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (0..<count).contains(index)
            else { return nil }
            return BatchCommand.Shard(index: index, count: count)
        }
    }
}
