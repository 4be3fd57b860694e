import Foundation
import LiquidLens

extension Commands {
    static let batch = CommandSpec(
        name: "batch",
        abstract: "Render every frame of a batch manifest (a scene list or a parameter sweep) into a folder.",
        discussion: """
            The manifest lists scenes ({"scenes": ["a.json", {"example": "tab-bar"}]}) or sweeps one
            scene ({"scene": "a.json", "sweep": [{"key": "glass[0].frame.x", "from": 0, "to": 300,
            "steps": 16}]}); several sweeps multiply. Output names are deterministic (0001-a.png,
            frame-00001.png), so --shard I/N (0-based) splits a batch across machines and the union
            of all shards equals one unsharded run. Frames are written atomically; --resume keeps
            the complete ones. With -o - the frames stream to stdout (rgba, ppm or pam for pipes).
            """,
        arguments: [.init(name: "manifest", help: "A batch manifest JSON file.", optional: false)],
        options: [
            .init(
                long: "output", short: "o", valueName: "dir",
                help: "The folder to write (default: the manifest's name), or - for stdout.", defaultValue: nil),
            .init(
                long: "format", short: nil, valueName: "format", help: "png, rgba (raw), ppm or pam.",
                defaultValue: "png"),
            .init(
                long: "png-compression", short: nil, valueName: "level", help: "fast, default or best.",
                defaultValue: "default"),
            .init(
                long: "jobs", short: "j", valueName: "n", help: "Images encoded at once (default: the core count).",
                defaultValue: nil),
            .init(
                long: "shard", short: nil, valueName: "i/n", help: "Render only slice i of n (0-based).",
                defaultValue: "0/1"),
            .init(
                long: "resume", short: nil, valueName: nil, help: "Skip frames whose output is already complete.",
                defaultValue: nil),
            .init(
                long: "frames-in-flight", short: nil, valueName: "n", help: "Frames submitted to the device at once.",
                defaultValue: "2"),
            .init(
                long: "backend", short: nil, valueName: "backend", help: "auto, vulkan or cpu.", defaultValue: "auto"),
            .init(
                long: "device", short: nil, valueName: "device",
                help: "Vulkan device index or name part (or $LIQUIDLENS_DEVICE).", defaultValue: nil),
            .init(long: "quiet", short: "q", valueName: nil, help: "No progress output.", defaultValue: nil),
        ])

