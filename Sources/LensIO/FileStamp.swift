import Foundation

/// A file's size and modification time, to notice that it was written since it was last read.
package struct FileStamp: Hashable, Sendable {
    var size: Int
    var seconds: Int
    var nanoseconds: Int

    /// The stamp of the file at `path` now; nil when it cannot be looked at.
    package static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(
            size: Int(status.st_size), seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
    }
}
