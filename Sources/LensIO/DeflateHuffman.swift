/// Canonical Huffman codes as deflate (RFC 1951) wants them: code lengths limited to a maximum,
/// codes assigned in order of length then symbol, and the bits stored reversed, since deflate
/// writes a code's first bit into the lowest bit of the stream.
struct DeflateHuffman {
    /// Each symbol's code length in bits; 0 for a symbol that never occurs.
    let lengths: [UInt8]
    /// Each symbol's code, bit-reversed for writing least significant bit first.
    let codes: [UInt16]

    /// Codes for symbols with the given frequencies (of an alphabet of two symbols or more), no
    /// longer than `maxLength` bits. At least two symbols get a code (one of them with frequency 0
    /// when fewer occur), as every decoder accepts.
    init(frequencies: [Int], maxLength: Int) {
        precondition(frequencies.count >= 2, "a deflate alphabet has two symbols or more")
        var lengths = Self.lengths(frequencies, maxLength: maxLength)
        let used = frequencies.indices.filter { frequencies[$0] > 0 }
        if used.count < 2 {
            // A lone symbol (or none) still gets a complete one-bit code, paired with another.
            let pair = used.isEmpty ? [0, 1] : [used[0], used[0] == 0 ? 1 : 0]
            for symbol in pair { lengths[symbol] = 1 }
        }
        self.lengths = lengths
        codes = Self.canonicalCodes(lengths)
    }

    /// Huffman code lengths for `frequencies`, limited to `maxLength`: while the tree is too deep,
    /// the frequencies are halved (never below 1 for a symbol that occurs) and the tree rebuilt,
    /// which flattens it a little each time at a small cost in size.
    static func lengths(_ frequencies: [Int], maxLength: Int) -> [UInt8] {
        var weights = frequencies
        while true {
            let lengths = unlimitedLengths(weights)
            if lengths.max() ?? 0 <= maxLength { return lengths.map { UInt8($0) } }
            weights = weights.map { $0 == 0 ? 0 : max(1, $0 / 2) }
        }
    }

    /// Code lengths of the plain Huffman tree of the nonzero `weights` (two lowest merged first).
    private static func unlimitedLengths(_ weights: [Int]) -> [Int] {
        var lengths = [Int](repeating: 0, count: weights.count)
        let symbols = weights.indices.filter { weights[$0] > 0 }.sorted { (weights[$0], $0) < (weights[$1], $1) }
        guard symbols.count > 1 else { return lengths }
        // Two queues (leaves by weight, merged nodes in the order made) give the tree without a heap.
        var parent = [Int](repeating: -1, count: 2 * symbols.count)
        var nodeWeight = symbols.map { weights[$0] } + [Int](repeating: 0, count: symbols.count)
        var nextLeaf = 0
        var nextMerged = symbols.count
        var made = symbols.count
        func takeLowest() -> Int {
            if nextLeaf < symbols.count && (nextMerged == made || nodeWeight[nextLeaf] <= nodeWeight[nextMerged]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextMerged += 1
            return nextMerged - 1
        }
        while made < 2 * symbols.count - 1 {
            let first = takeLowest()
            let second = takeLowest()
            nodeWeight[made] = nodeWeight[first] + nodeWeight[second]
            parent[first] = made
            parent[second] = made
            made += 1
        }
        var depth = [Int](repeating: 0, count: made)
        for node in stride(from: made - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        for (leaf, symbol) in symbols.enumerated() { lengths[symbol] = depth[leaf] }
        return lengths
    }

    /// Deflate's canonical codes for `lengths` (RFC 1951 3.2.2), each bit-reversed.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        let maxLength = Int(lengths.max() ?? 0)
        var countOfLength = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { countOfLength[Int(length)] += 1 }
        var nextCode = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for bits in stride(from: 1, through: maxLength, by: 1) {
            code = (code + countOfLength[bits - 1]) << 1
            nextCode[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let assigned = nextCode[Int(length)]
            nextCode[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where assigned & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            return UInt16(reversed)
        }
    }
}

/// Writes bits least significant first into a buffer sized by the caller, as deflate packs them:
/// every write stores the whole 64-bit accumulator and moves on by the bytes it completed, so
/// there is no branch on how full it is.
struct BitWriter {
    private let output: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    private var accumulator: UInt64 = 0
    /// Bits in the accumulator not yet counted in `count`: fewer than 8 between writes.
    private var pending: UInt64 = 0

    /// A writer into `capacity` bytes at `output`; the last 8 of them only ever take the spill
    /// of a store, never output.
    init(into output: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.output = output
        self.capacity = capacity - 8
    }

    /// Appends the low `bits` bits of `value` (at most 56 at a time; nothing above them set).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        assert(bits <= 56 && value >> UInt64(bits) == 0, "a write of more than its bits")
        assert(count < capacity, "deflate output over its bound")
        accumulator |= value &<< pending
        pending &+= UInt64(truncatingIfNeeded: bits)
        UnsafeMutableRawPointer(output + count).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
        count &+= Int(truncatingIfNeeded: pending &>> 3)
        accumulator = accumulator &>> (pending & ~7)
        pending &= 7
    }

    /// Writes what is pending, padded with zero bits to a whole byte.
    mutating func flush() {
        guard pending > 0 else { return }
        precondition(count < capacity, "deflate output over its bound")
        output[count] = UInt8(truncatingIfNeeded: accumulator)
        count += 1
        accumulator = 0
        pending = 0
    }
}
