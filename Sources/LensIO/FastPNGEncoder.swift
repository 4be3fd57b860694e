internal import CPNG
import Foundation
import LensModel

/// The PNG encoder behind ``PNGCompression/fast``, made for throughput in the fpng / fpnge
/// class of design rather than for the smallest file: each row takes the Sub or Up filter whose
/// residuals are smallest (in loops the compiler vectorises), and the filtered bytes go into one
/// deflate block of Huffman codes built for the image, whose only matches are runs of zero bytes
/// (a flat area or a repeated row, once filtered) coded as copies at distance 1. Any PNG decoder
/// reads the result; `default` and `best` stay with zlib for size.
enum FastPNGEncoder {
    /// Encodes `image` as an 8-bit RGBA PNG with an `sRGB` chunk, as the zlib path writes it.
    /// Rows are filtered as they are coded, one at a time, so nothing of the image's size is
    /// allocated but the output.
    static func encode(_ image: RGBA8Image) -> Data {
        let width = image.width
        let height = image.height
        let lineBytes = width * 4 + 1
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: lineBytes)
        defer { line.deallocate() }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 6, 0, 0, 0])
        // The IDAT chunk's length is written once the data is; its type begins what its CRC covers.
        let head =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("sRGB", [0])
            + [0, 0, 0, 0] + Array("IDAT".utf8)
        let tail = chunk("IEND", [])
        // Literal bytes cost at most 14 bits each, copies less; 1024 bytes cover the code lengths,
        // the zlib header and Adler-32, and the IDAT CRC.
        let deflateCapacity = height * lineBytes * 2 + 1024
        let capacity = head.count + deflateCapacity + tail.count
        let file = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { file.deallocate() }
        file.initialize(from: head, count: head.count)
        let deflated = file + head.count
        var writer = BitWriter(into: deflated, capacity: deflateCapacity)
        let adler = image.pixels.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            let types = (0..<height).map { RowFilter.choose(pixels, width: width, row: $0) }
            // Huffman codes from every sixteenth row: a sixteenth of the counting for a file
            // within a percent or two of codes counted over every row.
            var counter = SymbolCounter()
            for y in stride(from: 0, to: height, by: 16) {
                RowFilter.filter(pixels, width: width, row: y, type: types[y], into: line)
                DeflateBlock.tokenize(line, count: lineBytes, into: &counter)
            }
            let block = DeflateBlock(counts: counter)
            // zlib header: deflate with a 32 KiB window, no dictionary, "fastest" level (0x78 0x01).
            writer.write(0x0178, bits: 16)
            block.writeHeader(into: &writer)
            var emitter = block.emitter(writer)
            for y in 0..<height {
                RowFilter.filter(pixels, width: width, row: y, type: types[y], into: line)
                DeflateBlock.tokenize(line, count: lineBytes, into: &emitter)
                emitter.adler.reduce()
            }
            writer = emitter.finish()
            return emitter.adler
        }
        writer.flush()
        var end = head.count + writer.count
        (file + end).storeBigEndian(adler.value)
        end += 4
        let idatLength = end - head.count
        (file + head.count - 8).storeBigEndian(UInt32(idatLength))
        (file + end).storeBigEndian(UInt32(crc32(0, file + head.count - 4, UInt32(idatLength + 4))))
        end += 4
        (file + end).initialize(from: tail, count: tail.count)
        end += tail.count
        return Data(bytes: file, count: end)
    }

    /// A PNG chunk: length, type, data and the CRC-32 of type and data.
    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(body.count))
        bytes += typed
        bytes.appendBigEndian(UInt32(crc32(0, typed, UInt32(typed.count))))
        return bytes
    }
}

/// Adler-32 (RFC 1950) of the bytes the emitter writes, taken a word at a time as they pass:
/// the sums of a word's eight bytes, plain and weighted by their distance from its end, come
/// from three multiplies of 16-bit lanes (SWAR), and a run of zeros only grows `b`.
struct Adler32 {
    private var a: UInt64 = 1
    private var b: UInt64 = 0

    /// The checksum of everything added.
    var value: UInt32 {
        UInt32(truncatingIfNeeded: (b % 65521) << 16 | a % 65521)
    }

