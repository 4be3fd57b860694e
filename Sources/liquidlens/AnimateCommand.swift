import Foundation
import LiquidLens

extension BuiltInAnimation: ExpressibleByArgument {
    static var argumentParser: ValueParser<BuiltInAnimation> { .named("animation") }
}

/// `liquidlens animate`: a scene's animation (or a built-in one) as frames, APNG, GIF or video.
struct AnimateCommand: Command {
    /// The backend `--fallback` may switch to when the Vulkan device fails mid-run.
    enum FallbackBackend: String, CaseIterable {
        case cpu
    }

    static let name = "animate"
    static let abstract = "Render an animation: a folder of frames, an animated PNG, a GIF, an MP4 or a WebM."
    static let discussion: String? = """
        The output's extension picks the format, or --format: a folder (no extension) gets numbered
        PNGs (or JPEG, WebP or QOI frames with --frame-format); .png is an animated PNG, .gif a GIF, .mp4 / .webm a video (those need ffmpeg). With
        -o - (and --format) the file streams to stdout. The scene's
        "animation" drives its first control; motion is a function of time, so any --fps samples
        the same curves. With neither <scene> nor --example, renders segmented-drag.
        """

    @Argument("scene", help: "A scene JSON file with an \"animation\".") var scenePath: String?
    @Option("example", valueName: "name", help: "A built-in animation (see 'liquidlens examples').")
    var example: BuiltInAnimation?
    var output = OutputOption(help: "Folder, .png, .gif, .mp4 or .webm; - for stdout.")
    @Option("format", help: "folder, apng, gif, mp4 or webm (default: from the output's extension).")
    var format: AnimationFormat?
    @Option(
        "frame-format", valueName: "format",
        help: "A folder's frames: png (default), jpeg, webp or qoi.",
        parser: .frameFormat)
    var frameFormat: ImageFormat?
    var quality = QualityOption()
    @Option("fps", help: "Frames per second, 1…240.", parser: .number(in: 1...240)) var fps = 30.0
    @Option(
        "duration", valueName: "seconds", help: "Length (default: the animation's).",
        parser: .number(expectation: "seconds, more than 0 (a clip has at least one frame) and at most 600") {
            $0 > 0 && $0 <= 600
        })
    var duration: Double?
    var backend = BackendOption()
    var scale = ScaleOption()
    var backdrop = BackdropOption()
    var glass = GlassOption()
    var device = DeviceOption()
    var compile = CompileOption()
    var progress = ProgressOption()
    @Flag("resume", help: "Keep complete frames in the output folder; render the rest.") var resume: Bool
    @Flag(
        "force",
        help:
            "Remove every frame the output folder holds first (by default each frame written replaces the one of its name and the others stay)."
    )
    var force: Bool
    @Option(
        "fallback", valueName: "backend", help: "cpu: if the Vulkan device fails mid-run, go on on the CPU reference.",
        parser: .choice())
    var fallback: FallbackBackend?
    @Option(
        "annotations", valueName: "file",
        help:
            "Also write every frame's annotations (glass and control-part boxes, states, optics) as one JSON file, or - for stdout."
    )
    var annotationsPath: String?
    @Option(
        "masks", valueName: "folder",
        help:
            "Also write every frame's glass and accent-label masks (8-bit grey PNGs) into a folder of their own: frame-0001.glass.png, frame-0001.tint.png, …"
    )
    var masksPath: String?

    /// What to render: the frame at a time, and the name and length the output defaults to.
    private struct Source {
        let frameAt: (Double) -> Scene
        let naturalDuration: Double
        let name: String
        let baseDirectory: URL?
    }

    func run() throws {
        if scenePath != nil && example != nil {
            throw UsageError(message: "Give either <scene> or --example, not both")
        }
        if resume && force {
            throw UsageError(message: "Give either --resume or --force, not both")
        }
        if output.path == "-" && annotationsPath == "-" {
            throw UsageError(message: "The animation and --annotations cannot both go to stdout; name a file for one")
        }
        let source = try loadSource()
        let outputURL = Console.outputURL(output.path ?? source.name + ".gif")
        let chosenFormat = try outputFormat(outputURL)
        let frameCount = max(1, Int(((duration ?? source.naturalDuration) * fps).rounded()))
        let firstFrame = try backdrop.apply(to: source.frameAt(0), scale: scale.pixelsPerPoint)
        var renderer = try makeRenderer(
            backend.choice, device.vulkanOptions,
            job: RenderJob(frames: frameCount, scene: firstFrame, scale: scale.pixelsPerPoint),
            whileCompiling: compile.policy, quiet: progress.style == .none)
        noteUnusedOptions(chosenFormat)
        let masksFolder = try makeMasksFolder(besides: outputURL, format: chosenFormat)
        let writer = try makeWriter(outputURL, format: chosenFormat, frameCount: frameCount)
        let annotations = try renderFrames(
            frameCount, of: source, renderer: &renderer, into: writer, outputURL, masksFolder: masksFolder)
        if let annotationsPath {
            let url = Console.outputURL(annotationsPath)
            try AnnotationsOutput.write(AnimationAnnotations(fps: fps, frames: annotations), to: url)
            if !progress.quiet {
                Console.say("wrote \(Console.name(url)) (annotations of \(annotations.count) frames)")
            }
        }
        if let masksFolder, !progress.quiet {
            Console.say("wrote \(Console.name(masksFolder)) (masks of \(frameCount) frames)")
        }
        if self.progress.style != .none { noteCompiles(renderer, compile) }
        guard !self.progress.quiet else { return }
        Console.say(
            "wrote \(Console.name(outputURL)) (\(frameCount) frames at \(String(format: "%g", fps)) fps, \(writer.format.rawValue), \(renderer.backendName))"
        )
    }

