import Foundation
import LiquidLens

/// A failure while doing the work (not a usage mistake): exit 1.
struct CommandFailure: Error {
    let message: String
}

enum Commands {
    static let render = CommandSpec(
        name: "render",
        abstract: "Render a scene (or a built-in example) to a PNG.",
        discussion: """
            With neither <scene> nor --example, renders the showcase: a segmented-control lens
            split over a glyph. Scene files are JSON; see README.md for the format.
            """,
        arguments: [.init(name: "scene", help: "A scene JSON file.", optional: true)],
        options: [
            .init(
                long: "example", short: nil, valueName: "name", help: "A built-in scene (see 'liquidlens examples').",
                defaultValue: nil),
            .init(
                long: "output", short: "o", valueName: "output",
                help: "The PNG to write (default: <scene or example name>.png).", defaultValue: nil),
            .init(
                long: "appearance", short: nil, valueName: "appearance",
                help: "Examples: light or dark (controls: the row to draw; default both).", defaultValue: nil),
            .init(
                long: "content-size", short: nil, valueName: "category",
                help: "Examples: Dynamic Type category, xS…XXXL, AX1…AX5.", defaultValue: "L"),
            .init(
                long: "backend", short: nil, valueName: "backend", help: "auto, vulkan or cpu.", defaultValue: "auto"),
            .init(
                long: "scale", short: nil, valueName: "scale", help: "Pixels per point, 1…4 (default: the scene's).",
                defaultValue: nil),
            .init(
                long: "device", short: nil, valueName: "device",
                help: "Vulkan device index or name part (or $LIQUIDLENS_DEVICE).", defaultValue: nil),
            .init(
                long: "timing", short: nil, valueName: nil, help: "Print setup, first-frame and per-frame times.",
                defaultValue: nil),
            .init(
                long: "frames", short: nil, valueName: "n", help: "Frames timed after the first with --timing.",
                defaultValue: "10"),
            .init(
                long: "validation", short: nil, valueName: nil,
                help: "Enable the Vulkan validation layer (or $LIQUIDLENS_VALIDATION=1).", defaultValue: nil),
        ])

    static let diff = CommandSpec(
        name: "diff",
        abstract: "Compare two PNGs: max and mean error per channel, PSNR, pixels over a threshold.",
        discussion: nil,
        arguments: [
            .init(name: "actual", help: "The image under test.", optional: false),
            .init(name: "expected", help: "The reference image.", optional: false),
        ],
        options: [
            .init(
                long: "heatmap", short: nil, valueName: "heatmap", help: "Write a PNG showing where they differ.",
                defaultValue: nil),
            .init(
                long: "threshold", short: nil, valueName: "levels",
                help: "Per-channel difference (0…255) a pixel may have before it counts.", defaultValue: "1"),
        ])

    static let gallery = CommandSpec(
        name: "gallery",
        abstract: "Render every shape and optical feature, each alone, into one contact sheet.",
        discussion: "Cells run left to right, top to bottom, in the order 'liquidlens gallery --list' prints.",
        arguments: [],
        options: [
            .init(
                long: "output", short: "o", valueName: "output", help: "The PNG to write.", defaultValue: "gallery.png"),
            .init(
                long: "backend", short: nil, valueName: "backend", help: "auto, vulkan or cpu.", defaultValue: "auto"),
            .init(
                long: "list", short: nil, valueName: nil, help: "Print the cell names instead of rendering.",
                defaultValue: nil),
        ])

