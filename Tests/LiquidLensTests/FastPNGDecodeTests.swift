import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// The throughput PNG read (`FastPNGDecoder`, libdeflate and our row filters) gives libpng's
/// pixels wherever it reads a file, and leaves every other file to libpng.
@Suite("Fast PNG decoder")
struct FastPNGDecodeTests {
    @Test(
        "Hand-made files with every row filter, RGB and RGBA, split image data and sRGB chunks read as libpng reads them"
    )
    func filterCases() throws {
        let folder = try temporaryFolder("fast-png-decode")
        let cases = try runPython("png_filter_cases.py", [folder.path]).split(separator: "\n")
        #expect(cases.count > 40, "\(cases)")
        for line in cases {
            let fields = line.split(separator: " ").map(String.init)
            let (name, width, height, kind) = (fields[0], Int(fields[1])!, Int(fields[2])!, fields[3])
            let data = try Data(contentsOf: folder.appendingPathComponent("\(name).png"))
            if kind == "fast" {
                let pixels = try [UInt8](Data(contentsOf: folder.appendingPathComponent("\(name).rgba")))
                let fast = try #require(FastPNGDecoder.decode(data), "\(name): left to libpng")
                let matchesPixels = fast == RGBA8Image(width: width, height: height, pixels: pixels)
                let matchesLibpng = try PNGCodec.libpngDecode(data) == fast
                #expect(matchesPixels, "\(name): other pixels than the file holds")
                #expect(matchesLibpng, "\(name): other pixels than libpng reads")
            } else {
                #expect(FastPNGDecoder.decode(data) == nil, "\(name): read without libpng")
            }
        }
    }

    @Test("Files from our encoders, fast and zlib (every filter tried per row), read as libpng reads them")
    func encoderFiles() throws {
        for (name, image) in try FastPNGTests.images() {
            for compression in [PNGCompression.fast, .default] {
                let png = try PNGCodec.encode(image, compression: compression)
                let fast = try #require(FastPNGDecoder.decode(png), "\(name) (\(compression)): left to libpng")
                let matchesPixels = fast == image
                let matchesLibpng = try PNGCodec.libpngDecode(png) == fast
                #expect(matchesPixels, "\(name) (\(compression)): other pixels than encoded")
                #expect(matchesLibpng, "\(name) (\(compression)): other pixels than libpng reads")
            }
        }
    }

    @Test("Interlaced, palette and grey files are left to libpng")
    func otherFormats() throws {
        let convert = try imageMagickConvert()
        let folder = try temporaryFolder("fast-png-formats")
        let source = folder.appendingPathComponent("source.png")
        try PNGCodec.encode(try FastPNGTests.images().first { $0.0 == "gradient" }!.1).write(to: source)
        let variants = [
            "interlaced": ["-interlace", "PNG"], "palette": ["-colors", "16", "-type", "Palette"],
            "grey": ["-colorspace", "Gray", "-type", "Grayscale"],
        ]
        for (name, options) in variants {
            let file = folder.appendingPathComponent("\(name).png")
            let result = try runProcess(convert, [source.path] + options + [file.path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let data = try Data(contentsOf: file)
            #expect(FastPNGDecoder.decode(data) == nil, "\(name): read without libpng")
            let same = try PNGCodec.decode(data) == PNGCodec.libpngDecode(data)
            #expect(same, "\(name): other pixels than libpng reads")
        }
    }
}
