import Foundation
import LensIO
import LensModel
import LiquidLens

extension BuiltInScene: ExpressibleByArgument {
    /// An example's name; an animation's name points at `animate`.
    static var argumentParser: ValueParser<BuiltInScene> {
        let named = ValueParser<BuiltInScene>.named("example")
        return ValueParser(expectation: named.expectation, completions: named.completions, describe: named.describe) {
            text throws(ValueError) in
            if let animation = BuiltInAnimation.typed(text) {
                throw .message(
                    "'\(text)' is an animated example; render its frames with: liquidlens animate --example \(animation.rawValue)"
                )
            }
            return try named.parse(text)
        }
    }
}

/// `liquidlens render`: one scene or built-in example to an image (PNG, JPEG, WebP or QOI), optionally timed.
struct RenderCommand: Command {
    static let name = "render"
    static let abstract = "Render a scene (or a built-in example) to a PNG, JPEG, WebP or QOI image."
    static let discussion: String? = """
        With neither <scene> nor --example, renders the showcase: a segmented-control lens
        split over a glyph. Scene files are JSON; their format is in
        Sources/LiquidLens/LiquidLens.docc/SceneFormat.md.
        """

    @Argument("scene", help: "A scene JSON file.") var scenePath: String?
    @Option("example", valueName: "name", help: "A built-in scene (see 'liquidlens examples').")
    var example: BuiltInScene?
    var output = OutputOption(
        help:
            "The image to write (.png, .jpg, .webp or .qoi), a folder ending in /, or - for stdout (default: <scene or example name>.png)."
    )
    var imageFormat = ImageFormatOption()
    var quality = QualityOption()
    @Option("appearance", help: "Examples: light or dark (controls: the row to draw; default both).")
    var appearance: ControlAppearance?
    @Option("content-size", valueName: "category", help: "Examples: Dynamic Type category, xS…XXXL, AX1…AX5.")
    var contentSize: ContentSizeCategory = .large
    var backend = BackendOption()
    var scale = ScaleOption()
    var backdrop = BackdropOption()
    var glass = GlassOption()
    var device = DeviceOption()
    var compile = CompileOption()
    @Flag("timing", help: "Print setup, first-frame and per-frame times.") var timing: Bool
    @Option(
        "frames", valueName: "n", help: "Frames timed after the first with --timing (default: 10).",
        parser: .integer(in: 1...10_000))
    var frames: Int?
    @Option("png-compression", valueName: "level", help: "fast, default or best (a PNG output).")
    var compression: PNGCompression?
    var validation = ValidationOption()
    @Option(
        "annotations", valueName: "file",
        help: "Also write what the frame shows (glass and control-part boxes, states, optics) as JSON.")
    var annotationsPath: String?
    @Flag(
        "masks",
        help:
            "Also write where the glass lies and where labels take the accent colour as 8-bit grey PNGs beside the image: <name>.glass.png, <name>.tint.png."
    )
    var masks: Bool
    var quiet = QuietOption()

    func run() throws {
        try checkOptionsTogether()
        let source = try loadScene()
        let annotationsURL = annotationsPath.map(Console.outputURL)
        let (outputURL, format) = try Console.imageOutputURL(
            output.path, defaultStem: source.defaultOutput, format: imageFormat.format)
        noteUnusedOptions(writing: format)
        let scene = glass.apply(to: try backdrop.apply(to: source.scene, scale: scale.pixelsPerPoint))

        let resolveStart = Stopwatch()
        let parameters = try resolveFrame(scene, baseDirectory: source.baseDirectory)
        let resolveTime = resolveStart.seconds
        let setupStart = Stopwatch()
        let (renderer, measuresGPU) = try makeFrameRenderer(for: parameters)
        let setupTime = setupStart.seconds
        let firstStart = Stopwatch()
        let image = try renderer.render(parameters)
        let firstTime = firstStart.seconds

        if !quiet.isOn && !measuresGPU { announceAutomaticChoice(renderer) }
        try write(image, by: renderer, to: outputURL, format: format)
        if let url = annotationsURL {
            try AnnotationsOutput.write(parameters, to: url)
            if !quiet.isOn { Console.say("wrote \(Console.name(url)) (annotations)") }
        }
        if masks { try writeMasks(parameters, besideImage: outputURL) }
        if timing {
            try printTiming(
                renderer, parameters, image: image, setup: setupTime, resolve: resolveTime, firstFrame: firstTime)
        }
        if !quiet.isOn && renderer.automaticChoice == nil { noteStandIn(renderer) }
    }

