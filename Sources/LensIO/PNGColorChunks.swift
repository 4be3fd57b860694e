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
        var offset = 8
        var found = Self.sRGB
        let bytes = [UInt8](data)
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length <= bytes.count else { break }
            let body = bytes[start..<(start + length)]
            switch type {
            case "cICP" where length == 4:
                self = .codePoints(.init(primaries: Int(body[start]), transfer: Int(body[start + 1])))
                return
            case "iCCP": found = .profile(try Self.inflateProfile(body))
            case "IDAT", "IEND":
                self = found
                return
            default: break
            }
            offset = start + length + 4
        }
        self = found
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
