import Foundation
import LiquidLens
import Testing

/// Runs the real `liquidlens` binary built beside the test bundle.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// Standard output as bytes, for outputs streamed there (`-o -`).
    let stdoutBytes: Data
}

/// The `liquidlens` binary built beside the test bundle.
func cliBinary() -> URL {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "liquidlens")
    if FileManager.default.fileExists(atPath: executable.path) { return executable }
    let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("liquidlens")
}

func runCLI(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> CLIResult {
    try runProcess(cliBinary(), arguments, environment: environment, in: directory)
}

/// Runs `executable` with `arguments` (and `environment` over this process's) to completion,
/// feeding it `stdin` when given.
func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
    stdin: Data? = nil
) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    if stdin != nil { process.standardInput = input }
    try process.run()
    if let stdin {
        // Written while the child runs: it drains its stdin as it goes, and a tool that quits
        // without reading all of it gets EPIPE here, which the caller sees in its exit status.
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            try? writer.write(contentsOf: stdin)
            try? writer.close()
        }
    }
    // Both pipes at once: a child that fills stderr while stdout is read first would block forever.
    nonisolated(unsafe) var stderr = Data()
    let stderrRead = DispatchGroup()
    stderrRead.enter()
    DispatchQueue.global().async {
        stderr = err.fileHandleForReading.readDataToEndOfFile()
        stderrRead.leave()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    stderrRead.wait()
    process.waitUntilExit()
    return CLIResult(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self), stdoutBytes: stdout)
}

