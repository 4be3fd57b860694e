import Foundation
import LiquidLens

extension Backend: ExpressibleByArgument {
    /// `gpu` is Vulkan's other name: the one backend that runs on the GPU.
    static var argumentParser: ValueParser<Backend> {
        .choice(expectation: "auto, vulkan (gpu) or cpu", aliases: ["gpu": .vulkan])
    }
}

extension MemoryPath: ExpressibleByArgument {
    static var argumentParser: ValueParser<MemoryPath> { .choice(expectation: "auto, discrete or unified") }
}

extension WhileCompiling: ExpressibleByArgument {
    static var argumentParser: ValueParser<WhileCompiling> { .choice() }
}

extension ImageFormat: ExpressibleByArgument {
    static var argumentParser: ValueParser<ImageFormat> {
        ValueParser(
            expectation: "png, jpeg (jpg), webp, qoi, rgba, ppm or pam", completions: allCases.map(\.rawValue),
            describe: \.rawValue, convert: ImageFormat.init(fileExtension:))
    }
}

extension AnimationFormat: ExpressibleByArgument {
    static var argumentParser: ValueParser<AnimationFormat> { .choice() }
}

extension PNGCompression: ExpressibleByArgument {
    static var argumentParser: ValueParser<PNGCompression> { .choice() }
}

extension ContentSizeCategory: ExpressibleByArgument {
    static var argumentParser: ValueParser<ContentSizeCategory> { .choice() }
}

extension ControlAppearance: ExpressibleByArgument {
    static var argumentParser: ValueParser<ControlAppearance> { .choice() }
}

/// `--format`: the format of the image written (by default the one the output's name says, else PNG).
extension ValueParser where Value == ImageFormat {
    /// A folder's or a shard's frames: the image formats that make files of their own.
    static var frameFormat: Self {
        Self(expectation: "png, jpeg (jpg), webp or qoi", completions: ["png", "jpeg", "webp", "qoi"]) {
            ImageFormat(fileExtension: $0).flatMap { [.png, .jpeg, .webp, .qoi].contains($0) ? $0 : nil }
        }
    }
}

struct ImageFormatOption: ParsableArguments {
    @Option(
        "format",
        help: "png, jpeg, webp or qoi; rgba, ppm or pam for pipes (default: the output name's extension, else png).")
    var format: ImageFormat?
}

/// `--quality`: the quality JPEG and WebP images are written at.
struct QualityOption: ParsableArguments {
    @Option(
        "quality", valueName: "1…100", help: "JPEG and WebP quality (default \(ImageFormat.defaultQuality)).",
        parser: .integer(in: 1...100))
    var given: Int?

    /// The quality in force.
    var value: Int { given ?? ImageFormat.defaultQuality }

    /// Says on stderr (unless `quiet`) that `--quality` changes nothing when the images written
    /// are `format`, a lossless one.
    func noteIfUnused(writing format: ImageFormat, quiet: Bool) {
        guard let given, ![.jpeg, .webp].contains(format), !quiet else { return }
        printError(
            "note: --quality \(given) changes nothing: \(format.rawValue) is written losslessly (JPEG and WebP take it)"
        )
    }
}

/// `--backend`: which backend renders.
struct BackendOption: ParsableArguments {
    @Option("backend", help: "auto, vulkan (or gpu) or cpu.") var choice: Backend = .automatic
}

/// `--while-compiling`: what renders a frame whose Vulkan pipelines are still compiling.
struct CompileOption: ParsableArguments {
    @Option(
        "while-compiling", valueName: "policy",
        help:
            "cpu (the CPU reference renders, with the same pixels, frames whose GPU pipelines are not compiled yet; they compile in the background where that pays) or wait (default: cpu with --backend auto, wait with vulkan)."
    )
    var policy: WhileCompiling?
}

/// A renderer on `backend` for `job`. With `.automatic` it says on stderr (unless `quiet`) that
/// Vulkan is unavailable, or (unless `announceChoice` is false: the caller says it once the frame
/// is drawn, ``announceAutomaticChoice(_:)``) which backend it took and why; a Vulkan setup
/// failure with `.vulkan` is a command failure (exit 1).
func makeRenderer(
    _ backend: Backend, _ options: VulkanOptions = VulkanOptions(), job: RenderJob? = nil,
    whileCompiling: WhileCompiling? = nil, quiet: Bool = false, announceChoice: Bool = true
) throws -> LensRenderer {
    let renderer: LensRenderer
    do {
        renderer = try LensRenderer(backend: backend, job: job, vulkanOptions: options, whileCompiling: whileCompiling)
    } catch {
        throw CommandFailure(message: "the Vulkan backend is unavailable: \(error)")
    }
    if !quiet {
        if let reason = renderer.fallbackReason {
            printError("note: rendering on the CPU reference; Vulkan is unavailable: \(reason)")
        } else if announceChoice {
            announceAutomaticChoice(renderer)
        }
    }
    return renderer
}

