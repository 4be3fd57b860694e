import Foundation
import LensModel
import LiquidLens

/// One option, flag or positional argument, as help, usage, completion and the parser see it.
/// The property wrappers ``Option``, ``Flag`` and ``Argument`` make one each.
struct Declaration {
    /// An option takes a value, a flag takes none, an argument is given by position.
    enum Kind {
        case option(valueName: String)
        case flag
        case argument(required: Bool)
    }

    /// The long name without `--`, or a positional argument's name without `<>`.
    let name: String
    let short: Character?
    let kind: Kind
    let help: String
    /// How errors name it: `--output <output>`, `--timing` or `<scene>`.
    let label: String
    /// The default as help shows it: `(default: …)`.
    let defaultDescription: String?
    /// The values shell completion offers; empty offers files.
    let completions: [String]
    /// Converts and stores a value given on the command line (a flag gets its own spelling);
    /// throws a ``UsageError`` when the text is not a valid value.
    let store: (String) throws -> Void

    init<Value>(
        name: String, short: Character? = nil, kind: Kind, help: String, parser: ValueParser<Value>,
        defaultValue: Value? = nil, set: @escaping (Value) -> Void
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.help = help
        label =
            switch kind {
            case .option(let valueName): "--\(name) <\(valueName)>"
            case .flag: "--\(name)"
            case .argument: "<\(name)>"
            }
        defaultDescription = defaultValue.map(parser.describe)
        completions = parser.completions
        let label = label
        store = { text in
            do throws(ValueError) {
                set(try parser.parse(text))
            } catch .invalid(let rejected) {
                let suggestion = NameSuggestion.clause(for: rejected, among: parser.completions)
                throw UsageError(
                    message: "Invalid value '\(rejected)' for '\(label)'\(suggestion) (expected \(parser.expectation))")
            } catch .message(let message) {
                throw UsageError(message: message)
            }
        }
    }

    /// An option's value name; nil for flags and arguments.
    var valueName: String? {
        if case .option(let valueName) = kind { return valueName }
        return nil
    }

    var isArgument: Bool {
        if case .argument = kind { return true }
        return false
    }

    /// A positional argument that must be given.
    var isRequired: Bool {
        if case .argument(required: true) = kind { return true }
        return false
    }
}

/// Why a value given on the command line was refused.
enum ValueError: Error {
    /// Not a valid value: the standard `Invalid value '…' for '…' (expected …)` message.
    case invalid(String)
    /// A refusal worded on its own, such as `Unknown example 'x' (expected one of: …)`.
    case message(String)
}

/// How the text of an option or argument becomes a typed value.
struct ValueParser<Value> {
    /// What the usage error says was expected: `(expected …)`.
    let expectation: String
    /// The values shell completion offers; empty offers files.
    let completions: [String]
    /// How a default value reads in help.
    let describe: (Value) -> String
    let parse: (String) throws(ValueError) -> Value

    init(
        expectation: String, completions: [String] = [], describe: @escaping (Value) -> String = { "\($0)" },
        parse: @escaping (String) throws(ValueError) -> Value
    ) {
        self.expectation = expectation
        self.completions = completions
        self.describe = describe
        self.parse = parse
    }

    /// A parser whose conversion returns nil for text it does not accept.
    init(
        expectation: String, completions: [String] = [], describe: @escaping (Value) -> String = { "\($0)" },
        convert: @escaping (String) -> Value?
    ) {
        self.init(expectation: expectation, completions: completions, describe: describe) {
            text throws(ValueError) in
            guard let value = convert(text) else { throw .invalid(text) }
            return value
        }
    }
}

