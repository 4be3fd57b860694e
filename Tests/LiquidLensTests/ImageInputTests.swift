import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// Users' own pictures: every format read by content, converted to sRGB, decoded once, usable as
/// a backdrop, a label mask and an icon on both backends; hostile files refused with a one-line
/// error. Fixtures are made from one pattern by the formats' own command-line encoders (ImageMagick,
/// cwebp, img2webp, heif-enc, rsvg-convert) and checked with lcms2's `transicc`.
@Suite("Image inputs: JPEG, WebP, HEIC, AVIF, SVG, colour profiles, the image cache, --backdrop")
struct ImageInputTests {
    /// A file of each kind, all named `.png` (the extension must not matter), and how close its
    /// pixels must be to the pattern (mean absolute error per channel, levels).
    enum Fixture: String, CaseIterable, CustomTestStringConvertible {
        case png, jpeg, progressiveJPEG, cmykJPEG, lossyWebP, losslessWebP, heic, avif, svg

        var testDescription: String { rawValue }

        var format: ImageFileFormat {
            switch self {
            case .png: .png
            case .jpeg, .progressiveJPEG, .cmykJPEG: .jpeg
            case .lossyWebP, .losslessWebP: .webp
            case .heic: .heif
            case .avif: .avif
            case .svg: .svg
            }
        }

        var tolerance: Double {
            switch self {
            case .png, .losslessWebP, .svg: 0
            case .jpeg, .progressiveJPEG: 2.5
            // 4:2:0 chroma across the pattern's hard block edges.
            case .lossyWebP: 3
            case .cmykJPEG, .heic, .avif: 4
            }
        }

        /// Writes the fixture into `folder` as `<name>.png`, from `pattern.png` there.
        func make(in folder: URL) throws -> URL {
            let source = folder.appendingPathComponent("pattern.png").path
            let output = folder.appendingPathComponent("\(rawValue).png")
            switch self {
            case .png: try FileManager.default.copyItem(atPath: source, toPath: output.path)
            case .jpeg: try tool("convert", source, "-quality", "97", "jpeg:\(output.path)")
            case .progressiveJPEG:
                try tool("convert", source, "-quality", "97", "-interlace", "JPEG", "jpeg:\(output.path)")
            case .cmykJPEG: try tool("convert", source, "-colorspace", "CMYK", "-quality", "97", "jpeg:\(output.path)")
            case .lossyWebP: try tool("cwebp", "-quiet", "-q", "97", "-sharp_yuv", source, "-o", output.path)
            case .losslessWebP: try tool("cwebp", "-quiet", "-lossless", "-exact", source, "-o", output.path)
            case .heic: try tool("heif-enc", "-q", "95", "-o", output.path, source)
            case .avif: try tool("heif-enc", "-A", "-q", "95", "-o", output.path, source)
            case .svg: try Data(ImageInputTests.patternSVG.utf8).write(to: output)
            }
            return output
        }

        /// What the fixture should look like: the pattern (opaque for formats without alpha here).
        func expected(in folder: URL) throws -> RGBA8Image {
            if self == .svg {
                let reference = folder.appendingPathComponent("svg-reference.png").path
                try tool(
                    "rsvg-convert", "--zoom", "2", folder.appendingPathComponent("svg.png").path, "-o", reference)
                return try PNGCodec.read(contentsOf: URL(fileURLWithPath: reference))
            }
            return ImageInputTests.pattern
        }
    }

