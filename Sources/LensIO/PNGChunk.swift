/// One chunk of a PNG file: its four-letter type, the whole chunk (length to CRC) and its body,
/// as ranges of the file's indices.
struct PNGChunk {
    let type: String
    let whole: Range<Int>
    let body: Range<Int>

    /// The chunks of PNG `file` after its 8-byte signature, in order. A length PNG does not allow
    /// (2³¹ or more) or a chunk that runs past the end stops the walk.
    static func all<File: RandomAccessCollection<UInt8>>(in file: File) -> [PNGChunk] where File.Index == Int {
        var chunks: [PNGChunk] = []
        var offset = file.startIndex + 8
        while offset + 12 <= file.endIndex {
            let length = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length < 1 << 31, start + length + 4 <= file.endIndex else { break }
            chunks.append(PNGChunk(type: type, whole: offset..<(start + length + 4), body: start..<(start + length)))
            offset = start + length + 4
        }
        return chunks
    }
}
