/// One final deflate block (RFC 1951) with Huffman codes built for the data: literal bytes, and
/// runs of zero bytes as copies of the byte before (distance 1).
struct DeflateBlock {
    /// The shortest and longest run deflate codes as one copy.
    static let minimumRun = 3
    static let maximumRun = 258
    /// The longest literal/length code: four of them fit one write of ``BitWriter`` (56 bits).
    static let maximumCodeLength = 14

    let literalCodes: DeflateHuffman
    let distanceCodes: DeflateHuffman

    /// Codes for the symbols `counts` saw, every symbol counted at least once so that all of
    /// them have a code (the counts may come from a sample of the data).
    init(counts: SymbolCounter) {
        var frequencies = counts.finish().map { $0 + 1 }
        frequencies[256] = 1
        literalCodes = DeflateHuffman(frequencies: frequencies, maxLength: Self.maximumCodeLength)
        distanceCodes = DeflateHuffman(frequencies: [counts.runs + 1, 0], maxLength: 15)
    }

    /// A sink that writes the block's symbols after ``writeHeader(into:)``.
    func emitter(_ writer: BitWriter) -> SymbolEmitter {
        SymbolEmitter(literal: literalCodes, distance: distanceCodes, writer: writer)
    }

    /// Splits `bytes` into literals and zero runs, in order, eight bytes at a time: two words of
    /// zeros start a run, which takes every zero word after them; any other word is eight
    /// literals. Shorter runs, or runs off the word grid, go as literals, which costs a little size
    /// and saves a byte-by-byte scan (and the mispredicted branches of short runs).
    @inline(__always)
    static func tokenize<Sink: TokenSink>(_ bytes: UnsafePointer<UInt8>, count: Int, into sink: inout Sink) {
        var index = 0
        while index &+ 16 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            let next = UnsafeRawPointer(bytes + (index &+ 8)).loadUnaligned(as: UInt64.self)
            if word | next != 0 {
                sink.literals(word)
                index &+= 8
                continue
            }
            var end = index &+ 16
            while end &+ 8 <= count && UnsafeRawPointer(bytes + end).loadUnaligned(as: UInt64.self) == 0 { end &+= 8 }
            sink.zeros(end &- index)
            index = end
        }
        while index < count {
            sink.literal(bytes[index])
            index &+= 1
        }
    }

    /// Calls `copy` with the lengths of the distance-1 copies that make `count` bytes: copies of
    /// at most 258, none left under 3 (a shorter copy before the last avoids that).
    @inline(__always)
    static func copies(making count: Int, _ copy: (Int) -> Void) {
        var left = count
        while left > 0 {
            let length = left <= maximumRun ? left : left - maximumRun < minimumRun ? left - minimumRun : maximumRun
            copy(length)
            left &-= length
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
        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceCount - 1), bits: 5)
        writer.write(UInt64(lengthCodeCount - 4), bits: 4)
        for symbol in order.prefix(lengthCodeCount) { writer.write(UInt64(lengthCodes.lengths[symbol]), bits: 3) }
        for item in encoded {
            writer.write(UInt64(lengthCodes.codes[Int(item.symbol)]), bits: Int(lengthCodes.lengths[Int(item.symbol)]))
            if item.extraBits > 0 { writer.write(UInt64(item.extra), bits: item.extraBits) }
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
    /// Eight literals, the first in the word's lowest byte.
    mutating func literals(_ word: UInt64)
    /// `count` zero bytes (16 or more): a literal zero, then copies of it from distance 1.
    mutating func zeros(_ count: Int)
}

/// Counts symbols for the Huffman codes, in a table it owns (no array checks in the byte loop).
struct SymbolCounter: TokenSink {
    private let literalCounts = UnsafeMutablePointer<Int>.allocate(capacity: 256)
    /// Copies by length; their symbols are found once, in ``finish()``.
    private let copyCounts = UnsafeMutablePointer<Int>.allocate(capacity: DeflateBlock.maximumRun + 1)
    /// How many copies there are.
    private(set) var runs = 0

    init() {
        literalCounts.initialize(repeating: 0, count: 256)
        copyCounts.initialize(repeating: 0, count: DeflateBlock.maximumRun + 1)
    }

    /// The counts of the 286 literal/length symbols, and the tables released.
    func finish() -> [Int] {
        defer {
            literalCounts.deallocate()
            copyCounts.deallocate()
        }
        var counts = Array(UnsafeBufferPointer(start: literalCounts, count: 256)) + [Int](repeating: 0, count: 30)
        for length in DeflateBlock.minimumRun...DeflateBlock.maximumRun {
            counts[DeflateLengths.symbol(length)] += copyCounts[length]
        }
        return counts
    }

