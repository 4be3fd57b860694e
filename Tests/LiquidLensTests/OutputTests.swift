import Foundation
import LiquidLens
import Testing

/// The kind of node at `url` without following a final link: `S_IFLNK`, `S_IFIFO`, `S_IFCHR`, …
func nodeKind(_ url: URL) -> mode_t? {
    var status = stat()
    return lstat(url.path, &status) == 0 ? status.st_mode & S_IFMT : nil
}

/// Runs `script` in bash in `folder` with `$LIQUIDLENS` set to the binary under test.
func runShell(_ script: String, in folder: URL) throws -> CLIResult {
    try runProcess(
        URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["LIQUIDLENS": cliBinary().path], in: folder)
}

/// The commands that write a file, each writing to `output` from inputs it makes in `folder`.
enum WritingCommand: String, CaseIterable, CustomTestStringConvertible {
    case render, animate, batch, diff, theme, bench

    var testDescription: String { rawValue }

    func arguments(output: String, in folder: URL) throws -> [String] {
        switch self {
        case .render:
            return ["render", "--backend", "cpu", "-o", output]
        case .animate:
            return [
                "animate", "--example", "merge", "--duration", "0.2", "--scale", "1", "--backend", "cpu", "-q",
                "--format", "gif", "-o", output,
            ]
        case .batch:
            let manifest = folder.appendingPathComponent("list.json")
            try Data(#"{"scenes": [{"example": "probe-grid"}]}"#.utf8).write(to: manifest)
            return ["batch", manifest.path, "--format", "ppm", "--backend", "cpu", "-q", "-o", output]
        case .diff:
            let image = folder.appendingPathComponent("input.png")
            try PNGCodec.write(RGBA8Image(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)), to: image)
            return ["diff", image.path, image.path, "--heatmap", output]
        case .theme:
            return ["theme", "arctic", "--json", output]
        case .bench:
            // Injected wrong pixels stop the bench right after its parity check, report written.
            return ["bench", "--workload", "thumbnails", "--frames", "2", "--json", output]
        }
    }

    var environment: [String: String] { self == .bench ? ["LIQUIDLENS_INJECT_WRONG_PIXELS": "1"] : [:] }
    var exitStatus: Int32 { self == .bench ? 1 : 0 }
}

