internal import CPNG
import Foundation

/// What a PNG says about its colours beyond what libpng's simplified reader applies (which is
/// `gAMA`): a `cICP` chunk (colour primaries and transfer by code, which wins) or an `iCCP` profile.
/// An `sRGB` chunk, or none of these, means sRGB.
enum PNGColorChunks {
    case sRGB
    case codePoints(ColorConversion.CodePoints)
    case profile(Data)

    /// Largest embedded profile inflated (a decompression bomb in the `iCCP` chunk is refused).
    static let maxProfileBytes = 16 << 20

    /// The colour description of PNG `data` (a valid signature already checked).
    init(_ data: Data) throws {
        var found = Self.sRGB
        for chunk in Self.leadingChunks(data) {
            let body = data[chunk.body]
            switch chunk.type {
            case "cICP" where body.count == 4:
                self = .codePoints(
                    .init(primaries: Int(body[body.startIndex]), transfer: Int(body[body.startIndex + 1])))
                return
            case "iCCP": found = .profile(try Self.inflateProfile(ArraySlice(body)))
            default: break
            }
        }
        self = found
    }

    /// `data` without its `gAMA` chunk, for a PNG whose profile or code points describe its
    /// transfer: there the PNG specification ignores `gAMA`, and libpng would apply it on top.
    static func removingGamma(from data: Data) -> Data {
        var kept = data
        for chunk in leadingChunks(data).reversed() where chunk.type == "gAMA" {
            kept.removeSubrange(chunk.whole)
        }
        return kept
    }

    /// The chunks of PNG `data` before its image data.
    private static func leadingChunks(_ data: Data) -> [PNGChunk] {
        Array(PNGChunk.all(in: data).prefix { $0.type != "IDAT" && $0.type != "IEND" })
    }

    /// The profile in an `iCCP` body: a name, a zero, the method (0, zlib), the compressed profile.
    private static func inflateProfile(_ body: ArraySlice<UInt8>) throws -> Data {
        guard let zero = body.firstIndex(of: 0), zero + 2 <= body.endIndex, body[zero + 1] == 0 else {
            throw ImageFileError(description: "corrupt iCCP chunk")
        }
        let compressed = [UInt8](body[(zero + 2)...])
        var capacity = 1 << 16
        while capacity <= maxProfileBytes {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = uLongf(capacity)
            let status = uncompress(&output, &size, compressed, uLong(compressed.count))
            if status == Z_OK { return Data(output.prefix(Int(size))) }
            guard status == Z_BUF_ERROR else {
                throw ImageFileError(description: "corrupt iCCP chunk (zlib \(status))")
            }
            capacity *= 4
        }
        throw ImageFileError(description: "its iCCP profile inflates past \(maxProfileBytes) bytes")
    }
}