    static func parseChoice<T: RawRepresentable & CaseIterable>(
        _ arguments: ParsedArguments, _ long: String, valueName: String, _ spec: CommandSpec
    ) throws -> T where T.RawValue == String {
        let text = arguments.value(long)!
        guard let value = T(rawValue: text) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(
                message: "Invalid value '\(text)' for '--\(long) <\(valueName)>' (expected \(choices))", spec: spec)
        }
        return value
    }

    static func parseCount(
        _ arguments: ParsedArguments, _ long: String, valueName: String, _ range: ClosedRange<Int>,
        _ spec: CommandSpec
    ) throws -> Int? {
        guard let text = arguments.value(long) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message:
                    "Invalid value '\(text)' for '--\(long) <\(valueName)>' (expected \(range.lowerBound)…\(range.upperBound))",
                spec: spec)
        }
        return value
    }

    static func runBatch(_ arguments: ParsedArguments) throws {
        let backend = try parseBackend(arguments, batch)
        let format: ImageFormat = try parseChoice(arguments, "format", valueName: "format", batch)
        let compression: PNGCompression = try parseChoice(arguments, "png-compression", valueName: "level", batch)
        let jobs =
            try parseCount(arguments, "jobs", valueName: "n", 1...256, batch)
            ?? ProcessInfo.processInfo.activeProcessorCount
        let inFlight = try parseCount(arguments, "frames-in-flight", valueName: "n", 1...16, batch)!
        let shardText = arguments.value("shard")!
        let shardParts = shardText.split(separator: "/").map { Int($0) }
        guard shardParts.count == 2, let shardIndex = shardParts[0], let shardCount = shardParts[1], shardCount >= 1,
            (0..<shardCount).contains(shardIndex)
        else {
            throw UsageError(
                message: "Invalid value '\(shardText)' for '--shard <i/n>' (expected i/n with 0 ≤ i < n)", spec: batch)
        }
        let manifestPath = arguments.positionals["manifest"]!
        let manifestURL = URL(fileURLWithPath: manifestPath)
        let manifest: BatchManifest
        do {
            manifest = try BatchManifest.load(contentsOf: manifestURL)
        } catch let error as SceneError {
            throw CommandFailure(message: "\(manifestPath): \(error)")
        }
        let outputText = arguments.value("output") ?? manifestURL.deletingPathExtension().lastPathComponent
        let toStdout = outputText == "-"
        if toStdout && arguments.flag("resume") {
            throw UsageError(message: "--resume needs an output folder, not stdout", spec: batch)
        }
        let folder = URL(fileURLWithPath: outputText)
        let slice = manifest.shard(shardIndex, of: shardCount)
        func outputURL(_ index: Int) -> URL {
            folder.appendingPathComponent(manifest.outputStem(index) + "." + format.fileExtension)
        }
        var todo = Array(slice)
        if !toStdout {
            removePartialFiles(in: folder)
            if arguments.flag("resume") { todo.removeAll { format.isComplete(outputURL($0)) } }
        }
        let skipped = slice.count - todo.count
        let quiet = arguments.flag("quiet")
        if !quiet {
            printError(
                "batch: \(slice.count) of \(manifest.count) frames (shard \(shardIndex)/\(shardCount))"
                    + (skipped > 0 ? ", \(skipped) already complete" : ""))
        }

        if todo.isEmpty {
            if !quiet { printError("nothing to render: every frame of this shard is complete") }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let renderer = try makeRenderer(
            backend, VulkanOptions(device: arguments.value("device") ?? environment["LIQUIDLENS_DEVICE"]))
        if let reason = renderer.fallbackReason, !quiet {
            printError("note: rendering on the CPU reference; Vulkan is unavailable: \(reason)")
        }
        let encoder = EncodingQueue(workers: jobs)
        let progress = Progress(total: todo.count, quiet: quiet)
        let cache = ResolveCache()
        let stdout = FileHandle.standardOutput
        Interruption.watch()
        var rendered = 0
        do {
            try renderer.renderBatch(count: todo.count, framesInFlight: inFlight) { position in
                if Interruption.requested { throw Interrupted(message: "") }
                let index = todo[position]
                do {
                    let (scene, directory) = try manifest.scene(index)
                    return try LensRenderer.resolve(
                        scene, baseDirectory: directory, scale: manifest.scale, cache: cache)
                } catch let error as SceneError {
                    throw CommandFailure(
                        message: "\(manifestPath), frame \(index + 1) (\(manifest.outputStem(index))): \(error)")
                }
            } deliver: { position, image in
                if toStdout {
                    try stdout.write(contentsOf: try format.encode(image, compression: compression))
                } else {
                    try encoder.write(image, to: outputURL(todo[position]), format: format, compression: compression)
                }
                rendered += 1
                progress.advance()
            }
            try encoder.finish()
        } catch is Interrupted {
            try? encoder.finish()
            progress.finish()
            throw Interrupted(
                message:
                    "interrupted after \(rendered) of \(todo.count) frames; every file written is complete: rerun the same command with --resume to render the rest"
            )
        } catch {
            try? encoder.finish()
            progress.finish()
            throw error
        }
        progress.finish()
        let backendName = renderer.device.map { "vulkan, \($0.name)" } ?? "cpu reference"
        if !quiet {
            printError(
                "wrote \(rendered) frames to \(toStdout ? "stdout" : folder.path) (\(format.rawValue), \(backendName))")
        }
    }

    /// Temporary files a killed run left behind (`.name.partial-PID`); never complete, so removed.
    private static func removePartialFiles(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.contains(".partial-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