@Suite("Outputs behave like other tools' outputs")
struct OutputTests {
    @Test(
        "A symbolic link keeps pointing at its file, which is replaced whole",
        arguments: WritingCommand.allCases.filter { $0 != .batch })
    func symbolicLink(_ command: WritingCommand) throws {
        let folder = try temporaryFolder("out-link")
        let target = folder.appendingPathComponent("real/output")
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: target)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/output")
        let result = try runCLI(
            try command.arguments(output: link.path, in: folder), environment: command.environment, in: folder)
        #expect(result.status == command.exitStatus, "\(result.stderr)")
        #expect(nodeKind(link) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/output")
        #expect(try Data(contentsOf: target).count > 3, "the target holds the new output")
        let beside = try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)
        #expect(beside == ["output"], "no temporary file left: \(beside)")
    }

    @Test("A link to a file not made yet creates that file, folders and all")
    func danglingLink() throws {
        let folder = try temporaryFolder("out-dangling")
        let link = folder.appendingPathComponent("showcase.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "renders/today/showcase.png")
        let result = try runCLI(["render", "--backend", "cpu", "-o", link.path], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(nodeKind(link) == S_IFLNK)
        #expect(try PNGCodec.read(contentsOf: link).width == 780)
    }

    @Test("A named pipe is written in place and stays a pipe; a batch streams every frame through one opening")
    func namedPipe() throws {
        let folder = try temporaryFolder("out-fifo")
        #expect(mkfifo(folder.appendingPathComponent("pipe.png").path, 0o644) == 0)
        let render = try runShell(
            #"timeout 60 cat pipe.png > got.png & "$LIQUIDLENS" render --backend cpu -o pipe.png && wait"#, in: folder)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(nodeKind(folder.appendingPathComponent("pipe.png")) == S_IFIFO)
        let file = try runCLI(["render", "--backend", "cpu", "-o", "file.png"], in: folder)
        #expect(file.status == 0)
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("got.png"))
                == Data(contentsOf: folder.appendingPathComponent("file.png")))

        let manifest = folder.appendingPathComponent("two.json")
        try Data(#"{"scenes": [{"example": "probe-grid"}, {"example": "probe-ramp"}]}"#.utf8).write(to: manifest)
        let batch = try runShell(
            #"timeout 60 cat pipe.png > frames.ppm & "$LIQUIDLENS" batch two.json --format ppm -q -o pipe.png && wait"#,
            in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        let streamed = try runCLI(["batch", "two.json", "--format", "ppm", "-q", "-o", "-"], in: folder)
        #expect(streamed.stdoutBytes.count > 2 * 320 * 200 * 3)
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("frames.ppm")) == streamed.stdoutBytes,
            "both frames reached the reader")
    }

    @Test(
        "- and /dev/stdout stream to standard output; the report lines move to stderr", arguments: ["-", "/dev/stdout"])
    func standardOutput(_ output: String) throws {
        let folder = try temporaryFolder("out-stdout")
        let result = try runCLI(["render", "--backend", "cpu", "-o", output], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGCodec.decode(result.stdoutBytes)
        #expect(image.width == 780 && image.height == 240)
        #expect(result.stderr.contains("wrote standard output (780×240 px, cpu reference)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path), "no file named -")
        let theme = try runCLI(["theme", "arctic", "--json", output])
        #expect(try JSONSerialization.jsonObject(with: theme.stdoutBytes) is [String: Any])
        try PNGCodec.write(
            RGBA8Image(width: 2, height: 2, pixels: [UInt8](repeating: 90, count: 16)),
            to: folder.appendingPathComponent("same.png"))
        let junit = try runCLI(["diff", "same.png", "same.png", "--junit", output], in: folder)
        #expect(junit.status == 0, "\(junit.stderr)")
        #expect(junit.stdout.hasPrefix("<?xml") && junit.stdout.contains("<testsuite"), "\(junit.stdout)")
        #expect(junit.stderr.contains("junit:       standard output"), "the report lines moved: \(junit.stderr)")
    }

    @Test(
        "A full device is a clear error with exit 1, and the device node survives",
        .enabled(if: getuid() == 0, "mknod needs root"), arguments: WritingCommand.allCases)
    func fullDevice(_ command: WritingCommand) throws {
        let folder = try temporaryFolder("out-full")
        let full = folder.appendingPathComponent("full")
        // The same device as /dev/full (major 1, minor 7), private to this test.
        #expect(try runShell("mknod full c 1 7", in: folder).status == 0)
        let arguments = try command.arguments(output: full.path, in: folder)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let result = try runCLI(arguments, environment: command.environment, in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: cannot write \(full.path): no space left on device"), "\(result.stderr)")
        #expect(nodeKind(full) == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "nothing left")
    }

    @Test("A reader that goes away is a clear error with exit 141, as SIGPIPE ends a tool")
    func brokenPipe() throws {
        let process = Process()
        process.executableURL = cliBinary()
        process.arguments = ["render", "--backend", "cpu", "-o", "-"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Nobody will ever read: the first write fails with EPIPE (the tool ignores SIGPIPE).
        try output.fileHandleForReading.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 141)
        #expect(stderr == "Error: cannot write standard output: broken pipe (the reader went away)\n", "\(stderr)")
    }

    @Test("A folder where a file is expected, and a file where a folder is, are errors")
    func wrongKind() throws {
        let folder = try temporaryFolder("out-kind")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("shots"), withIntermediateDirectories: true)
        let render = try runCLI(["render", "--backend", "cpu", "-o", "shots"], in: folder)
        #expect(render.status == 1)
        #expect(render.stderr == "Error: cannot write \(folder.path)/shots: it is a folder; give a file name\n")
        try Data("x".utf8).write(to: folder.appendingPathComponent("frames"))
        let manifest = folder.appendingPathComponent("one.json")
        try Data(#"{"scenes": [{"example": "probe-grid"}]}"#.utf8).write(to: manifest)
        let batch = try runCLI(["batch", "one.json", "-o", "frames", "-q"], in: folder)
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("frames: it is a file; batch writes a folder of frames"), "\(batch.stderr)")
        let animate = try runCLI(["animate", "--example", "merge", "-q", "-o", "-"], in: folder)
        #expect(animate.status == 1)
        #expect(animate.stderr.contains("cannot write standard output: a folder of frames cannot go to a pipe"))
    }

    @Test("Unreadable inputs are told in plain words, never as a Foundation error code")
    func plainInputErrors() throws {
        let folder = try temporaryFolder("out-inputs")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pictures"), withIntermediateDirectories: true)
        try Data(#"{"canvas": {"width": 10, "height": 10}, "background": {"type": "image", "path": "pictures"}}"#.utf8)
            .write(to: folder.appendingPathComponent("picture.json"))
        try Data().write(to: folder.appendingPathComponent("empty.json"))
        try Data("{\n  \"canvas\": {\"width\": 10,\n    \"height\": }\n}".utf8).write(
            to: folder.appendingPathComponent("broken.json"))
        let cases: [([String], String)] = [
            (
                ["render", "picture.json", "--backend", "cpu"],
                "background[0].path: cannot read image \(folder.path)/pictures: it is a folder, not a file"
            ),
            (["render", "pictures"], "cannot read scene file \(folder.path)/pictures: it is a folder, not a file"),
            (["render", "empty.json"], "Error: empty.json: the file is empty; a scene is a JSON object"),
            (["render", "broken.json"], "Error: broken.json: not valid JSON: invalid value at line 3, column 15"),
            (["batch", "empty.json"], "Error: empty.json: the file is empty; a manifest is a JSON object"),
            (["render", "missing.json"], "cannot read scene file \(folder.path)/missing.json: no such file or folder"),
        ]
        for (arguments, message) in cases {
            let result = try runCLI(arguments, in: folder)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Domain") && !result.stderr.contains("could not be completed"))
        }
    }
}