    static let animate = CommandSpec(
        name: "animate",
        abstract: "Render an animation: a folder of PNGs, an animated PNG, a GIF, an MP4 or a WebM.",
        discussion: """
            The output's extension picks the format: a folder (no extension) gets numbered PNGs;
            .png is an animated PNG, .gif a GIF, .mp4 / .webm a video (those need ffmpeg). The scene's
            "animation" drives its first control; motion is a function of time, so any --fps samples
            the same curves. With neither <scene> nor --example, renders segmented-drag.
            """,
        arguments: [.init(name: "scene", help: "A scene JSON file with an \"animation\".", optional: true)],
        options: [
            .init(
                long: "example", short: nil, valueName: "name",
                help: "A built-in animation (see 'liquidlens examples').", defaultValue: nil),
            .init(
                long: "output", short: "o", valueName: "output", help: "Folder, .png, .gif, .mp4 or .webm.",
                defaultValue: nil),
            .init(long: "fps", short: nil, valueName: "fps", help: "Frames per second, 1…240.", defaultValue: "30"),
            .init(
                long: "duration", short: nil, valueName: "seconds", help: "Length (default: the animation's).",
                defaultValue: nil),
            .init(
                long: "backend", short: nil, valueName: "backend", help: "auto, vulkan or cpu.", defaultValue: "auto"),
            .init(
                long: "scale", short: nil, valueName: "scale", help: "Pixels per point, 1…4 (default: the scene's).",
                defaultValue: nil),
            .init(long: "quiet", short: "q", valueName: nil, help: "No progress output.", defaultValue: nil),
            .init(
                long: "resume", short: nil, valueName: nil,
                help: "Keep complete frames in the output folder; render the rest.", defaultValue: nil),
            .init(
                long: "force", short: nil, valueName: nil, help: "Replace frames the output folder already holds.",
                defaultValue: nil),
            .init(
                long: "fallback", short: nil, valueName: "backend",
                help: "cpu: if the Vulkan device fails mid-run, go on on the CPU reference.", defaultValue: nil),
        ])

    static let examples = CommandSpec(
        name: "examples", abstract: "List the built-in scenes.", discussion: nil, arguments: [], options: [])

    static let devices = CommandSpec(
        name: "devices", abstract: "List Vulkan devices and why each is or is not usable.", discussion: nil,
        arguments: [], options: [])

    static let all = [render, animate, batch, bench, diff, gallery, presets, theme, examples, devices]

    static let rootHelp = """
        OVERVIEW: Render Apple-style Liquid Glass lenses offscreen, on Vulkan compute or the CPU reference.

        USAGE: liquidlens <subcommand>

        OPTIONS:
        \(helpRow("--version", "Show the version."))\(helpRow("-h, --help", "Show help information."))
        SUBCOMMANDS:
        \(all.map { helpRow($0.name, $0.abstract) }.joined())
          See 'liquidlens help <subcommand>' for detailed help.
        """

    // MARK: shared options

    static func parseBackend(_ arguments: ParsedArguments, _ spec: CommandSpec) throws -> Backend {
        guard let backend = Backend(rawValue: arguments.value("backend")!) else {
            throw UsageError(
                message:
                    "Invalid value '\(arguments.value("backend")!)' for '--backend <backend>' (expected auto, vulkan or cpu)",
                spec: spec)
        }
        return backend
    }

    static func parseScale(_ arguments: ParsedArguments, _ spec: CommandSpec) throws -> Double? {
        guard let text = arguments.value("scale") else { return nil }
        guard let value = Double(text), value.isFinite, (1...4).contains(value) else {
            throw UsageError(
                message: "Invalid value '\(text)' for '--scale <scale>' (expected a number in 1…4)", spec: spec)
        }
        return value
    }

    static func makeRenderer(_ backend: Backend, _ options: VulkanOptions = VulkanOptions()) throws -> LensRenderer {
        do {
            return try LensRenderer(backend: backend, vulkanOptions: options)
        } catch {
            throw CommandFailure(message: "the Vulkan backend is unavailable: \(error)")
        }
    }

    // MARK: render

