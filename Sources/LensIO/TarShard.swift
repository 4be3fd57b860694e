import Foundation
import LensModel

/// A POSIX ustar archive written as it grows into a temporary file beside `url` and renamed over
/// `url` by ``finish()``: the archive is whole or absent. Its members are regular files with
/// mode 0644, owner 0 and time 0, so the same members make the same bytes (shards written by
/// different runs compare equal). WebDataset reads such a tar as its samples.
package final class TarShard {
    /// The archive this becomes.
    package let url: URL
    private let temporary: String
    private var descriptor: Int32

    /// The longest member name a ustar header holds without its prefix field.
    static let nameLimit = 100

    /// Starts the archive at `url`, creating its folder.
    package init(url: URL) throws {
        self.url = url
        do {
            try FileAccess.createFolders(url.deletingLastPathComponent())
        } catch {
            throw ImageFileError(description: "cannot write \(url.path): \(error)")
        }
        temporary = AtomicFile.temporaryPath(for: url)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ImageFileError(description: "cannot write \(url.path): \(FileAccess.reason(errno))")
        }
    }

    deinit {
        if descriptor >= 0 { abandon() }
    }

    /// Appends a file named `name` holding `data`.
    package func append(_ name: String, _ data: Data) throws {
        precondition(descriptor >= 0, "the archive is finished")
        guard name.utf8.count < Self.nameLimit else {
            throw ImageFileError(description: "cannot write \(url.path): the member name \(name) is too long for tar")
        }
        let padding = (512 - data.count % 512) % 512
        try write(Self.header(name: name, size: data.count) + data + Data(count: padding))
    }

    /// Ends the archive (two empty blocks), flushes it to disk and renames it over `url`.
    package func finish() throws {
        try write(Data(count: 1024))
        guard fsync(descriptor) == 0, close(descriptor) == 0 else { throw failure() }
        descriptor = -1
        guard rename(temporary, url.path) == 0 else { throw failure() }
    }

    /// Closes and removes the unfinished archive.
    package func abandon() {
        close(descriptor)
        descriptor = -1
        unlink(temporary)
    }

    /// Whether the file at `url` is a whole archive: a size in whole blocks ending in the two empty
    /// blocks ``finish()`` writes.
    package static func isComplete(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 1024, size % 512 == 0 else { return false }
        try? handle.seek(toOffset: size - 1024)
        guard let tail = try? handle.read(upToCount: 1024) else { return false }
        return tail.count == 1024 && tail.allSatisfy { $0 == 0 }
    }

    /// The member names of the archive at `url`, in order, read from its headers (each member's
    /// data skipped); nil when it cannot be read as a ustar archive.
    package static func memberNames(_ url: URL) -> [String]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var names: [String] = []
        var offset: UInt64 = 0
        while true {
            guard (try? handle.seek(toOffset: offset)) != nil, let read = try? handle.read(upToCount: 512),
                read.count == 512
            else { return nil }
            let header = [UInt8](read)
            if header.allSatisfy({ $0 == 0 }) { return names }
            let digits = header[124..<136].filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }
            guard let size = UInt64(String(decoding: digits, as: UTF8.self), radix: 8) else { return nil }
            names.append(String(decoding: header[0..<Self.nameLimit].prefix { $0 != 0 }, as: UTF8.self))
            offset += 512 + (size + 511) / 512 * 512
        }
    }

    private func write(_ data: Data) throws {
        guard writeAll(data, to: descriptor) else { throw failure() }
    }

    private func failure() -> ImageFileError {
        let error = ImageFileError(description: "cannot write \(url.path): \(FileAccess.reason(errno))")
        if descriptor >= 0 { abandon() } else { unlink(temporary) }
        return error
    }

    /// A ustar header block for a regular file: octal numeric fields, the checksum over the block
    /// with its own field read as spaces.
    static func header(name: String, size: Int) -> Data {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, digits: Int) -> String {
            let text = String(value, radix: 8)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        put(name, at: 0)
        put(octal(0o644, digits: 7), at: 100)
        put(octal(0, digits: 7), at: 108)
        put(octal(0, digits: 7), at: 116)
        put(octal(size, digits: 11), at: 124)
        put(octal(0, digits: 11), at: 136)
        put("        ", at: 148)
        put("0", at: 156)
        put("ustar\u{0}00", at: 257)
        let checksum = block.reduce(0) { $0 + Int($1) }
        put(octal(checksum, digits: 6) + "\u{0} ", at: 148)
        return Data(block)
    }
}
