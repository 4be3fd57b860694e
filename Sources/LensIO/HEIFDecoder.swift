internal import CHeif
import Foundation
import LensModel

/// HEIC and AVIF through libheif: the primary image, turned and mirrored as the file says, its
/// ICC profile or `nclx` colour description honoured.
enum HEIFDecoder {
    static func decode(_ data: Data) throws -> RGBA8Image {
        guard let context = heif_context_alloc() else { throw ImageFileError(description: "libheif is out of memory") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(ImageLimits.maxSide))
        try HEIFReferences(data).checkAcyclic()
        return try data.withUnsafeBytes { bytes in
            try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw ImageFileError(description: "corrupt HEIF data (no primary image)") }
            defer { heif_image_handle_release(handle) }
            let width = Int(heif_image_handle_get_width(handle))
            let height = Int(heif_image_handle_get_height(handle))
            guard ImageLimits.allows(width: width, height: height) else {
                throw ImageLimits.tooLarge(width: width, height: height)
            }
            var image: OpaquePointer?
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil))
            guard let image else { throw ImageFileError(description: "corrupt HEIF data (nothing decoded)") }
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                throw ImageFileError(description: "corrupt HEIF data (no pixels)")
            }
            // Decoded with the file's rotation and mirroring, so the plane's size is the one to use.
            let planeWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
            let planeHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
            var pixels = [UInt8](repeating: 0, count: planeWidth * planeHeight * 4)
            for row in 0..<planeHeight {
                let source = plane + row * Int(stride)
                pixels.withUnsafeMutableBufferPointer { target in
                    (target.baseAddress! + row * planeWidth * 4).update(from: source, count: planeWidth * 4)
                }
            }
            try convertToSRGB(&pixels, handle)
            return RGBA8Image(width: planeWidth, height: planeHeight, pixels: pixels)
        }
    }

    private static func convertToSRGB(_ pixels: inout [UInt8], _ handle: OpaquePointer) throws {
        switch heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            var profile = [UInt8](repeating: 0, count: heif_image_handle_get_raw_color_profile_size(handle))
            try check(heif_image_handle_get_raw_color_profile(handle, &profile))
            try ColorConversion.convert(&pixels, fromICC: Data(profile))
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let error = heif_image_handle_get_nclx_color_profile(handle, &nclx)
            // libheif 1.15 can hand back a profile with an error (found by the avif fuzzer): free it either way.
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            try check(error)
            guard let nclx else { return }
            let primaries = Int(nclx.pointee.color_primaries.rawValue)
            let transfer = Int(nclx.pointee.transfer_characteristics.rawValue)
            try ColorConversion.convert(
                &pixels,
                from: .init(primaries: primaries == 2 ? 1 : primaries, transfer: transfer == 2 ? 13 : transfer))
        default:
            break
        }
    }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw ImageFileError(description: "corrupt HEIF data (\(ImageFileError.oneLine(message)))")
    }
}

/// The item references (`meta`/`iref`) of a HEIF file: libheif 1.15 follows a cycle in them, an
/// image derived from itself, until the process dies (found by fuzzing), so a cycle is refused
/// before libheif reads the file. Anything it cannot parse is left to libheif to report.
package struct HEIFReferences {
    private(set) var references: [Int: [Int]] = [:]

    /// The references `data`'s `meta`/`iref` box holds (none when it has no such box).
    package init(_ data: Data) {
        let bytes = [UInt8](data)
        guard let meta = Self.child("meta", in: bytes, 0..<bytes.count), meta.count >= 4,
            let iref = Self.child("iref", in: bytes, (meta.lowerBound + 4)..<meta.upperBound),
            iref.lowerBound + 4 <= iref.upperBound
        else { return }
        let width = bytes[iref.lowerBound] == 0 ? 2 : 4
        var offset = iref.lowerBound + 4
        while let (size, _, header) = Self.box(at: offset, in: bytes, end: iref.upperBound) {
            var field = offset + header
            func integer(_ count: Int) -> Int? {
                guard field + count <= offset + size else { return nil }
                defer { field += count }
                return bytes[field..<(field + count)].reduce(0) { $0 << 8 | Int($1) }
            }
            if let from = integer(width), let count = integer(2) {
                references[from, default: []] += (0..<count).compactMap { _ in integer(width) }
            }
            offset += size
        }
    }

    /// Throws when an item reaches itself through its references.
    package func checkAcyclic() throws {
        var finished: Set<Int> = []
        var path: [Int] = []
        func visit(_ item: Int) throws {
            if let start = path.firstIndex(of: item) {
                let cycle = (path[start...] + [item]).map(String.init).joined(separator: " → ")
                throw ImageFileError(description: "corrupt HEIF data (its item references form a cycle: \(cycle))")
            }
            guard !finished.contains(item) else { return }
            path.append(item)
            for next in references[item] ?? [] { try visit(next) }
            path.removeLast()
            finished.insert(item)
        }
        for item in references.keys.sorted() { try visit(item) }
    }

    /// The body of the first `type` box among the boxes in `range`.
    private static func child(_ type: String, in bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var offset = range.lowerBound
        while let (size, name, header) = box(at: offset, in: bytes, end: range.upperBound) {
            if name == type { return (offset + header)..<(offset + size) }
            offset += size
        }
        return nil
    }

    /// The box at `offset`: its whole size (at most to `end`), type and header length; nil past
    /// `end` or when malformed.
    private static func box(at offset: Int, in bytes: [UInt8], end: Int) -> (Int, String, Int)? {
        guard offset + 8 <= end else { return nil }
        var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let name = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        var header = 8
        if size == 1 {
            guard offset + 16 <= end else { return nil }
            size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 &<< 8 | Int($1) }
            header = 16
        } else if size == 0 {
            size = end - offset
        }
        guard size >= header else { return nil }
        // A box claiming more than its parent holds is cut to the parent, as libheif reads it.
        return (min(size, end - offset), name, header)
    }
}
