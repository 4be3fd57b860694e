internal import CJPEG
internal import CWebP
import Foundation
import LensModel

/// JPEG through libjpeg-turbo, for previews and thumbnails: baseline, 4:2:0 chroma, the alpha
/// dropped (JPEG has none).
enum JPEGEncoder {
    static func encode(_ image: RGBA8Image, quality: Int) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let encoded = image.pixels.withUnsafeBufferPointer { pixels in
            liquidlens_jpeg_encode(
                pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality), &bytes, &size, &message)
        }
        guard encoded == 1, let bytes else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageFileError(description: "JPEG encoding failed (\(reason))")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }
}

/// Lossy WebP through libwebp, alpha kept.
enum WebPEncoder {
    static func encode(_ image: RGBA8Image, quality: Int) throws -> Data {
        guard image.width <= Int(WEBP_MAX_DIMENSION), image.height <= Int(WEBP_MAX_DIMENSION) else {
            throw ImageFileError(
                description: "WebP holds at most \(WEBP_MAX_DIMENSION) px a side, not \(image.width)×\(image.height)")
        }
        var bytes: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer { pixels in
            WebPEncodeRGBA(
                pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4), Float(quality),
                &bytes)
        }
        guard size > 0, let bytes else {
            throw ImageFileError(description: "WebP encoding failed (libwebp refused the image or ran out of memory)")
        }
        defer { WebPFree(bytes) }
        return Data(bytes: bytes, count: size)
    }
}
