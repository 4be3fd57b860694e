import Foundation
import LensIO
import LensModel
import LiquidLens

/// Where the lines that say what a command did go: stdout, unless one of the command's outputs
/// streams there, and then stderr, so those lines never mix with the data.
enum Console {
    nonisolated(unsafe) private static var standardOutputCarriesData = false
    /// `-q` of a command whose every line is a report line (`bench`): ``say(_:)`` prints nothing.
    nonisolated(unsafe) static var isQuiet = false

    /// The file an output argument names, with `-` for standard output. Call it before the first
    /// ``say(_:)``: an output that is this process's stdout moves the report lines to stderr.
    static func outputURL(_ argument: String) -> URL {
        let url = URL(fileURLWithPath: argument == "-" ? "/dev/stdout" : argument)
        if isStandardOutput(url) { standardOutputCarriesData = true }
        return url
    }

    /// Where a single image goes and in which format: `argument` is a file (its extension names the
    /// format: .png, .jpg, .webp, .qoi, …), a folder ending in `/` (the file `defaultStem` in it), `-`
    /// or a pipe, or nil (`defaultStem` here). `given` (`--format`) wins over no extension and must
    /// agree with one; without either the image is a PNG.
    static func imageOutputURL(_ argument: String?, defaultStem: String, format given: ImageFormat?) throws -> (
        url: URL, format: ImageFormat
    ) {
        let format = given ?? .png
        guard let argument else { return (outputURL(defaultStem + "." + format.fileExtension), format) }
        if argument.hasSuffix("/") {
            let folder = URL(fileURLWithPath: argument, isDirectory: true)
            do {
                try FileAccess.createFolders(folder)
            } catch {
                throw CommandFailure(message: "cannot write into \(argument): \(error)")
            }
            return (outputURL(folder.appendingPathComponent(defaultStem + "." + format.fileExtension).path), format)
        }
        let url = outputURL(argument)
        let fileExtension = url.pathExtension
        if fileExtension.isEmpty || isStream(url) { return (url, format) }
        guard let named = ImageFormat(fileExtension: fileExtension) else {
            throw UsageError(
                message:
                    "cannot write \(argument): .\(fileExtension) is not an image format liquidlens writes; give a name ending in .png, .jpg, .webp or .qoi (or .ppm, .pam, .rgba), a folder ending in /, or - for stdout"
            )
        }
        if let given, given != named {
            throw UsageError(
                message:
                    "cannot write \(argument) as \(given.rawValue): its name says \(named.rawValue); name it .\(given.fileExtension), or leave --format out"
            )
        }
        return (url, named)
    }

    /// Where a PNG-only output goes (`verify --failures`, `presets --sheet`): as
    /// ``imageOutputURL(_:defaultStem:format:)`` reads it, a name of another format refused.
    static func pngOutputURL(_ argument: String?, defaultStem: String) throws -> URL {
        let (url, format) = try imageOutputURL(argument, defaultStem: defaultStem, format: nil)
        guard format == .png else {
            throw UsageError(
                message:
                    "cannot write \(argument ?? url.path): this output is a PNG image; give a name ending in .png, a folder ending in /, or - for stdout"
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
        if isQuiet { return }
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
