internal import CWebP
import Foundation
import LensModel

/// WebP through libwebp: lossy and lossless, with alpha; an animated file gives its first frame
/// (and says so); an embedded ICC profile is honoured.
enum WebPDecoder {
    static func decode(_ data: Data, notes: inout [String]) throws -> RGBA8Image {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(bytes.baseAddress, bytes.count, &features) == VP8_STATUS_OK else {
                throw ImageFileError(description: "corrupt WebP data (no valid header)")
            }
            let width = Int(features.width)
            let height = Int(features.height)
            guard ImageLimits.allows(width: width, height: height) else {
                throw ImageLimits.tooLarge(width: width, height: height)
            }
            var pixels: [UInt8]
            if features.has_animation != 0 {
                pixels = try firstFrame(bytes, width: width, height: height)
                notes.append("an animated WebP: its first frame is used")
            } else {
                pixels = [UInt8](repeating: 0, count: width * height * 4)
                let decoded = pixels.withUnsafeMutableBufferPointer { target in
                    WebPDecodeRGBAInto(
                        bytes.baseAddress, bytes.count, target.baseAddress, target.count, Int32(width * 4))
                }
                guard decoded != nil else { throw ImageFileError(description: "corrupt WebP data") }
            }
            if let profile = iccProfile(bytes) { try ColorConversion.convert(&pixels, fromICC: profile) }
            return RGBA8Image(width: width, height: height, pixels: pixels)
        }
    }

    private static func firstFrame(_ bytes: UnsafeBufferPointer<UInt8>, width: Int, height: Int) throws -> [UInt8] {
        var webp = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw ImageFileError(description: "libwebp's animation decoder is not the version built against")
        }
        options.color_mode = MODE_RGBA
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            throw ImageFileError(description: "corrupt animated WebP data")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
            throw ImageFileError(description: "corrupt animated WebP data (no first frame)")
        }
        return [UInt8](UnsafeBufferPointer(start: frame, count: width * height * 4))
    }

    private static func iccProfile(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var webp = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        guard let demux = WebPDemux(&webp) else { return nil }
        defer { WebPDemuxDelete(demux) }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return Data(bytes: iterator.chunk.bytes, count: iterator.chunk.size)
    }
}
