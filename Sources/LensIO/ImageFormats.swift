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

/// An output image format: PNG for files, raw RGBA / PPM / PAM for piping into other tools.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    /// Bare 8-bit RGBA rows, no header (the consumer knows the size).
    case rgba
    /// Binary PPM (P6): RGB, alpha dropped.
    case ppm
    /// PAM (P7) with tuple type RGB_ALPHA.
    case pam

    /// The file name extension, without the dot: the raw value.
    public var fileExtension: String { rawValue }

    /// Encodes `image` in this format.
    public func encode(_ image: RGBA8Image, compression: PNGCompression = .default) throws -> Data {
        switch self {
        case .png:
            return try PNGCodec.encode(image, compression: compression)
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

    /// Whether `url` holds a complete file of this format (a PNG ends with its IEND chunk;
    /// the others are complete once they exist, since every write is atomic).
    public func isComplete(_ url: URL) -> Bool {
        guard FileAccess.notAFile(url) == nil, let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return false }
        guard self == .png else { return true }
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard size >= 8 + UInt64(iend.count), (try? handle.seek(toOffset: 0)) != nil,
            let head = try? handle.read(upToCount: 8), head == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            (try? handle.seek(toOffset: size - UInt64(iend.count))) != nil,
            let tail = try? handle.read(upToCount: iend.count)
        else { return false }
        return tail == Data(iend)
    }
}
