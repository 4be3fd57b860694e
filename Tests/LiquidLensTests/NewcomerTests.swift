import Foundation
import LensModel
import LiquidLens
import Testing

/// The scene file with an animation among the samples.
private let animatedScene = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Scenes/segmented-drag.json")

@Suite("A newcomer's mistakes get errors that say what to do")
struct NewcomerTests {
    @Test(
        "The closest known name is offered, and nothing when none is close",
        arguments: [
            ("rendr", ["render", "animate", "batch", "bench"], "render"),
            ("--backnd", ["--backend", "--device", "-o"], "--backend"),
            ("segmnted", ["segmented", "tab-bar", "probe-grid"], "segmented"),
            ("magnifcation", ["magnification", "frost", "dispersion"], "magnification"),
            ("Verfiy", ["verify", "diff"], "verify"),
            ("anim", ["animate", "batch"], "animate"),
            ("frobnicate", ["render", "animate", "batch"], nil),
            ("nope", ["segmented", "tab-bar"], nil),
            ("x", ["y", "z"], nil),
        ] as [(String, [String], String?)])
    func closestName(_ typed: String, _ candidates: [String], _ expected: String?) {
        #expect(NameSuggestion.closest(to: typed, among: candidates) == expected)
    }

    @Test(
        "Misspelt subcommands, options, examples and values get a did-you-mean (exit 64)",
        arguments: [
            (["rendr"], "Unknown subcommand 'rendr'; did you mean 'render'?"),
            (["render", "--backnd", "cpu"], "Unknown option '--backnd'; did you mean '--backend'?"),
            (["render", "--example", "segmnted"], "Unknown example 'segmnted'; did you mean 'segmented'? (expected"),
            (
                ["render", "--backend", "vulkn"],
                "Invalid value 'vulkn' for '--backend <backend>'; did you mean 'vulkan'?"
            ),
            (
                ["render", "--example", "segmented-drag"],
                "'segmented-drag' is an animated example; render its frames with: liquidlens animate --example segmented-drag"
            ),
            (
                ["render", animatedScene.path, "--appearance", "dark"],
                "--appearance and --content-size apply to --example"
            ),
            (["render", "-o", "shot.tiff"], "cannot write shot.tiff: .tiff is not an image format liquidlens writes"),
            (
                ["animate", "--example", "merge", "-o", "m.avi"],
                "cannot write m.avi: .avi is not a format animate writes"
            ),
        ])
    func misspelt(_ arguments: [String], _ message: String) throws {
        let folder = try temporaryFolder("newcomer-usage")
        let result = try runCLI(arguments, in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was written")
    }

    @Test("An example's or an animation's name given as a scene file points at --example or animate")
    func exampleNameAsScene() throws {
        let folder = try temporaryFolder("newcomer-names")
        let still = try runCLI(["render", "segmented"], in: folder)
        #expect(still.status == 1)
        #expect(still.stderr.contains("liquidlens render --example segmented"), "\(still.stderr)")
        let moving = try runCLI(["render", "tab-bar-drag"], in: folder)
        #expect(moving.status == 1)
        #expect(moving.stderr.contains("liquidlens animate --example tab-bar-drag"), "\(moving.stderr)")
        let preset = try runCLI(["theme", "arctc"], in: folder)
        #expect(preset.status == 1)
        #expect(preset.stderr.contains("did you mean the preset 'arctic'?"), "\(preset.stderr)")
    }

    @Test("Output paths mean what they look like: name/ is a folder, no extension is a folder of frames")
    func outputPaths() throws {
        let folder = try temporaryFolder("newcomer-outputs")
        let render = try runCLI(["render", "--backend", "cpu", "-o", "shots/"], in: folder)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(throws: Never.self) {
            try PNGCodec.read(contentsOf: folder.appendingPathComponent("shots/segmented.png"))
        }
        let frames = try runCLI(
            ["animate", "--example", "merge", "--duration", "0.1", "--scale", "1", "--backend", "cpu", "-o", "merge"],
            in: folder)
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(frames.stderr.contains("merge has no extension: writing a folder of numbered PNG frames"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("merge/frame-0001.png").path))
    }

    @Test("-q leaves only errors and warnings", arguments: [["render"], ["presets", "--sheet", "p.png"]])
    func quiet(_ command: [String]) throws {
        let folder = try temporaryFolder("newcomer-quiet")
        let result = try runCLI(command + ["--backend", "cpu", "-q"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    @Test("An animated scene rendered as a still says which instant it is")
    func animatedStill() throws {
        let folder = try temporaryFolder("newcomer-animated")
        let result = try runCLI(["render", animatedScene.path, "--backend", "cpu", "-o", "still.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("is animated; this is one still, at its time t = 0 s"), "\(result.stderr)")
    }

    @Test("--timing and --validation take Vulkan under auto; --validation on the CPU says it checked nothing")
    func gpuFlags() throws {
        let folder = try temporaryFolder("newcomer-gpu")
        let timing = try runCLI(["render", "--timing", "--frames", "1", "-o", "t.png"], in: folder)
        #expect(timing.status == 0, "\(timing.stderr)")
        #expect(timing.stdout.contains("vulkan, llvmpipe"), "\(timing.stdout)")
        #expect(timing.stderr.contains("auto: --timing is about the GPU"), "\(timing.stderr)")
        let validation = try runCLI(["render", "--validation", "-o", "v.png"], in: folder)
        #expect(validation.status == 0 && validation.stdout.contains("vulkan, llvmpipe"), "\(validation.stderr)")
        let onCPU = try runCLI(["render", "--validation", "--backend", "cpu", "-o", "c.png"], in: folder)
        #expect(onCPU.status == 0)
        #expect(onCPU.stderr.contains("warning: --validation checks Vulkan calls"), "\(onCPU.stderr)")
    }

    @Test("theme says what it wrote; batch --help names files as they are written")
    func smallFixes() throws {
        let folder = try temporaryFolder("newcomer-theme")
        let theme = try runCLI(["theme", "arctic", "--json", "arctic.json", "--swift", "Arctic.swift"], in: folder)
        #expect(theme.status == 0, "\(theme.stderr)")
        #expect(theme.stdout.contains("wrote arctic.json") || theme.stdout.contains("wrote \(folder.path)/arctic.json"))
        #expect(theme.stdout.contains("Arctic.swift (Swift that builds the theme"), "\(theme.stdout)")
        let help = try runCLI(["batch", "--help"])
        #expect(help.stdout.contains("00001-a.png") && !help.stdout.contains("(0001-a.png"), "\(help.stdout)")
    }

    @Test(
        "Names users type: gpu is Vulkan, and names match in any case where none differ only by case",
        arguments: [
            ["render", "--example", "probe-black", "--backend", "gpu"],
            ["render", "--example", "probe-black", "--backend", "GPU"],
            ["render", "--example", "Probe-Black", "--backend", "Vulkan"],
            ["Render", "--example", "probe-black", "--backend", "CPU", "--format", "PNG"],
        ])
    func namesInAnyCase(_ arguments: [String]) throws {
        let folder = try temporaryFolder("newcomer-case")
        let result = try runCLI(arguments + ["-o", "out.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let backend = arguments[arguments.firstIndex(of: "--backend")! + 1].lowercased()
        #expect(result.stdout.contains(backend == "cpu" ? "cpu reference" : "vulkan, llvmpipe"), "\(result.stdout)")
    }

    @Test("A manifest given to render or animate, or a scene to batch or verify, names the command that takes it")
    func documentGivenToTheOtherCommand() throws {
        let folder = try temporaryFolder("newcomer-documents")
        _ = try writeSweepManifest(folder, steps: 2)
        try Data(#"{"canvas": {"width": 40, "height": 30}}"#.utf8).write(
            to: folder.appendingPathComponent("scene.json"))
        let cases = [
            ("render", "sweep.json", "this is a batch manifest, not a scene: liquidlens batch sweep.json"),
            ("animate", "sweep.json", "this is a batch manifest, not a scene: liquidlens batch sweep.json"),
            ("batch", "scene.json", "this is a scene, not a batch manifest: liquidlens render scene.json"),
            ("verify", "scene.json", "this is a scene, not a batch manifest: liquidlens render scene.json"),
        ]
        for (command, file, message) in cases {
            let result = try runCLI([command, file], in: folder)
            #expect(result.status == 1)
            #expect(result.stderr == "Error: \(file): \(message)\n", "\(result.stderr)")
        }
    }

    @Test(
        "Nothing the tool reads can hang it: a pipe, a device or a folder where a file is read is a one-line error",
        arguments: [
            (["render", "NODE"], "NODE: cannot read scene file"),
            (["animate", "NODE"], "NODE: cannot read scene file"),
            (["batch", "NODE"], "NODE: cannot read manifest file"),
            (["verify", "NODE"], "NODE: cannot read manifest file"),
            (["theme", "NODE"], "cannot read scene file"),
            (["render", "--example", "probe-grid", "--backdrop", "NODE", "-o", "x.png"], "cannot read image"),
            (["diff", "NODE", "NODE"], "cannot read image"),
            (["diff", ".", ".", "--config", "NODE"], "cannot read config file"),
            (["bench", "--compare", "NODE"], "NODE"),
        ])
    func nonFilesAreRefused(_ arguments: [String], _ message: String) throws {
        let folder = try temporaryFolder("newcomer-nodes")
        let fifo = folder.appendingPathComponent("fifo.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
        for (node, reason) in [
            (fifo.path, "it is a named pipe, not a file"), ("/dev/zero", "it is a device, not a file"),
            (folder.appendingPathComponent("folder.json").path, "it is a folder, not a file"),
        ] where !(arguments.first == "diff" && reason.contains("folder")) {
            // `timeout` ends a run that opened the node and waits on it forever (exit 124).
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/timeout"),
                ["20", cliBinary().path] + arguments.map { $0 == "NODE" ? node : $0 }, in: folder)
            #expect(result.status == 1, "\(arguments) on \(node): exit \(result.status), \(result.stderr)")
            let expected = message.replacingOccurrences(of: "NODE", with: node)
            #expect(
                result.stderr.hasPrefix("Error: ") && result.stderr.contains(expected) && result.stderr.contains(reason)
                    && result.stderr.split(separator: "\n").count == 1,
                "\(arguments) on \(node): \(result.stderr)")
        }
    }

    @Test("No silent no-ops: an option that changes nothing, an unreadable variable and a refused value say why")
    func noSilentNoOps() throws {
        let folder = try temporaryFolder("newcomer-no-ops")
        let render = ["render", "--backend", "cpu", "-o", "out.png"]
        let tabBar = try runCLI(render + ["--example", "tab-bar", "--content-size", "AX5"], in: folder)
        #expect(tabBar.status == 0)
        #expect(
            tabBar.stderr.contains("note: --content-size AX5 changes nothing in tab-bar: it has no text"),
            "\(tabBar.stderr)")
        let segmented = try runCLI(render + ["--example", "segmented", "--content-size", "AX5"], in: folder)
        #expect(segmented.status == 0 && !segmented.stderr.contains("changes nothing"), "\(segmented.stderr)")
        let frames = try runCLI(render + ["--example", "probe-black", "--frames", "5"], in: folder)
        #expect(frames.stderr.contains("note: --frames counts the frames --timing times"), "\(frames.stderr)")
        let jpeg = try runCLI(
            ["render", "--backend", "cpu", "--example", "probe-black", "-o", "out.jpg", "--png-compression", "fast"],
            in: folder)
        #expect(jpeg.stderr.contains("note: --png-compression fast changes nothing: the output is jpeg"))
        let quality = try runCLI(render + ["--example", "probe-black", "--quality", "50"], in: folder)
        #expect(quality.stderr.contains("note: --quality 50 changes nothing: png is written losslessly"))
        let vulkanOnly = try runCLI(
            render + ["--example", "probe-black", "--while-compiling", "wait", "--device", "0"], in: folder)
        #expect(
            vulkanOnly.stderr.contains(
                "note: --device, --while-compiling change nothing: --backend cpu renders without Vulkan"),
            "\(vulkanOnly.stderr)")

        let budget = try runCLI(
            render + ["--example", "probe-black"], environment: ["LIQUIDLENS_MAX_PIXELS": "abc"], in: folder)
        #expect(budget.status == 1)
        #expect(budget.stderr.hasPrefix("Error: LIQUIDLENS_MAX_PIXELS=abc: expected a whole number of pixels"))
        let validation = try runCLI(
            render + ["--example", "probe-black"], environment: ["LIQUIDLENS_VALIDATION": "yes"], in: folder)
        #expect(validation.status == 1 && validation.stderr.hasPrefix("Error: LIQUIDLENS_VALIDATION=yes: expected 1"))

        let duration = try runCLI(["animate", "--example", "merge", "--duration", "0"], in: folder)
        #expect(duration.status == 64)
        #expect(duration.stderr.contains("more than 0 (a clip has at least one frame)"), "\(duration.stderr)")
    }

    @Test(
        "-q means quiet on every command that reports what it did",
        arguments: [
            ["animate", "--example", "merge", "--duration", "0.1", "--fps", "10", "--backend", "cpu", "-o", "clip/"],
            ["theme", "arctic", "--json", "arctic.json"],
            ["render", "--example", "probe-black", "--backend", "cpu", "-o", "still.png"],
            ["bench", "--workload", "thumbnails", "--frames", "1", "--backend", "cpu", "--json", "bench.json"],
        ])
    func quietEverywhere(_ arguments: [String]) throws {
        let folder = try temporaryFolder("newcomer-quiet")
        let result = try runCLI(arguments + ["-q"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "stdout: \(result.stdout)stderr: \(result.stderr)")
    }

    @Test("render chooses the PNG encoder, and its backend line names what drew the pixels")
    func renderEncoderAndBackendLine() throws {
        let folder = try temporaryFolder("newcomer-large")
        let render = ["render", "--example", "segmented", "--backend", "cpu"]
        #expect(try runCLI(render + ["-o", "fast.png", "--png-compression", "fast"], in: folder).status == 0)
        #expect(try runCLI(render + ["-o", "best.png", "--png-compression", "best"], in: folder).status == 0)
        let fast = try PNGCodec.read(contentsOf: folder.appendingPathComponent("fast.png"))
        let best = try PNGCodec.read(contentsOf: folder.appendingPathComponent("best.png"))
        #expect(fast.pixels == best.pixels)
        let fastSize = try Data(contentsOf: folder.appendingPathComponent("fast.png")).count
        let bestSize = try Data(contentsOf: folder.appendingPathComponent("best.png")).count
        #expect(fastSize > bestSize, "fast \(fastSize) bytes, best \(bestSize)")

        // Past the CPU's budget auto takes Vulkan; while its pipelines compile the CPU reference
        // draws the still, and the one backend line must say so, not "backend vulkan".
        try Data(
            #"{"canvas": {"width": 2000, "height": 1500}, "glass": [{"shape": "circle", "frame": {"x": 100, "y": 100, "width": 400, "height": 400}}]}"#
                .utf8
        ).write(to: folder.appendingPathComponent("large.json"))
        let large = try runCLI(
            ["render", "large.json", "-o", "large.png"], environment: ["LIQUIDLENS_CACHE_DIR": folder.path], in: folder)
        #expect(large.status == 0, "\(large.stderr)")
        let backendLines = large.stderr.split(separator: "\n").filter { $0.hasPrefix("liquidlens: backend") }
        #expect(backendLines.count == 1, "\(large.stderr)")
        if large.stdout.contains("cpu reference") {
            #expect(backendLines.first?.hasPrefix("liquidlens: backend cpu drew it") == true, "\(large.stderr)")
        } else {
            #expect(backendLines.first?.hasPrefix("liquidlens: backend vulkan (auto:") == true, "\(large.stderr)")
        }
    }
}
