import Foundation
import LensModel
import LiquidLens

/// A type whose stored properties declare options and arguments: a command, or an option group
/// that commands share. Groups nest: a stored property that is itself `ParsableArguments` adds
/// its declarations in place.
protocol ParsableArguments {}

extension ParsableArguments {
    /// The declarations of the wrapped properties, in the order they are declared.
    var declarations: [Declaration] {
        Mirror(reflecting: self).children.flatMap { child -> [Declaration] in
            if let property = child.value as? any DeclaredProperty { return [property.declaration] }
            if let group = child.value as? any ParsableArguments { return group.declarations }
            return []
        }
    }
}

/// A subcommand: its name and description, its options as wrapped properties, and its work.
protocol Command: ParsableArguments {
    static var name: String { get }
    /// One line, for the tool's help and completion.
    static var abstract: String { get }
    /// Paragraphs after the overview in the command's help.
    static var discussion: String? { get }

    /// A command with every property at its default, for the parser to fill.
    init()
    /// Does the work; throws ``UsageError`` (exit 64) or any other error (exit 1).
    func run() throws
}

/// A command-line usage mistake: exit 64 with the usage on stderr.
struct UsageError: Error {
    let message: String
}

extension Command {
    static var discussion: String? { nil }

    /// Two options of one command with the same name or short name are a mistake in the command,
    /// not the user's: every command's `--help` meets it (the tests ask each one).
    static func checkNamesAreUnique(_ declarations: [Declaration]) throws {
        let names =
            declarations.filter { !$0.isArgument }.map { "--\($0.name)" }
            + declarations.compactMap { $0.short.map { "-\($0)" } }
        let repeated = Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        guard repeated.isEmpty else {
            throw CommandFailure(
                message: "internal error: \(name) declares \(repeated.joined(separator: ", ")) more than once")
        }
    }

    /// The command filled from `arguments`, or nil when they ask for help (`-h`, `--help`).
    /// Unknown options, missing values and arguments are reported before invalid values.
    static func parse(_ arguments: [String]) throws -> Self? {
        let command = Self()
        let declarations = command.declarations
        try checkNamesAreUnique(declarations)
        let positionals = declarations.filter(\.isArgument)
        var remaining = arguments[...]
        var given: [(declaration: Declaration, text: String)] = []
        var positionalsGiven = 0
        // After `--` every word is an argument, even one that starts with a dash.
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if !optionsEnded && argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded && (argument == "-h" || argument == "--help") { return nil }
            guard !optionsEnded && argument.hasPrefix("-") && argument.count > 1 else {
                guard positionalsGiven < positionals.count else {
                    throw UsageError(message: "Unexpected argument '\(argument)'")
                }
                given.append((positionals[positionalsGiven], argument))
                positionalsGiven += 1
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            let option = declarations.first { declaration in
                !declaration.isArgument
                    && ("--\(declaration.name)" == name || declaration.short.map { "-\($0)" } == name)
            }
            guard let option else {
                let known = declarations.filter { !$0.isArgument }.map { "--\($0.name)" }
                throw UsageError(message: "Unknown option '\(name)'\(NameSuggestion.clause(for: name, among: known))")
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError(message: "Option '\(option.label)' takes no value") }
                given.append((option, argument))
            } else {
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError(message: "Missing value for '\(option.label)'")
                }
                given.append((option, value))
            }
        }
        if let missing = positionals.dropFirst(positionalsGiven).first(where: \.isRequired) {
            throw UsageError(message: "Missing expected argument '\(missing.label)'")
        }
        for (declaration, text) in given { try declaration.store(text) }
        return command
    }

    /// `liquidlens name <argument> [-o <output>] [--flag]`.
    static var usage: String {
        let declarations = Self().declarations
        var parts = ["liquidlens", name]
        for argument in declarations where argument.isArgument {
            parts.append(argument.isRequired ? argument.label : "[\(argument.label)]")
        }
        for option in declarations where !option.isArgument {
            let spelling = option.short.map { "-\($0)" } ?? "--\(option.name)"
            parts.append("[\(spelling)\(option.valueName.map { " <\($0)>" } ?? "")]")
        }
        return parts.joined(separator: " ")
    }

    /// OVERVIEW, discussion, USAGE, ARGUMENTS and OPTIONS, as `--help` prints them.
    static var help: String {
        let declarations = Self().declarations
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage)\n"
        let arguments = declarations.filter(\.isArgument)
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += helpRow(argument.label, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in declarations where !option.isArgument {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.name)"
            if let valueName = option.valueName { label += " <\(valueName)>" }
            text += helpRow(label, option.help + (option.defaultDescription.map { " (default: \($0))" } ?? ""))
        }
        text += helpRow("-h, --help", "Show help information.")
        return text
    }
}

/// `  label                   help` with the help column at 26, wrapping long labels.
func helpRow(_ label: String, _ help: String) -> String {
    let indent = String(repeating: " ", count: 26)
    if label.count + 2 >= 26 {
        return "  \(label)\n\(indent)\(help)\n"
    }
    return "  \(label)" + String(repeating: " ", count: 24 - label.count) + help + "\n"
}
