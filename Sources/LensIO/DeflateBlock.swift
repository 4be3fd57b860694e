/// One final deflate block (RFC 1951) with Huffman codes built for the data: literal bytes, and
/// runs of zero bytes as copies of the byte before (distance 1).
struct DeflateBlock {
    /// The shortest and longest run deflate codes as one copy.
    static let minimumRun = 3
    static let maximumRun = 258

    let literalCodes: DeflateHuffman
    let distanceCodes: DeflateHuffman

    /// Codes for the symbols `counts` saw, every symbol counted at least once so that all of
    /// them have a code (the counts may come from a sample of the data).
    init(counts: SymbolCounter) {
        var frequencies = counts.finish().map { $0 + 1 }
        frequencies[256] = 1
        literalCodes = DeflateHuffman(frequencies: frequencies, maxLength: 15)
        distanceCodes = DeflateHuffman(frequencies: [counts.runs + 1, 0], maxLength: 15)
    }

    /// A sink that writes the block's symbols after ``writeHeader(into:)``.
    func emitter(_ writer: BitWriter) -> SymbolEmitter {
        SymbolEmitter(literal: literalCodes, distance: distanceCodes, writer: writer)
    }

    /// Splits `bytes` into literals and zero runs, in order: four zeros or more become a literal
    /// zero and copies of it.
    @inline(__always)
    static func tokenize<Sink: TokenSink>(_ bytes: UnsafePointer<UInt8>, count: Int, into sink: inout Sink) {
        var index = 0
        while index < count {
            // Two literals at once where neither byte starts four zeros (the usual case).
            if index &+ 5 <= count && UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt32.self) != 0
                && UnsafeRawPointer(bytes + index + 1).loadUnaligned(as: UInt32.self) != 0
            {
                sink.literals(bytes[index], bytes[index &+ 1])
                index &+= 2
                continue
            }
            guard index + 4 <= count && UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt32.self) == 0 else {
                sink.literal(bytes[index])
                index += 1
                continue
            }
            sink.literal(0)
            var end = index + 4
            while end + 8 <= count && UnsafeRawPointer(bytes + end).loadUnaligned(as: UInt64.self) == 0 { end += 8 }
            while end < count && bytes[end] == 0 { end += 1 }
            var left = end - index - 1
            while left >= minimumRun {
                let length = min(left, maximumRun)
                // A remainder under the minimum would have to go as literals; a shorter copy avoids that.
                let copy = left - length > 0 && left - length < minimumRun ? left - minimumRun : length
                sink.run(copy)
                left -= copy
            }
            for _ in 0..<left { sink.literal(0) }
            index = end
        }
    }

    /// The block header: final bit, dynamic type, the code-length code and the run-length coded
    /// code lengths of both alphabets (RFC 1951 3.2.7).
    func writeHeader(into writer: inout BitWriter) {
        let literal = literalCodes
        let distance = distanceCodes
        let literalCount = max(257, (literal.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distanceCount = max(1, (distance.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let lengths = Array(literal.lengths.prefix(literalCount)) + Array(distance.lengths.prefix(distanceCount))
        let encoded = Self.runLengthCoded(lengths)
        var frequencies = [Int](repeating: 0, count: 19)
        for item in encoded { frequencies[Int(item.symbol)] += 1 }
        let lengthCodes = DeflateHuffman(frequencies: frequencies, maxLength: 7)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let lengthCodeCount = max(4, (order.lastIndex { lengthCodes.lengths[$0] > 0 } ?? 0) + 1)
        writer.write(1, bits: 1)
        writer.write(2, bits: 2)
        writer.write(UInt32(literalCount - 257), bits: 5)
        writer.write(UInt32(distanceCount - 1), bits: 5)
        writer.write(UInt32(lengthCodeCount - 4), bits: 4)
        for symbol in order.prefix(lengthCodeCount) { writer.write(UInt32(lengthCodes.lengths[symbol]), bits: 3) }
        for item in encoded {
            writer.write(UInt32(lengthCodes.codes[Int(item.symbol)]), bits: Int(lengthCodes.lengths[Int(item.symbol)]))
            if item.extraBits > 0 { writer.write(UInt32(item.extra), bits: item.extraBits) }
        }
    }

    /// Code lengths in deflate's run-length code: 16 repeats the previous length 3–6 times, 17
    /// and 18 give 3–10 and 11–138 zeros.
    static func runLengthCoded(_ lengths: [UInt8]) -> [(symbol: UInt8, extra: UInt8, extraBits: Int)] {
        var coded: [(symbol: UInt8, extra: UInt8, extraBits: Int)] = []
        var index = 0
        while index < lengths.count {
            let length = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == length { run += 1 }
            index += run
            if length == 0 {
                while run >= 11 {
                    let take = min(run, 138)
                    coded.append((18, UInt8(take - 11), 7))
                    run -= take
                }
                if run >= 3 {
                    coded.append((17, UInt8(run - 3), 3))
                    run = 0
                }
            } else {
                coded.append((length, 0, 0))
                run -= 1
                while run >= 3 {
                    let take = min(run, 6)
                    coded.append((16, UInt8(take - 3), 2))
                    run -= take
                }
            }
            for _ in 0..<run { coded.append((length, 0, 0)) }
        }
        return coded
    }
}

/// Receives the tokens of ``DeflateBlock/tokenize(_:count:into:)``.
protocol TokenSink {
    mutating func literal(_ byte: UInt8)
    /// Two literals in a row.
    mutating func literals(_ first: UInt8, _ second: UInt8)
    /// A copy of `length` bytes from distance 1.
    mutating func run(_ length: Int)
}

/// Counts symbols for the Huffman codes, in a table it owns (no array checks in the byte loop).
struct SymbolCounter: TokenSink {
    let literalLength = UnsafeMutablePointer<Int>.allocate(capacity: 286)
    var runs = 0

    init() { literalLength.initialize(repeating: 0, count: 286) }

    /// The counts, and the table released.
    func finish() -> [Int] {
        defer { literalLength.deallocate() }
        return Array(UnsafeBufferPointer(start: literalLength, count: 286))
    }

    @inline(__always)
    mutating func literal(_ byte: UInt8) { literalLength[Int(byte)] &+= 1 }

    @inline(__always)
    mutating func literals(_ first: UInt8, _ second: UInt8) {
        literal(first)
        literal(second)
    }

    @inline(__always)
    mutating func run(_ length: Int) {
        literalLength[Int(DeflateLengths.symbol[length])] &+= 1
        runs &+= 1
    }
}

/// Writes symbols with their codes, looked up in one table of code and length per symbol.
struct SymbolEmitter: TokenSink {
    /// Per literal/length symbol: the code in the low 16 bits, its length above.
    let table: UnsafeMutablePointer<UInt32>
    let distanceCode: UInt32
    let distanceBits: Int
    var writer: BitWriter

    init(literal: DeflateHuffman, distance: DeflateHuffman, writer: BitWriter) {
        table = .allocate(capacity: 286)
        for symbol in 0..<286 {
            table[symbol] = UInt32(literal.codes[symbol]) | UInt32(literal.lengths[symbol]) << 16
        }
        distanceCode = UInt32(distance.codes[0])
        distanceBits = Int(distance.lengths[0])
        self.writer = writer
    }

    /// Ends the block and hands the writer back; the table is released.
    mutating func finish() -> BitWriter {
        symbol(256)
        table.deallocate()
        return writer
    }

    @inline(__always)
    mutating func literal(_ byte: UInt8) { symbol(Int(byte)) }

    /// Both codes in one write: two literal codes are at most 30 bits.
    @inline(__always)
    mutating func literals(_ first: UInt8, _ second: UInt8) {
        let one = table[Int(first)]
        let two = table[Int(second)]
        let firstBits = one >> 16
        writer.write((one & 0xFFFF) | (two & 0xFFFF) &<< firstBits, bits: Int(firstBits &+ two >> 16))
    }

    @inline(__always)
    mutating func symbol(_ symbol: Int) {
        let entry = table[symbol]
        writer.write(entry & 0xFFFF, bits: Int(entry >> 16))
    }

    @inline(__always)
    mutating func run(_ length: Int) {
        symbol(Int(DeflateLengths.symbol[length]))
        let extraBits = Int(DeflateLengths.extraBits[length])
        if extraBits > 0 { writer.write(UInt32(DeflateLengths.extra[length]), bits: extraBits) }
        writer.write(distanceCode, bits: distanceBits)
    }
}

/// Deflate's length symbols (257–285) with their extra bits, by copy length 3–258.
enum DeflateLengths {
    private static let bases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let baseExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// The symbol of each length (0–2 unused).
    static let symbol: [UInt16] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        return UInt16(257 + (bases.lastIndex { $0 <= length } ?? 0))
    }
    static let extraBits: [UInt8] = (0...258).map { length in
        length >= 3 ? UInt8(baseExtraBits[bases.lastIndex { $0 <= length } ?? 0]) : 0
    }
    static let extra: [UInt16] = (0...258).map { length in
        length >= 3 ? UInt16(length - bases[bases.lastIndex { $0 <= length } ?? 0]) : 0
    }
}
