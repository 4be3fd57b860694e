import Foundation
import LensModel

/// Image files as users have them, read as 8-bit sRGB RGBA: PNG (libpng), JPEG (libjpeg-turbo),
/// WebP (libwebp), HEIC and AVIF (libheif) and SVG (librsvg), the format told by the file's first
/// bytes, not its name. Embedded ICC profiles and PNG's `cICP` / HEIF's `nclx` colour descriptions
/// are converted to sRGB with Little CMS; an image without one is sRGB. The limits are PNG's
/// (`PNGCodec.maxSide`, `maxPixels`, `maxFileBytes`), checked from the header before pixels are
/// allocated.
public enum ImageReader {
    /// An image and what is worth telling about how it was read (an animated file's first frame).
    public struct Decoded: Sendable {
        /// The pixels, sRGB, straight alpha.
        public var image: RGBA8Image
        /// The format it was read as.
        public var format: ImageFileFormat
        /// Remarks for the user, one line each.
        public var notes: [String]
    }

    /// Reads `url`; SVG is rasterised at `scale` pixels per SVG pixel. Errors name the path.
    public static func read(contentsOf url: URL, scale: Double = 1) throws -> Decoded {
        try ImageLimits.read(url) { try decode($0, scale: scale) }
    }

    /// Decodes image `data` of any format above; SVG at `scale`.
    public static func decode(_ data: Data, scale: Double = 1) throws -> Decoded {
        guard let format = ImageFileFormat.sniff(data) else {
            throw ImageFileError(
                description:
                    "not an image LiquidLens reads (\(ImageFileFormat.allCases.map(\.rawValue).joined(separator: ", ")), told by the first bytes, not the name)"
            )
        }
        return try decode(data, as: format, scale: scale)
    }

    /// Decodes `data` as `format`, whatever its first bytes say (the fuzzers drive each decoder so).
    package static func decode(_ data: Data, as format: ImageFileFormat, scale: Double = 1) throws -> Decoded {
        var notes: [String] = []
        let image: RGBA8Image
        switch format {
        case .png:
            let colors = try PNGColorChunks(data)
            var pixels = try PNGCodec.decode(colors.isSRGB ? data : PNGColorChunks.removingGamma(from: data))
            try colors.convert(&pixels.pixels)
            image = pixels
        case .jpeg: image = try JPEGDecoder.decode(data)
        case .webp: image = try WebPDecoder.decode(data, notes: &notes)
        case .heif, .avif: image = try HEIFDecoder.decode(data)
        case .svg:
            guard scale.isFinite, scale > 0 else {
                throw ImageFileError(description: "SVG needs a finite, positive scale, not \(scale)")
            }
            image = try SVGRasterizer.rasterize(data, scale: scale)
        }
        return Decoded(image: image, format: format, notes: notes)
    }
}

extension ImageFileError {
    /// A C library's message on one line, as errors are printed.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
    }
}

/// The size limits every decoder holds to: PNG's.
enum ImageLimits {
    static let maxSide = PNGCodec.maxSide
    static let maxPixels = PNGCodec.maxPixels

    static func allows(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width <= maxSide && height <= maxSide && width * height <= maxPixels
    }

    /// `decode` of the file at `url`, which is refused unread past `PNGCodec.maxFileBytes`; every
    /// error names the path.
    static func read<Decoded>(_ url: URL, _ decode: (Data) throws -> Decoded) throws -> Decoded {
        try decodeFile(bytes(of: url), from: url, decode)
    }

    /// The bytes of the image file at `url`, refused unread past `PNGCodec.maxFileBytes`; an
    /// error names the path.
    static func bytes(of url: URL) throws -> Data {
        do throws(FileAccess.Problem) {
            return try FileAccess.read(url, limit: PNGCodec.maxFileBytes)
        } catch {
            switch error {
            case .tooLarge(let size):
                throw ImageFileError(
                    description:
                        "cannot read image \(url.path): \(size) bytes is over the \(PNGCodec.maxFileBytes)-byte limit")
            case .failed(let reason):
                throw ImageFileError(description: "cannot read image \(url.path): \(reason)")
            }
        }
    }

    /// `decode` of `data`, read from `url`; an error names the path.
    static func decodeFile<Decoded>(_ data: Data, from url: URL, _ decode: (Data) throws -> Decoded) throws -> Decoded {
        do {
            return try decode(data)
        } catch let error as ImageFileError {
            throw ImageFileError(description: "cannot read image \(url.path): \(error.description)")
        }
    }

    static func tooLarge(width: Int, height: Int) -> ImageFileError {
        ImageFileError(
            description: "\(width)×\(height) is outside 1…\(maxSide) px per side or over \(maxPixels) px in all")
    }
}

extension PNGColorChunks {
    /// True when the PNG is sRGB (or says nothing), so libpng's own `gAMA` handling stands.
    var isSRGB: Bool {
        if case .sRGB = self { true } else { false }
    }

    /// Converts decoded RGBA `pixels` to sRGB as this description asks.
    func convert(_ pixels: inout [UInt8]) throws {
        switch self {
        case .sRGB: break
        case .codePoints(let codes): try ColorConversion.convert(&pixels, from: codes)
        case .profile(let profile): try ColorConversion.convert(&pixels, fromICC: profile)
        }
    }
}
