import Foundation
import Testing

/// The executable named `name` on `$PATH`, if there is one.
private func executableOnPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `shell -n` (parse only) on `script`; the shell's exit status and what it said.
private func syntaxCheck(_ script: String, with shell: URL) throws -> (status: Int32, output: String) {
    let file = try temporaryFolder("completions").appendingPathComponent("liquidlens.\(shell.lastPathComponent)")
    try Data(script.utf8).write(to: file)
    let process = Process()
    process.executableURL = shell
    process.arguments = ["-n", file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, said)
}

private let subcommands = [
    "render", "animate", "batch", "bench", "diff", "verify", "gallery", "presets", "theme", "examples", "devices",
    "completions",
]

@Suite("liquidlens version, completions and dispatch")
struct CLICompletionTests {
    @Test("--version prints the version on stdout with exit 0")
    func version() throws {
        let result = try runCLI(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "liquidlens 0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("The tool's help lists every subcommand, completions included")
    func rootHelp() throws {
        let result = try runCLI(["--help"])
        #expect(result.status == 0)
        for name in subcommands {
            #expect(result.stdout.contains("\n  \(name) "), "missing \(name)")
        }
        #expect(try runCLI(["help", "completions"]).stdout.contains("USAGE: liquidlens completions <shell>"))
    }

    @Test(
        "An unknown subcommand is a usage error, not a fallback to another command",
        arguments: [("frobnicate", ""), ("device", "; did you mean 'devices'?"), ("--bogus", "")])
    func unknownSubcommand(_ name: String, _ suggestion: String) throws {
        let result = try runCLI([name])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "Error: Unknown subcommand '\(name)'\(suggestion)\nUsage: liquidlens <subcommand>\n  See 'liquidlens --help' for more information.\n"
        )
    }

    @Test(
        "Each shell's script names every subcommand, the options and the values of enum options",
        arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) throws {
        let result = try runCLI(["completions", shell])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        for name in subcommands {
            #expect(result.stdout.contains(name), "\(shell): missing \(name)")
        }
        for word in ["backend", "device", "content-size", "frames-in-flight", "auto", "vulkan", "cpu", "AX5", "pam"] {
            #expect(result.stdout.contains(word), "\(shell): missing \(word)")
        }
        #expect(result.stdout.contains("bash zsh fish"), "\(shell): the completions command's shells")
    }

    @Test("An unknown shell is a usage error that lists the shells")
    func unknownShell() throws {
        let result = try runCLI(["completions", "tcsh"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Invalid value 'tcsh' for '<shell>' (expected bash, zsh, fish)\n"))
    }

    @Test("The bash script parses and completes subcommands, options and option values")
    func bashScript() throws {
        let bash = try #require(executableOnPath("bash"))
        let script = try runCLI(["completions", "bash"]).stdout
        let check = try syntaxCheck(script, with: bash)
        #expect(check.status == 0, "\(check.output)")

        let file = try temporaryFolder("completions-bash").appendingPathComponent("liquidlens.bash")
        try Data(script.utf8).write(to: file)
        let process = Process()
        process.executableURL = bash
        process.arguments = [
            "-c",
            """
            source "$0"
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _liquidlens; echo "${COMPREPLY[*]}"; }
            complete_words liquidlens re
            complete_words liquidlens gallery --dev
            complete_words liquidlens render --backend ""
            complete_words liquidlens completions ""
            """,
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(lines == "render\n--device\nauto vulkan cpu\nbash zsh fish\n")
    }

    @Test("The zsh script parses", .enabled(if: executableOnPath("zsh") != nil, "zsh is not installed"))
    func zshScript() throws {
        try checkScript("zsh")
    }

    @Test("The fish script parses", .enabled(if: executableOnPath("fish") != nil, "fish is not installed"))
    func fishScript() throws {
        try checkScript("fish")
    }

    private func checkScript(_ shell: String) throws {
        let executable = try #require(executableOnPath(shell))
        let check = try syntaxCheck(try runCLI(["completions", shell]).stdout, with: executable)
        #expect(check.status == 0, "\(shell) -n: \(check.output)")
    }

    @Test("Every rendering subcommand picks its Vulkan device with --device")
    func deviceOnEveryRenderingCommand() throws {
        let folder = try temporaryFolder("cli-device-everywhere")
        let commands: [(arguments: [String], writes: String)] = [
            (["gallery", "--backend", "vulkan", "-o", "gallery.png"], "gallery.png"),
            (["presets", "--sheet", "presets.png", "--backend", "vulkan"], "presets.png"),
            (["animate", "--fps", "1", "--duration", "1", "--backend", "vulkan", "-o", "frames", "-q"], "frames"),
            (
                ["bench", "--workload", "thumbnails", "--frames", "2", "--backend", "vulkan", "--json", "b.json"],
                "b.json"
            ),
        ]
        for (arguments, writes) in commands {
            let chosen = try runCLI(arguments + ["--device", "llvm"], in: folder)
            #expect(chosen.status == 0, "\(arguments[0]): \(chosen.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(writes).path))
            let missing = try runCLI(arguments + ["--device", "nosuch"], in: folder)
            #expect(missing.status == 1, "\(arguments[0])")
            #expect(
                missing.stderr.contains("no Vulkan device matches \"nosuch\". Devices found:\n  [0] llvmpipe"),
                "\(arguments[0]): \(missing.stderr)")
        }
        let fromEnvironment = try runCLI(
            ["gallery", "--backend", "vulkan", "-o", "env.png"], environment: ["LIQUIDLENS_DEVICE": "nosuch"],
            in: folder)
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("no Vulkan device matches \"nosuch\""))
    }

    @Test("Option values are checked before anything runs, with the option's usage")
    func eagerValidation() throws {
        let result = try runCLI(["presets", "--backend", "metal"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == """
                Error: Invalid value 'metal' for '--backend <backend>' (expected auto, vulkan (gpu) or cpu)
                Usage: liquidlens presets [--sheet <file.png>] [--backend <backend>] [--device <device>] [--memory <path>] [--while-compiling <policy>] [-q]
                  See 'liquidlens presets --help' for more information.

                """)
    }
}