extension ValueParser where Value == Int {
    /// An integer in `range`.
    static func integer(in range: ClosedRange<Int>) -> Self {
        Self(expectation: "\(range.lowerBound)…\(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension ValueParser where Value == Double {
    /// A finite number that `accepts` lets through.
    static func number(expectation: String, accepts: @escaping (Double) -> Bool) -> Self {
        Self(expectation: expectation, describe: { String(format: "%g", $0) }) { text in
            Double(text).flatMap { $0.isFinite && accepts($0) ? $0 : nil }
        }
    }

    /// A finite number in `range`.
    static func number(in range: ClosedRange<Double>) -> Self {
        number(expectation: String(format: "%g…%g", range.lowerBound, range.upperBound)) { range.contains($0) }
    }
}

extension ValueParser where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the enum's raw values, or one of `aliases` (other names users type for a value);
    /// the error lists the raw values, or says `expectation` when given.
    static func choice(expectation: String? = nil, aliases: [String: Value] = [:]) -> Self {
        let names = Value.allCases.map(\.rawValue)
        return Self(
            expectation: expectation ?? names.joined(separator: ", "), completions: names, describe: \.rawValue
        ) { text in
            Value.typed(text, aliases: aliases)
        }
    }

    /// One of the enum's raw values, refused as `Unknown <noun> 'x' (expected one of: …)`.
    static func named(_ noun: String) -> Self {
        let names = Value.allCases.map(\.rawValue)
        let expectation = "one of: \(names.joined(separator: ", "))"
        return Self(expectation: expectation, completions: names, describe: \.rawValue) { text throws(ValueError) in
            guard let value = Value.typed(text) else {
                throw .message(
                    "Unknown \(noun) '\(text)'\(NameSuggestion.clause(for: text, among: names)) (expected \(expectation))"
                )
            }
            return value
        }
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The case a user typed: its raw value or an alias, exactly or, where no two of those names
    /// differ only by case, in any case (`GPU`, `Segmented`).
    static func typed(_ text: String, aliases: [String: Self] = [:]) -> Self? {
        var byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        byName.merge(aliases) { value, _ in value }
        if let exact = byName[text] { return exact }
        let folded = Dictionary(grouping: byName) { $0.key.lowercased() }
        guard let matches = folded[text.lowercased()], matches.count == 1 else { return nil }
        return matches[0].value
    }
}

/// A type an option or argument can hold without naming a parser.
protocol ExpressibleByArgument {
    static var argumentParser: ValueParser<Self> { get }
}

extension String: ExpressibleByArgument {
    static var argumentParser: ValueParser<String> { ValueParser(expectation: "text") { $0 } }
}

/// Where the parser stores a property's value; the copies of a command share it.
final class Slot<Value> {
    var value: Value

    init(_ value: Value) { self.value = value }
}

/// A property the parser fills.
protocol DeclaredProperty {
    var declaration: Declaration { get }
}

/// `--name <value>` (or `-n <value>`): a typed option, its default the property's initial value.
@propertyWrapper
struct Option<Value>: DeclaredProperty {
    let declaration: Declaration
    private let slot: Slot<Value>

    var wrappedValue: Value { slot.value }

    init(
        wrappedValue: Value, _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
        parser: ValueParser<Value>
    ) {
        let slot = Slot(wrappedValue)
        self.slot = slot
        declaration = Declaration(
            name: name, short: short, kind: .option(valueName: valueName ?? name), help: help, parser: parser,
            defaultValue: wrappedValue
        ) { slot.value = $0 }
    }

    /// An option without a default: nil unless given.
    init<Wrapped>(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
        parser: ValueParser<Wrapped>
    ) where Value == Wrapped? {
        let slot = Slot<Value>(nil)
        self.slot = slot
        declaration = Declaration(
            name: name, short: short, kind: .option(valueName: valueName ?? name), help: help, parser: parser
        ) { slot.value = $0 }
    }
}

extension Option where Value: ExpressibleByArgument {
    init(wrappedValue: Value, _ name: String, short: Character? = nil, valueName: String? = nil, help: String) {
        self.init(
            wrappedValue: wrappedValue, name, short: short, valueName: valueName, help: help,
            parser: Value.argumentParser)
    }
}

extension Option {
    init<Wrapped: ExpressibleByArgument>(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String
    ) where Value == Wrapped? {
        self.init(name, short: short, valueName: valueName, help: help, parser: Wrapped.argumentParser)
    }
}

/// `--name` (or `-n`): true when given.
@propertyWrapper
struct Flag: DeclaredProperty {
    let declaration: Declaration
    private let slot: Slot<Bool>

    var wrappedValue: Bool { slot.value }

    init(_ name: String, short: Character? = nil, help: String) {
        let slot = Slot(false)
        self.slot = slot
        // A flag is set whatever its spelling, `-q` or `--quiet`.
        declaration = Declaration(
            name: name, short: short, kind: .flag, help: help, parser: ValueParser(expectation: "") { _ in true }
        ) { slot.value = $0 }
    }
}

/// `<name>`: a positional argument; required unless the property is optional.
@propertyWrapper
struct Argument<Value>: DeclaredProperty {
    let declaration: Declaration
    /// nil until the parser stores the argument.
    private let slot: Slot<Value?>

    var wrappedValue: Value {
        guard let value = slot.value else {
            preconditionFailure("<\(declaration.name)> is read before the command line is parsed")
        }
        return value
    }

    init(_ name: String, help: String, parser: ValueParser<Value>) {
        let slot = Slot<Value?>(nil)
        self.slot = slot
        declaration = Declaration(name: name, kind: .argument(required: true), help: help, parser: parser) {
            slot.value = $0
        }
    }

    /// An argument that may be left out: nil then.
    init<Wrapped>(_ name: String, help: String, parser: ValueParser<Wrapped>) where Value == Wrapped? {
        let slot = Slot<Value?>(.some(nil))
        self.slot = slot
        declaration = Declaration(name: name, kind: .argument(required: false), help: help, parser: parser) {
            slot.value = $0
        }
    }
}

extension Argument where Value: ExpressibleByArgument {
    init(_ name: String, help: String) {
        self.init(name, help: help, parser: Value.argumentParser)
    }
}

extension Argument {
    init<Wrapped: ExpressibleByArgument>(_ name: String, help: String) where Value == Wrapped? {
        self.init(name, help: help, parser: Wrapped.argumentParser)
    }
}
