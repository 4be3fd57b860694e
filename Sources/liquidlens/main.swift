import Foundation
import LiquidLens

/// Dispatches to a subcommand; maps usage mistakes to exit 64 and failures to exit 1.
func run(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
        print(Commands.rootHelp)
        return 0
    }
    switch first {
    case "-h", "--help":
        print(Commands.rootHelp)
        return 0
    case "--version":
        print("liquidlens 0.1.0")
        return 0
    case "help":
        guard let name = arguments.dropFirst().first else {
            print(Commands.rootHelp)
            return 0
        }
        guard let spec = Commands.all.first(where: { $0.name == name }) else {
            return usageFailure(UsageError(message: "Unknown subcommand '\(name)'", spec: nil))
        }
        print(spec.help)
        return 0
    default:
        break
    }
    guard let spec = Commands.all.first(where: { $0.name == first }) else {
        return usageFailure(UsageError(message: "Unknown subcommand '\(first)'", spec: nil))
    }
    do {
        let parsed = try spec.parse(Array(arguments.dropFirst()))
        if parsed.wantsHelp {
            print(spec.help)
            return 0
        }
        switch spec.name {
        case "render": try Commands.runRender(parsed)
        case "diff": try Commands.runDiff(parsed)
        case "animate": try Commands.runAnimate(parsed)
        case "batch": try Commands.runBatch(parsed)
        case "bench": try Commands.runBench(parsed)
        case "presets": try Commands.runPresets(parsed)
        case "theme": try Commands.runTheme(parsed)
        case "gallery": try Commands.runGallery(parsed)
        case "examples": Commands.runExamples()
        default: try Commands.runDevices()
        }
        return 0
    } catch let error as UsageError {
        return usageFailure(error)
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

func usageFailure(_ error: UsageError) -> Int32 {
    printError("Error: \(error.message)")
    if let spec = error.spec {
        printError("Usage: \(spec.usage)")
        printError("  See 'liquidlens \(spec.name) --help' for more information.")
    } else {
        printError("Usage: liquidlens <subcommand>")
        printError("  See 'liquidlens --help' for more information.")
    }
    return 64
}

// A writer whose ffmpeg died, or a write past a file-size limit, gets an error, not a fatal signal.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(run(Array(CommandLine.arguments.dropFirst())))
