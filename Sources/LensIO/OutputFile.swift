import Foundation
import LensModel

/// Where an output goes, decided the way Unix tools decide: a regular file is replaced whole, a
/// symbolic link keeps pointing where it did, and a pipe or a device is written in place and
/// survives.
package enum OutputDestination: Equatable, Sendable {
    /// This process's standard output (`/dev/stdout`; `-` on the command line).
    case standardOutput
    /// A named pipe, a character or block device, or a file some process holds open
    /// (`/dev/fd/N`): opened and written in place, never replaced.
    case stream(URL)
    /// A regular file, new or existing; for a symbolic link, the file the link points to.
    case file(URL)
    /// An existing folder (or a link to one).
    case folder(URL)

    /// Where writing to `url` goes. A socket, or links that loop, is an error naming `url`.
    package init(of url: URL) throws {
        let path = url.path
        if path == "/dev/stdout" {
            self = .standardOutput
            return
        }
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                self = .folder(url)
                return
            case S_IFIFO, S_IFCHR, S_IFBLK:
                self = .stream(url)
                return
            case S_IFSOCK:
                throw ImageFileError(
                    description: "cannot write \(path): it is a socket; give a file, a pipe or a device")
            default:
                break
            }
        }
        let target = try Self.linkTarget(of: path)
        // A link into /proc is a file some process holds open (/dev/fd/3): renaming a new file
        // over it would hide the bytes from that process.
        self = target.hasPrefix("/proc/") ? .stream(url) : .file(URL(fileURLWithPath: target))
    }

    /// `url` as messages name it: its path, or "standard output" for `/dev/stdout`.
    package static func name(of url: URL) -> String {
        url.path == "/dev/stdout" ? "standard output" : url.path
    }

    /// Where the chain of symbolic links from the absolute `path` ends (`path` itself when it is
    /// no link), followed one link at a time so that a link to a file not made yet still names
    /// where that file goes.
    static func linkTarget(of path: String) throws -> String {
        var current = path
        // 40 is the kernel's own limit on links in one lookup.
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            let length = readlink(current, &buffer, buffer.count)
            guard length >= 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : (current as NSString).deletingLastPathComponent + "/" + target
        }
        throw ImageFileError(description: "cannot write \(path): \(FileAccess.reason(ELOOP))")
    }
}

