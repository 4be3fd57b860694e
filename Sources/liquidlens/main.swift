import Foundation
import LensIO
import LensModel
import LiquidLens

/// The `liquidlens` tool: its subcommands, and the dispatch that maps errors to ``ExitStatus``.
enum LiquidLensTool {
    static let version = "0.1.0"

    /// The subcommands, in the order the tool's help lists them.
    static var commands: [any Command.Type] {
        [
            RenderCommand.self, AnimateCommand.self, BatchCommand.self, COCOCommand.self, BenchCommand.self,
            DiffCommand.self,
            VerifyCommand.self, ServeCommand.self,
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
        CommandEnvironment.chooseVulkanLoader()
        LensRenderer.sharedImages.onNote = { printError("note: \($0)") }
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

    /// The subcommand `name` names, in any case (no two differ only by case).
    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name } ?? commands.first { $0.name.lowercased() == name.lowercased() }
    }

    private static func execute(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
        do {
            guard let parsed = try command.parse(arguments) else {
                print(command.help)
                return 0
            }
            try CommandEnvironment.check()
            try parsed.run()
            return 0
        } catch let error as UsageError {
            printError("Error: \(error.message)")
            printError("Usage: \(command.usage)")
            printError("  See 'liquidlens \(command.name) --help' for more information.")
            return ExitStatus.usage
        } catch let error as Interrupted {
            printError("Error: \(error.message)")
            return Interruption.exitStatus
        } catch let error as OutputReaderGone {
            printError("Error: \(error)")
            return ExitStatus.readerGone
        } catch let error as CommandFailure {
            printError("Error: \(error.message)")
            return error.status
        } catch let error as VulkanError where error.isDeviceLost {
            printError("Error: \(error)")
            return ExitStatus.deviceLost
        } catch {
            printError("Error: \(error)")
            return ExitStatus.failure
        }
    }

    private static func unknownSubcommand(_ name: String) -> Int32 {
        printError(
            "Error: Unknown subcommand '\(name)'\(NameSuggestion.clause(for: name, among: commands.map { $0.name }))")
        printError("Usage: liquidlens <subcommand>")
        printError("  See 'liquidlens --help' for more information.")
        return ExitStatus.usage
    }
}

/// How the tool exits, for scripts and schedulers that decide whether to retry (the documentation's
/// command-line article, `Sources/LiquidLens/LiquidLens.docc/CommandLine.md`: Exit status).
enum ExitStatus {
    /// The work failed (a bad scene, an unreadable image, a full disk): retrying the same command will not help.
    static let failure: Int32 = 1
    /// A usage mistake (EX_USAGE): fix the command line.
    static let usage: Int32 = 64
    /// The Vulkan device was lost (EX_TEMPFAIL): the same command may succeed when run again, so a
    /// scheduler can requeue on it; `batch --resume` keeps the frames already written.
    static let deviceLost: Int32 = 75
    /// The output streamed to stdout or a pipe lost its reader (`| head -c 100`): 128 + SIGPIPE,
    /// as a shell reports a tool the signal ended; nothing half-written is left on disk.
    static let readerGone: Int32 = 141
}

/// A failure while doing the work (not a usage mistake): exit `status`, 1 unless a case says otherwise.
struct CommandFailure: Error {
    let message: String
    var status = ExitStatus.failure
}

// A writer whose ffmpeg died or whose reader went away, or a write past a file-size limit, gets an
// error, not a fatal signal.
StandardStreams.secure()
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(LiquidLensTool.main(Array(CommandLine.arguments.dropFirst())))
