internal import CPNG
import Foundation
import LensModel

/// A failure reading or writing an image file, with the path and the reason.
public struct ImageFileError: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(description: String) { self.description = description }
}

/// PNG in and out through libpng's simplified API. Reading converts any PNG to 8-bit sRGB RGBA
/// (the common 8-bit RGB and RGBA files through `FastPNGDecoder`, to the same pixels);
/// writing goes through `OutputFile`, so a failed write never leaves a truncated image behind
/// and never destroys an existing one.
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
        try ImageLimits.read(url, decode)
    }

    /// Reads two PNG files as 8-bit RGBA, as ``read(contentsOf:)`` reads each, first `first`.
    /// Files with the same bytes (what a diff meets most: a frame against itself) are decoded once.
    public static func readPair(_ first: URL, _ second: URL) throws -> (first: RGBA8Image, second: RGBA8Image) {
        let firstBytes = try ImageLimits.bytes(of: first)
        let firstImage = try ImageLimits.decodeFile(firstBytes, from: first, decode)
        let secondBytes = try ImageLimits.bytes(of: second)
        if secondBytes == firstBytes { return (firstImage, firstImage) }
        return (firstImage, try ImageLimits.decodeFile(secondBytes, from: second, decode))
    }

    /// Decodes PNG data to 8-bit RGBA; an image too large (``maxSide``, ``maxPixels``) is refused from its header.
    public static func decode(_ data: Data) throws -> RGBA8Image {
        try FastPNGDecoder.decode(data) ?? libpngDecode(data)
    }

    /// ``decode(_:)`` through libpng alone, for any PNG.
    package static func libpngDecode(_ data: Data) throws -> RGBA8Image {
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
        guard ImageLimits.allows(width: width, height: height) else {
            throw ImageLimits.tooLarge(width: width, height: height)
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
        compression == .fast ? FastPNGEncoder.encode(image) : try zlibEncode(image, level: compression.zlibLevel)
    }

    /// Encodes `mask` as an 8-bit greyscale PNG of its bytes (no colour space: they are coverage,
    /// not light).
    public static func encode(_ mask: AlphaImage) throws -> Data {
        try zlibEncode(mask.coverage, width: mask.width, height: mask.height, channels: 1, level: 6)
    }

    /// Encodes and writes `mask` to `url` (`encode(_:)`) as `OutputFile` does.
    public static func write(_ mask: AlphaImage, to url: URL) throws {
        try OutputFile.write(try encode(mask), to: url)
    }

    /// Encodes through libpng at zlib `level`, every filter tried per row.
    package static func zlibEncode(_ image: RGBA8Image, level: Int32) throws -> Data {
        try zlibEncode(image.pixels, width: image.width, height: image.height, channels: 4, level: level)
    }

    private static func zlibEncode(_ bytes: [UInt8], width: Int, height: Int, channels: Int32, level: Int32) throws
        -> Data
    {
        var buffer = liquidlens_png_buffer()
        let encoded = bytes.withUnsafeBufferPointer { pixels in
            liquidlens_png_encode(
                pixels.baseAddress, UInt32(width), UInt32(height), channels, level,
                Z_DEFAULT_STRATEGY,
                Int32(PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH),
                &buffer)
        }
        guard encoded != 0, let bytes = buffer.data else {
            throw ImageFileError(description: "PNG encoding failed (out of memory)")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// Encodes and writes to `url` as `OutputFile` does: a regular file atomically, a pipe or a
    /// device in place.
    public static func write(_ image: RGBA8Image, to url: URL, compression: PNGCompression = .default) throws {
        try OutputFile.write(try encode(image, compression: compression), to: url)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
