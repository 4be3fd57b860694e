import Foundation
import LensModel

/// QOI (the "Quite OK Image" format, qoiformat.org): lossless RGBA in one pass of runs, a 64-entry
/// colour cache and small differences; a few times faster than PNG at a somewhat larger size, for
/// interchange between tools that read it.
enum QOIEncoder {
    static func encode(_ image: RGBA8Image) -> Data {
        let pixelCount = image.width * image.height
        // Room for the worst case, every pixel a 5-byte literal, the 14-byte header and the 8-byte
        // end marker; left uninitialised, so only the pages written are ever touched.
        let output = [UInt8](unsafeUninitializedCapacity: 14 + pixelCount * 5 + 8) { buffer, count in
            count = image.pixels.withUnsafeBufferPointer { pixels in
                encode(pixels, width: image.width, height: image.height, into: buffer)
            }
        }
        return Data(output)
    }

    /// The QOI encoder's one pass over the pixels, op by op as the specification lists them; the
    /// bytes written.
    // Over 60 lines on purpose: kept whole to be read against the specification.
    private static func encode(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var position = 0
        func put(_ byte: UInt8) {
            out[position] = byte
            position += 1
        }
        for byte in Array("qoif".utf8) { put(byte) }
        for value in [UInt32(width), UInt32(height)] {
            for shift in stride(from: 24, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        put(4)  // channels: RGBA
        put(0)  // colour space: sRGB with linear alpha
        var cache = [UInt32](repeating: 0, count: 64)
        var previous: UInt32 = 0xFF00_0000  // (0, 0, 0, 255), packed R | G << 8 | B << 16 | A << 24
        var run = 0
        let count = width * height
        for index in 0..<count {
            let r = pixels[index * 4]
            let g = pixels[index * 4 + 1]
            let b = pixels[index * 4 + 2]
            let a = pixels[index * 4 + 3]
            let pixel = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
            if pixel == previous {
                run += 1
                if run == 62 || index == count - 1 {
                    put(0xC0 | UInt8(run - 1))
                    run = 0
                }
                continue
            }
            if run > 0 {
                put(0xC0 | UInt8(run - 1))
                run = 0
            }
            let slot = (Int(r) * 3 + Int(g) * 5 + Int(b) * 7 + Int(a) * 11) % 64
            if cache[slot] == pixel {
                put(UInt8(slot))
            } else {
                cache[slot] = pixel
                if UInt8(truncatingIfNeeded: previous >> 24) == a {
                    let dr = Int8(bitPattern: r &- UInt8(truncatingIfNeeded: previous))
                    let dg = Int8(bitPattern: g &- UInt8(truncatingIfNeeded: previous >> 8))
                    let db = Int8(bitPattern: b &- UInt8(truncatingIfNeeded: previous >> 16))
                    let drg = dr &- dg
                    let dbg = db &- dg
                    if (-2...1).contains(dr) && (-2...1).contains(dg) && (-2...1).contains(db) {
                        put(0x40 | UInt8(dr + 2) << 4 | UInt8(dg + 2) << 2 | UInt8(db + 2))
                    } else if (-32...31).contains(dg) && (-8...7).contains(drg) && (-8...7).contains(dbg) {
                        put(0x80 | UInt8(dg + 32))
                        put(UInt8(drg + 8) << 4 | UInt8(dbg + 8))
                    } else {
                        put(0xFE)
                        put(r)
                        put(g)
                        put(b)
                    }
                } else {
                    put(0xFF)
                    put(r)
                    put(g)
                    put(b)
                    put(a)
                }
            }
            previous = pixel
        }
        for _ in 0..<7 { put(0) }
        put(1)
        return position
    }
}
