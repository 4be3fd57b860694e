import Foundation

/// File reading and folder creation through the system calls themselves, so that every failure
/// carries the system's reason in plain words ("no such file or folder", "it is a folder") and
/// never a Foundation error domain and code.
package enum FileAccess {
    /// Why a file could not be read, or a folder made.
    package enum Problem: Error, CustomStringConvertible {
        /// The system refused; its reason in words.
        case failed(String)
        /// The file holds more than the limit; its size in bytes (at least limit + 1 for a pipe).
        case tooLarge(Int)

        package var description: String {
            switch self {
            case .failed(let reason): reason
            case .tooLarge(let size): "\(size) bytes is too large"
            }
        }
    }

    /// The system's reason for `code` (an `errno`) in words, lower case, for "cannot … X: reason".
    package static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EISDIR: return "it is a folder, not a file"
        case ENOTDIR: return "a part of the path is a file, not a folder"
        case EPIPE: return "broken pipe (the reader went away)"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// Why the entry at `url` (links followed) is no file to read in a folder walk: a named pipe,
    /// socket or device would block or never end; nil for a regular file, or when it is missing
    /// (the read then says so).
    package static func notAFile(_ url: URL) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return reason(EISDIR)
        case S_IFIFO: return "it is a named pipe, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        default: return "it is not a regular file"
        }
    }

    /// The bytes of the regular file at `url`. Anything else (a folder, a named pipe, a device,
    /// a socket) is refused before it is opened, since opening or reading it may wait forever; so
    /// is a file that cannot be opened or one over `limit` bytes, each with the reason.
    package static func read(_ url: URL, limit: Int) throws(Problem) -> Data {
        if let notAFile = notAFile(url) { throw .failed(notAFile) }
        // O_NONBLOCK: a regular file swapped for a pipe after the check still cannot make open wait.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .failed(reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .failed(reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .failed("it is not a regular file") }
        if status.st_size > limit { throw .tooLarge(Int(status.st_size)) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(reason(errno))
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
        }
        throw .tooLarge(data.count)
    }

    /// Creates the folder at `url` and the folders above it that are missing, like `mkdir -p`;
    /// a symbolic link to a folder counts as one. Throws the reason in words.
    package static func createFolders(_ url: URL) throws(Problem) {
        var missing: [String] = []
        var path = url.standardizedFileURL.path
        var status = stat()
        while stat(path, &status) != 0 {
            guard errno == ENOENT else { throw .failed(reason(errno)) }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .failed(path == url.standardizedFileURL.path ? "it is a file, not a folder" : reason(ENOTDIR))
        }
        for folder in missing.reversed() where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw .failed(reason(errno))
        }
    }
}