    /// Options that exclude each other: a scene file and an example, or a file with the example-only options.
    private func checkOptionsTogether() throws {
        if output.path == "-" && masks {
            throw UsageError(message: "--masks writes files beside the image; name the image with -o, not -")
        }
        if output.path == "-" && annotationsPath == "-" {
            throw UsageError(message: "The image and --annotations cannot both go to stdout; name a file for one")
        }
        if scenePath != nil && example != nil {
            throw UsageError(message: "Give either <scene> or --example, not both")
        }
        if scenePath != nil && (appearance != nil || contentSize != .large) {
            throw UsageError(
                message:
                    "--appearance and --content-size apply to --example; a scene file sets its own colours and type sizes"
            )
        }
    }

    /// The scene file or example to render, the folder its paths are read from, and the output's
    /// name when `-o` gives none; a note when the file is animated or `--content-size` changes nothing.
    private func loadScene() throws -> (scene: Scene, baseDirectory: URL?, defaultOutput: String) {
        if let scenePath {
            let url = URL(fileURLWithPath: scenePath)
            try hintAtExampleName(scenePath, verb: "render", command: Self.name)
            let scene = try loadFile(scenePath, expected: .scene, Scene.load(contentsOf:))
            if scene.animation != nil && !quiet.isOn {
                printError(
                    "note: \(scenePath) is animated; this is one still, at its time t = \(scene.time.formatted) s. liquidlens animate \(scenePath) renders every frame"
                )
            }
            return (scene, url.deletingLastPathComponent(), url.deletingPathExtension().lastPathComponent)
        }
        let example = example ?? .segmented
        let scene = exampleScene(example, contentSize: contentSize)
        if contentSize != .large && !quiet.isOn && sameScenes(scene, exampleScene(example, contentSize: .large)) {
            printError(
                "note: --content-size \(contentSize.rawValue) changes nothing in \(example.rawValue): it has no text that follows Dynamic Type"
            )
        }
        return (scene, nil, example.rawValue)
    }

    /// A note for each option given that changes nothing in this run.
    private func noteUnusedOptions(writing format: ImageFormat) {
        if frames != nil && !timing && !quiet.isOn {
            printError("note: --frames counts the frames --timing times; without --timing it changes nothing")
        }
        quality.noteIfUnused(writing: format, quiet: quiet.isOn)
        noteVulkanOptionsUnused(backend.choice, device: device, compile: compile, quiet: quiet.isOn)
        if let compression, format != .png, !quiet.isOn {
            printError(
                "note: --png-compression \(compression.rawValue) changes nothing: the output is \(format.rawValue), not PNG"
            )
        }
    }

    /// The frame's parameters; a scene error names the file.
    private func resolveFrame(_ scene: Scene, baseDirectory: URL?) throws -> FrameParameters {
        do {
            return try LensRenderer.resolve(
                scene, baseDirectory: baseDirectory, scale: scale.pixelsPerPoint,
                pixelBudget: CommandEnvironment.pixelBudget, annotating: annotationsPath != nil)
        } catch let error as SceneError {
            throw CommandFailure(message: "\(scenePath ?? "scene"): \(error)")
        }
    }

