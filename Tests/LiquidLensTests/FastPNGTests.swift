import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// The throughput PNG encoder (`PNGCompression.fast`) writes files that libpng, Python's zlib
/// with Pillow, and ImageMagick all decode to exactly the pixels given.
@Suite("Fast PNG encoder", .serialized)
struct FastPNGTests {
    /// Named test images: the built-in scenes on the CPU reference, noise, flat and striped
    /// images with runs past deflate's longest copy, and edge sizes.
    static func images() throws -> [(String, RGBA8Image)] {
        var generator = SystemRandomNumberGenerator.seeded(28)
        func image(_ width: Int, _ height: Int, _ pixel: (Int, Int, inout SeededGenerator) -> [UInt8]) -> RGBA8Image {
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * 4)
            for y in 0..<height {
                for x in 0..<width { pixels += pixel(x, y, &generator) }
            }
            return RGBA8Image(width: width, height: height, pixels: pixels)
        }
        var named: [(String, RGBA8Image)] = try BuiltInScene.allCases.map { scene in
            (scene.rawValue, try render(try LensRenderer.resolve(scene.scene), on: .cpu))
        }
        named += [
            ("one-pixel", image(1, 1) { _, _, _ in [200, 10, 30, 128] }),
            ("one-column", image(1, 300) { _, y, _ in [UInt8(y & 255), 0, 0, 255] }),
            ("one-row", image(300, 1) { x, _, _ in [0, UInt8(x & 255), 0, 255] }),
            (
                "noise-odd-width",
                image(97, 31) { _, _, random in (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) } }
            ),
            ("flat", image(640, 480) { _, _, _ in [0, 0, 0, 0] }),
            ("stripes", image(333, 77) { x, y, _ in (x / 7 + y) % 3 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255] }),
            ("gradient", image(255, 129) { x, y, _ in [UInt8(x), UInt8(y), UInt8((x + y) & 255), UInt8(255 - x)] }),
            (
                "wide-8192",
                image(8192, 2) { x, y, random in
                    [
                        UInt8(x & 255), UInt8((x >> 5) & 255), UInt8(y * 100),
                        UInt8.random(in: 250...255, using: &random),
                    ]
                }
            ),
        ]
        return named
    }

    @Test("libpng, Python's zlib with Pillow, and ImageMagick decode every fast PNG to exactly its pixels")
    func decodersAgree() throws {
        let convert = try imageMagickConvert()
        let folder = try temporaryFolder("fast-png")
        var files: [String] = []
        for (name, image) in try Self.images() {
            let png = try PNGCodec.encode(image, compression: .fast)
            #expect(try PNGCodec.libpngDecode(png) == image, "libpng: \(name)")
            let file = folder.appendingPathComponent("\(name).png")
            try png.write(to: file)
            try Data(image.pixels).write(to: folder.appendingPathComponent("\(name).rgba"))
            let magick = try runProcess(convert, [file.path, "-depth", "8", "rgba:-"])
            #expect(magick.status == 0, "ImageMagick: \(name): \(magick.stderr)")
            #expect(Array(magick.stdoutBytes) == image.pixels, "ImageMagick: \(name)")
            files.append(file.path)
        }
        let report = try runPython("png_decoders.py", files)
        #expect(report.split(separator: "\n").count == files.count, "\(report)")
    }

    @Test(
        "On the lens-heavy and screen frames fast files are at most 1.3 times libpng's at zlib level 1",
        arguments: [BenchmarkWorkload.lensHeavy, .screen])
    func size(_ workload: BenchmarkWorkload) throws {
        let name = workload.rawValue
        let image = try render(try LensRenderer.resolve(try workload.scene(1, of: 2)), on: .cpu)
        let fast = try PNGCodec.encode(image, compression: .fast).count
        let levelOne = try PNGCodec.zlibEncode(image, level: 1).count
        #expect(Double(fast) <= 1.3 * Double(levelOne), "\(name): fast \(fast) bytes, libpng level 1 \(levelOne)")
    }

    @Test("Deflate's code lengths stay within their limit and form complete prefix codes")
    func huffmanLimits() {
        // Fibonacci frequencies make the deepest unlimited tree.
        var fibonacci = [1, 1]
        while fibonacci.count < 40 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for (frequencies, limit) in [
            (fibonacci, 15), (Array(fibonacci.prefix(19)), 7), ([5, 0], 15), ([0, 0, 3], 15),
        ] {
            let code = DeflateHuffman(frequencies: frequencies, maxLength: limit)
            #expect(code.lengths.allSatisfy { $0 <= limit })
            let kraft = code.lengths.filter { $0 > 0 }.reduce(0.0) { $0 + pow(2, -Double($1)) }
            #expect(kraft == 1, "\(frequencies.count) symbols at most \(limit) bits: Kraft sum \(kraft)")
        }
    }
}
