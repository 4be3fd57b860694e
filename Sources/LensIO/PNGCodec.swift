internal import CPNG
import Foundation
import LensModel

/// A failure reading or writing an image file, with the path and the reason.
public struct ImageFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// PNG in and out through libpng's simplified API. Reading converts any PNG to 8-bit sRGB RGBA;
/// writing is atomic (a temporary file renamed over the target), so a failed write never leaves a
/// truncated image behind and never destroys an existing one.
public enum PNGCodec {
    /// Largest image accepted on read, per side and in all (a decompression bomb is refused from
    /// its header, before any pixel memory is allocated), and the largest file.
    public static let maxSide = 16384
    /// Largest pixel count accepted on read (8192 × 8192).
    public static let maxPixels = 8192 * 8192
    /// Largest file accepted on read, in bytes (256 MiB).
    public static let maxFileBytes = 256 << 20

    /// `PNG_FORMAT_RGBA`, a composite macro Swift does not import.
    private static let rgbaFormat = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// Reads a PNG file as 8-bit RGBA; errors name the path. A file over ``maxFileBytes`` is refused unread.
    public static func read(contentsOf url: URL) throws -> RGBA8Image {
        if let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > maxFileBytes {
            throw ImageFileError(
                description: "cannot read image \(url.path): \(size) bytes is over the \(maxFileBytes)-byte limit")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageFileError(description: "cannot read image \(url.path): \(Self.reason(error))")
        }
        do {
            return try decode(data)
        } catch let error as ImageFileError {
            throw ImageFileError(description: "cannot read image \(url.path): \(error.description)")
        }
    }

    /// Decodes PNG data to 8-bit RGBA; an image too large (``maxSide``, ``maxPixels``) is refused from its header.
    public static func decode(_ data: Data) throws -> RGBA8Image {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let began = data.withUnsafeBytes { bytes in
            png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        }
        guard began != 0 else {
            throw ImageFileError(description: "not a PNG (\(message(of: &image)))")
        }
        defer { png_image_free(&image) }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw ImageFileError(
                description: "\(width)×\(height) is outside 1…\(maxSide) px per side or over \(maxPixels) px in all")
        }
        image.format = rgbaFormat
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
        }
        guard finished != 0 else {
            throw ImageFileError(description: "corrupt PNG data (\(message(of: &image)))")
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }

    /// Encodes `image` as an sRGB PNG.
    public static func encode(_ image: RGBA8Image, compression: PNGCompression = .default) throws -> Data {
        var buffer = liquidlens_png_buffer()
        let encoded = image.pixels.withUnsafeBufferPointer { pixels in
            liquidlens_png_encode(
                pixels.baseAddress, UInt32(image.width), UInt32(image.height), compression.zlibLevel,
                compression.zlibStrategy, compression.filters, &buffer)
        }
        guard encoded != 0, let bytes = buffer.data else {
            throw ImageFileError(description: "PNG encoding failed (out of memory)")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// Encodes and writes atomically.
    public static func write(_ image: RGBA8Image, to url: URL, compression: PNGCompression = .default) throws {
        try AtomicFile.write(try encode(image, compression: compression), to: url)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// A short reason for a file error: the POSIX message when there is one.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        default: return nsError.localizedDescription
        }
    }
}

/// Writes files whole or not at all.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url` (flushed to disk), then renames it over
    /// `url`, creating the parent folders first. On any failure the temporary file is removed
    /// and an existing `url` is left as it was; the error carries the system's reason.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ImageFileError(
                description: "cannot write \(url.path): cannot create \(folder.path) (\(PNGCodec.reason(error)))")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        func failure() -> ImageFileError {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return ImageFileError(description: "cannot write \(url.path): \(reason)")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure() }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written, fsync(descriptor) == 0 else {
            let error = failure()
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0, rename(temporary, url.path) == 0 else { throw failure() }
    }
}