    /// The renderer for this frame, and whether `auto` took Vulkan because the run measures the GPU.
    private func makeFrameRenderer(for parameters: FrameParameters) throws -> (LensRenderer, measuresGPU: Bool) {
        var vulkanOptions = try device.vulkanOptions
        vulkanOptions.validation = validation.isEnabled
        // Timing and validation are about the GPU: `auto` takes Vulkan for them whatever the size,
        // waiting for its pipelines (and the CPU, saying so, only when no device works).
        let measuresGPU = backend.choice == .automatic && (timing || validation.isEnabled)
        let renderer = try makeRenderer(
            backend.choice, vulkanOptions,
            job: measuresGPU
                ? nil
                : RenderJob(frames: timing ? 1 + timedFrames : 1, width: parameters.width, height: parameters.height),
            whileCompiling: measuresGPU ? compile.policy ?? .wait : compile.policy, quiet: quiet.isOn,
            announceChoice: false)
        if measuresGPU && renderer.activeBackend == .vulkan && !quiet.isOn {
            printError("liquidlens: backend vulkan (auto: \(timing ? "--timing" : "--validation") is about the GPU)")
        }
        if validation.isEnabled && renderer.activeBackend == .cpu {
            printError(
                "warning: --validation checks Vulkan calls; the CPU reference rendered this, so nothing was validated")
        }
        return (renderer, measuresGPU)
    }

    /// Writes the image, says so, and prints the validation layer's messages.
    private func write(_ image: RGBA8Image, by renderer: LensRenderer, to outputURL: URL, format: ImageFormat) throws {
        try OutputFile.write(
            try format.encode(image, compression: compression ?? .default, quality: quality.value), to: outputURL)
        let renderedBy =
            renderer.standInFrames > 0 ? "cpu reference, its Vulkan pipelines not compiled" : renderer.backendName
        if !quiet.isOn {
            Console.say("wrote \(Console.name(outputURL)) (\(image.width)×\(image.height) px, \(renderedBy))")
        }
        for message in renderer.validationMessages {
            printError("validation: \(message)")
        }
    }

    /// `--masks`: the frame's masks beside the image at `imageURL`, named after it.
    private func writeMasks(_ parameters: FrameParameters, besideImage imageURL: URL) throws {
        let stem = imageURL.deletingPathExtension().lastPathComponent
        let folder = imageURL.deletingLastPathComponent()
        try MaskOutput.write(parameters, stem: stem, in: folder)
        if !quiet.isOn {
            let names = MaskOutput.fileNames(stem: stem).map { Console.name(folder.appendingPathComponent($0)) }
            Console.say("wrote \(names.joined(separator: " and ")) (masks)")
        }
    }

    /// The built-in `example` at `contentSize`, in `--appearance` (the controls: both rows without it).
    private func exampleScene(_ example: BuiltInScene, contentSize: ContentSizeCategory) -> Scene {
        if let appearance { return example.scene(appearance: appearance, contentSize: contentSize) }
        return example == .controls
            ? GlassControlsPanel.gallery(contentSize: contentSize) : example.scene(contentSize: contentSize)
    }

