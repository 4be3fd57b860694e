import Foundation

/// JSON whose numbers keep their Swift type: a `Double` is always written with a fraction or an
/// exponent (`12.0`, not Foundation's `12`), an integer never. Loaders that infer a column's type
/// from each file (pyarrow, so Hugging Face `datasets` reading WebDataset shards) otherwise see
/// `int64` in a shard whose random frost happened to be whole and `double` in the next, and fail
/// to merge them. Keys are sorted by their bytes (Foundation's `.sortedKeys` orders some mixed-case
/// keys otherwise); optionals that are nil are left out, as `JSONEncoder` does. Made for the
/// dataset documents (scenes, annotations, COCO): `URL`, `Date` and `Data` get no special form.
package struct TypedJSONEncoder {
    /// Whether objects and arrays are broken over lines, indented by two spaces.
    package var indented: Bool

    /// An encoder writing compact JSON unless `indented`.
    package init(indented: Bool = false) {
        self.indented = indented
    }

    /// `value` as UTF-8 JSON text.
    package func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let root = JSONNode()
        try root.store(value, codingPath: [])
        var text = ""
        root.write(into: &text, indent: indented ? "\n" : nil)
        return Data(text.utf8)
    }
}

/// One value of the tree an encoding builds: a literal (already JSON text), an array or an object.
final class JSONNode {
    var literal: String?
    var array: [JSONNode]?
    var object: [String: JSONNode]?

    /// Stores `value`: numbers, strings and booleans as literals, anything else by its own
    /// `encode(to:)` into this node.
    func store<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        switch value {
        case let number as Double: literal = try Self.literal(number, codingPath)
        case let number as Float: literal = try Self.literal(number, codingPath)
        case let integer as any BinaryInteger: literal = "\(integer)"
        case let flag as Bool: literal = flag ? "true" : "false"
        case let text as String: literal = Self.quoted(text)
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    /// The node for the next element of this array.
    func appended() -> JSONNode {
        let node = JSONNode()
        if array == nil { array = [] }
        array!.append(node)
        return node
    }

    /// The node for `key` of this object.
    func member(_ key: String) -> JSONNode {
        let node = object?[key] ?? JSONNode()
        object = object ?? [:]
        object![key] = node
        return node
    }

    /// Appends the node's JSON to `text`; `indent` is the line break and indentation before a
    /// member, nil for compact text.
    func write(into text: inout String, indent: String?) {
        let inner = indent.map { $0 + "  " }
        if let object {
            let keys = object.keys.sorted()
            text += keys.isEmpty ? "{}" : "{"
            for (position, key) in keys.enumerated() {
                text += (position > 0 ? "," : "") + (inner ?? "") + Self.quoted(key) + (indent == nil ? ":" : ": ")
                object[key]!.write(into: &text, indent: inner)
            }
            if !keys.isEmpty { text += (indent ?? "") + "}" }
        } else if let array {
            text += array.isEmpty ? "[]" : "["
            for (position, element) in array.enumerated() {
                text += (position > 0 ? "," : "") + (inner ?? "")
                element.write(into: &text, indent: inner)
            }
            if !array.isEmpty { text += (indent ?? "") + "]" }
        } else {
            text += literal ?? "null"
        }
    }

    /// A finite `number` with a fraction or exponent (Swift's shortest round-trip digits).
    private static func literal<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        _ number: Number, _ codingPath: [any CodingKey]
    ) throws -> String {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number,
                EncodingError.Context(codingPath: codingPath, debugDescription: "\(number) is not a JSON number"))
        }
        return "\(number)"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// The `Encoder` a value writes itself into: containers that grow its node.
private struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.object == nil { node.object = [:] }
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.array == nil { node.array = [] }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

/// An object's members.
private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        node.member(key.stringValue).literal = "null"
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

/// An array's elements.
private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.array?.count ?? 0 }

    mutating func encodeNil() throws {
        node.appended().literal = "null"
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try node.appended().store(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appended(), codingPath: codingPath)
    }
}

/// A single value: the node itself.
private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.literal = "null"
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try node.store(value, codingPath: codingPath)
    }
}
