import Foundation
import Testing

/// What a test does to the tool's standard streams.
enum StreamSetup: CustomStringConvertible, Sendable {
    /// Started with stderr closed (`2>&-`).
    case stderrClosed
    /// stderr is a pipe whose reader is already gone (`2>&1 | true`, without the race).
    case stderrReaderGone
    /// stdout is read for `count` bytes, then its reader goes away (`| head -c count`).
    case stdoutHead(Int)

    var description: String {
        switch self {
        case .stderrClosed: "stderr closed"
        case .stderrReaderGone: "stderr into a closed pipe"
        case .stdoutHead(let count): "stdout into head -c \(count)"
        }
    }
}

/// How a run under a ``StreamSetup`` ended.
struct StreamRun {
    let status: Int32
    /// Whether a signal ended it (a trap is SIGILL, 132 in a shell).
    let signalled: Bool
    /// stderr, when the setup left it readable.
    let stderr: String
}

/// Runs the tool with `arguments` in `folder` under `setup`.
func runCLI(_ arguments: [String], streams setup: StreamSetup, in folder: URL) throws -> StreamRun {
    let process = Process()
    process.currentDirectoryURL = folder
    let errors = Pipe()
    switch setup {
    case .stderrClosed:
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" "$@" 2>&-"#, cliBinary().path] + arguments
        process.standardOutput = FileHandle.nullDevice
    case .stderrReaderGone:
        process.executableURL = cliBinary()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try errors.fileHandleForReading.close()
        process.standardError = errors
    case .stdoutHead:
        process.executableURL = cliBinary()
        process.arguments = arguments
        process.standardError = errors
    }
    let output = Pipe()
    if case .stdoutHead = setup { process.standardOutput = output }
    try process.run()
    nonisolated(unsafe) var stderr = Data()
    let stderrRead = DispatchGroup()
    if case .stdoutHead(let count) = setup {
        stderrRead.enter()
        DispatchQueue.global().async {
            stderr = errors.fileHandleForReading.readDataToEndOfFile()
            stderrRead.leave()
        }
        var received = 0
        while received < count, let chunk = try output.fileHandleForReading.read(upToCount: count - received),
            !chunk.isEmpty
        {
            received += chunk.count
        }
        try output.fileHandleForReading.close()
    }
    stderrRead.wait()
    process.waitUntilExit()
    return StreamRun(
        status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
        stderr: String(decoding: stderr, as: UTF8.self))
}

/// Files in `folder` and below whose names start with a dot: an atomic write's temporary file
/// left behind.
func hiddenFiles(under folder: URL) -> [String] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return paths.filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
}

/// A folder holding what every command reads: a two-frame sweep, a PNG pair, a scene.
func streamTestFolder(_ name: String) throws -> URL {
    let folder = try temporaryFolder(name)
    _ = try writeSweepManifest(folder, steps: 2)
    let render = try runCLI(["render", "--example", "probe-black", "--backend", "cpu", "-o", "a.png"], in: folder)
    try #require(render.status == 0, "\(render.stderr)")
    try FileManager.default.copyItem(
        at: folder.appendingPathComponent("a.png"), to: folder.appendingPathComponent("b.png"))
    return folder
}

@Suite("Closed and broken standard streams")
struct StandardStreamTests {
    /// Every command with stderr it cannot write: the work is done, the files are there.
    static let commandsWithOutputs: [(arguments: [String], output: String)] = [
        (["render", "--example", "probe-black", "--backend", "cpu", "-o", "out.png"], "out.png"),
        (["render", "--example", "probe-black", "--backend", "vulkan", "-o", "out.png"], "out.png"),
        (
            ["animate", "--example", "merge", "--duration", "0.2", "--fps", "10", "--backend", "cpu", "-o", "anim/"],
            "anim/frame-0002.png"
        ),
        (["batch", "sweep.json", "--backend", "cpu", "-o", "frames/", "--progress", "bar"], "frames/move-00002.png"),
        (["diff", "a.png", "b.png", "--junit", "diff.xml"], "diff.xml"),
        (["verify", "sweep.json", "--junit", "verify.xml", "--progress", "lines"], "verify.xml"),
        (["gallery", "--backend", "cpu", "-o", "gallery.png"], "gallery.png"),
        (["presets", "--backend", "cpu", "--sheet", "presets.png"], "presets.png"),
        (["theme", "arctic", "--json", "theme.json"], "theme.json"),
        (["bench", "--print-schema"], ""),
        (["examples"], ""),
        (["devices"], ""),
        (["completions", "bash"], ""),
        (["rendr"], ""),
    ]