    /// Whether two scenes are the same document (their JSON, keys sorted).
    private func sameScenes(_ first: Scene, _ second: Scene) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(first)) == (try? encoder.encode(second))
    }

    /// Frames `--timing` times after the first.
    private var timedFrames: Int { frames ?? 10 }

    /// Renders `frames` more frames and prints the setup, resolve, first-frame and per-frame times,
    /// then one frame more with per-stage timestamps (which cost lavapipe time of their own) for
    /// the GPU's stages.
    private func printTiming(
        _ renderer: LensRenderer, _ parameters: FrameParameters, image: RGBA8Image, setup: Double, resolve: Double,
        firstFrame: Double
    ) throws {
        var times: [Double] = []
        for _ in 0..<timedFrames {
            let start = Stopwatch()
            _ = try renderer.render(parameters)
            times.append(start.seconds)
        }
        if renderer.activeBackend == .vulkan {
            renderer.measuresStages = true
            _ = try renderer.render(parameters)
            renderer.measuresStages = false
        }
        times.sort()
        let median = times[times.count / 2]
        let p90 = times[min(times.count - 1, Int((Double(times.count) * 0.9).rounded(.up)) - 1)]
        let megapixels = Double(image.width * image.height) / 1e6
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        Console.say("frame:       \(image.width)×\(image.height) px, \(parameters.lenses.count) lens(es)")
        Console.say("setup:       \(ms(setup)) (instance, device, pipelines)")
        Console.say("resolve:     \(ms(resolve)) (background, label, parameters)")
        Console.say("first frame: \(ms(firstFrame))")
        Console.say(
            "per frame:   median \(ms(median)), p90 \(ms(p90)) over \(timedFrames) frames "
                + String(format: "(%.1f frames/s, %.1f MP/s)", 1 / median, megapixels / median))
        if let stages = renderer.lastStageTimes {
            Console.say(
                String(
                    format: "GPU stages:  compose %.2f ms, frost %.2f ms, lens %.2f ms (one more frame, timestamps)",
                    stages.compose, stages.frost, stages.lens))
        }
        if let path = renderer.memoryPath, let transfers = renderer.lastTransfers {
            let inputs = transfers.inputs.isEmpty ? "no input changed" : transfers.inputs.joined(separator: ", ")
            Console.say(
                "memory:      \(path.rawValue) path; last frame: \(transfers.uploadedBytes) bytes uploaded (\(inputs)), "
                    + "\(transfers.copiedBytes) copied, \(transfers.readbackBytes) read back")
        }
    }
}

/// A scene path that does not exist but names a built-in example or animation is an error that
/// says how to `verb` the example with `command` (`render`, `serve`), or to render the animation.
func hintAtExampleName(_ path: String, verb: String, command: String) throws {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    if BuiltInScene(rawValue: path) != nil {
        throw CommandFailure(
            message: "\(path): no such file; to \(verb) the built-in example: liquidlens \(command) --example \(path)")
    }
    if BuiltInAnimation(rawValue: path) != nil {
        throw CommandFailure(
            message: "\(path): no such file; to render the built-in animation: liquidlens animate --example \(path)")
    }
}

/// `load` applied to the file at `path`; a scene error is a failure that names the file. A
/// file that holds the other kind of document than `expected` (a manifest given to `render`, a
/// scene to `batch`) is named as such, with the command that takes it.
func loadFile<Loaded>(_ path: String, expected: JSONDocument? = nil, _ load: (URL) throws -> Loaded) throws -> Loaded {
    do {
        return try load(URL(fileURLWithPath: path))
    } catch let error as SceneError {
        if let expected, let found = JSONDocument.kind(of: URL(fileURLWithPath: path)), found != expected {
            throw CommandFailure(
                message:
                    "\(path): this is a \(found.rawValue), not a \(expected.rawValue): liquidlens \(found.command) \(path)"
            )
        }
        throw CommandFailure(message: "\(path): \(error)")
    }
}

/// The two JSON documents the commands read, told apart by their top-level keys.
enum JSONDocument: String {
    case scene
    case manifest = "batch manifest"

    /// The command that takes it.
    var command: String { self == .scene ? "render" : "batch" }

    /// What the file at `url` holds: a manifest when it has a manifest's own keys (`scene`,
    /// `scenes`, `sweep`), which no scene has; a scene when it is another JSON object; nil when
    /// it cannot be read or is no JSON object.
    static func kind(of url: URL) -> JSONDocument? {
        guard let data = try? FileAccess.read(url, limit: Limits.sceneFileBytes),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return ["scene", "scenes", "sweep"].contains(where: { object[$0] != nil }) ? .manifest : .scene
    }
}

extension LensRenderer {
    /// `vulkan, <device>` or `cpu reference`, for the lines that say what rendered.
    var backendName: String { device.map { "vulkan, \($0.name)" } ?? "cpu reference" }
}