    /// Renders the frames into `writer` (skipping those it holds complete), with progress and
    /// interruption; each frame's annotations with `--annotations`, else none; each frame's masks
    /// into `masksFolder` with `--masks`.
    private func renderFrames(
        _ frameCount: Int, of source: Source, renderer: inout LensRenderer, into writer: AnimationWriter,
        _ outputURL: URL, masksFolder: URL?
    ) throws -> [FrameAnnotations] {
        let progress = Progress(total: frameCount, style: self.progress.style)
        var annotations: [FrameAnnotations] = []
        // One animation in order: adaptive glass keeps its appearance from frame to frame, so
        // frames a resumed run keeps are resolved too when it has any.
        let sequence = ResolveCache(sequence: true)
        let adapts = source.frameAt(0).hasAdaptiveGlass
        // `--progress json` reports what adaptive glass chose, frame by frame.
        let reportsAdaptation = adapts && self.progress.style == .json
        Interruption.watch()
        for index in 0..<frameCount {
            if Interruption.requested {
                writer.abandon()
                let howToGoOn =
                    writer.format == .folder
                    ? "rerun the same command with --resume to render the rest"
                    : "nothing was written to \(Console.name(outputURL))"
                throw Interrupted(message: "interrupted after \(index) of \(frameCount) frames; \(howToGoOn)")
            }
            let stem = URL(fileURLWithPath: AnimationWriter.frameName(index, count: frameCount))
                .deletingPathExtension().lastPathComponent
            var frameAnnotations: FrameAnnotations?
            if writer.completeFrames.contains(index) {
                writer.skip()
                let masksMissing = masksFolder.map { !Self.hasMasks(stem, in: $0) } ?? false
                if annotationsPath != nil || masksMissing || adapts {
                    let parameters = try resolveFrame(index, of: source, cache: sequence, annotating: reportsAdaptation)
                    frameAnnotations = parameters.annotations
                    if masksMissing, let masksFolder { try MaskOutput.write(parameters, stem: stem, in: masksFolder) }
                }
            } else {
                let parameters = try resolveFrame(index, of: source, cache: sequence, annotating: reportsAdaptation)
                try writer.append(try renderFrame(index, parameters, renderer: &renderer, writer: writer))
                frameAnnotations = parameters.annotations
                if let masksFolder { try MaskOutput.write(parameters, stem: stem, in: masksFolder) }
            }
            if annotationsPath != nil, let frameAnnotations { annotations.append(frameAnnotations) }
            progress.advance(index: index, values: reportsAdaptation ? frameAnnotations.map(Self.adaptation) : nil)
        }
        try writer.finish()
        progress.finish()
        return annotations
    }

    /// `--format`, else the one the output's name says; `--frame-format` only with a folder, and a
    /// note when a name without an extension makes one.
    private func outputFormat(_ outputURL: URL) throws -> AnimationFormat {
        let chosenFormat: AnimationFormat
        do {
            chosenFormat = try format ?? AnimationFormat(path: output.path ?? outputURL.path)
        } catch {
            throw UsageError(message: "\(error)")
        }
        if let frameFormat, chosenFormat != .folder {
            throw UsageError(
                message:
                    "--frame-format \(frameFormat.rawValue) applies to a folder of frames; this output is one \(chosenFormat.rawValue) file"
            )
        }
        let givenPath = output.path ?? ""
        if format == nil && chosenFormat == .folder && progress.style != .none && givenPath != "-"
            && !givenPath.hasSuffix("/")
        {
            printError(
                "animate: \(Console.name(outputURL)) has no extension: writing a folder of numbered \((frameFormat ?? .png).rawValue.uppercased()) frames (.gif, .png, .mp4 or .webm make one file)"
            )
        }
        return chosenFormat
    }

    /// A note for each option given that changes nothing with this output.
    private func noteUnusedOptions(_ chosenFormat: AnimationFormat) {
        noteVulkanOptionsUnused(backend.choice, device: device, compile: compile, quiet: progress.quiet)
        if chosenFormat == .folder {
            quality.noteIfUnused(writing: frameFormat ?? .png, quiet: progress.quiet)
        } else if let given = quality.given, !progress.quiet {
            printError("note: --quality \(given) changes nothing: it sets JPEG and WebP frames of a folder output")
        }
    }

