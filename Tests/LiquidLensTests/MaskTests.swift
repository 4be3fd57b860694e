import Foundation
import LiquidLens
import Testing

@testable import LensIO
@testable import LensReference
@testable import LensResolve

/// `FrameMasks`: the glass mask is non-zero wherever the glass changes a pixel, and the tint mask
/// wherever the accent colour does, and the masks reach the command line and WebDataset samples
/// (the C ABI's and Python's side is in test_python_package.py).
@Suite("Frame masks")
struct MaskTests {
    /// Each built-in scene, the labelled ones in both appearances, and each built-in animation
    /// at two times, one of them mid-motion.
    static let frames: [LabelLeakTests.Frame] =
        BuiltInScene.allCases.flatMap { example in
            ([.light] + ([.segmented, .tabBar, .lensMenu].contains(example) ? [.dark] : [])).map {
                (appearance: ControlAppearance) in
                LabelLeakTests.Frame(
                    name: "\(example.rawValue) \(appearance.rawValue)", scene: example.scene(appearance: appearance))
            }
        }
        + BuiltInAnimation.allCases.flatMap { animation in
            [0.45, 0.8].map {
                LabelLeakTests.Frame(
                    name: "\(animation.rawValue) at \($0 * animation.duration) s",
                    scene: animation.frame(at: $0 * animation.duration))
            }
        }

    /// A colour change the tint mask must explain: more than this many levels in some channel (a
    /// share under half a level of the mask moves a channel by about a level at most).
    static let unexplained = 2
    /// A tint share of at least this many levels of 255 must change the pixel.
    static let visibleShare: UInt8 = 16

    /// The largest channel difference at pixel `index` of two frames.
    static func delta(_ first: RGBA8Image, _ second: RGBA8Image, _ index: Int) -> Int {
        (0..<3).map { abs(Int(first.pixels[index * 4 + $0]) - Int(second.pixels[index * 4 + $0])) }.max()!
    }