/// Says on stderr which backend `--backend auto` chose and why, naming the CPU reference where it
/// drew the frames because the chosen Vulkan backend's pipelines were not compiled.
func announceAutomaticChoice(_ renderer: LensRenderer) {
    guard let choice = renderer.automaticChoice else { return }
    if choice.backend == .vulkan && renderer.standInFrames > 0 {
        printError(
            "liquidlens: backend cpu drew it, its Vulkan pipelines not compiled (auto chose vulkan: \(choice.reason); --while-compiling wait keeps it on the GPU)"
        )
    } else {
        printError("liquidlens: backend \(choice.backend.rawValue) (auto: \(choice.reason))")
    }
}

/// Says on stderr (unless `quiet`) which Vulkan options given on the command line change nothing
/// because `--backend cpu` renders without Vulkan.
func noteVulkanOptionsUnused(_ backend: Backend, device: DeviceOption, compile: CompileOption, quiet: Bool) {
    guard backend == .cpu, !quiet else { return }
    let unused = [
        device.given.map { _ in "--device" }, device.memory.map { _ in "--memory" },
        compile.policy.map { _ in "--while-compiling" },
    ].compactMap { $0 }
    guard !unused.isEmpty else { return }
    printError(
        "note: \(unused.joined(separator: ", ")) \(unused.count == 1 ? "changes" : "change") nothing: --backend cpu renders without Vulkan"
    )
}

/// Says on stderr how many frames the CPU reference rendered because their GPU pipelines were not
/// compiled.
func noteStandIn(_ renderer: LensRenderer) {
    let count = renderer.standInFrames
    guard count > 0 else { return }
    printError(
        "liquidlens: the CPU reference rendered \(count) frame\(count == 1 ? "" : "s") whose GPU pipelines were not compiled (--while-compiling wait keeps every frame on the GPU)"
    )
}

/// ``noteStandIn(_:)``, and for a run of frames where `compile` named no policy and frames
/// waited a second or more for compiles, how long they waited and how not to.
func noteCompiles(_ renderer: LensRenderer, _ compile: CompileOption) {
    noteStandIn(renderer)
    guard renderer.standInFrames == 0, compile.policy == nil, renderer.compileWaitMs >= 1000 else { return }
    printError(
        "liquidlens: frames waited \(String(format: "%.1f", renderer.compileWaitMs / 1000)) s for GPU pipelines to compile (--while-compiling cpu has the CPU reference draw them meanwhile, the same pixels)"
    )
}

/// `--device` and `--memory`: the Vulkan device by index or name part, else `$LIQUIDLENS_DEVICE`,
/// else the best; where its buffers live, else `$LIQUIDLENS_MEMORY`, else by its heaps.
struct DeviceOption: ParsableArguments {
    @Option("device", help: "Vulkan device index or name part (or $LIQUIDLENS_DEVICE).") var given: String?
    @Option(
        "memory", valueName: "path",
        help:
            "auto (by the device's heaps), discrete (device-local buffers, staging, copies) or unified (or $LIQUIDLENS_MEMORY)."
    )
    var memory: MemoryPath?

    /// The device asked for on the command line or in the environment.
    var selection: String? { given ?? CommandEnvironment.variables["LIQUIDLENS_DEVICE"] }

    /// The memory path asked for on the command line or in the environment; a value in the
    /// environment that names none is a failure (exit 1).
    var memoryPath: MemoryPath {
        get throws {
            if let memory { return memory }
            guard let text = CommandEnvironment.variables["LIQUIDLENS_MEMORY"], !text.isEmpty else {
                return .automatic
            }
            guard let path = MemoryPath(rawValue: text) else {
                throw CommandFailure(
                    message: "LIQUIDLENS_MEMORY=\(text) names no memory path (expected auto, discrete or unified)")
            }
            return path
        }
    }

    /// Vulkan set up on the selected device with the selected memory path.
    var vulkanOptions: VulkanOptions {
        get throws {
            var options = VulkanOptions(
                device: selection, pipelineCacheDirectory: CommandEnvironment.pipelineCache,
                memoryPath: try memoryPath)
            options.faultInjection = CommandEnvironment.faults
            return options
        }
    }
}

