internal import CPNG
import Foundation
import LensModel

/// How hard the PNG encoder works: zlib level and row filters.
public enum PNGCompression: String, Sendable, CaseIterable {
    /// This project's encoder made for throughput (`FastPNGEncoder`): a filter per row and one
    /// deflate block of Huffman codes built for the image with zero runs; many times faster than
    /// zlib, files somewhat larger than `default` (the WhatIsMeasured article has the numbers).
    case fast
    /// zlib level 6, filters chosen per row.
    case `default`
    /// zlib level 9, filters chosen per row.
    case best

    /// The zlib level of the libpng path (`default` and `best`).
    var zlibLevel: Int32 { self == .best ? 9 : 6 }
}

/// An output image format: PNG (lossless), JPEG and WebP (lossy, at a quality) and QOI (lossless,
/// fast) for files; raw RGBA / PPM / PAM for piping into other tools.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    /// JPEG through libjpeg-turbo at a quality, alpha dropped: previews and thumbnails.
    case jpeg
    /// Lossy WebP through libwebp at a quality, alpha kept.
    case webp
    /// QOI: lossless and quick to write, larger than PNG.
    case qoi
    /// Bare 8-bit RGBA rows, no header (the consumer knows the size).
    case rgba
    /// Binary PPM (P6): RGB, alpha dropped.
    case ppm
    /// PAM (P7) with tuple type RGB_ALPHA.
    case pam

    /// The quality JPEG and WebP are written at unless one is given (1…100).
    public static let defaultQuality = 90

    /// The file name extension, without the dot: `jpg` for JPEG, else the raw value.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The format a file name extension names (`png`, `jpg` or `jpeg`, `webp`, `qoi`, `rgba`,
    /// `ppm`, `pam`; any case), or nil.
    public init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        guard let format = lowered == "jpg" ? .jpeg : Self(rawValue: lowered) else { return nil }
        self = format
    }

    /// Encodes `image` in this format: PNG at `compression`, JPEG and WebP at `quality` (1…100).
    public func encode(
        _ image: RGBA8Image, compression: PNGCompression = .default, quality: Int = Self.defaultQuality
    ) throws -> Data {
        switch self {
        case .png:
            return try PNGCodec.encode(image, compression: compression)
        case .jpeg:
            return try JPEGEncoder.encode(image, quality: quality)
        case .webp:
            return try WebPEncoder.encode(image, quality: quality)
        case .qoi:
            return QOIEncoder.encode(image)
        case .rgba:
            return Data(image.pixels)
        case .ppm:
            var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
            data.reserveCapacity(data.count + image.width * image.height * 3)
            image.pixels.withUnsafeBufferPointer { pixels in
                var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
                for pixel in 0..<image.width * image.height {
                    rgb[pixel * 3] = pixels[pixel * 4]
                    rgb[pixel * 3 + 1] = pixels[pixel * 4 + 1]
                    rgb[pixel * 3 + 2] = pixels[pixel * 4 + 2]
                }
                data.append(contentsOf: rgb)
            }
            return data
        case .pam:
            var data = Data(
                "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
                    .utf8)
            data.append(contentsOf: image.pixels)
            return data
        }
    }

    /// Whether `url` holds a complete file of this format: a PNG ends with its IEND chunk, a JPEG
    /// with its end-of-image marker, a QOI file with its end marker, a WebP file is as long as its
    /// RIFF header says; the raw formats are complete once they exist, since every write is atomic.
    public func isComplete(_ url: URL) -> Bool {
        guard FileAccess.notAFile(url) == nil, let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return false }
        func bytes(at offset: UInt64, _ count: Int) -> Data? {
            guard offset + UInt64(count) <= size, (try? handle.seek(toOffset: offset)) != nil else { return nil }
            return try? handle.read(upToCount: count)
        }
        switch self {
        case .png:
            let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return bytes(at: 0, 8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && size >= 20
                && bytes(at: size - 12, 12) == Data(iend)
        case .jpeg:
            return size >= 4 && bytes(at: 0, 2) == Data([0xFF, 0xD8]) && bytes(at: size - 2, 2) == Data([0xFF, 0xD9])
        case .qoi:
            return size >= 22 && bytes(at: 0, 4) == Data("qoif".utf8)
                && bytes(at: size - 8, 8) == Data([0, 0, 0, 0, 0, 0, 0, 1])
        case .webp:
            guard let header = bytes(at: 0, 12), header.prefix(4) == Data("RIFF".utf8) else { return false }
            let length = header[4..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return length + 8 == size
        case .rgba, .ppm, .pam: return true
        }
    }
}
