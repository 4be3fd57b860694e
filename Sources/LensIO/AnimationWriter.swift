import Foundation
import LensModel

/// Where an animation goes, chosen by the output path.
public enum AnimationFormat: String, Sendable, CaseIterable {
    /// A folder of numbered PNGs (`frame-0001.png` …), each written atomically.
    case folder
    /// Animated PNG, looping.
    case apng
    case gif
    case mp4
    case webm

    /// The format the path's extension names: png or apng, gif, mp4 (m4v, mov), webm; a path
    /// without an extension, or ending in `/`, is a folder of frames. Another extension is an
    /// error naming the ones that are written, so that `m.avi` never becomes a folder.
    public init(path: String) throws {
        let fileExtension = path.hasSuffix("/") ? "" : URL(fileURLWithPath: path).pathExtension.lowercased()
        switch fileExtension {
        case "": self = .folder
        case "png", "apng": self = .apng
        case "gif": self = .gif
        case "mp4", "m4v", "mov": self = .mp4
        case "webm": self = .webm
        default:
            throw ImageFileError(
                description:
                    "cannot write \(path): .\(fileExtension) is not a format animate writes; give .gif, .png (APNG), .mp4 (.m4v, .mov) or .webm, or a name without an extension for a folder of PNG frames"
            )
        }
    }
}

/// Writes frames as they come. Containers go through `ffmpeg` (frames piped raw) into a temporary
/// file; a complete file is renamed over a regular output (so an interrupted run never leaves a
/// half-written animation) or copied into standard output, a pipe or a device.
public final class AnimationWriter {
    /// The output's format: the one asked for, else the one its path names.
    public let format: AnimationFormat
    private let output: URL
    private let destination: OutputDestination
    private let fps: Double
    private let frameCount: Int
    private var process: Process?
    private var input: FileHandle?
    private var temporary: URL?
    private var errorLog: Pipe?
    private var written = 0
    /// The format of each frame in a folder, and the quality of the lossy ones.
    private let frameFormat: ImageFormat
    private let quality: Int

    /// What to do with frames a folder already holds.
    public enum Existing: Sendable {
        /// Write every frame over the one of its name, as `batch` does; the folder's other frames
        /// stay (``otherFrames`` lists them).
        case overwrite
        /// Keep complete frames and render only the missing ones.
        case resume
        /// Delete them all first and render everything.
        case replace
    }

    /// Frames already complete in the folder (resume), by index.
    public private(set) var completeFrames: Set<Int> = []
    /// Frame files the folder holds that this run does not write (an earlier, longer run's, or
    /// another format's), sorted; left as they are unless ``Existing/replace``.
    public private(set) var otherFrames: [String] = []

    /// A writer of `frameCount` frames at `fps` to `output` in `format` (default: the one the
    /// path's extension names); for a folder, `existing` says what becomes of frames already there
    /// (default: overwrite those this run writes), and each frame is a `frameFormat` file (JPEG and WebP at
    /// `quality`).
    public init(
        output: URL, fps: Double, frameCount: Int, existing: Existing = .overwrite, format: AnimationFormat? = nil,
        frameFormat: ImageFormat = .png, quality: Int = ImageFormat.defaultQuality
    ) throws {
        self.format = try format ?? AnimationFormat(path: output.path)
        self.frameFormat = frameFormat
        self.quality = quality
        self.output = output
        self.fps = fps
        self.frameCount = frameCount
        destination = try OutputDestination(of: output)
        guard self.format == .folder else {
            if existing == .resume {
                throw ImageFileError(
                    description: "--resume applies to folder outputs; a \(self.format.rawValue) is always written whole"
                )
            }
            if case .folder = destination {
                throw ImageFileError(description: "cannot write \(output.path): it is a folder; give a file name")
            }
            return
        }
        try prepareFolder(existing)
    }