    @Test("The accent colour shows exactly where the tint mask says", arguments: frames)
    func tintMask(_ frame: LabelLeakTests.Frame) throws {
        let parameters = try resolve(frame.scene)
        let masks = LensRenderer.masks(of: parameters)
        // The accent made as far from the resting colour as it goes in every channel, so a share
        // seen by one channel alone moves that channel too; the masks do not depend on it.
        var accented = parameters
        let resting = parameters.frame.restingColor
        let alpha = parameters.frame.accentColor.w
        accented.frame.accentColor = SIMD4(
            resting.x < 0.5 * resting.w ? alpha : 0, resting.y < 0.5 * resting.w ? alpha : 0,
            resting.z < 0.5 * resting.w ? alpha : 0, alpha)
        #expect(LensRenderer.masks(of: accented) == masks)
        var plain = parameters
        plain.frame.accentColor = resting
        let withAccent = try render(accented, on: .cpu)
        let unaccented = try render(plain, on: .cpu)
        var unexplained: [(Int, Int)] = []
        var invisible: [(Int, Int)] = []
        for index in 0..<masks.tint.coverage.count {
            let delta = Self.delta(withAccent, unaccented, index)
            let share = masks.tint.coverage[index]
            if delta > Self.unexplained && share == 0 { unexplained.append((index % plain.width, index / plain.width)) }
            if share >= Self.visibleShare && delta == 0 {
                invisible.append((index % plain.width, index / plain.width))
            }
        }
        #expect(unexplained.isEmpty, "accent changes where the tint mask is 0: \(unexplained.prefix(8))")
        #expect(
            invisible.isEmpty,
            "tint mask ≥ \(Self.visibleShare) where the accent changes nothing: \(invisible.prefix(8))")
    }

    @Test(
        "The glass mask covers every pixel the glass changes, and each glass shape's centre where it shows",
        arguments: frames)
    func glassMask(_ frame: LabelLeakTests.Frame) throws {
        var parameters = try LensRenderer.resolve(frame.scene, annotating: true)
        for index in parameters.lenses.indices { parameters.lenses[index].shadow.w = 0 }
        var bare = parameters
        // Progressive blurs are not glass: they stay, and the masks leave them out.
        for index in bare.lenses.indices.dropFirst(parameters.blurBandCount) { bare.lenses[index].opacity = 0 }
        let masks = LensRenderer.masks(of: parameters)
        let with = try render(parameters, on: .cpu)
        let without = try render(bare, on: .cpu)
        let width = parameters.width
        let uncovered = (0..<masks.glass.coverage.count).filter {
            masks.glass.coverage[$0] == 0 && Self.delta(with, without, $0) > 1
        }
        #expect(
            uncovered.isEmpty,
            "glass changed pixels the mask leaves out: \(uncovered.prefix(8).map { ($0 % width, $0 / width) })")
        for glass in parameters.annotations!.glass {
            for shape in glass.shapes where shape.width >= 2 && shape.height >= 2 {
                let index = Int(shape.y + shape.height / 2) * width + Int(shape.x + shape.width / 2)
                let unseen = Self.delta(with, without, index) == 0
                #expect(unseen || masks.glass.coverage[index] > 0, "\(glass.source)'s centre is not glass")
            }
        }
    }

    /// The mask a grey PNG holds (libpng reads it as RGBA with equal channels).
    static func mask(at url: URL) throws -> [UInt8] {
        let image = try PNGCodec.read(contentsOf: url)
        return stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    }

    @Test("render --masks and batch --masks write the masks beside the frames, on either backend")
    func commandLine() throws {
        let folder = try temporaryFolder("masks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = LensRenderer.masks(of: try resolve(BuiltInScene.segmented.scene))
        for backend in ["cpu", "vulkan"] {
            let image = folder.appendingPathComponent("\(backend).png")
            let run = try runCLI([
                "render", "--example", "segmented", "-o", image.path, "--masks", "--backend", backend,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("\(backend).glass.png and") && run.stdout.contains("(masks)"), "\(run.stdout)")
            #expect(try Self.mask(at: folder.appendingPathComponent("\(backend).glass.png")) == expected.glass.coverage)
            #expect(try Self.mask(at: folder.appendingPathComponent("\(backend).tint.png")) == expected.tint.coverage)
        }
        let streamed = try runCLI(["render", "--example", "segmented", "-o", "-", "--masks"])
        #expect(streamed.status == 64 && streamed.stderr.contains("--masks writes files beside the image"))

        let manifest = try writeRandomManifest(folder, count: 2)
        let frames = folder.appendingPathComponent("frames")
        let batch = try runCLI(["batch", manifest.path, "-o", frames.path, "--masks", "-q", "--backend", "cpu"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        #expect(
            names == [
                "move-00001.glass.png", "move-00001.png", "move-00001.tint.png", "move-00002.glass.png",
                "move-00002.png", "move-00002.tint.png",
            ])
        let second = try BatchManifest.load(contentsOf: manifest).scene(1).scene
        #expect(
            try Self.mask(at: frames.appendingPathComponent("move-00002.tint.png"))
                == LensRenderer.masks(of: try resolve(second)).tint.coverage)
        // A frame whose masks are missing is not complete for a resumed run with them.
        try FileManager.default.removeItem(at: frames.appendingPathComponent("move-00002.glass.png"))
        let resumed = try runCLI(["batch", manifest.path, "-o", frames.path, "--masks", "--resume", "--backend", "cpu"])
        #expect(resumed.status == 0 && resumed.stderr.contains("wrote 1 frames"), "\(resumed.stderr)")
        #expect(FileManager.default.fileExists(atPath: frames.appendingPathComponent("move-00002.glass.png").path))
        let piped = try runCLI(["batch", manifest.path, "-o", "-", "--format", "pam", "--masks", "-q"])
        #expect(piped.status == 64 && piped.stderr.contains("--masks writes files; give -o a folder"))

        // Tars of a run without masks are written again by a resumed run with them.
        let shards = folder.appendingPathComponent("shards")
        let webDataset = ["batch", manifest.path, "-o", shards.path, "--format", "webdataset"]
        #expect(try runCLI(webDataset + ["-q"]).status == 0)
        let tar = try runCLI(webDataset + ["--masks", "--resume"])
        #expect(tar.status == 0 && tar.stderr.contains("wrote 2 frames"), "\(tar.stderr)")
        let listed = try runProcess(
            URL(fileURLWithPath: "/usr/bin/tar"), ["-tf", shards.appendingPathComponent("move-00001.tar").path])
        let members = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("move-00001.") }.sorted()
        #expect(members == ["glass.png", "json", "png", "scene.json", "tint.png"].map { "move-00001.\($0)" })
    }

    @Test("A see-through accent colour is as much of the pixel as its alpha")
    func accentAlpha() throws {
        let scene = try Scene.load(contentsOf: packageRoot.appendingPathComponent("Tests/Samples/lens.json"))
        var halfAccent = scene
        halfAccent.label?.accent.alpha = 0.5
        let directory = packageRoot.appendingPathComponent("Tests/Samples")
        let whole = LensRenderer.masks(of: try resolve(scene, directory: directory)).tint.coverage
        let half = LensRenderer.masks(of: try resolve(halfAccent, directory: directory)).tint.coverage
        #expect(whole.max() == 255)
        let halves = zip(whole, half).filter { $0.0 == 255 }.map(\.1)
        #expect(!halves.isEmpty && halves.allSatisfy { abs(Int($0) - 128) <= 1 }, "\(Set(halves).sorted())")
    }

    @Test("animate --masks writes every frame's masks into a folder of their own; a resumed run fills in missing ones")
    func animation() throws {
        let folder = try temporaryFolder("animate-masks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let masks = folder.appendingPathComponent("masks")
        let arguments = [
            "animate", "--example", "segmented-drag", "--scale", "1", "--fps", "2", "--duration", "1", "-o",
            folder.appendingPathComponent("frames").path, "--masks", masks.path, "-q",
        ]
        #expect(try runCLI(arguments).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: masks.path).sorted()
        #expect(
            names == ["frame-0001.glass.png", "frame-0001.tint.png", "frame-0002.glass.png", "frame-0002.tint.png"])
        let second = try LensRenderer.resolve(BuiltInAnimation.segmentedDrag.frame(at: 0.5), scale: 1)
        let expected = LensRenderer.masks(of: second).tint.coverage
        #expect(try Self.mask(at: masks.appendingPathComponent("frame-0002.tint.png")) == expected)
        try FileManager.default.removeItem(at: masks.appendingPathComponent("frame-0002.tint.png"))
        #expect(try runCLI(arguments + ["--resume"]).status == 0)
        #expect(try Self.mask(at: masks.appendingPathComponent("frame-0002.tint.png")) == expected)
        let sameFolder = try runCLI(
            Array(arguments.dropLast(3)) + ["--masks", folder.appendingPathComponent("frames").path])
        #expect(sameFolder.status == 64 && sameFolder.stderr.contains("--masks needs a folder of its own"))
    }
}
