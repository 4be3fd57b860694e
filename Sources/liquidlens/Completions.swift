import Foundation

/// `liquidlens completions`: a shell completion script, written from the commands' declarations.
struct CompletionsCommand: Command {
    /// The shells a script can be written for.
    enum Shell: String, CaseIterable, ExpressibleByArgument {
        case bash, zsh, fish

        static var argumentParser: ValueParser<Shell> { .choice() }
    }

    static let name = "completions"
    static let abstract = "Print a shell completion script: subcommands, options and their values."
    static let discussion: String? = """
        bash: source <(liquidlens completions bash), or save it as
              ~/.local/share/bash-completion/completions/liquidlens.
        zsh:  liquidlens completions zsh > _liquidlens in a folder on $fpath.
        fish: liquidlens completions fish > ~/.config/fish/completions/liquidlens.fish.
        """

    @Argument("shell", help: "bash, zsh or fish.") var shell: Shell

    func run() throws {
        let script = CompletionScript(commands: LiquidLensTool.commands)
        switch shell {
        case .bash: try StandardStreams.writeProduct(script.bash())
        case .zsh: try StandardStreams.writeProduct(script.zsh())
        case .fish: try StandardStreams.writeProduct(script.fish())
        }
    }
}

/// Completion scripts for the tool: its subcommands (and `help <subcommand>`), `--version`,
/// each subcommand's options with the values of enum options, and files elsewhere.
struct CompletionScript {
    /// One subcommand as completion sees it.
    struct Subcommand {
        let name: String
        let abstract: String
        let declarations: [Declaration]

        var options: [Declaration] { declarations.filter { !$0.isArgument } }
        /// The first positional argument, when it takes one of a list of values.
        var argumentChoices: [String]? { declarations.first(where: \.isArgument)?.completions.nilIfEmpty }
    }

    let subcommands: [Subcommand]

    init(commands: [any Command.Type]) {
        subcommands = commands.map {
            Subcommand(name: $0.name, abstract: $0.abstract, declarations: $0.init().declarations)
        }
    }

    private var names: [String] { subcommands.map(\.name) }

    func bash() -> String {
        var script = """
            # bash completion for liquidlens: source <(liquidlens completions bash)
            _liquidlens() {
                local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]}
                COMPREPLY=()
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W '\(words(names + ["help", "--version", "-h", "--help"]))' -- "$current"))
                    return
                fi
                case ${COMP_WORDS[1]} in
                help)
                    [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W '\(words(names))' -- "$current"))
                    ;;

            """
        for subcommand in subcommands {
            script += "    \(subcommand.name))\n"
            let valueOptions = subcommand.options.filter { $0.valueName != nil }
            if !valueOptions.isEmpty {
                script += "        case $previous in\n"
                for option in valueOptions where !option.completions.isEmpty {
                    let values = "COMPREPLY=($(compgen -W '\(words(option.completions))' -- \"$current\"))"
                    script += "        \(spellings(option).joined(separator: "|"))) \(values); return ;;\n"
                }
                let takingFiles = valueOptions.filter(\.completions.isEmpty).flatMap(spellings)
                if !takingFiles.isEmpty { script += "        \(takingFiles.joined(separator: "|"))) return ;;\n" }
                script += "        esac\n"
            }
            if let choices = subcommand.argumentChoices {
                script +=
                    "        [[ $current != -* ]] && COMPREPLY=($(compgen -W '\(words(choices))' -- \"$current\")) && return\n"
            }
            let optionWords = words(subcommand.options.flatMap(spellings) + ["-h", "--help"])
            let takesFiles = subcommand.declarations.contains(where: \.isArgument) && subcommand.argumentChoices == nil
            let when = takesFiles ? "[[ $current == -* ]] && " : ""
            script += "        \(when)COMPREPLY=($(compgen -W '\(optionWords)' -- \"$current\"))\n"
            script += "        ;;\n"
        }
        script += """
                esac
            }
            complete -o default -F _liquidlens liquidlens

            """
        return script
    }