    /// 96 × 64 px of smooth gradients and flat blocks, opaque (JPEG keeps no alpha).
    static let pattern: RGBA8Image = {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<96 {
                let block = (x / 24 + y / 16) % 2 == 0
                pixels += [
                    UInt8(40 + x * 2), UInt8(200 - y * 2), block ? 210 : 60, 255,
                ]
            }
        }
        return RGBA8Image(width: 96, height: 64, pixels: pixels)
    }()

    /// 48 × 32 points: at scale 2, the pattern's size.
    static let patternSVG = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="48" height="32" viewBox="0 0 48 32">
          <rect width="48" height="32" fill="#3a6ea5"/>
          <circle cx="24" cy="16" r="11" fill="#ffc300" fill-opacity="0.8"/>
          <path d="M2 30 L46 2" stroke="#ffffff" stroke-width="2"/>
        </svg>
        """

    /// A folder with the pattern and every fixture in it, a copy for each test, made once.
    static func fixtures() throws -> URL {
        let shared = try madeFixtures.get()
        let folder = try temporaryFolder("image-inputs")
        for name in try FileManager.default.contentsOfDirectory(atPath: shared.path) {
            try FileManager.default.copyItem(
                at: shared.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    private static let madeFixtures = Result<URL, any Error> {
        let folder = try temporaryFolder("image-fixtures")
        try PNGCodec.write(pattern, to: folder.appendingPathComponent("pattern.png"))
        for fixture in Fixture.allCases { _ = try fixture.make(in: folder) }
        _ = try Fixture.svg.expected(in: folder)
        return folder
    }

    @Test(
        "Each format is read by its content (named .png), its pixels those the encoder was given",
        arguments: Fixture.allCases)
    func decodes(_ fixture: Fixture) throws {
        let folder = try Self.fixtures()
        let decoded = try ImageReader.read(
            contentsOf: folder.appendingPathComponent("\(fixture.rawValue).png"), scale: 2)
        #expect(decoded.format == fixture.format)
        let expected = try fixture.expected(in: folder)
        #expect(decoded.image.width == expected.width && decoded.image.height == expected.height)
        let error = meanAbsoluteError(decoded.image, expected)
        #expect(error <= fixture.tolerance, "mean error \(error) levels")
    }

    @Test(
        "Each format is a backdrop, a label mask and an icon, with the same pixels on both backends",
        arguments: Fixture.allCases)
    func rendersOnBothBackends(_ fixture: Fixture) throws {
        let folder = try Self.fixtures()
        let name = "\(fixture.rawValue).png"
        let images = ImageCache()
        for json in [
            """
            {"canvas": {"width": 200, "height": 120, "scale": 2},
             "background": [{"type": "image", "path": "\(name)"}],
             "label": {"mask": "\(name)", "origin": [10, 10], "scale": 2, "accent": "#007aff"},
             "glass": [{"shape": "capsule", "frame": {"x": 20, "y": 14, "width": 110, "height": 40}}]}
            """,
            """
            {"canvas": {"width": 200, "height": 80, "scale": 2},
             "background": [{"type": "image", "path": "\(name)"}],
             "controls": [{"type": "tabBar", "center": [100, 40], "width": 190, "height": 52,
               "items": [{"title": "One", "icon": "\(name)"}, {"title": "Two", "icon": "\(name)"}],
               "lensPosition": 0}]}
            """,
        ] {
            let parameters = try LensRenderer.resolve(
                try Scene.decode(Data(json.utf8)), baseDirectory: folder, images: images)
            let cpu = try render(parameters, on: .cpu)
            let gpu = try render(parameters, on: .vulkan)
            #expect(
                cpu.pixels == gpu.pixels,
                "\(writeFailureImages(name: "image-\(fixture.rawValue)", actual: gpu, expected: cpu))")
        }
    }

    @Test("EXIF orientations 2…8 turn and mirror the stored pixels upright")
    func exifOrientation() throws {
        // 3 × 2 stored, pixel value = its index.
        let stored = RGBA8Image(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })
        let upright: [Int: (Int, Int, [UInt8])] = [
            1: (3, 2, [0, 1, 2, 3, 4, 5]), 2: (3, 2, [2, 1, 0, 5, 4, 3]), 3: (3, 2, [5, 4, 3, 2, 1, 0]),
            4: (3, 2, [3, 4, 5, 0, 1, 2]), 5: (2, 3, [0, 3, 1, 4, 2, 5]), 6: (2, 3, [3, 0, 4, 1, 5, 2]),
            7: (2, 3, [5, 2, 4, 1, 3, 0]), 8: (2, 3, [2, 5, 1, 4, 0, 3]),
        ]
        for (value, (width, height, order)) in upright.sorted(by: { $0.key < $1.key }) {
            let turned = ExifOrientation(exif: Self.exif(orientation: value, bigEndian: value.isMultiple(of: 2)))
            #expect(turned.value == value)
            let image = turned.apply(to: stored)
            #expect(image.width == width && image.height == height, "orientation \(value)")
            #expect(
                stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] } == order, "orientation \(value)"
            )
        }
        #expect(ExifOrientation(exif: Array("not tiff".utf8)).value == 1)
    }

    @Test("A JPEG whose EXIF says 'turn 90° clockwise' is read upright")
    func jpegOrientation() throws {
        let folder = try Self.fixtures()
        var jpeg = [UInt8](try Data(contentsOf: folder.appendingPathComponent("jpeg.png")))
        let block = Array("Exif".utf8) + [0, 0] + Self.exif(orientation: 6, bigEndian: true)
        let length = block.count + 2
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + block, at: 2)
        let image = try ImageReader.decode(Data(jpeg)).image
        #expect(image.width == 64 && image.height == 96)
        // The stored top-left corner is now the top-right one.
        let corner = Array(image.pixels[(63 * 4)..<(63 * 4 + 3)])
        #expect(zip(corner, Self.pattern.pixels[0..<3]).allSatisfy { abs(Int($0) - Int($1)) <= 6 }, "\(corner)")
    }

    @Test("An animated WebP gives its first frame, and says so")
    func animatedWebP() throws {
        let folder = try temporaryFolder("animated-webp")
        let first = folder.appendingPathComponent("first.png")
        let second = folder.appendingPathComponent("second.png")
        try PNGCodec.write(Self.pattern, to: first)
        try PNGCodec.write(
            RGBA8Image(width: 96, height: 64, pixels: [UInt8](repeating: 255, count: 96 * 64 * 4)), to: second)
        let animation = folder.appendingPathComponent("moving.webp")
        try tool("img2webp", "-lossless", first.path, second.path, "-o", animation.path)
        let cache = ImageCache()
        let notes = NoteLog()
        cache.onNote = { notes.append($0) }
        let image = try cache.image(at: animation)
        #expect(image.pixels == Self.pattern.pixels)
        #expect(notes.lines == ["\(animation.path): an animated WebP: its first frame is used"])
    }

    @Test(
        "A Display P3 image (iCCP profile, or cICP codes) is converted to sRGB: as transicc does, and as computed by hand"
    )
    func displayP3() throws {
        let folder = try temporaryFolder("display-p3")
        // A 5 × 5 × 5 cube of colours, its saturated corners outside sRGB (clipped).
        let levels: [UInt8] = [0, 64, 128, 192, 255]
        let samples = levels.flatMap { red in levels.flatMap { green in levels.map { blue in [red, green, blue] } } }
        let image = RGBA8Image(width: samples.count, height: 1, pixels: samples.flatMap { $0 + [255] })
        let plain = folder.appendingPathComponent("plain.png")
        try PNGCodec.write(image, to: plain)
        let profile = folder.appendingPathComponent("display-p3.icc")
        try ColorConversion.iccProfile(.init(primaries: 12, transfer: 13)).write(to: profile)
        let tagged = folder.appendingPathComponent("p3.png")
        try tool("convert", plain.path, "+profile", "*", "-profile", profile.path, tagged.path)
        let withCICP = folder.appendingPathComponent("cicp.png")
        try Self.insertChunk("cICP", [12, 13, 0, 1], into: plain, writing: withCICP)

        let byTransicc = try transicc(samples, profile: profile.path)
        for file in [tagged, withCICP] {
            let converted = try ImageReader.read(contentsOf: file).image
            for (index, sample) in samples.enumerated() {
                let ours = Array(converted.pixels[(index * 4)..<(index * 4 + 3)])
                let theirs = byTransicc[index]
                let byHand = Self.displayP3ToSRGB(sample)
                #expect(
                    zip(ours, theirs).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                    "\(file.lastPathComponent) \(sample): \(ours) vs transicc \(theirs)")
                #expect(
                    zip(ours, byHand).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                    "\(file.lastPathComponent) \(sample): \(ours) vs by hand \(byHand)")
            }
        }
        // Untagged is sRGB: untouched.
        #expect(try ImageReader.read(contentsOf: plain).image.pixels == image.pixels)
    }

    @Test(
        "Grey (gamma 2.2) and Adobe RGB profiles are converted to sRGB as transicc does and as computed by hand; gAMA beside a profile is ignored, alone it is applied"
    )
    func greyAndAdobeRGB() throws {
        let folder = try temporaryFolder("grey-adobe")
        // Profiles made by lcms2 itself (through ctypes), as an editor would embed them.
        let grey = folder.appendingPathComponent("grey-22.icc")
        let adobe = folder.appendingPathComponent("adobe-rgb.icc")
        try tool("python3", "-c", Self.profileMaker, grey.path, adobe.path)

        let levels: [UInt8] = [0, 1, 16, 50, 100, 128, 180, 230, 255]
        let greyPlain = folder.appendingPathComponent("grey-plain.png")
        try tool("python3", "-c", Self.greyPNGMaker, greyPlain.path, levels.map(String.init).joined(separator: ","))
        let greyTagged = folder.appendingPathComponent("grey-tagged.png")
        try Self.insertChunk(
            "iCCP",
            Array("grey".utf8) + [0, 0]
                + [UInt8](
                    try tool(
                        "python3", "-c",
                        "import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))",
                        stdin: Data(contentsOf: grey))), into: greyPlain,
            writing: greyTagged)
        let greyRead = try ImageReader.read(contentsOf: greyTagged).image
        let greyByTransicc = try transicc(levels.map { [$0] }, profile: grey.path)
        for (index, level) in levels.enumerated() {
            let ours = Array(greyRead.pixels[(index * 4)..<(index * 4 + 3)])
            let byHand = Self.encodeSRGB(pow(Double(level) / 255, 2.2))
            #expect(ours.allSatisfy { abs(Int($0) - Int(byHand)) <= 1 }, "grey \(level): \(ours) vs by hand \(byHand)")
            #expect(
                zip(ours, greyByTransicc[index]).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                "grey \(level): \(ours) vs transicc \(greyByTransicc[index])")
        }

        let samples = [
            [0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 64, 32], [40, 200, 120],
        ]
        .map { $0.map(UInt8.init) }
        let plain = folder.appendingPathComponent("rgb-plain.png")
        try PNGCodec.write(
            RGBA8Image(width: samples.count, height: 1, pixels: samples.flatMap { $0 + [255] }), to: plain)
        let adobeTagged = folder.appendingPathComponent("adobe.png")
        try tool("convert", plain.path, "+profile", "*", "-profile", adobe.path, adobeTagged.path)
        let adobeRead = try ImageReader.read(contentsOf: adobeTagged).image
        let adobeByTransicc = try transicc(samples, profile: adobe.path)
        for (index, sample) in samples.enumerated() {
            let ours = Array(adobeRead.pixels[(index * 4)..<(index * 4 + 3)])
            for (theirs, who) in [(adobeByTransicc[index], "transicc"), (Self.adobeRGBToSRGB(sample), "by hand")] {
                #expect(
                    zip(ours, theirs).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                    "Adobe RGB \(sample): \(ours) vs \(who) \(theirs)")
            }
        }

        // A gAMA of 1.0 beside the profile changes nothing: the profile says the transfer.
        let gamma = [UInt8]([0, 1, 0x86, 0xA0])
        let adobeWithGamma = folder.appendingPathComponent("adobe-gama.png")
        try Self.insertChunk("gAMA", gamma, into: adobeTagged, writing: adobeWithGamma)
        #expect(try ImageReader.read(contentsOf: adobeWithGamma).image == adobeRead)
        // Alone, it is applied: libpng re-encodes the linear code 128 for its 8-bit sRGB, a 2.2 power.
        let greyWithGamma = folder.appendingPathComponent("grey-gama.png")
        try Self.insertChunk("gAMA", gamma, into: greyPlain, writing: greyWithGamma)
        #expect(
            try ImageReader.read(contentsOf: greyWithGamma).image.pixels[5 * 4]
                == UInt8(
                    (255 * pow(128.0 / 255, 1 / 2.2)).rounded()))
    }

    /// Writes a grey gamma 2.2 profile (D50) and an Adobe RGB (1998) profile (D65, 563/256) with
    /// lcms2 through ctypes: argv[1], argv[2].
    static let profileMaker = """
        import ctypes, sys
        lcms = ctypes.CDLL("liblcms2.so.2")
        class xyY(ctypes.Structure): _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]
        lcms.cmsBuildGamma.restype = ctypes.c_void_p
        lcms.cmsBuildGamma.argtypes = [ctypes.c_void_p, ctypes.c_double]
        lcms.cmsD50_xyY.restype = ctypes.c_void_p
        for name in ("cmsCreateGrayProfile", "cmsCreateRGBProfile"): getattr(lcms, name).restype = ctypes.c_void_p
        lcms.cmsCreateGrayProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lcms.cmsCreateRGBProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        grey = lcms.cmsCreateGrayProfile(lcms.cmsD50_xyY(), lcms.cmsBuildGamma(None, 2.2))
        assert lcms.cmsSaveProfileToFile(grey, sys.argv[1].encode())
        curve = lcms.cmsBuildGamma(None, 563 / 256)
        primaries = (xyY * 3)(xyY(0.64, 0.33, 1), xyY(0.21, 0.71, 1), xyY(0.15, 0.06, 1))
        adobe = lcms.cmsCreateRGBProfile(ctypes.byref(xyY(0.3127, 0.3290, 1)), primaries, (ctypes.c_void_p * 3)(curve, curve, curve))
        assert lcms.cmsSaveProfileToFile(adobe, sys.argv[2].encode())
        """

    /// Writes an 8-bit greyscale PNG (colour type 0), one row of the comma-separated levels: argv[1], argv[2].
    static let greyPNGMaker = """
        import struct, sys, zlib
        levels = bytes(int(v) for v in sys.argv[2].split(","))
        def chunk(kind, body): return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", len(levels), 1, 8, 0, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(b"\\x00" + levels)) + chunk(b"IEND", b"")
        open(sys.argv[1], "wb").write(png)
        """

    @Test("Images are decoded once: again after the file changes, and the least recently used go past the limit")
    func cache() throws {
        let folder = try Self.fixtures()
        let cache = ImageCache()
        let jpeg = folder.appendingPathComponent("jpeg.png")
        let scene = try Scene.decode(
            Data(
                ##"{"canvas": {"width": 48, "height": 32, "scale": 2}, "background": [{"type": "image", "path": "jpeg.png"}, {"type": "fill", "shape": "circle", "frame": {"x": 4, "y": 4, "width": 20, "height": 20}, "color": "#ff0000", "opacity": 0.5}]}"##
                    .utf8))
        for opacity in [0.2, 0.5, 0.8] {
            var frame = scene
            frame.background[1].opacity = opacity
            _ = try LensRenderer.resolve(frame, baseDirectory: folder, images: cache)
        }
        #expect(cache.readCount == 1, "three frames, one decode")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: jpeg.path)
        _ = try cache.image(at: jpeg)
        #expect(cache.readCount == 2, "a changed file is read again")
        _ = try cache.image(at: jpeg, scale: 3)
        #expect(cache.readCount == 2, "a raster image is the same at any scale")
        let svg = folder.appendingPathComponent("svg.png")
        let atTwo = try cache.image(at: svg, scale: 2)
        let atThree = try cache.image(at: svg, scale: 3)
        _ = try cache.image(at: svg, scale: 2)
        #expect(cache.readCount == 4 && atThree.width > atTwo.width, "an SVG is rasterised once per scale")

        let twoImages = ImageCache(byteLimit: 2 * 96 * 64 * 4)
        let reads = ["png", "heic", "png", "lossyWebP", "png", "heic"].map { name in
            _ = try? twoImages.image(at: folder.appendingPathComponent("\(name).png"))
            return twoImages.readCount
        }
        #expect(reads == [1, 2, 2, 3, 3, 4], "two fit; the least recently used (heic) goes when the third comes")
    }

    @Test("render --backdrop lays the example over the image: its size at the scale, its pixels outside the glass")
    func backdropOption() throws {
        let folder = try Self.fixtures()
        try tool(
            "convert", "-size", "780x480", "gradient:#ffd6a5-#3a0ca3", "-quality", "95",
            folder.appendingPathComponent("home.jpg").path)
        let run = try runCLI(
            [
                "render", "--example", "segmented", "--backdrop", "home.jpg", "--scale", "2", "--backend", "cpu", "-o",
                "over.png",
            ], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let rendered = try PNGCodec.read(contentsOf: folder.appendingPathComponent("over.png"))
        let photo = try ImageReader.read(contentsOf: folder.appendingPathComponent("home.jpg")).image
        #expect(rendered.width == 780 && rendered.height == 480)
        let corner = (470 * 780 + 770) * 4
        #expect(
            zip(rendered.pixels[corner..<(corner + 4)], photo.pixels[corner..<(corner + 4)]).allSatisfy {
                abs(Int($0) - Int($1)) <= 1
            })
        let missing = try runCLI(
            ["render", "--example", "segmented", "--backdrop", "nowhere.jpg", "-o", "none.png"], in: folder)
        #expect(
            missing.status == 1 && missing.stderr.contains("--backdrop: cannot read image ")
                && missing.stderr.contains("nowhere.jpg"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.png").path))
    }

    /// Hostile files and what the error must say: each a one-line error naming the file, nothing written.
    static let hostile: [(name: String, reason: String)] = [
        ("truncated-jpeg", "corrupt JPEG data"), ("truncated-webp", "corrupt WebP data"),
        ("truncated-heic", "corrupt HEIF data"), ("truncated-png", "corrupt PNG data"),
        ("text", "not an image LiquidLens reads"), ("bomb-jpeg", "60000×60000 is outside"),
        ("huge-svg", "is over 16384 px a side"), ("absurd-svg", "is over 16384 px a side"),
        ("svg-file-reference", "SVG refers to \"/etc/passwd\""),
        ("svg-url", "SVG refers to \"https://example.com/x.png\""), ("svg-entity", "SVG refers to an external entity"),
        ("bad-profile", "its ICC profile is not one Little CMS can read"),
        ("heif-cycle", "its item references form a cycle: 2 → 2"),
    ]

    @Test(
        "Hostile files: a one-line error naming the file and the reason; nothing written",
        arguments: hostile.map(\.name))
    func hostileFiles(_ name: String) throws {
        let folder = try Self.fixtures()
        let file = folder.appendingPathComponent("\(name).img")
        try Self.makeHostile(name, in: folder, at: file)
        try Data(
            #"{"canvas": {"width": 100, "height": 60}, "background": [{"type": "image", "path": "\#(name).img"}]}"#.utf8
        )
        .write(to: folder.appendingPathComponent("scene.json"))
        let run = try runCLI(["render", "scene.json", "--backend", "cpu", "-o", "out.png"], in: folder)
        let reason = Self.hostile.first { $0.name == name }!.reason
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("\(name).img") && run.stderr.contains(reason), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    static func makeHostile(_ name: String, in folder: URL, at file: URL) throws {
        func truncated(_ fixture: String) throws -> Data {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(fixture).png"))
            return data.prefix(data.count / 2)
        }
        func svg(_ body: String) -> Data {
            Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\#(body)</svg>"#
                    .utf8)
        }
        let data: Data
        switch name {
        case "truncated-jpeg": data = try truncated("jpeg")
        case "truncated-webp": data = try truncated("lossyWebP")
        case "truncated-heic": data = try truncated("heic")
        case "truncated-png": data = try truncated("png")
        case "text": data = Data("this is a note, not a picture\n".utf8)
        case "heif-cycle":
            // Found by the heif fuzzer: an image derived from itself, which libheif 1.15 follows until the process dies.
            data = try Data(
                contentsOf: packageRoot.appendingPathComponent("Tests/Fuzz/corpus/heif/recursive-dimg.heic"))
        case "bomb-jpeg":
            var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("jpeg.png")))
            let frame = (0..<(bytes.count - 1)).first {
                bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2)
            }!
            bytes.replaceSubrange((frame + 5)..<(frame + 9), with: [0xEA, 0x60, 0xEA, 0x60])
            data = Data(bytes)
        case "huge-svg":
            data = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="100000000"/>"#.utf8)
        case "absurd-svg":  // found by the svg fuzzer: a height no Int holds
            data = Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="666666666666666666666666666666613"/>"#.utf8
            )
        case "svg-file-reference": data = svg(#"<image xlink:href="/etc/passwd" width="10" height="10"/>"#)
        case "svg-url": data = svg(#"<image href="https://example.com/x.png" width="10" height="10"/>"#)
        case "svg-entity":
            data = Data(
                #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>"#
                    .utf8)
        case "bad-profile":
            let plain = folder.appendingPathComponent("pattern.png")
            let garbage = try tool(
                "python3", "-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(b'not a profile' * 40))")
            try insertChunk("iCCP", Array("junk".utf8) + [0, 0] + garbage, into: plain, writing: file)
            return
        default: fatalError("no hostile file \(name)")
        }
        try data.write(to: file)
    }

    // MARK: helpers

    /// The EXIF block (TIFF, one IFD entry) that says `orientation`.
    static func exif(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func long(_ value: Int) -> [UInt8] { bigEndian ? [0, 0, 0, UInt8(value)] : [UInt8(value), 0, 0, 0] }
        return (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + short(42) + long(8) + short(1)
            + short(0x0112) + short(3) + long(1) + short(orientation) + [0, 0] + long(0)
    }

    /// Writes `source` with a chunk of `type` inserted after IHDR.
    static func insertChunk(_ type: String, _ body: [UInt8], into source: URL, writing target: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: source))
        let typed = Array(type.utf8) + body
        let length = body.count
        let chunk =
            [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + typed + bigEndian32(crc32(typed))
        bytes.insert(contentsOf: chunk, at: 33)
        try Data(bytes).write(to: target)
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Display P3 to sRGB by hand: decode the sRGB curve, P3 → XYZ → sRGB with the matrices from
    /// the two sets of primaries (both D65), encode, clip.
    static func displayP3ToSRGB(_ sample: [UInt8]) -> [UInt8] {
        toSRGB(sample, primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]) { c in
            c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
    }

    /// Adobe RGB (1998) to sRGB by hand: its 563/256 power curve, its primaries (D65).
    static func adobeRGBToSRGB(_ sample: [UInt8]) -> [UInt8] {
        toSRGB(sample, primaries: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]) { pow($0, 563 / 256) }
    }

    /// An RGB sample with `primaries` (D65) and transfer `decode` to sRGB: to linear, → XYZ → linear
    /// sRGB, clip, encode.
    static func toSRGB(_ sample: [UInt8], primaries: [(Double, Double)], decode: (Double) -> Double) -> [UInt8] {
        let source = rgbToXYZ(primaries)
        let srgb = invert(rgbToXYZ([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]))
        let linear = sample.map { decode(Double($0) / 255) }
        let xyz = (0..<3).map { row in (0..<3).reduce(0) { $0 + source[row][$1] * linear[$1] } }
        return (0..<3).map { row in encodeSRGB((0..<3).reduce(0) { $0 + srgb[row][$1] * xyz[$1] }) }
    }

    /// Linear light (clipped to 0…1) to an 8-bit sRGB code.
    static func encodeSRGB(_ linear: Double) -> UInt8 {
        let value = min(max(linear, 0), 1)
        let encoded = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    /// RGB → XYZ for primaries (x, y) and the D65 white point.
    static func rgbToXYZ(_ primaries: [(Double, Double)]) -> [[Double]] {
        let columns = primaries.map { [$0.0 / $0.1, 1, (1 - $0.0 - $0.1) / $0.1] }
        let matrix = (0..<3).map { row in columns.map { $0[row] } }
        let white = [0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290]
        let scale = (0..<3).map { row in (0..<3).reduce(0) { $0 + invert(matrix)[row][$1] * white[$1] } }
        return matrix.map { row in (0..<3).map { row[$0] * scale[$0] } }
    }

    static func invert(_ m: [[Double]]) -> [[Double]] {
        let determinant =
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        return (0..<3).map { row in
            (0..<3).map { column in
                let rows = [0, 1, 2].filter { $0 != column }
                let columns = [0, 1, 2].filter { $0 != row }
                let minor =
                    m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
                return ((row + column).isMultiple(of: 2) ? 1 : -1) * minor / determinant
            }
        }
    }

    /// lcms2's command-line calculator: each sample from `profile` to sRGB.
    func transicc(_ samples: [[UInt8]], profile: String) throws -> [[UInt8]] {
        let input = samples.map { $0.map(String.init).joined(separator: " ") }.joined(separator: "\n") + "\n"
        let output = try tool("transicc", "-i", profile, "-o", "*sRGB", "-t", "0", "-n", stdin: Data(input.utf8))
        let rows = String(decoding: output, as: UTF8.self).split(separator: "\n").filter {
            $0.first?.isNumber == true || $0.first == "-"
        }
        return rows.map { $0.split(separator: " ").prefix(3).map { UInt8(min(max(Double($0)!, 0), 255).rounded()) } }
    }
}

/// Notes collected from another thread.
final class NoteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func append(_ line: String) { lock.withLock { kept.append(line) } }
    var lines: [String] { lock.withLock { kept } }
}

func meanAbsoluteError(_ a: RGBA8Image, _ b: RGBA8Image) -> Double {
    guard a.pixels.count == b.pixels.count else { return .infinity }
    let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(a.pixels.count)
}

/// Runs a command-line tool (found on PATH), failing with its output when it fails; its stdout.
/// One at a time: Foundation's `Process` and pipes are not safe to start from many tests at once.
@discardableResult
func tool(_ arguments: String..., stdin: Data? = nil) throws -> Data {
    try toolLock.withLock { try runTool(arguments, stdin: stdin) }
}

private let toolLock = NSLock()

private func runTool(_ arguments: [String], stdin: Data?) throws -> Data {
    let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments, stdin: stdin)
    guard result.status == 0 else {
        throw ToolFailure(description: "\(arguments.joined(separator: " ")) failed: \(result.stderr)")
    }
    return result.stdoutBytes
}

struct ToolFailure: Error, CustomStringConvertible {
    let description: String
}
