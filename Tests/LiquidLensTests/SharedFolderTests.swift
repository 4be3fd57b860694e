import Foundation
import LiquidLens
import Testing

@testable import LensIO

/// A process ID that no process has now: one that ran and has been waited for.
private func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// The files of `folder` that are not hidden, with their bytes.
private func frames(_ folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
        result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return result
}

/// Sets a file's modification time `age` seconds into the past.
private func age(_ url: URL, by age: TimeInterval) throws {
    try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
}

@Suite("Runs that share an output folder")
struct SharedFolderTests {
    @Test("A temporary file's name records its output, process and host, and reads back")
    func temporaryNames() throws {
        let name = TemporaryFileName.forThisProcess("s-00007.png")
        let parsed = try #require(TemporaryFileName(parsing: name))
        #expect(parsed.finalName == "s-00007.png")
        #expect(parsed.processID == getpid())
        #expect(parsed.host == TemporaryFile.thisHost)
        #expect(TemporaryFileName.forThisProcess("s-00007.png") != name, "each write gets its own file")

        let video = try #require(TemporaryFileName(parsing: ".move.mp4.partial-12-9f@node-3.mp4"))
        #expect(video.finalName == "move.mp4" && video.processID == 12 && video.host == "node-3")
        let earlier = try #require(TemporaryFileName(parsing: ".frame-0002.png.partial-4242"))
        #expect(earlier.finalName == "frame-0002.png" && earlier.processID == 4242 && earlier.host == nil)
        for other in ["frame-0002.png", ".hidden", ".partial-12@a", ".x.partial-", ".x.partial-1-2"] {
            #expect(TemporaryFileName(parsing: other) == nil, "\(other)")
        }
        #expect(!TemporaryFile.thisHost.contains("."), "host names never hold the suffix's dot")
    }

    @Test("Only what is provably not being written is removable")
    func removalRule() throws {
        let here = TemporaryFile.thisHost
        let dead = try deadProcessID()
        let own: Set = ["s-00003.png", "s-00004.png"]
        func removable(_ output: String, _ id: Int32, _ host: String?, age: TimeInterval = 1) -> Bool {
            TemporaryFile.isRemovable(
                TemporaryFileName(parsing: ".\(output).partial-\(id)" + (host.map { "-1@\($0)" } ?? ""))!, age: age,
                ownNames: own)
        }
        #expect(!removable("s-00007.png", getpid(), here), "another shard's frame, its writer alive here")
        #expect(!removable("s-00003.png", getpid(), here), "this shard's frame, a twin run alive here")
        #expect(removable("s-00007.png", dead, here), "its writer here is gone")
        #expect(!removable("s-00007.png", 1, "elsewhere"), "another host's file, recent")
        #expect(removable("s-00003.png", 1, "elsewhere"), "this shard's frame, written elsewhere")
        #expect(removable("s-00007.png", 1, "elsewhere", age: TemporaryFile.staleAge + 1), "untouched for an hour")
        #expect(!removable("s-00007.png", 1, nil), "an earlier name, no host, recent")
        #expect(removable("s-00003.png", 1, nil), "an earlier name for this shard's frame")
    }

    @Test("A resumed shard removes the temporary files that are its own or dead, and no other")
    func resumeKeepsOthersFiles() throws {
        let folder = try temporaryFolder("shared-cleanup")
        let manifest = try writeSweepManifest(folder, steps: 8)
        let output = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let here = TemporaryFile.thisHost
        let dead = try deadProcessID()
        // Shard 1/4 writes move-00003 and move-00004.
        let planted: [(name: String, age: TimeInterval, kept: Bool)] = [
            (".move-00007.png.partial-\(getpid())-a@\(here)", 0, true),
            (".move-00001.png.partial-\(dead)-b@\(here)", 0, false),
            (".move-00008.png.partial-77-c@another-node", 0, true),
            (".move-00003.png.partial-77-d@another-node", 0, false),
            (".move-00005.png.partial-77-e@another-node", TemporaryFile.staleAge + 60, false),
        ]
        for file in planted {
            let url = output.appendingPathComponent(file.name)
            try Data("half a frame".utf8).write(to: url)
            try age(url, by: file.age)
        }
        let result = try runCLI(["batch", manifest.path, "-o", output.path, "--shard", "1/4", "--resume", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: output.path))
        for file in planted {
            #expect(left.contains(file.name) == file.kept, "\(file.name) \(file.kept ? "kept" : "removed")")
        }
        #expect(left.isSuperset(of: ["move-00003.png", "move-00004.png"]))
    }

    @Test("Shards running at once in one folder, one killed and resumed twice while the others write, lose nothing")
    func concurrentShardsWithResume() throws {
        let folder = try temporaryFolder("shared-shards")
        // Frames of about 0.1 s on the CPU, so that the shards are still writing when the resumed
        // one starts.
        try Data(
            """
            {"canvas": {"width": 640, "height": 360, "scale": 2},
             "background": [{"type": "gradient", "colors": ["#0f2027", "#ff7e5f"], "angle": 60}],
             "glass": [{"shape": "capsule", "frame": {"x": 40, "y": 110, "width": 300, "height": 120},
                        "optics": {"magnification": 1.2, "frost": 10, "dispersion": 0.2}}]}
            """.utf8
        ).write(to: folder.appendingPathComponent("lens.json"))
        let manifest = folder.appendingPathComponent("sweep.json")
        try Data(
            """
            {"scene": "lens.json", "name": "s", "sweep": [{"key": "glass[0].frame.x", "from": 20, "to": 320, "steps": 32}]}
            """.utf8
        ).write(to: manifest)
        let reference = folder.appendingPathComponent("reference")
        let whole = try runCLI(["batch", manifest.path, "-o", reference.path, "-q", "--backend", "cpu"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let output = folder.appendingPathComponent("sharded")
        func shard(_ index: Int) throws -> Process {
            let process = Process()
            process.executableURL = cliBinary()
            process.arguments = [
                "batch", manifest.path, "-o", output.path, "--shard", "\(index)/4", "--resume", "-q", "--backend",
                "cpu", "-j", "1",
            ]
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        var others = try [0, 2, 3].map(shard)
        var requeued = try shard(1)
        try waitUntil("shard 1's first frame", seconds: 120) { !((try? frames(output))?.isEmpty ?? true) }
        kill(requeued.processIdentifier, SIGKILL)
        requeued.waitUntilExit()
        // The requeued task starts while the others still write, twice over; a second run of
        // shard 2 (a scheduler that restarts a task before the old one is gone) joins them.
        requeued = try shard(1)
        let othersRunning = others.filter(\.isRunning).count
        others.append(try shard(2))
        requeued.waitUntilExit()
        let again = try shard(1)
        for process in others + [again] { process.waitUntilExit() }

        #expect(othersRunning == 3, "the resumed shard started while the other three were writing")
        for process in others + [requeued, again] {
            #expect(process.terminationStatus == 0, "\(process.arguments ?? [])")
        }
        #expect(try frames(output) == frames(reference), "the union is the unsharded run, file for file")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "no temporary file left: \(hidden)")
    }
}
