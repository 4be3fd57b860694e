import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// The output formats besides PNG: QOI decoded exactly by ffmpeg, JPEG and WebP by libjpeg-turbo,
/// libwebp and ImageMagick close to what was rendered; the CLI picks the format from the name or
/// `--format`, and `--resume` knows a complete file of each.
@Suite("Output formats: JPEG, WebP, QOI", .serialized)
struct OutputFormatTests {
    static func builtInFrames() throws -> [(String, RGBA8Image)] {
        try BuiltInScene.allCases.map { scene in
            (scene.rawValue, try render(try LensRenderer.resolve(scene.scene), on: .cpu))
        }
    }

    @Test("ffmpeg decodes every QOI file to exactly its pixels: the built-in scenes, noise, runs past 62, edge sizes")
    func qoiExact() throws {
        let folder = try temporaryFolder("qoi")
        for (name, image) in try FastPNGTests.images() {
            let file = folder.appendingPathComponent("\(name).qoi")
            try ImageFormat.qoi.encode(image).write(to: file)
            let decoded = try runProcess(
                URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                ["-loglevel", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
            #expect(decoded.status == 0, "\(name): \(decoded.stderr)")
            #expect(Array(decoded.stdoutBytes) == image.pixels, "ffmpeg: \(name)")
            #expect(ImageFormat.qoi.isComplete(file), "\(name) is complete")
        }
    }

    @Test(
        "JPEG and WebP at quality 90 decode close to the render (libjpeg-turbo, libwebp, ImageMagick agree); quality 30 is further",
        arguments: [ImageFormat.jpeg, .webp])
    func lossy(_ format: ImageFormat) throws {
        let folder = try temporaryFolder("lossy-\(format.rawValue)")
        for (name, image) in try Self.builtInFrames() {
            let file = folder.appendingPathComponent("\(name).\(format.fileExtension)")
            try format.encode(image, quality: 90).write(to: file)
            let ours = try ImageReader.read(contentsOf: file).image
            let magick = try runProcess(try imageMagickConvert(), [file.path, "-depth", "8", "rgba:-"])
            #expect(magick.status == 0, "\(name): \(magick.stderr)")
            let theirs = RGBA8Image(width: image.width, height: image.height, pixels: Array(magick.stdoutBytes))
            // Decoders may round their colour conversion apart by a level here and there.
            #expect(meanAbsoluteError(ours, theirs) < 0.5, "\(name): our decoder and ImageMagick's")
            let error = meanAbsoluteError(ours, image)
            #expect(error < 3, "\(name): mean error \(error) levels at quality 90")
            let rough = try ImageReader.decode(try format.encode(image, quality: 30)).image
            #expect(meanAbsoluteError(rough, image) > error, "\(name): quality 30 is no worse than 90")
            #expect(format.isComplete(file))
        }
    }

    @Test("WebP keeps the alpha; JPEG, which has none, writes it opaque")
    func alpha() throws {
        let pixels = (0..<64 * 64).flatMap { i -> [UInt8] in [200, 40, 90, UInt8(i % 64 * 4)] }
        let image = RGBA8Image(width: 64, height: 64, pixels: pixels)
        let webp = try ImageReader.decode(try ImageFormat.webp.encode(image, quality: 100)).image
        let alphaError = stride(from: 3, to: pixels.count, by: 4).map { abs(Int(webp.pixels[$0]) - Int(pixels[$0])) }
        #expect(alphaError.max()! <= 2)
        let jpeg = try ImageReader.decode(try ImageFormat.jpeg.encode(image, quality: 90)).image
        #expect(stride(from: 3, to: jpeg.pixels.count, by: 4).allSatisfy { jpeg.pixels[$0] == 255 })
    }

    @Test("A truncated file of each format is not complete (so --resume renders it again)")
    func completeness() throws {
        let folder = try temporaryFolder("complete")
        let image = try Self.builtInFrames()[0].1
        for format in [ImageFormat.png, .jpeg, .webp, .qoi] {
            let data = try format.encode(image)
            let whole = folder.appendingPathComponent("whole.\(format.fileExtension)")
            let cut = folder.appendingPathComponent("cut.\(format.fileExtension)")
            try data.write(to: whole)
            try data.prefix(data.count - 3).write(to: cut)
            #expect(format.isComplete(whole) && !format.isComplete(cut), "\(format)")
            let stub = folder.appendingPathComponent("stub.\(format.fileExtension)")
            try data.prefix(5).write(to: stub)
            #expect(!format.isComplete(stub), "\(format): five bytes")
        }
    }

    @Test(
        "render and batch take the format from the name or --format; a name that disagrees, or one no format has, is refused"
    )
    func commandLine() throws {
        let folder = try temporaryFolder("format-cli")
        for (arguments, file, format) in [
            (["-o", "a.jpg"], "a.jpg", ImageFileFormat.jpeg), (["-o", "b.webp", "--quality", "70"], "b.webp", .webp),
            (["--format", "jpeg"], "segmented.jpg", .jpeg),
            (["-o", "out/", "--format", "webp"], "out/segmented.webp", .webp),
        ] {
            let run = try runCLI(
                ["render", "--example", "segmented", "--backend", "cpu", "-q"] + arguments, in: folder)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(ImageFileFormat.sniff(data) == format, "\(file)")
        }
        let qoi = try runCLI(["render", "--example", "segmented", "--backend", "cpu", "-q", "-o", "c.qoi"], in: folder)
        #expect(qoi.status == 0 && ImageFormat.qoi.isComplete(folder.appendingPathComponent("c.qoi")))

        let disagreeing = try runCLI(
            ["render", "--example", "segmented", "-o", "x.png", "--format", "jpeg"], in: folder)
        #expect(disagreeing.status == 64)
        #expect(disagreeing.stderr.contains("cannot write x.png as jpeg: its name says png; name it .jpg"))
        let unknown = try runCLI(["render", "--example", "segmented", "-o", "x.tiff"], in: folder)
        #expect(unknown.status == 64 && unknown.stderr.contains(".tiff is not an image format liquidlens writes"))

        let manifest = folder.appendingPathComponent("sweep.json")
        try Data(
            ##"{"scenes": [{"example": "segmented"}, {"example": "tab-bar"}], "scale": 1}"##.utf8
        ).write(to: manifest)
        let batch = try runCLI(
            ["batch", "sweep.json", "-o", "frames", "--format", "jpeg", "--quality", "60", "--backend", "cpu"],
            in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path)
        #expect(names.sorted() == ["00001-segmented.jpg", "00002-tab-bar.jpg"], "\(names)")
        let resumed = try runCLI(
            ["batch", "sweep.json", "-o", "frames", "--format", "jpeg", "--resume", "--backend", "cpu"], in: folder)
        #expect(resumed.stderr.contains("every frame of this shard is complete"), "\(resumed.stderr)")

        let gallery = try runCLI(["gallery", "-o", "gallery.webp", "--backend", "cpu", "-q"], in: folder)
        #expect(gallery.status == 0 && ImageFormat.webp.isComplete(folder.appendingPathComponent("gallery.webp")))
    }

    @Test(
        "animate writes a folder of QOI or JPEG frames with --frame-format, resumes them, and refuses it for one file")
    func animateFrames() throws {
        let folder = try temporaryFolder("format-animate")
        let arguments = [
            "animate", "--example", "segmented-drag", "--duration", "0.2", "--fps", "10", "--backend", "cpu", "-q",
        ]
        let qoi = try runCLI(arguments + ["-o", "drag/", "--frame-format", "qoi"], in: folder)
        #expect(qoi.status == 0, "\(qoi.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("drag").path)
        #expect(frames.sorted() == ["frame-0001.qoi", "frame-0002.qoi"], "\(frames)")
        let kept = folder.appendingPathComponent("drag/frame-0001.qoi")
        let keptDate = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: keptDate], ofItemAtPath: kept.path)
        let cut = folder.appendingPathComponent("drag/frame-0002.qoi")
        try Data(try Data(contentsOf: cut).dropLast(4)).write(to: cut)
        let resumed = try runCLI(arguments + ["-o", "drag/", "--frame-format", "qoi", "--resume"], in: folder)
        #expect(resumed.status == 0 && ImageFormat.qoi.isComplete(cut), "\(resumed.stderr)")
        let keptAfter = try FileManager.default.attributesOfItem(atPath: kept.path)[.modificationDate] as? Date
        #expect(keptAfter == keptDate, "the complete frame was kept, not written again")
        let mixed = try runCLI(arguments + ["-o", "drag/", "--frame-format", "jpeg", "--resume"], in: folder)
        #expect(mixed.status == 1 && mixed.stderr.contains("holds frames of another format (frame-0001.qoi)"))
        let jpeg = try runCLI(arguments + ["-o", "stills/", "--frame-format", "jpg", "--quality", "50"], in: folder)
        #expect(jpeg.status == 0 && ImageFormat.jpeg.isComplete(folder.appendingPathComponent("stills/frame-0001.jpg")))
        let gif = try runCLI(arguments + ["-o", "drag.gif", "--frame-format", "jpeg"], in: folder)
        #expect(gif.status == 64 && gif.stderr.contains("--frame-format jpeg applies to a folder of frames"))
    }
}
