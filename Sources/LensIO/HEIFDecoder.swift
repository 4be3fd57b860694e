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
            try check(heif_image_handle_get_nclx_color_profile(handle, &nclx))
            guard let nclx else { return }
            defer { heif_nclx_color_profile_free(nclx) }
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
