import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// One sample as `read_webdataset.py` reports it.
private struct LoadedSample: Decodable, Equatable {
    let key: String
    let files: [String]?
    let sha256: [String: String]?
    let size: [Int]
    let annotatedSize: [Int]
}

private struct Loaded: Decodable {
    let tars: [String]
    let webdataset: [LoadedSample]
    let datasets: [LoadedSample]
}

private func load(_ folder: URL) throws -> Loaded {
    try JSONDecoder().decode(Loaded.self, from: Data(try runPython("read_webdataset.py", [folder.path]).utf8))
}

@Suite("WebDataset shards")
struct WebDatasetTests {
    @Test("Four shards of a batch, read back by webdataset and by datasets, are the samples of one run")
    func shardsReadBack() throws {
        let folder = try temporaryFolder("webdataset")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try writeRandomManifest(folder, count: 10)
        let whole = folder.appendingPathComponent("whole")
        let arguments = ["batch", manifest.path, "--format", "webdataset", "--samples-per-shard", "3", "-q"]
        let one = try runCLI(arguments + ["-o", whole.path])
        #expect(one.status == 0, "\(one.stderr)")
        let sharded = folder.appendingPathComponent("sharded")
        for task in 0..<4 {
            let run = try runCLI(arguments + ["-o", sharded.path, "--shard", "\(task)/4"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let first = try load(whole)
        let second = try load(sharded)
        #expect(first.tars == ["move-00001.tar", "move-00004.tar", "move-00007.tar", "move-00010.tar"])
        #expect(first.webdataset.map(\.key) == (1...10).map { String(format: "move-%05d", $0) })
        #expect(first.webdataset.allSatisfy { $0.files == ["json", "png", "scene.json"] })
        #expect(second.webdataset == first.webdataset, "the same samples, byte for byte")
        #expect(first.datasets.map(\.key) == first.webdataset.map(\.key))
        #expect(first.datasets.map(\.size) == first.webdataset.map(\.size))
        #expect(first.datasets.allSatisfy { $0.annotatedSize == $0.size })

        // A sample's image is the PNG a plain batch writes for that frame.
        let plain = folder.appendingPathComponent("plain")
        #expect(try runCLI(["batch", manifest.path, "-o", plain.path, "-q"]).status == 0)
        let extracted = folder.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let untar = try runProcess(
            URL(fileURLWithPath: "/usr/bin/tar"),
            ["-xf", whole.appendingPathComponent("move-00004.tar").path, "-C", extracted.path])
        #expect(untar.status == 0, "\(untar.stderr)")
        #expect(
            try Data(contentsOf: extracted.appendingPathComponent("move-00004.png"))
                == Data(contentsOf: plain.appendingPathComponent("move-00004.png")))
    }

    @Test("A value whole in one tar and fractional in the next reads as one type (datasets merges the tars' schemas)")
    func numbersKeepTheirType() throws {
        let folder = try temporaryFolder("webdataset-types")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, frost) in [("whole", "4"), ("half", "4.5")] {
            try Data(
                """
                {"canvas": {"width": 120, "height": 60},
                 "background": [{"type": "gradient", "colors": ["#203040", "#f0a060"], "angle": 30}],
                 "glass": [{"shape": "capsule", "frame": {"x": 10, "y": 10, "width": 100, "height": 40},
                            "optics": {"frost": \(frost)}}]}
                """.utf8
            ).write(to: folder.appendingPathComponent("\(name).json"))
        }
        let manifest = folder.appendingPathComponent("types.json")
        try Data(#"{"name": "types", "scenes": ["whole.json", "whole.json", "half.json", "half.json"]}"#.utf8)
            .write(to: manifest)
        let output = folder.appendingPathComponent("shards")
        let run = try runCLI([
            "batch", manifest.path, "-o", output.path, "--format", "webdataset", "--samples-per-shard", "2", "-q",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let loaded = try load(output)
        #expect(loaded.tars == ["types-00001.tar", "types-00003.tar"])
        #expect(loaded.datasets.map(\.key) == loaded.webdataset.map(\.key))
    }

    @Test("--resume writes again only the tars that are missing; a stream refuses the format")
    func resume() throws {
        let folder = try temporaryFolder("webdataset-resume")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try writeRandomManifest(folder, count: 7)
        let output = folder.appendingPathComponent("shards")
        let arguments = [
            "batch", manifest.path, "-o", output.path, "--format", "webdataset", "--samples-per-shard", "3",
        ]
        #expect(try runCLI(arguments + ["-q"]).status == 0)
        let kept = try Data(contentsOf: output.appendingPathComponent("move-00001.tar"))
        try FileManager.default.removeItem(at: output.appendingPathComponent("move-00004.tar"))
        // A half-written tar (no end blocks) is not complete either.
        let last = output.appendingPathComponent("move-00007.tar")
        let whole = try Data(contentsOf: last)
        try whole.prefix(whole.count - 1024).write(to: last)
        let resumed = try runCLI(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("3 already complete"))
        #expect(try Data(contentsOf: last) == whole)
        #expect(try Data(contentsOf: output.appendingPathComponent("move-00001.tar")) == kept)
        #expect(TarShard.isComplete(output.appendingPathComponent("move-00004.tar")))
        let streamed = try runCLI(["batch", manifest.path, "-o", "-", "--format", "webdataset", "-q"])
        #expect(streamed.status == 64 && streamed.stderr.contains("--format webdataset writes files"))
    }

    @Test("A tar member's header is ustar with its checksum, and the archive ends in two empty blocks")
    func tarLayout() throws {
        let folder = try temporaryFolder("tar")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.tar")
        let shard = try TarShard(url: url)
        try shard.append("k.txt", Data("hello".utf8))
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing at the name before finish")
        try shard.finish()
        let data = try Data(contentsOf: url)
        #expect(data.count == 512 + 512 + 1024)
        let header = [UInt8](data.prefix(512))
        #expect(String(decoding: header[257..<262], as: UTF8.self) == "ustar")
        let stored = Int(String(decoding: header[148..<154], as: UTF8.self), radix: 8)
        let sum = header.enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 32 : Int($1.element)) }
        #expect(stored == sum)
        #expect(String(decoding: data[512..<517], as: UTF8.self) == "hello")
        let listed = try runProcess(URL(fileURLWithPath: "/usr/bin/tar"), ["tvf", url.path])
        #expect(listed.status == 0 && listed.stdout.contains("k.txt"))
    }
}
