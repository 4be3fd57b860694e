// libFuzzer target: PNG bytes must decode or fail with an ImageFileError, never crash. Each input
// is decoded as it is, then with its checksums repaired (every chunk's CRC, and the Adler-32 of
// the zlib stream the IDAT chunks carry), as PNG fuzzers do: a mutated chunk almost never keeps a
// valid CRC, so without the repair libpng takes nearly every input and the fast decoder's own
// rules (chunk order, the inflate hand-off, unfiltering) are never reached.
import CDeflate
import Foundation
import LensIO

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? PNGCodec.decode(data)
    if let repaired = ChecksumRepair.repaired(data), repaired != data {
        _ = try? PNGCodec.decode(repaired)
    }
    return 0
}

/// Rewrites a PNG's checksums to match its bytes.
enum ChecksumRepair {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Where streams inflate, made once (the fuzzer calls one input at a time); a stream that
    /// inflates past 16 MiB keeps its Adler-32 as it was.
    nonisolated(unsafe) private static var output = [UInt8](repeating: 0, count: 1 << 24)

    /// The file with its zlib Adler-32 and every chunk's CRC recomputed; nil when it is not a
    /// signature followed by whole chunks.
    static func repaired(_ data: Data) -> Data? {
        var bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var chunks: [(type: String, body: Range<Int>)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(readBigEndian(bytes, offset))
            guard length <= bytes.count - offset - 12 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, (offset + 8)..<(offset + 8 + length)))
            offset += 12 + length
        }
        guard !chunks.isEmpty else { return nil }
        repairAdler(&bytes, dataChunks: chunks.filter { $0.type == "IDAT" }.map(\.body))
        for chunk in chunks {
            let start = chunk.body.lowerBound - 4
            let crc = bytes.withUnsafeBufferPointer {
                libdeflate_crc32(0, $0.baseAddress! + start, chunk.body.count + 4)
            }
            writeBigEndian(&bytes, chunk.body.upperBound, crc)
        }
        return Data(bytes)
    }

    /// Inflates the zlib stream the `dataChunks` carry end to end and, when it inflates, writes
    /// the Adler-32 of what came out into the four bytes after the deflate data.
    private static func repairAdler(_ bytes: inout [UInt8], dataChunks: [Range<Int>]) {
        let positions = dataChunks.flatMap { Array($0) }
        guard positions.count > 6 else { return }
        let stream = positions.map { bytes[$0] }
        guard let decompressor = libdeflate_alloc_decompressor() else { return }
        defer { libdeflate_free_decompressor(decompressor) }
        var consumed = 0
        var produced = 0
        let result = stream.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                libdeflate_deflate_decompress_ex(
                    decompressor, input.baseAddress! + 2, input.count - 2, out.baseAddress, out.count, &consumed,
                    &produced)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, 2 + consumed + 4 <= stream.count else { return }
        let adler = output.withUnsafeBufferPointer { libdeflate_adler32(1, $0.baseAddress, produced) }
        for index in 0..<4 {
            bytes[positions[2 + consumed + index]] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * UInt32(index)))
        }
    }

    private static func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func writeBigEndian(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }
}
