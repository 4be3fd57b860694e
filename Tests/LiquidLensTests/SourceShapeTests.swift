import Foundation
import Testing

/// The house's sizes: no Swift file under Sources/ over 400 lines and no function (method,
/// initializer, computed property) over 60, unless a comment says why ("over 400 lines" near the
/// top of the file; "over 60 lines" in the comment just above the declaration).
@Suite("Source shape")
struct SourceShapeTests {
    static let fileLimit = 400
    static let functionLimit = 60

    /// Every Swift file under Sources/, relative to it, with its lines.
    static func sources() throws -> [(path: String, lines: [Substring])] {
        let root = packageRoot.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return (path, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    @Test("No file over 400 lines without saying why")
    func fileLengths() throws {
        let files = try Self.sources()
        #expect(files.count > 100)
        let long = files.filter { file in
            file.lines.count > Self.fileLimit && !file.lines.prefix(20).contains { $0.contains("over 400 lines") }
        }
        #expect(long.isEmpty, "\(long.map { "\($0.path): \($0.lines.count) lines" })")
    }

    /// The functions of `lines` longer than the limit that no comment above excuses: `line: count`.
    static func longFunctions(_ lines: [Substring]) throws -> [String] {
        let declaration = try Regex(
            #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required)\s+)*(?:func\s|init[?!]?\s*[(<]|(?:var|subscript)\b[^=]*\{\s*$)"#
        )
        let code = SwiftCode.withoutCommentsAndStrings(lines.joined(separator: "\n")).split(
            separator: "\n", omittingEmptySubsequences: false)
        var found: [String] = []
        for (start, line) in code.enumerated() where line.firstMatch(of: declaration) != nil {
            var depth = 0
            var opened = false
            var end = start
            scan: while end < code.count {
                for character in code[end] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                        if opened && depth == 0 { break scan }
                    }
                }
                end += 1
            }
            guard opened, end - start + 1 > functionLimit else { continue }
            let above = lines[..<start].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if !above.contains(where: { $0.contains("over 60 lines") || $0.contains("Over 60 lines") }) {
                found.append("\(start + 1): \(end - start + 1) lines")
            }
        }
        return found
    }

    @Test("No function over 60 lines without a comment saying why")
    func functionLengths() throws {
        var long: [String] = []
        for file in try Self.sources() {
            long += try Self.longFunctions(file.lines).map { "\(file.path):\($0)" }
        }
        #expect(long.isEmpty, "\(long)")
    }
}