    @inline(__always)
    mutating func literal(_ byte: UInt8) { literalCounts[Int(byte)] &+= 1 }

    @inline(__always)
    mutating func literals(_ word: UInt64) {
        for byte in 0..<8 { literal(UInt8(truncatingIfNeeded: word &>> UInt64(byte &* 8))) }
    }

    mutating func zeros(_ count: Int) {
        literal(0)
        DeflateBlock.copies(making: count &- 1) { length in
            copyCounts[length] &+= 1
            runs &+= 1
        }
    }
}

/// Writes symbols with their codes, looked up in tables of code and length per symbol, and
/// takes the Adler-32 of the bytes they stand for as they pass.
struct SymbolEmitter: TokenSink {
    /// Per literal/length symbol: the code in the low 32 bits, its length above.
    private let table: UnsafeMutablePointer<UInt64>
    /// Per copy length 3–258: length code, extra bits and distance code in the low 48 bits,
    /// their total length above.
    private let copyTable: UnsafeMutablePointer<UInt64>
    var writer: BitWriter
    /// The checksum of every byte tokenized into this emitter.
    var adler = Adler32()

    init(literal: DeflateHuffman, distance: DeflateHuffman, writer: BitWriter) {
        table = .allocate(capacity: 286)
        for symbol in 0..<286 {
            table[symbol] = UInt64(literal.codes[symbol]) | UInt64(literal.lengths[symbol]) << 32
        }
        copyTable = .allocate(capacity: DeflateBlock.maximumRun + 1)
        copyTable.initialize(repeating: 0, count: DeflateBlock.maximumRun + 1)
        for length in DeflateBlock.minimumRun...DeflateBlock.maximumRun {
            let symbol = DeflateLengths.symbol(length)
            var bits = UInt64(literal.codes[symbol])
            var count = UInt64(literal.lengths[symbol])
            bits |= UInt64(DeflateLengths.extra(length)) << count
            count += UInt64(DeflateLengths.extraBits(length))
            bits |= UInt64(distance.codes[0]) << count
            count += UInt64(distance.lengths[0])
            copyTable[length] = bits | count << 48
        }
        self.writer = writer
    }

    /// Ends the block and hands the writer back; the tables are released.
    mutating func finish() -> BitWriter {
        let end = table[256]
        writer.write(end & 0xFFFF_FFFF, bits: Int(end >> 32))
        table.deallocate()
        copyTable.deallocate()
        return writer
    }

    @inline(__always)
    mutating func literal(_ byte: UInt8) {
        adler.add(byte)
        let entry = table[Int(byte)]
        writer.write(entry & 0xFFFF_FFFF, bits: Int(entry >> 32))
    }

    /// Four codes a write: four literal codes are at most 56 bits.
    @inline(__always)
    mutating func literals(_ word: UInt64) {
        adler.add(word: word)
        writeFour(UInt32(truncatingIfNeeded: word))
        writeFour(UInt32(truncatingIfNeeded: word >> 32))
    }

    @inline(__always)
    private mutating func writeFour(_ bytes: UInt32) {
        let first = table[Int(bytes & 0xFF)]
        let second = table[Int(bytes >> 8 & 0xFF)]
        let third = table[Int(bytes >> 16 & 0xFF)]
        let fourth = table[Int(bytes >> 24)]
        let firstBits = first >> 32
        let thirdBits = third >> 32
        let low = (first & 0xFFFF_FFFF) | (second & 0xFFFF_FFFF) &<< firstBits
        let high = (third & 0xFFFF_FFFF) | (fourth & 0xFFFF_FFFF) &<< thirdBits
        let lowBits = firstBits &+ second >> 32
        writer.write(low | high &<< lowBits, bits: Int(truncatingIfNeeded: lowBits &+ thirdBits &+ fourth >> 32))
    }

    mutating func zeros(_ count: Int) {
        literal(0)
        adler.add(zeros: count &- 1)
        DeflateBlock.copies(making: count &- 1) { length in
            let entry = copyTable[length]
            writer.write(entry & 0xFFFF_FFFF_FFFF, bits: Int(entry >> 48))
        }
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

    /// The index into `bases` of copy length `length` (3–258).
    private static func base(_ length: Int) -> Int { bases.lastIndex { $0 <= length } ?? 0 }

    /// The length symbol of a copy of `length` bytes.
    static func symbol(_ length: Int) -> Int { 257 + base(length) }
    /// How many extra bits follow the symbol.
    static func extraBits(_ length: Int) -> Int { baseExtraBits[base(length)] }
    /// The value of the extra bits.
    static func extra(_ length: Int) -> Int { length - bases[base(length)] }
}