    static func runRender(_ arguments: ParsedArguments) throws {
        let backend = try parseBackend(arguments, render)
        let scale = try parseScale(arguments, render)
        guard let frames = Int(arguments.value("frames")!), (1...10_000).contains(frames) else {
            throw UsageError(
                message: "Invalid value '\(arguments.value("frames")!)' for '--frames <n>' (expected 1…10000)",
                spec: render)
        }
        let scenePath = arguments.positionals["scene"]
        let exampleName = arguments.value("example")
        if scenePath != nil && exampleName != nil {
            throw UsageError(message: "Give either <scene> or --example, not both", spec: render)
        }

        let scene: Scene
        let baseDirectory: URL?
        let defaultOutput: String
        if let scenePath {
            let url = URL(fileURLWithPath: scenePath)
            do {
                scene = try Scene.load(contentsOf: url)
            } catch let error as SceneError {
                throw CommandFailure(message: "\(scenePath): \(error)")
            }
            baseDirectory = url.deletingLastPathComponent()
            defaultOutput = url.deletingPathExtension().lastPathComponent + ".png"
        } else {
            let name = exampleName ?? BuiltInScene.segmented.rawValue
            guard let example = BuiltInScene(rawValue: name) else {
                throw UsageError(
                    message:
                        "Unknown example '\(name)' (expected one of: \(BuiltInScene.allCases.map(\.rawValue).joined(separator: ", ")))",
                    spec: render)
            }
            let contentSize: ContentSizeCategory = try parseChoice(
                arguments, "content-size", valueName: "category", render)
            if arguments.value("appearance") == nil {
                scene =
                    example == .controls
                    ? GlassControlsPanel.gallery(contentSize: contentSize) : example.scene(contentSize: contentSize)
            } else {
                let appearance: ControlAppearance = try parseChoice(
                    arguments, "appearance", valueName: "appearance", render)
                scene = example.scene(appearance: appearance, contentSize: contentSize)
            }
            baseDirectory = nil
            defaultOutput = name + ".png"
        }
        let output = URL(fileURLWithPath: arguments.value("output") ?? defaultOutput)

        let environment = ProcessInfo.processInfo.environment
        let options = VulkanOptions(
            device: arguments.value("device") ?? environment["LIQUIDLENS_DEVICE"],
            validation: arguments.flag("validation") || environment["LIQUIDLENS_VALIDATION"] == "1")
        let setupStart = Date()
        let renderer = try makeRenderer(backend, options)
        let setupTime = Date().timeIntervalSince(setupStart)
        if let reason = renderer.fallbackReason {
            printError("note: rendering on the CPU reference; Vulkan is unavailable: \(reason)")
        }

        let resolveStart = Date()
        let parameters: FrameParameters
        do {
            parameters = try LensRenderer.resolve(scene, baseDirectory: baseDirectory, scale: scale)
        } catch let error as SceneError {
            throw CommandFailure(message: "\(scenePath ?? "scene"): \(error)")
        }
        let resolveTime = Date().timeIntervalSince(resolveStart)

        let firstStart = Date()
        let image = try renderer.render(parameters)
        let firstTime = Date().timeIntervalSince(firstStart)
        try PNGCodec.write(image, to: output)

        let backendName = renderer.device.map { "vulkan, \($0.name)" } ?? "cpu reference"
        print("wrote \(output.path) (\(image.width)×\(image.height) px, \(backendName))")
        for message in renderer.validationMessages {
            printError("validation: \(message)")
        }
        if arguments.flag("timing") {
            var times: [Double] = []
            for _ in 0..<frames {
                let start = Date()
                _ = try renderer.render(parameters)
                times.append(Date().timeIntervalSince(start))
            }
            times.sort()
            let median = times[times.count / 2]
            let p90 = times[min(times.count - 1, Int((Double(times.count) * 0.9).rounded(.up)) - 1)]
            let megapixels = Double(image.width * image.height) / 1e6
            func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
            print("frame:       \(image.width)×\(image.height) px, \(parameters.lenses.count) lens(es)")
            print("setup:       \(ms(setupTime)) (instance, device, pipelines)")
            print("resolve:     \(ms(resolveTime)) (background, label, parameters)")
            print("first frame: \(ms(firstTime))")
            print(
                "per frame:   median \(ms(median)), p90 \(ms(p90)) over \(frames) frames "
                    + String(format: "(%.1f frames/s, %.1f MP/s)", 1 / median, megapixels / median))
            if let stages = renderer.lastStageTimes {
                print(
                    String(
                        format: "GPU stages:  compose %.2f ms, frost %.2f ms, lens %.2f ms (last frame, timestamps)",
                        stages.compose, stages.frost, stages.lens))
            }
        }
    }

