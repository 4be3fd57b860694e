internal import CDeflate
import Foundation
import LensModel

/// The PNG read for what most files are (8-bit RGB or RGBA, not interlaced, sRGB: no colour
/// chunk but `sRGB`, `cHRM` and a `gAMA` of sRGB's 1/2.2): the image data inflated by
/// libdeflate, about twice zlib's speed, and the row filters undone here. Any other file, and any
/// file that is not whole and well formed (a chunk's CRC, the chunks' order, the zlib stream's
/// window, Adler-32 and end, the image data's length, a filter type), is left to libpng, which
/// then gives its own pixels or its own error. One difference remains, for streams no encoder
/// writes: libdeflate reads deflate's reserved length and distance codes and a block declaring
/// more codes than deflate has, where zlib refuses them (finding them would mean inflating twice).
enum FastPNGDecoder {
    /// The file's pixels as 8-bit RGBA, or nil where libpng must read it.
    static func decode(_ data: Data) -> RGBA8Image? {
        data.withUnsafeBytes { bytes in
            guard let file = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            return decode(UnsafeBufferPointer(start: file, count: bytes.count))
        }
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Ancillary chunks that change nothing libpng's simplified read returns for these files
    /// (chromaticities only weigh RGB into grey, a background only matters when compositing).
    private static let harmless: Set<String> = ["sRGB", "cHRM", "bKGD", "pHYs", "tEXt", "zTXt", "iTXt", "tIME"]
    /// sRGB's gamma as `gAMA` stores it (1/2.2 × 100 000): libpng converts nothing for it.
    private static let sRGBGamma: UInt32 = 45455

    private static func bigEndian(_ file: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(file[offset]) << 24 | UInt32(file[offset + 1]) << 16 | UInt32(file[offset + 2]) << 8
            | UInt32(file[offset + 3])
    }

    private static func decode(_ file: UnsafeBufferPointer<UInt8>) -> RGBA8Image? {
        guard file.count >= 8 + 25, file.prefix(8).elementsEqual(signature) else { return nil }
        // Every byte of the file in a chunk, the last one IEND.
        let chunks = PNGChunk.all(in: file)
        guard let last = chunks.last, last.type == "IEND", last.whole.upperBound == file.count else { return nil }
        var width = 0
        var height = 0
        var channels = 0
        var compressed: [Range<Int>] = []
        for (index, chunk) in chunks.enumerated() {
            let (body, length) = (chunk.body.lowerBound, chunk.body.count)
            let crc = libdeflate_crc32(0, file.baseAddress! + chunk.whole.lowerBound + 4, length + 4)
            guard crc == bigEndian(file, chunk.body.upperBound) else { return nil }
            guard (index == 0) == (chunk.type == "IHDR") else { return nil }
            switch chunk.type {
            case "IHDR":
                guard length == 13, file[body + 8] == 8, file[body + 10] == 0, file[body + 11] == 0,
                    file[body + 12] == 0
                else { return nil }
                width = Int(bigEndian(file, body))
                height = Int(bigEndian(file, body + 4))
                switch file[body + 9] {
                case 2: channels = 3
                case 6: channels = 4
                default: return nil
                }
                guard width > 0, height > 0, ImageLimits.allows(width: width, height: height) else { return nil }
            case "IDAT":
                // The image data must be one run of IDAT chunks, as libpng requires.
                if let previous = compressed.last, previous.upperBound + 12 != body { return nil }
                compressed.append(chunk.body)
            case "IEND":
                guard length == 0, index == chunks.count - 1 else { return nil }
            case "gAMA":
                guard length == 4, bigEndian(file, body) == sRGBGamma else { return nil }
            default:
                guard harmless.contains(chunk.type) else { return nil }
            }
        }
        guard !compressed.isEmpty else { return nil }
        let rowBytes = width * channels
        guard var filtered = inflate(file, compressed, count: height * (rowBytes + 1)) else { return nil }
        return unfilter(&filtered, width: width, height: height, channels: channels)
    }

    /// The zlib stream spread over `parts` of `file`, inflated to exactly `count` bytes with every
    /// byte of the stream used; nil otherwise.
    private static func inflate(_ file: UnsafeBufferPointer<UInt8>, _ parts: [Range<Int>], count: Int) -> [UInt8]? {
        if parts.count == 1 {
            return inflate(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: file[parts[0]])), count: count)
        }
        var joined: [UInt8] = []
        joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { joined.append(contentsOf: file[part]) }
        return joined.withUnsafeBytes { inflate($0, count: count) }
    }

    private static func inflate(_ stream: UnsafeRawBufferPointer, count: Int) -> [UInt8]? {
        // zlib, under libpng, keeps only the window the stream's header declares and refuses a
        // copy from further back; libdeflate copies from anywhere it has written. Below the
        // largest window, the whole image data must fit in it.
        guard let header = stream.first else { return nil }
        let window = 1 << (Int(header >> 4) + 8)
        guard window == 1 << 15 || count <= window else { return nil }
        guard let inflater = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(inflater) }
        var used = 0
        var result = LIBDEFLATE_BAD_DATA
        // Left uninitialised: a successful inflate writes every byte, and a failed one is discarded.
        let output = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            result = libdeflate_zlib_decompress_ex(
                inflater, stream.baseAddress, stream.count, out.baseAddress, count, &used, &initialized)
            if result != LIBDEFLATE_SUCCESS { initialized = 0 }
        }
        guard result == LIBDEFLATE_SUCCESS, used == stream.count, output.count == count else { return nil }
        return output
    }

    /// Undoes each row's filter in place (a row's bytes follow its filter type byte), then lays
    /// the rows out as RGBA; nil on a filter type PNG does not define.
    private static func unfilter(_ rows: inout [UInt8], width: Int, height: Int, channels: Int) -> RGBA8Image? {
        let rowBytes = width * channels
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        let defined = rows.withUnsafeMutableBufferPointer { rows in
            zeros.withUnsafeBufferPointer { zeros in
                for row in 0..<height {
                    let line = rows.baseAddress! + row * (rowBytes + 1)
                    let prior = row == 0 ? zeros.baseAddress! : UnsafePointer(line - rowBytes)
                    guard let filter = RowFilterType(rawValue: line[0]) else { return false }
                    filter.undo(line + 1, prior: prior, count: rowBytes, bytesPerPixel: channels)
                }
                return true
            }
        }
        guard defined else { return nil }
        if channels == 4 {
            // Each row moves left over the filter type bytes before it; the array then ends early.
            rows.withUnsafeMutableBufferPointer { rows in
                for row in 0..<height {
                    let source = rows.baseAddress! + row * (rowBytes + 1) + 1
                    UnsafeMutableRawPointer(rows.baseAddress! + row * rowBytes).copyMemory(
                        from: source, byteCount: rowBytes)
                }
            }
            rows.removeLast(height)
            return RGBA8Image(width: width, height: height, pixels: rows)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { pixels, initialized in
            rows.withUnsafeBufferPointer { rows in
                for row in 0..<height {
                    let source = rows.baseAddress! + row * (rowBytes + 1) + 1
                    let target = pixels.baseAddress! + row * width * 4
                    for pixel in 0..<width {
                        target[pixel * 4] = source[pixel * 3]
                        target[pixel * 4 + 1] = source[pixel * 3 + 1]
                        target[pixel * 4 + 2] = source[pixel * 3 + 2]
                        target[pixel * 4 + 3] = 255
                    }
                }
            }
            initialized = width * height * 4
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }
}

/// PNG's five row filters (filter method 0), undone: each byte was stored as its difference from
/// a prediction made from the byte to its left (`bytesPerPixel` back), the byte above, and the
/// byte above-left; bytes left of the row and above the first row count as 0.
private enum RowFilterType: UInt8 {
    case none = 0, sub, up, average, paeth

    func undo(_ row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int) {
        let lead = min(bytesPerPixel, count)
        switch self {
        case .none:
            return
        case .sub where bytesPerPixel == 4:
            // A pixel at a time: four bytes added at once, without carries between them.
            let pixels = UnsafeMutableRawPointer(row)
            var left: UInt32 = 0
            for offset in stride(from: 0, to: count, by: 4) {
                let stored = pixels.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                left = ((stored & 0x7F7F_7F7F) &+ (left & 0x7F7F_7F7F)) ^ ((stored ^ left) & 0x8080_8080)
                pixels.storeBytes(of: left, toByteOffset: offset, as: UInt32.self)
            }
        case .sub:
            for i in bytesPerPixel..<max(bytesPerPixel, count) { row[i] &+= row[i - bytesPerPixel] }
        case .up:
            for i in 0..<count { row[i] &+= prior[i] }
        case .average:
            for i in 0..<lead { row[i] &+= prior[i] >> 1 }
            for i in lead..<count {
                row[i] &+= UInt8((UInt16(row[i - bytesPerPixel]) + UInt16(prior[i])) >> 1)
            }
        case .paeth:
            for i in 0..<lead { row[i] &+= prior[i] }
            for i in lead..<count {
                let left = Int16(row[i - bytesPerPixel])
                let above = Int16(prior[i])
                let aboveLeft = Int16(prior[i - bytesPerPixel])
                let distanceToLeft = abs(above - aboveLeft)
                let distanceToAbove = abs(left - aboveLeft)
                let distanceToAboveLeft = abs(left + above - 2 * aboveLeft)
                let predicted: Int16 =
                    distanceToLeft <= distanceToAbove && distanceToLeft <= distanceToAboveLeft
                    ? left : distanceToAbove <= distanceToAboveLeft ? above : aboveLeft
                row[i] &+= UInt8(predicted)
            }
        }
    }
}
