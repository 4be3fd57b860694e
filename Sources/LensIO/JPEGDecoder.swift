internal import CJPEG
import Foundation
import LensModel

/// JPEG through libjpeg-turbo: baseline and progressive, grey, RGB and CMYK/YCCK (through the
/// embedded profile, else the naive inverse), the EXIF orientation applied, the ICC profile honoured.
enum JPEGDecoder {
    static func decode(_ data: Data) throws -> RGBA8Image {
        var decoded = liquidlens_jpeg_image()
        let status = data.withUnsafeBytes { bytes in
            liquidlens_jpeg_decode(
                bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count), UInt32(ImageLimits.maxSide),
                UInt64(ImageLimits.maxPixels), &decoded)
        }
        switch status {
        case 1: break
        case 2: throw ImageLimits.tooLarge(width: Int(decoded.width), height: Int(decoded.height))
        default:
            let reason = withUnsafeBytes(of: &decoded.message) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw ImageFileError(description: "corrupt JPEG data (\(reason))")
        }
        defer { liquidlens_jpeg_free(&decoded) }
        let width = Int(decoded.width)
        let height = Int(decoded.height)
        var pixels = [UInt8](UnsafeBufferPointer(start: decoded.pixels, count: width * height * 4))
        let profile = decoded.icc.map { Data(bytes: $0, count: Int(decoded.icc_size)) }
        if decoded.cmyk != 0 {
            if let profile {
                try ColorConversion.convert(&pixels, fromICC: profile, cmykInverted: decoded.inverted != 0)
            } else {
                ColorConversion.naiveCMYK(&pixels, inverted: decoded.inverted != 0)
            }
        } else if let profile {
            try ColorConversion.convert(&pixels, fromICC: profile)
        }
        let image = RGBA8Image(width: width, height: height, pixels: pixels)
        let exif = decoded.exif.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(decoded.exif_size))) }
        return ExifOrientation(exif: exif ?? []).apply(to: image)
    }
}

/// The EXIF orientation tag (0x0112) of a TIFF block, and the turn or flip that shows the image
/// upright.
struct ExifOrientation: Equatable {
    /// 1 upright … 8, as EXIF numbers them; 1 when the block has no valid tag.
    let value: Int

    init(exif bytes: [UInt8]) {
        value = Self.read(bytes) ?? 1
    }

    private static func read(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func integer(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            let field = bytes[offset..<(offset + size)]
            return (little ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let directory = integer(4, 4), let count = integer(directory, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let offset = directory + 2 + entry * 12
            guard let tag = integer(offset, 2) else { return nil }
            if tag == 0x0112, let type = integer(offset + 2, 2), type == 3, let value = integer(offset + 8, 2),
                (1...8).contains(value)
            {
                return value
            }
        }
        return nil
    }

    /// `image` turned and flipped upright.
    func apply(to image: RGBA8Image) -> RGBA8Image {
        guard value != 1 else { return image }
        let swaps = value >= 5
        let width = swaps ? image.height : image.width
        let height = swaps ? image.width : image.height
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                let from = source.bindMemory(to: UInt32.self)
                let to = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width {
                        let (sourceX, sourceY) = sourcePosition(x, y, width: width, height: height)
                        to[y * width + x] = from[sourceY * image.width + sourceX]
                    }
                }
            }
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }

    /// Where upright pixel (x, y) of a `width` × `height` result lies in the stored image.
    private func sourcePosition(_ x: Int, _ y: Int, width: Int, height: Int) -> (Int, Int) {
        switch value {
        case 2: (width - 1 - x, y)
        case 3: (width - 1 - x, height - 1 - y)
        case 4: (x, height - 1 - y)
        case 5: (y, x)
        case 6: (y, width - 1 - x)
        case 7: (height - 1 - y, width - 1 - x)
        case 8: (height - 1 - y, x)
        default: (x, y)
        }
    }
}
