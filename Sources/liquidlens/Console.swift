import Foundation
import LensIO
import LensModel
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

    /// The PNG an image output argument names, as it reads: nil is `defaultName`; `-` is
    /// standard output; a path ending in `/` is a folder (made when missing) that gets
    /// `defaultName`; a name with an extension other than `.png` is refused, so that no `.jpg`
    /// ever holds PNG bytes. Pipes and devices are written in place, whatever their names.
    static func pngOutputURL(_ argument: String?, defaultName: String) throws -> URL {
        guard let argument else { return outputURL(defaultName) }
        if argument.hasSuffix("/") {
            let folder = URL(fileURLWithPath: argument, isDirectory: true)
            do {
                try FileAccess.createFolders(folder)
            } catch {
                throw CommandFailure(message: "cannot write into \(argument): \(error)")
            }
            return outputURL(folder.appendingPathComponent(defaultName).path)
        }
        let url = outputURL(argument)
        let fileExtension = url.pathExtension.lowercased()
        guard fileExtension.isEmpty || fileExtension == "png" || isStream(url) else {
            throw UsageError(
                message:
                    "cannot write \(argument): the output is a PNG image; give a name ending in .png, a folder ending in /, or - for stdout"
            )
        }
        return url
    }

    /// Whether `url` is a pipe or a device, written in place whatever its name says.
    private static func isStream(_ url: URL) -> Bool {
        if case .stream = try? OutputDestination(of: url) { return true }
        return false
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
