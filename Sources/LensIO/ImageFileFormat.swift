import Foundation

/// The image formats LiquidLens reads, recognised by their first bytes, never by the file's
/// extension.
public enum ImageFileFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"
    case heif = "HEIC"
    case avif = "AVIF"
    case svg = "SVG"

    /// The library that reads it, for errors and the README's table.
    public var reader: String {
        switch self {
        case .png: "libpng"
        case .jpeg: "libjpeg-turbo"
        case .webp: "libwebp"
        case .heif, .avif: "libheif"
        case .svg: "librsvg"
        }
    }

    /// The format of `data`, from its signature; nil when it is none of these.
    public static func sniff(_ data: Data) -> ImageFileFormat? {
        let head = [UInt8](data.prefix(512))
        func matches(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<(offset + signature.count)]) == signature
        }
        if matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if matches(Array("RIFF".utf8)) && matches(Array("WEBP".utf8), at: 8) { return .webp }
        if matches(Array("ftyp".utf8), at: 4) { return isobmffFormat(head) }
        return looksLikeSVG(head) ? .svg : nil
    }

    /// HEIF files are ISO base media files whose `ftyp` box names a HEIF or AVIF brand.
    private static func isobmffFormat(_ head: [UInt8]) -> ImageFileFormat? {
        let size = head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let end = min(max(size, 16), head.count)
        var brands: [String] = []
        for offset in stride(from: 8, to: end - 3, by: 4) where offset != 12 {
            brands.append(String(decoding: head[offset..<(offset + 4)], as: UTF8.self))
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        return brands.contains(where: heif.contains) ? .heif : nil
    }

    /// An XML document whose first element is `svg` (after any declaration, comments, a doctype).
    private static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasPrefix("<?") || text.hasPrefix("<!") {
            let hasSubset = text.hasPrefix("<!DOCTYPE") && text.prefix { $0 != ">" }.contains("[")
            let close = text.hasPrefix("<!--") ? "-->" : hasSubset ? "]>" : ">"
            guard let end = text.range(of: close) else { return false }
            text = String(text[end.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text.hasPrefix("<svg") || text.hasPrefix("<svg:svg")
    }
}