/// An output written in place as the bytes come: standard output, a pipe, a device. Nothing is
/// renamed, so the node stays what it was; a failed write (a full device, a reader that went
/// away) is an error naming the output and the reason.
package final class StreamingOutput {
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    /// The output as errors name it: its path, or "standard output".
    package let name: String

    /// This process's standard output.
    package init() {
        descriptor = STDOUT_FILENO
        ownsDescriptor = false
        name = "standard output"
    }

    /// Opens the pipe, device or held-open file at `url`; a pipe waits here for its reader, as
    /// with any writer.
    package init(opening url: URL) throws {
        name = url.path
        descriptor = open(url.path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        ownsDescriptor = true
        guard descriptor >= 0 else {
            throw ImageFileError(description: "cannot write \(name): \(FileAccess.reason(errno))")
        }
        // A regular file reached through /proc/…/fd starts empty, as after `>` in a shell.
        var status = stat()
        if fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG { ftruncate(descriptor, 0) }
    }

    deinit {
        if ownsDescriptor && descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Writes all of `data`; a reader that went away is ``OutputReaderGone``.
    package func write(_ data: Data) throws {
        guard writeAll(data, to: descriptor) else {
            if errno == EPIPE { throw OutputReaderGone(name: name) }
            throw ImageFileError(description: "cannot write \(name): \(FileAccess.reason(errno))")
        }
    }

    /// Writes the whole file at `file` (a finished animation), a mebibyte at a time.
    package func write(contentsOf file: URL) throws {
        let input = try FileHandle(forReadingFrom: file)
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try write(chunk) }
    }

    /// Closes what ``init(opening:)`` opened; the last error a device reports comes here.
    package func close() throws {
        guard ownsDescriptor && descriptor >= 0 else { return }
        defer { descriptor = -1 }
        guard Glibc.close(descriptor) == 0 else {
            throw ImageFileError(description: "cannot write \(name): \(FileAccess.reason(errno))")
        }
    }
}

/// A stream output whose reader went away (`| head -c 100`, a closed stdout): the run ends as
/// Unix tools end on SIGPIPE, with nothing half-written left on disk.
package struct OutputReaderGone: Error, CustomStringConvertible, Sendable {
    /// The output as messages name it: its path, or "standard output".
    package let name: String

    /// The reader of `name` went away.
    package init(name: String) {
        self.name = name
    }

    package var description: String { "cannot write \(name): \(FileAccess.reason(EPIPE))" }
}

/// Writes whole outputs where `OutputDestination` says: a regular file or a link's target
/// atomically (`AtomicFile`), standard output, a pipe or a device in place. A folder is an
/// error.
package enum OutputFile {
    /// Writes `data` to `url`.
    package static func write(_ data: Data, to url: URL) throws {
        switch try OutputDestination(of: url) {
        case .file(let target):
            try AtomicFile.write(data, to: target)
        case .folder:
            throw ImageFileError(description: "cannot write \(url.path): it is a folder; give a file name")
        case .standardOutput:
            try StreamingOutput().write(data)
        case .stream(let node):
            let output = try StreamingOutput(opening: node)
            try output.write(data)
            try output.close()
        }
    }
}

/// Writes files whole or not at all.
package enum AtomicFile {
    /// How many times a write whose temporary file vanished before its rename is made again.
    static let attempts = 3

    /// Writes `data` to a temporary file beside `url` (flushed to disk), then renames it over
    /// `url`, creating the parent folders first. On any failure the temporary file is removed
    /// and an existing `url` is left as it was; the error carries the system's reason. A
    /// temporary file that another run removed before the rename (it took it for a dead run's)
    /// costs a second write, not the output.
    package static func write(_ data: Data, to url: URL) throws {
        var attempt = 1
        while true {
            do {
                return try writeOnce(data, to: url)
            } catch let lost as LostTemporaryFile {
                guard attempt < attempts else {
                    throw ImageFileError(
                        description:
                            "cannot write \(url.path): its temporary file was removed \(attempts) times before it could be renamed (\(lost.reason)); is another run clearing this folder?"
                    )
                }
                attempt += 1
            }
        }
    }

    /// One attempt of ``write(_:to:)``; a temporary file that is gone at the rename is a
    /// ``LostTemporaryFile``.
    private static func writeOnce(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileAccess.createFolders(folder)
        } catch {
            throw ImageFileError(description: "cannot write \(url.path): cannot create \(folder.path) (\(error))")
        }
        let temporary = temporaryPath(for: url)
        func failure() -> ImageFileError {
            let reason = FileAccess.reason(errno)
            unlink(temporary)
            return ImageFileError(description: "cannot write \(url.path): \(reason)")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure() }
        guard writeAll(data, to: descriptor), fsync(descriptor) == 0 else {
            let error = failure()
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure() }
        guard rename(temporary, url.path) == 0 else {
            if errno == ENOENT {
                throw LostTemporaryFile(reason: FileAccess.reason(ENOENT))
            }
            throw failure()
        }
    }

    /// The temporary file beside `url` that becomes `url`: hidden, and named after this process
    /// and host (`TemporaryFileName`), so a later run knows whose it is.
    package static func temporaryPath(for url: URL, suffix: String = "") -> String {
        url.deletingLastPathComponent()
            .appendingPathComponent(TemporaryFileName.forThisProcess(url.lastPathComponent, suffix: suffix)).path
    }
}

/// A temporary file that was removed between its write and its rename.
struct LostTemporaryFile: Error {
    let reason: String
}

/// Writes all of `data` to `descriptor`, going on after signals; false with `errno` set when the
/// system refuses.
package func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
    data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }
}