    // MARK: diff

    static func runDiff(_ arguments: ParsedArguments) throws {
        guard let threshold = Int(arguments.value("threshold")!), (0...255).contains(threshold) else {
            throw UsageError(
                message: "Invalid value '\(arguments.value("threshold")!)' for '--threshold <levels>' (expected 0…255)",
                spec: diff)
        }
        let actual = try PNGCodec.read(contentsOf: URL(fileURLWithPath: arguments.positionals["actual"]!))
        let expected = try PNGCodec.read(contentsOf: URL(fileURLWithPath: arguments.positionals["expected"]!))
        let result = try ImageDiff(actual, expected, threshold: threshold)
        print(result.report)
        if let heatmap = arguments.value("heatmap") {
            try PNGCodec.write(ImageDiff.heatmap(actual, expected), to: URL(fileURLWithPath: heatmap))
            print("heatmap:     \(heatmap)")
        }
    }

    // MARK: animate

    static func runAnimate(_ arguments: ParsedArguments) throws {
        let backend = try parseBackend(arguments, animate)
        guard let fps = Double(arguments.value("fps")!), fps.isFinite, (1...240).contains(fps) else {
            throw UsageError(
                message: "Invalid value '\(arguments.value("fps")!)' for '--fps <fps>' (expected 1…240)", spec: animate)
        }
        let scale = try parseScale(arguments, animate)
        let scenePath = arguments.positionals["scene"]
        if scenePath != nil && arguments.value("example") != nil {
            throw UsageError(message: "Give either <scene> or --example, not both", spec: animate)
        }
        let frameAt: (Double) -> Scene
        let naturalDuration: Double
        let name: String
        var baseDirectory: URL?
        if let scenePath {
            let url = URL(fileURLWithPath: scenePath)
            let scene: Scene
            do {
                scene = try Scene.load(contentsOf: url)
            } catch let error as SceneError {
                throw CommandFailure(message: "\(scenePath): \(error)")
            }
            let highlighted = scene.glass.contains { $0.highlight != nil }
            guard scene.animation != nil || highlighted else {
                throw CommandFailure(
                    message: "\(scenePath): the scene has no \"animation\" and no animated \"highlight\" to render")
            }
            frameAt = { scene.frame(at: $0) }
            // A highlight-only scene runs one pulse cycle (4 s) unless --duration says otherwise.
            naturalDuration = scene.animation?.duration ?? 4
            name = url.deletingPathExtension().lastPathComponent
            baseDirectory = url.deletingLastPathComponent()
        } else {
            let exampleName = arguments.value("example") ?? BuiltInAnimation.segmentedDrag.rawValue
            guard let example = BuiltInAnimation(rawValue: exampleName) else {
                throw UsageError(
                    message:
                        "Unknown animation '\(exampleName)' (expected one of: \(BuiltInAnimation.allCases.map(\.rawValue).joined(separator: ", ")))",
                    spec: animate)
            }
            frameAt = { example.frame(at: $0) }
            naturalDuration = example.duration
            name = example.rawValue
        }
        var duration = naturalDuration
        if let text = arguments.value("duration") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 600 else {
                throw UsageError(
                    message: "Invalid value '\(text)' for '--duration <seconds>' (expected 0…600)", spec: animate)
            }
            duration = value
        }
        let output = URL(fileURLWithPath: arguments.value("output") ?? name + ".gif")
        let frameCount = max(1, Int((duration * fps).rounded()))
        var renderer = try makeRenderer(backend)
        if let fallback = arguments.value("fallback"), fallback != "cpu" {
            throw UsageError(
                message: "Invalid value '\(fallback)' for '--fallback <backend>' (expected cpu)", spec: animate)
        }
        let fallsBack = arguments.value("fallback") == "cpu"
        if arguments.flag("resume") && arguments.flag("force") {
            throw UsageError(message: "Give either --resume or --force, not both", spec: animate)
        }
        let existing: AnimationWriter.Existing =
            arguments.flag("resume") ? .resume : arguments.flag("force") ? .replace : .refuse
        let writer = try AnimationWriter(output: output, fps: fps, frameCount: frameCount, existing: existing)
        let progress = Progress(total: frameCount, quiet: arguments.flag("quiet"))
        Interruption.watch()
        for index in 0..<frameCount {
            if Interruption.requested {
                writer.abandon()
                let howToGoOn =
                    writer.format == .folder
                    ? "rerun the same command with --resume to render the rest"
                    : "nothing was written to \(output.path)"
                throw Interrupted(message: "interrupted after \(index) of \(frameCount) frames; \(howToGoOn)")
            }
            if writer.completeFrames.contains(index) {
                writer.skip()
                progress.advance()
                continue
            }
            let scene = frameAt(Double(index) / fps)
            let parameters: FrameParameters
            do {
                parameters = try LensRenderer.resolve(scene, baseDirectory: baseDirectory, scale: scale)
            } catch let error as SceneError {
                throw CommandFailure(message: "\(scenePath ?? name) at frame \(index + 1): \(error)")
            }
            let image: RGBA8Image
            do {
                image = try renderer.render(parameters)
            } catch let error as VulkanError {
                guard fallsBack else {
                    writer.abandon()
                    throw CommandFailure(
                        message: "frame \(index + 1): \(error) (add --fallback cpu to go on on the CPU reference)")
                }
                printError(
                    "warning: the Vulkan device failed at frame \(index + 1) (\(error)); going on on the CPU reference")
                renderer = try makeRenderer(.cpu)
                image = try renderer.render(parameters)
            }
            try writer.append(image)
            progress.advance()
        }
        try writer.finish()
        progress.finish()
        let backendName = renderer.device.map { "vulkan, \($0.name)" } ?? "cpu reference"
        print(
            "wrote \(output.path) (\(frameCount) frames at \(String(format: "%g", fps)) fps, \(writer.format.rawValue), \(backendName))"
        )
    }

    // MARK: gallery

    static func runGallery(_ arguments: ParsedArguments) throws {
        if arguments.flag("list") {
            for (index, cell) in FeatureGallery.cells.enumerated() { print("\(index + 1). \(cell.name)") }
            return
        }
        let backend = try parseBackend(arguments, gallery)
        let renderer = try makeRenderer(backend)
        var images: [RGBA8Image] = []
        for (index, cell) in FeatureGallery.cells.enumerated() {
            images.append(try renderer.render(cell.scene))
            printError("[\(index + 1)/\(FeatureGallery.cells.count)] \(cell.name)")
        }
        let output = URL(fileURLWithPath: arguments.value("output")!)
        let sheet = ContactSheet.compose(images, columns: FeatureGallery.columns)
        try PNGCodec.write(sheet, to: output)
        print("wrote \(output.path) (\(images.count) cells, \(sheet.width)×\(sheet.height) px)")
    }

    // MARK: examples, devices

    static func runExamples() {
        print("STILLS (render --example NAME):")
        for example in BuiltInScene.allCases {
            print(helpRow(example.rawValue, example.summary), terminator: "")
        }
        print("\nANIMATIONS (animate --example NAME):")
        for animation in BuiltInAnimation.allCases {
            print(helpRow(animation.rawValue, animation.summary), terminator: "")
        }
    }

    static func runDevices() throws {
        let devices: [DeviceDescription]
        do {
            devices = try LensRenderer.listDevices()
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        if devices.isEmpty {
            print("no Vulkan devices (for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers)")
        }
        for device in devices { print(device) }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
