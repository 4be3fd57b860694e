import Foundation

/// The name of the temporary file an output is written to before it is renamed over its final
/// name: `.NAME.partial-PID-NONCE@HOST` (then an optional suffix such as `.mp4`). The name says
/// whose it is, so that a later run in a shared folder removes only what is provably not being
/// written (`TemporaryFile/removeLeftovers(in:ownNames:now:)`), and two writers of the same
/// output, on one host or on several, never share a temporary file.
package struct TemporaryFileName: Equatable, Sendable {
    /// The output the file becomes (`s-00007.png`).
    package let finalName: String
    /// The writer's process ID on ``host``.
    package let processID: Int32
    /// The writer's host name with every character but letters, digits, `-` and `_` made `_`;
    /// nil for a name written before hosts were recorded (`.NAME.partial-PID`).
    package let host: String?

    /// The name this process gives its temporary file for `finalName`, with a fresh nonce.
    package static func forThisProcess(_ finalName: String, suffix: String = "") -> String {
        let nonce = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return ".\(finalName).partial-\(getpid())-\(nonce)@\(TemporaryFile.thisHost)\(suffix)"
    }

    /// Reads a temporary file's name; nil for a name that is not one.
    package init?(parsing name: String) {
        guard name.hasPrefix("."), let marker = name.range(of: ".partial-", options: .backwards),
            marker.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        finalName = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
        let owner = name[marker.upperBound...]
        let digits = owner.prefix { $0.isASCII && $0.isNumber }
        guard let processID = Int32(digits) else { return nil }
        self.processID = processID
        guard let at = owner.firstIndex(of: "@") else {
            // The earlier form, `.NAME.partial-PID` and perhaps a suffix: no host recorded.
            guard owner.dropFirst(digits.count).allSatisfy({ $0 != "-" }) else { return nil }
            host = nil
            return
        }
        let hostAndSuffix = owner[owner.index(after: at)...]
        host = String(hostAndSuffix.prefix { $0 != "." })
    }
}

/// What a run may remove of the temporary files it finds beside its outputs.
package enum TemporaryFile {
    /// How long a temporary file must have gone unwritten before any run may remove it, whoever
    /// wrote it: a frame is written in seconds, so a file untouched this long has no writer that
    /// will finish it (and one that does retries its frame when its file is gone).
    package static let staleAge: TimeInterval = 3600

    /// This host's name as temporary file names record it.
    package static let thisHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        let kept = name.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" ? Character($0) : "_"
        }
        return kept.isEmpty ? "unknown" : String(kept)
    }()

    /// Whether a run that writes the outputs named `ownNames` may remove the temporary file
    /// `name`, last written `age` seconds ago. Only what is provably not being written goes:
    /// - its writer was a process on this host that no longer exists;
    /// - it becomes one of this run's own outputs and its writer is no live process on this host
    ///   (a writer elsewhere that is still going retries its frame; this run writes the same bytes);
    /// - nobody has written it for ``staleAge``.
    /// A live process's file for an output of another shard is never removed.
    package static func isRemovable(_ name: TemporaryFileName, age: TimeInterval, ownNames: Set<String>) -> Bool {
        if age > staleAge { return true }
        let writerLivesHere = name.host == thisHost && isAlive(name.processID)
        if name.host == thisHost && !writerLivesHere { return true }
        return ownNames.contains(name.finalName) && !writerLivesHere
    }

    /// Removes the temporary files in `folder` that ``isRemovable(_:age:ownNames:)`` allows a run
    /// writing `ownNames` to remove, and returns their names.
    @discardableResult
    package static func removeLeftovers(in folder: URL, ownNames: Set<String>, now: Date = Date()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let temporary = TemporaryFileName(parsing: name) else { continue }
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            let age = now.timeIntervalSince1970 - modified
            if isRemovable(temporary, age: age, ownNames: ownNames) && unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether process `id` exists on this host (one owned by another user counts).
    static func isAlive(_ id: Int32) -> Bool {
        id > 0 && (kill(id, 0) == 0 || errno == EPERM)
    }
}