    /// `--masks`' folder, made when missing; not the folder of frames itself, whose frames would
    /// then include the masks.
    private func makeMasksFolder(besides outputURL: URL, format: AnimationFormat) throws -> URL? {
        guard let masksPath else { return nil }
        let folder = Console.outputURL(masksPath)
        if format == .folder && folder.standardizedFileURL.path == outputURL.standardizedFileURL.path {
            throw UsageError(message: "--masks needs a folder of its own, not the folder of frames")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot create folder \(masksPath): \(error.localizedDescription)")
        }
        return folder
    }

    /// Whether `folder` holds both masks of the frame named `stem`.
    private static func hasMasks(_ stem: String, in folder: URL) -> Bool {
        MaskOutput.fileNames(stem: stem).allSatisfy {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
    }

    /// The writer, told what to do with frames already there; a note on frames it will not touch.
    private func makeWriter(_ outputURL: URL, format: AnimationFormat, frameCount: Int) throws -> AnimationWriter {
        let existing: AnimationWriter.Existing = resume ? .resume : force ? .replace : .overwrite
        let writer = try AnimationWriter(
            output: outputURL, fps: fps, frameCount: frameCount, existing: existing, format: format,
            frameFormat: frameFormat ?? .png, quality: quality.value)
        if let first = writer.otherFrames.first, !progress.quiet {
            printError(
                "note: \(Console.name(outputURL)) also holds \(writer.otherFrames.count) frame(s) this run does not write (\(first)\(writer.otherFrames.count > 1 ? " …" : "")); --force removes them first"
            )
        }
        return writer
    }

    /// Each glass element's appearance and the luminance under it, as a progress line's values.
    private static func adaptation(_ frame: FrameAnnotations) -> String {
        let appearances = frame.glass.map { "\"\($0.optics.appearance.rawValue)\"" }
        let luminances = frame.glass.map { $0.backdropLuminance.map { String(format: "%.4f", $0) } ?? "null" }
        return
            #"{"appearance":[\#(appearances.joined(separator: ","))],"backdropLuminance":[\#(luminances.joined(separator: ","))]}"#
    }

    /// Frame `index`, resolved through the run's `cache`, annotated with `--annotations` or when
    /// `annotating`.
    private func resolveFrame(
        _ index: Int, of source: Source, cache: ResolveCache, annotating: Bool = false
    ) throws -> FrameParameters {
        do {
            return try LensRenderer.resolve(
                glass.apply(
                    to: try backdrop.apply(to: source.frameAt(Double(index) / fps), scale: scale.pixelsPerPoint)),
                baseDirectory: source.baseDirectory, scale: scale.pixelsPerPoint, cache: cache,
                pixelBudget: CommandEnvironment.pixelBudget, annotating: annotationsPath != nil || annotating)
        } catch let error as SceneError {
            throw CommandFailure(message: "\(scenePath ?? source.name) at frame \(index + 1): \(error)")
        }
    }

    /// Frame `index` rendered; with `--fallback cpu`, a Vulkan failure moves the rest of the run
    /// to the CPU reference (`renderer` is replaced).
    private func renderFrame(
        _ index: Int, _ parameters: FrameParameters, renderer: inout LensRenderer, writer: AnimationWriter
    ) throws -> RGBA8Image {
        do {
            return try renderer.render(parameters)
        } catch let error as VulkanError {
            guard fallback == .cpu else {
                writer.abandon()
                throw CommandFailure(
                    message: "frame \(index + 1): \(error) (add --fallback cpu to go on on the CPU reference)",
                    status: error.isDeviceLost ? ExitStatus.deviceLost : ExitStatus.failure)
            }
            printError(
                "warning: the Vulkan device failed at frame \(index + 1) (\(error)); going on on the CPU reference")
            renderer = try makeRenderer(.cpu)
            return try renderer.render(parameters)
        }
    }

    /// The scene file's animation (or highlight pulse), else the built-in example.
    private func loadSource() throws -> Source {
        guard let scenePath else {
            let example = example ?? .segmentedDrag
            return Source(
                frameAt: { example.frame(at: $0) }, naturalDuration: example.duration, name: example.rawValue,
                baseDirectory: nil)
        }
        let url = URL(fileURLWithPath: scenePath)
        let scene = try loadFile(scenePath, expected: .scene, Scene.load(contentsOf:))
        guard scene.animation != nil || scene.glass.contains(where: { $0.highlight != nil }) else {
            throw CommandFailure(
                message: "\(scenePath): the scene has no \"animation\" and no animated \"highlight\" to render")
        }
        // A highlight-only scene runs one pulse cycle (4 s) unless --duration says otherwise.
        return Source(
            frameAt: { scene.frame(at: $0) }, naturalDuration: scene.animation?.duration ?? 4,
            name: url.deletingPathExtension().lastPathComponent, baseDirectory: url.deletingLastPathComponent())
    }
}
