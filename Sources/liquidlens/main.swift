import Foundation
import LiquidLens

/// The `liquidlens` tool: its subcommands, and the dispatch that maps usage mistakes to exit 64,
/// failures to exit 1 and an interrupted run to exit 130.
enum LiquidLensTool {
    static let version = "0.1.0"

    /// The subcommands, in the order the tool's help lists them.
    static var commands: [any Command.Type] {
        [
            RenderCommand.self, AnimateCommand.self, BatchCommand.self, BenchCommand.self, DiffCommand.self,
            VerifyCommand.self,
            GalleryCommand.self, PresetsCommand.self, ThemeCommand.self, ExamplesCommand.self, DevicesCommand.self,
            CompletionsCommand.self,
        ]
    }

    static var help: String {
        """
        OVERVIEW: Render Apple-style Liquid Glass lenses offscreen, on Vulkan compute or the CPU reference.

        USAGE: liquidlens <subcommand>

        OPTIONS:
        \(helpRow("--version", "Show the version."))\(helpRow("-h, --help", "Show help information."))
        SUBCOMMANDS:
        \(commands.map { helpRow($0.name, $0.abstract) }.joined())
          See 'liquidlens help <subcommand>' for detailed help.
        """
    }

    /// Runs the command line (without the tool's name) and returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case nil, "-h"?, "--help"?:
            print(help)
            return 0
        case "--version"?:
            print("liquidlens \(version)")
            return 0
        case "help"?:
            guard let name = arguments.dropFirst().first else {
                print(help)
                return 0
            }
            guard let command = command(named: name) else { return unknownSubcommand(name) }
            print(command.help)
            return 0
        case let name?:
            guard let command = command(named: name) else { return unknownSubcommand(name) }
            return execute(command, Array(arguments.dropFirst()))
        }
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func execute(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
        do {
            guard let parsed = try command.parse(arguments) else {
                print(command.help)
                return 0
            }
            try parsed.run()
            return 0
        } catch let error as UsageError {
            printError("Error: \(error.message)")
            printError("Usage: \(command.usage)")
            printError("  See 'liquidlens \(command.name) --help' for more information.")
            return 64
        } catch let error as Interrupted {
            printError("Error: \(error.message)")
            return 130
        } catch let error as CommandFailure {
            printError("Error: \(error.message)")
            return 1
        } catch {
            printError("Error: \(error)")
            return 1
        }
    }

    private static func unknownSubcommand(_ name: String) -> Int32 {
        printError("Error: Unknown subcommand '\(name)'")
        printError("Usage: liquidlens <subcommand>")
        printError("  See 'liquidlens --help' for more information.")
        return 64
    }
}

/// A failure while doing the work (not a usage mistake): exit 1.
struct CommandFailure: Error {
    let message: String
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

// A writer whose ffmpeg died, or a write past a file-size limit, gets an error, not a fatal signal.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(LiquidLensTool.main(Array(CommandLine.arguments.dropFirst())))
