import Foundation

/// A scene file problem, naming the key path where it was found (e.g. `glass[0].optics.frost`).
public struct SceneError: Error, CustomStringConvertible, Sendable {
    /// Where the problem is, e.g. `glass[0].optics.frost`; empty when it concerns the whole file.
    public let keyPath: String
    /// What is wrong, in words.
    public let message: String

    /// An error at `keyPath` (empty: the whole file) with `message`.
    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { keyPath.isEmpty ? message : "\(keyPath): \(message)" }

    /// Renders a coding path the way a person reads JSON: `glass[0].optics.frost`.
    static func keyPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// Translates `DecodingError` into the key path and a plain message.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(keyPath: Self.keyPath(context.codingPath + [key]), message: "required key is missing")
        case .typeMismatch(let type, let context):
            self.init(keyPath: Self.keyPath(context.codingPath), message: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(keyPath: Self.keyPath(context.codingPath), message: "expected \(Self.describe(type)), got null")
        case .dataCorrupted(let context):
            self.init(keyPath: Self.keyPath(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(keyPath: "", message: "\(error)")
        }
    }

    /// The bytes of a `document` file ("scene", "manifest"), refused over ``Limits/sceneFileBytes``
    /// before it is read whole; errors name the file and say why in words.
    package static func readFile(_ url: URL, document: String) throws(SceneError) -> Data {
        do throws(FileAccess.Problem) {
            return try FileAccess.read(url, limit: Limits.sceneFileBytes)
        } catch {
            switch error {
            case .tooLarge(let size):
                throw SceneError(
                    keyPath: "",
                    message: "\(document) file \(url.path) is \(size) bytes; the limit is \(Limits.sceneFileBytes)")
            case .failed(let reason):
                throw SceneError(keyPath: "", message: "cannot read \(document) file \(url.path): \(reason)")
            }
        }
    }

    /// Why `data` is not JSON, in words: empty, or the parser's reason (`parserError`, from
    /// `JSONSerialization`) at a line and column. `document` names what the file should hold.
    package static func notJSON(_ data: Data, document: String, parserError: any Error) -> SceneError {
        if data.allSatisfy({ [9, 10, 13, 32].contains($0) }) {
            return SceneError(keyPath: "", message: "the file is empty; a \(document) is a JSON object")
        }
        // The parser's own words, "Invalid value around character 42.", with the byte offset turned
        // into the line and column an editor shows.
        var reason = ((parserError as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        if let range = reason.range(of: #"around character \d+"#, options: .regularExpression),
            let offset = Int(reason[range].split(separator: " ").last ?? "")
        {
            let before = data.prefix(offset)
            let line = before.count { $0 == 10 } + 1
            let column = offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            reason.replaceSubrange(range, with: "at line \(line), column \(column)")
        }
        let detail = reason.isEmpty ? "" : ": " + reason.prefix(1).lowercased() + reason.dropFirst()
        return SceneError(keyPath: "", message: "not valid JSON\(detail)")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        default: "a value of type \(type)"
        }
    }
}

/// A coding key for any string or index, used to list the keys a JSON object really has.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws for the first key of this JSON object that `Keys` does not name.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !known.contains(key.stringValue) {
            let names = Keys.allCases.map(\.stringValue)
            let suggestion = NameSuggestion.clause(for: key.stringValue, among: names, quote: "\"")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "unknown key\(suggestion) (expected one of: \(names.joined(separator: ", ")))"))
        }
    }
}

extension KeyedDecodingContainer {
    /// A number that must be finite and inside `range`; `fallback` when the key is absent.
    func number(_ key: Key, default fallback: Double, in range: ClosedRange<Double>) throws -> Double {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return fallback }
        try check(value, in: range, key)
        return value
    }

    /// A required number that must be finite and inside `range`.
    func number(_ key: Key, in range: ClosedRange<Double>) throws -> Double {
        let value = try decode(Double.self, forKey: key)
        try check(value, in: range, key)
        return value
    }

    /// A glass, shape or button id where given: 1…``Limits/glassIDLength`` characters.
    func identifier(_ key: Key) throws -> String? {
        let id = try decodeIfPresent(String.self, forKey: key)
        if let id, id.isEmpty || id.count > Limits.glassIDLength {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected 1…\(Limits.glassIDLength) characters")
        }
        return id
    }

    func check(_ value: Double, in range: ClosedRange<Double>, _ key: Key) throws {
        guard value.isFinite, range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: rangeMessage(value, range))
        }
    }

    func value<T: Decodable>(_ key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }

    /// A nested object spelled out over `base` (a preset's value): absent or null keeps `base`,
    /// and the object's own keys left out keep `base`'s.
    func nested<T>(_ key: Key, over base: T, _ decode: (any Decoder, T) throws -> T) throws -> T {
        guard contains(key), try !decodeNil(forKey: key) else { return base }
        return try decode(try superDecoder(forKey: key), base)
    }

    /// A named choice: a name it does not know is refused with the names it does, and the
    /// closest one (Foundation's own message says only "Cannot initialize …").
    func value<T: Decodable & CaseIterable & RawRepresentable>(_ key: Key, default fallback: T) throws -> T
    where T.RawValue == String {
        try choice(T.self, key) ?? fallback
    }

    /// A named choice, nil when the key is absent or null; an unknown name is refused as by
    /// `value(_:default:)`.
    func choice<T: CaseIterable & RawRepresentable>(_ type: T.Type, _ key: Key) throws -> T?
    where T.RawValue == String {
        guard let typed = try decodeIfPresent(String.self, forKey: key) else { return nil }
        if let value = T(rawValue: typed) { return value }
        let names = T.allCases.map(\.rawValue)
        let suggestion = NameSuggestion.clause(for: typed, among: names, quote: "\"")
        throw DecodingError.dataCorruptedError(
            forKey: key, in: self,
            debugDescription:
                "unknown value \"\(typed)\"\(suggestion) (expected one of: \(names.joined(separator: ", ")))")
    }

    /// A required `key` naming one of `T`'s cases; missing or null, it is reported as such.
    func choice<T: CaseIterable & RawRepresentable>(_ type: T.Type, required key: Key) throws -> T
    where T.RawValue == String {
        guard let value = try choice(type, key) else {
            if contains(key) {
                throw DecodingError.valueNotFound(
                    String.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "null"))
            }
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "required key is missing"))
        }
        return value
    }
}

extension Double {
    /// Short form for messages: `2` rather than `2.0`.
    package var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
