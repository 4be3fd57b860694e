import Foundation

/// A small parser that behaves like swift-argument-parser: kebab-case options, `--help` on stdout
/// with exit 0, `Error: …` plus usage on stderr with exit 64.
struct CommandSpec {
    struct Option {
        let long: String
        let short: Character?
        let valueName: String?
        let help: String
        let defaultValue: String?

        var isFlag: Bool { valueName == nil }
    }

    struct Argument {
        let name: String
        let help: String
        let optional: Bool
    }

    let name: String
    let abstract: String
    let discussion: String?
    let arguments: [Argument]
    let options: [Option]

    var usage: String {
        var parts = ["liquidlens", name]
        for argument in arguments {
            parts.append(argument.optional ? "[<\(argument.name)>]" : "<\(argument.name)>")
        }
        for option in options {
            let flag = option.short.map { "-\($0)" } ?? "--\(option.long)"
            parts.append(option.isFlag ? "[\(flag)]" : "[\(flag) <\(option.valueName!)>]")
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += helpRow("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.long)"
            if let valueName = option.valueName { label += " <\(valueName)>" }
            let help = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
            text += helpRow(label, help)
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

/// A command-line usage mistake: exit 64.
struct UsageError: Error {
    let message: String
    let spec: CommandSpec?
}

/// Parsed values of one invocation.
struct ParsedArguments {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String: String] = [:]
    var wantsHelp = false

    func value(_ long: String) -> String? { values[long] }
    func flag(_ long: String) -> Bool { flags.contains(long) }
}

extension CommandSpec {
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining = arguments[...]
        var positionalIndex = 0
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                return parsed
            }
            if argument.hasPrefix("-") && argument.count > 1 {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                let option = options.first { "--\($0.long)" == name || $0.short.map { "-\($0)" } == name }
                guard let option else {
                    throw UsageError(message: "Unknown option '\(name)'", spec: self)
                }
                if option.isFlag {
                    guard inlineValue == nil else {
                        throw UsageError(message: "Option '--\(option.long)' takes no value", spec: self)
                    }
                    parsed.flags.insert(option.long)
                } else {
                    guard let value = inlineValue ?? remaining.popFirst() else {
                        throw UsageError(
                            message: "Missing value for '--\(option.long) <\(option.valueName!)>'", spec: self)
                    }
                    parsed.values[option.long] = value
                }
            } else {
                guard positionalIndex < arguments.count, positionalIndex < self.arguments.count else {
                    throw UsageError(message: "Unexpected argument '\(argument)'", spec: self)
                }
                parsed.positionals[self.arguments[positionalIndex].name] = argument
                positionalIndex += 1
            }
        }
        for argument in self.arguments where !argument.optional && parsed.positionals[argument.name] == nil {
            throw UsageError(message: "Missing expected argument '<\(argument.name)>'", spec: self)
        }
        for option in options where !option.isFlag && parsed.values[option.long] == nil {
            if let defaultValue = option.defaultValue { parsed.values[option.long] = defaultValue }
        }
        return parsed
    }
}