    func zsh() -> String {
        let described = subcommands.map { "        \(zshQuoted("\($0.name):\($0.abstract)"))\n" }.joined()
        var script = """
            #compdef liquidlens
            # zsh completion for liquidlens: liquidlens completions zsh > _liquidlens in a folder on $fpath

            _liquidlens() {
                local context state state_descr line
                typeset -A opt_args
                local -a subcommands
                subcommands=(
            \(described)    )
                _arguments -C \\
                    '(- *)--version[Show the version.]' \\
                    '(- *)'{-h,--help}'[Show help information.]' \\
                    '1: :->subcommand' \\
                    '*:: :->argument'
                case $state in
                subcommand)
                    _describe -t subcommands 'liquidlens subcommand' subcommands
                    ;;
                argument)
                    case $words[1] in
                    help)
                        _describe -t subcommands 'liquidlens subcommand' subcommands
                        ;;

            """
        for subcommand in subcommands {
            script += "        \(subcommand.name))\n            _arguments \\\n"
            for declaration in subcommand.declarations {
                script += "                \(zshSpecification(declaration)) \\\n"
            }
            script += "                '(- *)'{-h,--help}'[Show help information.]'\n            ;;\n"
        }
        script += """
                    esac
                    ;;
                esac
            }

            _liquidlens "$@"

            """
        return script
    }

    func fish() -> String {
        var lines = [
            "# fish completion for liquidlens: liquidlens completions fish > ~/.config/fish/completions/liquidlens.fish",
            "complete -c liquidlens -n __fish_use_subcommand -l version -d 'Show the version.'",
            "complete -c liquidlens -n __fish_use_subcommand -s h -l help -d 'Show help information.'",
            "complete -c liquidlens -n __fish_use_subcommand -f -a help -d 'Show help for a subcommand.'",
        ]
        for subcommand in subcommands {
            lines.append(
                "complete -c liquidlens -n __fish_use_subcommand -f -a \(subcommand.name) -d \(fishQuoted(subcommand.abstract))"
            )
        }
        lines.append("complete -c liquidlens -n '__fish_seen_subcommand_from help' -f -a '\(words(names))'")
        for subcommand in subcommands {
            let prefix = "complete -c liquidlens -n '__fish_seen_subcommand_from \(subcommand.name)'"
            for option in subcommand.options {
                var line = prefix + (option.short.map { " -s \($0)" } ?? "") + " -l \(option.name)"
                if option.valueName != nil {
                    line += option.completions.isEmpty ? " -r" : " -x -a '\(words(option.completions))'"
                }
                lines.append(line + " -d \(fishQuoted(option.help))")
            }
            lines.append(prefix + " -s h -l help -d 'Show help information.'")
            if let choices = subcommand.argumentChoices {
                lines.append(prefix + " -f -a '\(words(choices))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func words(_ list: [String]) -> String { list.joined(separator: " ") }

    /// `-o` and `--output`, or just `--output`.
    private func spellings(_ option: Declaration) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }

    /// An `_arguments` specification: `'--name[help]:value:(choices)'`, `'(-o --output)'{-o,--output}'[…]'`
    /// or `':name:_files'` for a positional argument (`'::name:…'` when it may be left out).
    private func zshSpecification(_ declaration: Declaration) -> String {
        let action = declaration.completions.isEmpty ? "_files" : "(\(words(declaration.completions)))"
        if declaration.isArgument {
            let colons = declaration.isRequired ? ":" : "::"
            return zshQuoted("\(colons)\(declaration.name):\(action)")
        }
        let description = declaration.help.replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]")
        let value = declaration.valueName.map { ":\($0):\(action)" } ?? ""
        let names = spellings(declaration)
        if names.count == 1 { return zshQuoted("\(names[0])[\(description)]\(value)") }
        return zshQuoted("(\(words(names)))") + "{\(names.joined(separator: ","))}"
            + zshQuoted("[\(description)]\(value)")
    }

    /// Single-quoted for zsh (and bash): `'` becomes `'\''`.
    private func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Single-quoted for fish: `\` and `'` are escaped with a backslash.
    private func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

extension Array {
    /// nil for an empty array.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