    /// Creates the frame folder, removes what a killed run left, and deals with frames already there.
    private func prepareFolder(_ existing: Existing) throws {
        switch destination {
        case .standardOutput, .stream:
            throw ImageFileError(
                description:
                    "cannot write \(OutputDestination.name(of: output)): a folder of frames cannot go to a pipe or a device; choose gif, apng, mp4 or webm"
            )
        case .file(let target):
            do {
                try FileAccess.createFolders(target)
            } catch {
                throw ImageFileError(description: "cannot create folder \(output.path): \(error)")
            }
        case .folder:
            break
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        let ownNames = Set((0..<frameCount).map { Self.frameName($0, count: frameCount, format: frameFormat) })
        // Temporary files of a killed run are never complete frames; those of a run still going
        // (a second animate into this folder) are left to it.
        TemporaryFile.removeLeftovers(in: output, ownNames: ownNames)
        // Frames of any image format count, so a folder never ends up with two formats mixed.
        let frames = files.filter { name in
            name.hasPrefix("frame-") && ImageFormat(fileExtension: URL(fileURLWithPath: name).pathExtension) != nil
        }
        guard !frames.isEmpty else { return }
        let otherFormat = frames.filter { !$0.hasSuffix("." + frameFormat.fileExtension) }
        if existing == .resume, let other = otherFormat.min() {
            throw ImageFileError(
                description:
                    "\(output.path) holds frames of another format (\(other)); resume with the --frame-format they were written in, or add --force to replace them"
            )
        }
        switch existing {
        case .overwrite:
            otherFrames = frames.filter { !ownNames.contains($0) }.sorted()
        case .replace:
            for frame in frames { try? FileManager.default.removeItem(at: output.appendingPathComponent(frame)) }
        case .resume:
            completeFrames = Set(
                (0..<frameCount).filter { index in
                    let frame = output.appendingPathComponent(
                        Self.frameName(index, count: frameCount, format: frameFormat))
                    guard frameFormat == .png else { return frameFormat.isComplete(frame) }
                    return FileAccess.notAFile(frame) == nil && (try? PNGCodec.read(contentsOf: frame)) != nil
                })
        }
    }

    /// Stops without producing the output: ffmpeg is stopped and its partial file removed
    /// (complete folder frames stay, for --resume).
    public func abandon() {
        try? input?.close()
        process?.terminate()
        process?.waitUntilExit()
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// The name of frame `index` in a folder: zero-padded so names sort in frame order, with the
    /// frame format's extension.
    public static func frameName(_ index: Int, count: Int, format: ImageFormat = .png) -> String {
        let digits = max(4, String(max(count - 1, 0) + 1).count)
        let number = String(index + 1)
        return "frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + "."
            + format.fileExtension
    }

    /// Passes over the next frame, already complete in a resumed folder.
    public func skip() {
        precondition(completeFrames.contains(written), "only complete frames can be skipped")
        written += 1
    }

    /// Adds the next frame.
    public func append(_ image: RGBA8Image) throws {
        defer { written += 1 }
        if format == .folder {
            try OutputFile.write(
                try frameFormat.encode(image, quality: quality),
                to: output.appendingPathComponent(Self.frameName(written, count: frameCount, format: frameFormat)))
            return
        }
        if process == nil { try start(width: image.width, height: image.height) }
        do {
            try input?.write(contentsOf: image.pixels)
        } catch {
            throw ImageFileError(description: "ffmpeg stopped taking frames: \(failureLog())")
        }
    }

    /// Completes the file; without a call to `finish` nothing appears under the output name.
    public func finish() throws {
        guard format != .folder, let process, let temporary else { return }
        try input?.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw ImageFileError(description: "ffmpeg failed (exit \(process.terminationStatus)): \(failureLog())")
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        switch destination {
        case .standardOutput:
            try StreamingOutput().write(contentsOf: temporary)
        case .stream(let node):
            let stream = try StreamingOutput(opening: node)
            try stream.write(contentsOf: temporary)
            try stream.close()
        case .file(let target), .folder(let target):
            guard rename(temporary.path, target.path) == 0 else {
                throw ImageFileError(description: "cannot write \(output.path): \(FileAccess.reason(errno))")
            }
        }
    }

    private func failureLog() -> String {
        guard let data = try? errorLog?.fileHandleForReading.readToEnd() else { return "(no log)" }
        return String(decoding: data.suffix(600), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func findFFmpeg() -> URL? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { URL(fileURLWithPath: String($0)).appendingPathComponent("ffmpeg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// ffmpeg's arguments: raw RGBA frames on standard input, encoded as `format` (its output path follows).
    private func ffmpegArguments(width: Int, height: Int) -> [String] {
        var arguments = [
            "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s",
            "\(width)x\(height)",
            "-framerate", String(fps), "-i", "-",
        ]
        switch format {
        case .apng: arguments += ["-f", "apng", "-plays", "0"]
        case .gif:
            arguments += [
                "-filter_complex", "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0", "-f", "gif",
            ]
        case .mp4:
            arguments += [
                "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags",
                "+faststart", "-f", "mp4",
            ]
        case .webm:
            arguments += [
                "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0",
                "-crf", "34", "-f", "webm",
            ]
        case .folder: break
        }
        return arguments
    }

    /// Starts ffmpeg writing into a temporary file beside the output (or in the temporary folder
    /// for a stream), frames to come on its standard input.
    private func start(width: Int, height: Int) throws {
        guard let ffmpeg = Self.findFFmpeg() else {
            throw ImageFileError(
                description:
                    "writing \(format.rawValue) needs ffmpeg, which is not installed (apt-get install ffmpeg); a folder output needs nothing"
            )
        }
        // Beside the file it becomes, so the rename is atomic; a stream gets a copy once complete.
        let temporary: URL
        switch destination {
        case .file(let target), .folder(let target):
            do {
                try FileAccess.createFolders(target.deletingLastPathComponent())
            } catch {
                throw ImageFileError(description: "cannot write \(output.path): \(error)")
            }
            temporary = URL(fileURLWithPath: AtomicFile.temporaryPath(for: target, suffix: ".\(format.rawValue)"))
        case .standardOutput, .stream:
            temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
                "liquidlens-animation-\(getpid())-\(UUID().uuidString).\(format.rawValue)")
        }
        let arguments = ffmpegArguments(width: width, height: height) + [temporary.path]
        let process = Process()
        process.executableURL = ffmpeg
        process.arguments = arguments
        let pipe = Pipe()
        let log = Pipe()
        process.standardInput = pipe
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ImageFileError(description: "cannot start ffmpeg: \(error)")
        }
        self.process = process
        self.input = pipe.fileHandleForWriting
        self.temporary = temporary
        self.errorLog = log
    }
}