    @Test(
        "No command traps or stops when stderr is closed or its reader is gone",
        arguments: [StreamSetup.stderrClosed, .stderrReaderGone])
    func stderrUnwritable(_ setup: StreamSetup) throws {
        let folder = try streamTestFolder("streams-stderr")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, output) in Self.commandsWithOutputs {
            let run = try runCLI(arguments, streams: setup, in: folder)
            let expected: Int32 = arguments == ["rendr"] ? 64 : 0
            #expect(!run.signalled && run.status == expected, "\(arguments): exit \(run.status)")
            if !output.isEmpty {
                #expect(
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent(output).path),
                    "\(arguments) wrote no \(output)")
            }
        }
        #expect(hiddenFiles(under: folder).isEmpty)
    }

    /// The commands that stream their output to stdout, each big enough to fill a pipe.
    static let streamingCommands: [[String]] = [
        ["render", "--example", "probe-black", "--backend", "cpu", "-o", "-", "--format", "rgba"],
        ["render", "--example", "probe-black", "--backend", "vulkan", "-o", "-", "--format", "rgba"],
        ["batch", "sweep.json", "--backend", "cpu", "-o", "-", "--format", "rgba"],
        [
            "animate", "--example", "merge", "--duration", "0.2", "--fps", "10", "--backend", "cpu", "-o", "-",
            "--format", "gif",
        ],
        ["gallery", "--backend", "cpu", "-o", "-", "--format", "rgba"],
        ["diff", "a.png", "b.png", "--heatmap", "-", "--max-diff-pixels", "off"],
        ["bench", "--print-schema"],
        ["completions", "bash"],
        ["examples"],
    ]

    @Test("Output into head -c ends as Unix tools end: exit 141, one line, nothing left on disk")
    func stdoutReaderGone() throws {
        let folder = try streamTestFolder("streams-stdout")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in Self.streamingCommands {
            let run = try runCLI(arguments, streams: .stdoutHead(100), in: folder)
            #expect(!run.signalled && [0, 141].contains(run.status), "\(arguments): exit \(run.status)")
            if run.status == 141 {
                let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
                #expect(
                    lines == ["Error: cannot write standard output: broken pipe (the reader went away)"],
                    "\(arguments): \(run.stderr)")
            }
            // Raw frames are far bigger than a pipe holds: these must see the reader go.
            if arguments.contains("rgba") {
                #expect(run.status == 141, "\(arguments): exit \(run.status)")
            }
        }
        #expect(hiddenFiles(under: folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
    }

    @Test("An output sent to a stdout the shell closed fails as a broken pipe, never into a file")
    func stdoutClosed() throws {
        let folder = try temporaryFolder("streams-closed-stdout")
        defer { try? FileManager.default.removeItem(at: folder) }
        func renderWithStdoutClosed(to output: String) throws -> CLIResult {
            let render = ["render", "--example", "probe-black", "--backend", "cpu", "-o", output]
            return try runProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" "$@" >&-"#, cliBinary().path] + render, in: folder)
        }
        let result = try renderWithStdoutClosed(to: "-")
        #expect(result.status == 141)
        #expect(result.stderr == "Error: cannot write standard output: broken pipe (the reader went away)\n")
        let report = try renderWithStdoutClosed(to: "out.png")
        #expect(report.status == 0)
        let signature = try Data(contentsOf: folder.appendingPathComponent("out.png")).prefix(8)
        #expect(
            signature == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "the report line landed in the image")
    }
}