    /// Adds one byte.
    @inline(__always)
    mutating func add(_ byte: UInt8) {
        a &+= UInt64(byte)
        b &+= a
    }

    /// Adds eight bytes, the first in the word's lowest byte.
    @inline(__always)
    mutating func add(word: UInt64) {
        let even = word & 0x00FF_00FF_00FF_00FF
        let odd = word &>> 8 & 0x00FF_00FF_00FF_00FF
        // Each product's top lane is a dot product of the four lanes with the constant's lanes
        // reversed; no lane's partial sum reaches 2^16, so nothing carries between lanes.
        let sum = ((even &+ odd) &* 0x0001_0001_0001_0001) &>> 48
        let weighted = ((even &* 0x0008_0006_0004_0002) &>> 48) &+ ((odd &* 0x0007_0005_0003_0001) &>> 48)
        b &+= a &* 8 &+ weighted
        a &+= sum
    }

    /// Adds `count` zero bytes.
    @inline(__always)
    mutating func add(zeros count: Int) {
        b &+= a &* UInt64(count)
    }

    /// Reduces the sums modulo 65521; once every 2^24 bytes or more often keeps them within 64 bits.
    mutating func reduce() {
        a %= 65521
        b %= 65521
    }
}

/// PNG row filtering (filter types 1 Sub and 2 Up) with the per-row choice of the smallest sum of
/// residual magnitudes, libpng's heuristic, estimated on a sixteenth of each row. Paeth, which
/// libpng also tries, would cost an eighth of the encoding time for files about 1.5 % smaller on
/// the benchmark frames.
enum RowFilter {
    /// PNG's filter type bytes.
    static let sub: UInt8 = 1
    static let up: UInt8 = 2

    /// The filter type for row `row` of an image `width` pixels wide.
    static func choose(_ pixels: UnsafePointer<UInt8>, width: Int, row: Int) -> UInt8 {
        let rowBytes = width * 4
        let current = pixels + row * rowBytes
        // Nothing lies above the first row: Up would only repeat None there.
        return row == 0 ? sub : chooseFilter(current, current - rowBytes, count: rowBytes)
    }

    /// Writes row `row`'s filter type byte and residuals into `line`.
    static func filter(
        _ pixels: UnsafePointer<UInt8>, width: Int, row: Int, type: UInt8, into line: UnsafeMutablePointer<UInt8>
    ) {
        let rowBytes = width * 4
        let current = pixels + row * rowBytes
        line[0] = type
        // The first row is always Sub (``choose(_:width:row:)``), which reads nothing above it.
        apply(type, current, row == 0 ? current : current - rowBytes, count: rowBytes, into: line + 1)
    }

    /// The filter whose residuals have the smallest magnitudes over the first 16 bytes of every
    /// 256 past the first pixel (enough to tell a flat or sloped row from a vertical one).
    @inline(__always)
    static func chooseFilter(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int) -> UInt8 {
        var subCost: UInt32 = 0
        var upCost: UInt32 = 0
        var start = 4
        while start + 16 <= count {
            for index in start..<start + 16 {
                let x = row[index]
                subCost &+= magnitude(x &- row[index &- 4])
                upCost &+= magnitude(x &- above[index])
            }
            start += 256
        }
        return subCost <= upCost ? sub : up
    }

    /// Writes the row's residuals under filter `type`.
    @inline(__always)
    static func apply(
        _ type: UInt8, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int,
        into target: UnsafeMutablePointer<UInt8>
    ) {
        if type == up {
            for index in 0..<count { target[index] = row[index] &- above[index] }
            return
        }
        // The first pixel has nothing to its left: Sub is the byte itself.
        let first = min(4, count)
        for index in 0..<first { target[index] = row[index] }
        for index in first..<count { target[index] = row[index] &- row[index &- 4] }
    }

    /// A residual's magnitude, read as a signed byte (0…128).
    @inline(__always)
    private static func magnitude(_ residual: UInt8) -> UInt32 {
        UInt32(residual > 127 ? 0 &- residual : residual)
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }
}

extension UnsafeMutablePointer<UInt8> {
    fileprivate func storeBigEndian(_ value: UInt32) {
        UnsafeMutableRawPointer(self).storeBytes(of: value.bigEndian, as: UInt32.self)
    }
}
