import Foundation
import LiquidLens

/// Where the lines that say what a command did go: stdout, unless one of the command's outputs
/// streams there, and then stderr, so those lines never mix with the data.
enum Console {
    nonisolated(unsafe) private static var standardOutputCarriesData = false

    /// The file an output argument names, with `-` for standard output. Call it before the first
    /// ``say(_:)``: an output that is this process's stdout moves the report lines to stderr.
    static func outputURL(_ argument: String) -> URL {
        let url = URL(fileURLWithPath: argument == "-" ? "/dev/stdout" : argument)
        if isStandardOutput(url) { standardOutputCarriesData = true }
        return url
    }

    /// An output as the report lines name it: its path, or "standard output".
    static func name(_ url: URL) -> String { OutputDestination.name(of: url) }

    /// Prints a report line on stdout, or on stderr when an output streams to stdout.
    static func say(_ line: String) {
        if standardOutputCarriesData {
            printError(line)
        } else {
            print(line)
        }
    }

    /// Whether `url` is `/dev/stdout` or the very file, pipe or terminal stdout is (`/dev/fd/1`).
    private static func isStandardOutput(_ url: URL) -> Bool {
        if url.path == "/dev/stdout" { return true }
        var output = stat()
        var standard = stat()
        return stat(url.path, &output) == 0 && fstat(STDOUT_FILENO, &standard) == 0
            && output.st_dev == standard.st_dev && output.st_ino == standard.st_ino
    }
}
