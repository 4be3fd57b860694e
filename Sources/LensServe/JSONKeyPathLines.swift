import Foundation
import LensModel

/// The line on which each key path of a JSON text starts (`glass[0].optics.frost` → the line of
/// `"frost"`), so an editor can put a scene error beside the line it is about.
package struct JSONKeyPathLines {
    private var lines: [String: Int] = [:]
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1

    /// Scans `text`; a malformed text is scanned as far as it is well-formed.
    package init(_ text: String) {
        bytes = Array(text.utf8)
        lines[""] = 1
        _ = scanValue(path: "")
    }

    /// The line of `keyPath`, or of its nearest enclosing path that the text has (a missing key's
    /// object); the line an "at line N" message names for an empty path.
    package func line(of keyPath: String, message: String = "") -> Int {
        if keyPath.isEmpty, let range = message.range(of: #"at line \d+"#, options: .regularExpression) {
            return Int(message[range].split(separator: " ").last ?? "") ?? 1
        }
        var path = keyPath
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path = Self.parent(of: path)
        }
        return 1
    }

    /// `glass[0].optics` for `glass[0].optics.frost`, `glass[0]` for `glass[0].optics`, `glass` for `glass[0]`.
    private static func parent(of path: String) -> String {
        guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<cut])
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                return
            }
            offset += 1
        }
    }

    /// Scans one value at `path`, `depth` arrays and objects deep; false where the text stops
    /// being JSON or nests deeper than a scene may (the decoder refuses those anyway).
    private mutating func scanValue(path: String, depth: Int = 0) -> Bool {
        skipSpace()
        guard offset < bytes.count, depth <= Limits.jsonNesting else { return false }
        if lines[path] == nil { lines[path] = line }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            offset += 1
            return scanMembers(path: path, depth: depth + 1)
        case UInt8(ascii: "["):
            offset += 1
            return scanElements(path: path, depth: depth + 1)
        case UInt8(ascii: "\""):
            return scanString() != nil
        default:
            // A number, true, false or null; a stray `]`, `}`, `:` or `,` here is no value.
            let start = offset
            while offset < bytes.count, !",]}:\n \t\r".utf8.contains(bytes[offset]) { offset += 1 }
            return offset > start
        }
    }

    private mutating func scanMembers(path: String, depth: Int) -> Bool {
        while true {
            skipSpace()
            guard offset < bytes.count else { return false }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return true
            }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            let keyLine = line
            guard let key = scanString() else { return false }
            let child = path.isEmpty ? key : "\(path).\(key)"
            lines[child] = keyLine
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return false }
            offset += 1
            guard scanValue(path: child, depth: depth) else { return false }
        }
    }

    private mutating func scanElements(path: String, depth: Int) -> Bool {
        var index = 0
        while true {
            skipSpace()
            guard offset < bytes.count else { return false }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return true
            }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            guard scanValue(path: "\(path)[\(index)]", depth: depth) else { return false }
            index += 1
        }
    }

    /// A string's text (escapes kept as written: keys are plain), the offset past its closing quote.
    private mutating func scanString() -> String? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        let start = offset + 1
        offset = start
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\\"):
                offset += 2
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: bytes[start..<(offset - 1)], as: UTF8.self)
            case UInt8(ascii: "\n"):
                return nil
            default:
                offset += 1
            }
        }
        return nil
    }
}