@Suite("liquidlens command line")
struct CLITests {
    @Test(
        "Help is on stdout with exit 0, for the tool and every subcommand",
        arguments: [
            [], ["--help"], ["help", "render"], ["render", "--help"], ["diff", "-h"], ["examples", "--help"],
            ["devices", "--help"], ["batch", "--help"], ["bench", "--help"], ["presets", "--help"],
            ["theme", "--help"],
        ])
    func help(_ arguments: [String]) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("USAGE: liquidlens"))
        #expect(result.stderr.isEmpty)
    }

    @Test("Render help lists options with their defaults")
    func renderHelp() throws {
        let result = try runCLI(["render", "--help"])
        #expect(result.stdout.contains("ARGUMENTS:\n  <scene>"))
        #expect(result.stdout.contains("--backend <backend>     auto, vulkan (or gpu) or cpu. (default: auto)"))
        #expect(result.stdout.contains("-o, --output <output>"))
    }

    @Test(
        "Bad usage exits 64 with Error: and usage on stderr",
        arguments: [
            (["render", "--bogus"], "Unknown option '--bogus'"),
            (["render", "--backend", "metal"], "Invalid value 'metal' for '--backend <backend>'"),
            (["render", "--scale", "9"], "Invalid value '9' for '--scale <scale>'"),
            (
                ["batch", "m.json", "--while-compiling", "later"],
                "Invalid value 'later' for '--while-compiling <policy>'"
            ),
            (["render", "--example", "nope"], "Unknown example 'nope'"),
            (["render", "-o"], "Missing value for '--output <output>'"),
            (["diff", "a.png"], "Missing expected argument '<expected>'"),
            (["frobnicate"], "Unknown subcommand 'frobnicate'"),
        ])
    func badUsage(_ arguments: [String], _ message: String) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("Usage: liquidlens"))
        #expect(result.stdout.isEmpty)
    }

    @Test("A scene with a bad key fails with exit 1 naming the key path and the key it likely meant")
    func badSceneKey() throws {
        let folder = try temporaryFolder("cli-bad")
        let scene = folder.appendingPathComponent("bad.json")
        try Data(
            #"{"canvas": {"width": 50, "height": 50}, "glass": [{"shape": "circle", "frame": {"x": 0, "y": 0, "width": 20, "height": 20}, "optics": {"magnifcation": 2}}]}"#
                .utf8
        ).write(to: scene)
        let result = try runCLI([
            "render", scene.path, "--backend", "cpu", "-o", folder.appendingPathComponent("out.png").path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                #"Error: \#(scene.path): glass[0].optics.magnifcation: unknown key; did you mean "magnification"?"#),
            "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    @Test("A missing scene file fails with exit 1 and says which file")
    func missingInput() throws {
        let result = try runCLI(["render", "/nonexistent/scene.json", "--backend", "cpu"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("Error: /nonexistent/scene.json: cannot read scene file /nonexistent/scene.json"),
            "stderr: \(result.stderr)")
    }

    @Test("--backend vulkan with no Vulkan driver fails clearly; auto falls back to the CPU")
    func noVulkanDevice() throws {
        let folder = try temporaryFolder("cli-nodevice")
        let noDriver = ["VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json"]
        let vulkan = try runCLI(["render", "--backend", "vulkan", "-o", "out.png"], environment: noDriver, in: folder)
        #expect(vulkan.status == 1)
        #expect(
            vulkan.stderr.hasPrefix("Error: the Vulkan backend is unavailable: no Vulkan driver found"),
            "stderr: \(vulkan.stderr)")
        #expect(vulkan.stderr.contains("mesa-vulkan-drivers"))
        // Enough timed frames of the showcase that auto wants the GPU, and falls back.
        let frames = BackendChoice.cpuPixelBudget(for: .cpu) / (780 * 240) + 1
        let automatic = try runCLI(
            ["render", "--backend", "auto", "--timing", "--frames", "\(frames)", "-o", "out.png"],
            environment: noDriver, in: folder)
        #expect(automatic.status == 0)
        #expect(
            automatic.stderr.hasPrefix("note: rendering on the CPU reference; Vulkan is unavailable: no Vulkan driver"))
        #expect(automatic.stdout.contains("cpu reference"))
    }

    @Test("Without the Vulkan loader the CPU backend still runs and --backend vulkan names what is missing")
    func noVulkanLoader() throws {
        let folder = try temporaryFolder("cli-noloader")
        let noLoader = ["LIQUIDLENS_VULKAN_LIBRARY": "/nonexistent/libvulkan.so.1"]
        let vulkan = try runCLI(["render", "--backend", "vulkan", "-o", "out.png"], environment: noLoader, in: folder)
        #expect(vulkan.status == 1)
        #expect(
            vulkan.stderr.contains(
                "no Vulkan loader: /nonexistent/libvulkan.so.1 cannot be opened (apt-get install libvulkan1"),
            "\(vulkan.stderr)")
        let automatic = try runCLI(["render", "-o", "out.png"], environment: noLoader, in: folder)
        #expect(automatic.status == 0 && automatic.stdout.contains("cpu reference"))
        let devices = try runCLI(["devices"], environment: noLoader)
        #expect(devices.status == 1 && devices.stderr.contains("no Vulkan loader"))
    }

    @Test("A device without memory for the frame fails clearly and suggests a way out")
    func outOfDeviceMemory() throws {
        let folder = try temporaryFolder("cli-oom")
        let result = try runCLI(
            ["render", "--backend", "vulkan", "-o", "out.png"], environment: ["LIQUIDLENS_INJECT_OUT_OF_MEMORY": "1"],
            in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no memory for this frame (about"), "\(result.stderr)")
        #expect(result.stderr.contains("VK_ERROR_OUT_OF_DEVICE_MEMORY; use --backend cpu or a smaller --scale"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("render writes the showcase on both backends and diff reports them equal")
    func renderAndDiff() throws {
        let folder = try temporaryFolder("cli-render")
        let gpu = try runCLI(["render", "--backend", "vulkan", "--validation", "-o", "gpu.png"], in: folder)
        #expect(gpu.status == 0, "\(gpu.stderr)")
        #expect(gpu.stdout.contains("780×240 px, vulkan"))
        #expect(gpu.stderr.isEmpty, "validation or other messages: \(gpu.stderr)")
        let cpu = try runCLI(["render", "--example", "segmented", "--backend", "cpu", "-o", "cpu.png"], in: folder)
        #expect(cpu.status == 0)
        let diff = try runCLI(["diff", "gpu.png", "cpu.png", "--heatmap", "heat.png"], in: folder)
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("max error:   R 0  G 0  B 0  A 0"), "\(diff.stdout)")
        #expect(diff.stdout.contains("over 1/255: 0 px"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("heat.png").path))
    }

    @Test("--while-compiling cpu has the CPU reference render the first frame and says so; wait keeps it on the GPU")
    func whileCompiling() throws {
        let folder = try temporaryFolder("cli-while-compiling")
        let standIn = try runCLI(
            ["render", "--backend", "vulkan", "--while-compiling", "cpu", "-o", "stand-in.png"], in: folder)
        #expect(standIn.status == 0, "\(standIn.stderr)")
        #expect(standIn.stdout.contains("780×240 px, cpu reference, its Vulkan pipelines not compiled"))
        #expect(
            standIn.stderr.contains("the CPU reference rendered 1 frame whose GPU pipelines were not compiled"),
            "\(standIn.stderr)")
        let gpu = try runCLI(
            ["render", "--backend", "vulkan", "--while-compiling", "wait", "-o", "gpu.png"], in: folder)
        #expect(gpu.status == 0, "\(gpu.stderr)")
        #expect(gpu.stderr.isEmpty, "\(gpu.stderr)")
        let diff = try runCLI(["diff", "stand-in.png", "gpu.png"], in: folder)
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("max error:   R 0  G 0  B 0  A 0"), "\(diff.stdout)")
    }

    @Test("examples lists the stable built-in names; devices lists lavapipe as usable")
    func listings() throws {
        let examples = try runCLI(["examples"])
        #expect(examples.status == 0)
        for name in ["segmented", "scroll-edges", "probe-grid", "probe-ramp", "probe-black", "probe-white"] {
            #expect(examples.stdout.contains("  \(name) "), "missing \(name)")
        }
        let devices = try runCLI(["devices"])
        #expect(devices.status == 0)
        #expect(devices.stdout.contains("llvmpipe") && devices.stdout.contains(": usable"), "\(devices.stdout)")
        #expect(
            devices.stdout.contains("\n    unified memory (heap 0: ")
                && devices.stdout.contains("device-local, host-visible); no dedicated transfer queue\n"),
            "\(devices.stdout)")
    }

    @Test("An output that cannot be written fails with exit 1 and the reason; parent folders are created")
    func unwritableOutput() throws {
        let folder = try temporaryFolder("cli-unwritable")
        try Data().write(to: folder.appendingPathComponent("blocker"))
        let result = try runCLI(["render", "--backend", "cpu", "-o", "blocker/out.png"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("Error: cannot write \(folder.path)/blocker/out.png: cannot create"),
            "\(result.stderr)")
        let nested = try runCLI(["render", "--backend", "cpu", "-o", "a/b/c.png"], in: folder)
        #expect(nested.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/b/c.png").path))
    }

    @Test(
        "A write past a file-size limit (as on a full disk) fails cleanly and leaves no file",
        .disabled(
            if: ProcessInfo.processInfo.environment["LIQUIDLENS_SANITIZER"] == "thread",
            "the ThreadSanitizer runtime itself faults under ulimit -f"))
    func fileSizeLimit() throws {
        let folder = try temporaryFolder("cli-limit")
        let binary = cliBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -f 20; exec \"$0\" render --backend cpu -o out.png", binary.path]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr == "Error: cannot write \(folder.path)/out.png: file too large\n", "\(stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no partial or temporary file")
    }

    @Test("--device picks by index or name and lists the devices when nothing matches")
    func deviceChoice() throws {
        let folder = try temporaryFolder("cli-device")
        let byIndex = try runCLI(["render", "--backend", "vulkan", "--device", "0", "-o", "a.png"], in: folder)
        #expect(byIndex.status == 0 && byIndex.stdout.contains("llvmpipe"))
        let byEnvironment = try runCLI(
            ["render", "--backend", "vulkan", "-o", "b.png"], environment: ["LIQUIDLENS_DEVICE": "llvm"], in: folder)
        #expect(byEnvironment.status == 0 && byEnvironment.stdout.contains("llvmpipe"))
        let missing = try runCLI(
            ["render", "--backend", "vulkan", "--device", "no-such-gpu", "-o", "c.png"], in: folder)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("no Vulkan device matches \"no-such-gpu\". Devices found:\n  [0] llvmpipe"),
            "\(missing.stderr)")
        // lavapipe is "llvmpipe (LLVM 15.0.6, …)": an index is never a digit inside a name.
        let digitInName = try runCLI(["render", "--backend", "vulkan", "--device", "1", "-o", "d.png"], in: folder)
        #expect(digitInName.status == 1, "\(digitInName.stdout)")
        #expect(digitInName.stderr.contains("no Vulkan device matches \"1\""), "\(digitInName.stderr)")
    }

    @Test("diff of a missing file fails with exit 1, naming the side")
    func diffMissing() throws {
        let result = try runCLI(["diff", "/nonexistent/a.png", "/nonexistent/b.png"])
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: /nonexistent/a.png: no such file or folder (the actual side)\n",
            "stderr: \(result.stderr)")
    }

    @Test("-- ends the options: a file whose name starts with a dash is an argument after it")
    func doubleDashEndsOptions() throws {
        let folder = try temporaryFolder("cli-double-dash")
        try Data(#"{"canvas": {"width": 40, "height": 30}}"#.utf8).write(to: folder.appendingPathComponent("-odd.json"))
        let before = try runCLI(["render", "-odd.json", "--backend", "cpu"], in: folder)
        #expect(before.status == 64 && before.stderr.hasPrefix("Error: Unknown option '-odd.json'"), "\(before.stderr)")
        let after = try runCLI(["render", "--backend", "cpu", "-o", "out.png", "--", "-odd.json"], in: folder)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
        let helpAfter = try runCLI(["diff", "--", "--help", "x.png"], in: folder)
        #expect(
            helpAfter.status == 1 && helpAfter.stderr.contains("--help: no such file or folder"), "\(helpAfter.stderr)")
    }

    @Test("Every subcommand's help parses: no command declares one option name twice")
    func everySubcommandHelps() throws {
        let overview = try runCLI(["--help"])
        let names = overview.stdout.components(separatedBy: "SUBCOMMANDS:").last!.split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.contains("'") }.compactMap {
                $0.split(separator: " ").first.map(String.init)
            }
            .filter { $0.allSatisfy(\.isLetter) }
        #expect(names.count >= 13, "\(names)")
        for name in names {
            let help = try runCLI([name, "--help"])
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "\(name): \(help.stderr)")
        }
    }
}