/// `--validation`: the Khronos validation layer, also on with `$LIQUIDLENS_VALIDATION=1`.
struct ValidationOption: ParsableArguments {
    @Flag("validation", help: "Enable the Vulkan validation layer (or $LIQUIDLENS_VALIDATION=1).") var given: Bool

    var isEnabled: Bool { given || CommandEnvironment.variables["LIQUIDLENS_VALIDATION"] == "1" }
}

/// `-q`: no status lines (the backend chosen, what was written, cells as they finish); errors and
/// warnings still show.
struct QuietOption: ParsableArguments {
    @Flag("quiet", short: "q", help: "Print only errors and warnings.") var isOn: Bool
}

/// `--scale`: pixels per point, overriding the scene's.
struct ScaleOption: ParsableArguments {
    @Option(
        "scale", help: "Pixels per point, 1…4 (default: the scene's).",
        parser: .number(expectation: "a number in 1…4") { Limits.scale.contains($0) })
    var pixelsPerPoint: Double?
}

/// `--backdrop`: the scene over a picture of the user's (`render`, `animate`, `batch`).
struct BackdropOption: ParsableArguments {
    @Option(
        "backdrop", valueName: "image",
        help:
            "Lay the glass and controls over this image (PNG, JPEG, WebP, HEIC, AVIF, SVG) instead of the scene's background; the canvas takes its size at the scale."
    )
    var path: String?

    /// `scene` over the image at `scale` (the scene's when nil), or `scene` itself without --backdrop.
    func apply(to scene: Scene, scale: Double?) throws -> Scene {
        guard let path else { return scene }
        do {
            return try scene.overBackdrop(at: URL(fileURLWithPath: path), scale: scale)
        } catch let error as ImageFileError {
            throw CommandFailure(message: "--backdrop: \(error.description)")
        }
    }
}

extension GlassGeneration: ExpressibleByArgument {
    static var argumentParser: ValueParser<GlassGeneration> { .choice() }
}

/// `--generation` and `--tinting`: which iOS release's glass Apple's glass draws and the system's
/// glass setting, overriding the scene's (`render`, `animate`, `batch`).
struct GlassOption: ParsableArguments {
    @Option(
        "generation", valueName: "release",
        help:
            "Apple's glass as ios26 or ios27 draws it, for the scene (glass naming its own keeps it; default: the scene's, ios27 where it names none)."
    )
    var generation: GlassGeneration?
    @Option(
        "tinting", valueName: "amount",
        help: "The system's glass setting, 0 (Clear, the default) to 1 (fully tinted); default: the scene's.",
        parser: .number(expectation: "a number in 0…1") { Limits.unit.contains($0) })
    var tinting: Double?

    /// `scene` with the generation and tinting given on the command line.
    func apply(to scene: Scene) -> Scene {
        var scene = scene
        if let generation { scene.generation = generation }
        if let tinting { scene.tinting = tinting }
        return scene
    }
}

/// `-o, --output`: where the command writes; nil when not given (the command derives a default).
struct OutputOption: ParsableArguments {
    @Option var path: String?

    init(valueName: String = "output", help: String) {
        _path = Option("output", short: "o", valueName: valueName, help: help)
    }
}

/// `--progress` and `-q`: how a long run reports its frames on stderr.
struct ProgressOption: ParsableArguments {
    /// How progress is shown.
    enum Style: String, CaseIterable, ExpressibleByArgument {
        /// A bar on a terminal, plain lines otherwise.
        case auto
        /// A redrawn bar: frames, frames/s, ETA.
        case bar
        /// A plain line every tenth of the run.
        case lines
        /// One JSON object per finished frame, for log collectors.
        case json
        /// Nothing.
        case none

        static var argumentParser: ValueParser<Style> { .choice() }
    }

    @Option(
        "progress", valueName: "style",
        help: "auto (a bar on a terminal, else lines), bar, lines, json (one JSON line per frame) or none.")
    var chosen = Style.auto
    @Flag("quiet", short: "q", help: "Print only errors and warnings (and no progress: --progress none).")
    var quiet: Bool

    /// The style in force: `-q` wins, and `auto` becomes a bar on a terminal, lines otherwise.
    var style: Style {
        if quiet { return .none }
        guard chosen == .auto else { return chosen }
        return isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }
}

/// `--frames-in-flight`: frames submitted to the device at once.
struct FramesInFlightOption: ParsableArguments {
    @Option(
        "frames-in-flight", valueName: "n", help: "Frames submitted to the device at once.",
        parser: .integer(in: 1...16))
    var count = 2
}
