import Foundation
import LiquidLens
import Testing

@testable import LensCatalog
@testable import LensModel

private func manifest(_ json: String) throws -> BatchManifest {
    try BatchManifest.decode(Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"))
}

/// One of each distribution over the probe grid, `extra` keys after them.
private func probeManifest(seed: Int = 7, count: Int = 400, extra: String = "") throws -> BatchManifest {
    try manifest(
        """
        {"scene": {"example": "probe-grid"}, "name": "random", "count": \(count), "seed": \(seed),
         "sample": [{"key": "glass[0].frame.x", "uniform": [20, 150]},
                    {"key": "glass[0].optics.frost", "normal": {"mean": 6, "sd": 3, "min": 0, "max": 12}},
                    {"key": "glass[0].optics.bevelWidth", "integer": [2, 5]},
                    {"key": "glass[0].optics.tint", "choice": [[1, 1, 1, 0.1], [0, 0, 0, 0.2], [0, 0.5, 1, 0.3]]}\(extra)]}
        """)
}

private func numbers(_ manifest: BatchManifest, key: Int) -> [Double] {
    (0..<manifest.count).map { ($0, manifest.keyValues($0)[key].value.object as! NSNumber).1.doubleValue }
}

@Suite("Random frames")
struct RandomFramesTests {
    @Test("Each distribution stays in its range and reaches across it")
    func distributions() throws {
        let random = try probeManifest()
        #expect(random.count == 400)
        #expect(random.outputStem(0) == "random-00001")
        let x = numbers(random, key: 0)
        #expect(x.allSatisfy { (20..<150).contains($0) })
        #expect(x.min()! < 25 && x.max()! > 145)
        let frost = numbers(random, key: 1)
        #expect(frost.allSatisfy { (0...12).contains($0) })
        let mean = frost.reduce(0, +) / Double(frost.count)
        #expect(abs(mean - 6) < 0.5)
        #expect(frost.contains(0) && frost.contains(12), "clipped at min and max")
        let bevels = numbers(random, key: 2)
        #expect(Set(bevels) == [2, 3, 4, 5])
        let tints = (0..<random.count).map { random.keyValues($0)[3].value.object as! [Double] }
        #expect(Set(tints.map { $0[3] }) == [0.1, 0.2, 0.3])
    }

    @Test("Frame k's values depend only on the seed and k: not on the order, a shard, or keys added after")
    func determinism() throws {
        let random = try probeManifest()
        let forward = (0..<random.count).map { "\(random.keyValues($0).map(\.value.object))" }
        let backward = (0..<random.count).reversed().map { "\(random.keyValues($0).map(\.value.object))" }
        #expect(forward == backward.reversed())
        let shard = random.shard(2, of: 3)
        let again = try probeManifest()
        #expect(shard.map { "\(again.keyValues($0).map(\.value.object))" } == Array(forward[shard]))
        let longer = try probeManifest(extra: #", {"key": "glass[0].optics.dispersion", "uniform": [0, 0.05]}"#)
        #expect((0..<random.count).allSatisfy { numbers(longer, key: 0)[$0] == numbers(random, key: 0)[$0] })
        let otherSeed = try probeManifest(seed: 8)
        #expect(numbers(otherSeed, key: 0) != numbers(random, key: 0))
    }

    @Test("The values drawn are part of the format: seed 7's first frame stays what it was")
    func stableAcrossReleases() throws {
        let first = try probeManifest().keyValues(0).map { "\($0.value.object)" }
        #expect(first == ["22.252405781116458", "6.555974981190248", "2", "[0, 0, 0, 0.2]"])
    }

    @Test("A frame's scene carries its values; from a list each frame picks one scene")
    func scenes() throws {
        let random = try probeManifest(count: 4)
        for index in 0..<4 {
            let glass = try random.scene(index).scene.glass[0]
            let values = random.keyValues(index)
            #expect(glass.shapes[0].frame.x == (values[0].value.object as! NSNumber).doubleValue)
            #expect(glass.optics.frost == (values[1].value.object as! NSNumber).doubleValue)
        }
        let list = try manifest(
            """
            {"scenes": [{"example": "segmented"}, {"example": "tab-bar"}], "count": 40, "seed": 1,
             "sample": [{"key": "controls[0].lift", "uniform": [0, 1]}]}
            """)
        var lifts: [Double] = []
        var tabBars = 0
        for index in 0..<40 {
            switch try list.scene(index).scene.controls[0] {
            case .segmented(let control): lifts.append(control.lift)
            case .tabBar(let control):
                lifts.append(control.lift)
                tabBars += 1
            default: Issue.record("frame \(index) is neither example")
            }
        }
        #expect((5...35).contains(tabBars), "each example about half the time")
        #expect(lifts.allSatisfy { (0..<1).contains($0) } && Set(lifts).count == 40)
    }

    @Test(
        "Malformed random manifests are errors that name the key",
        arguments: [
            (#"{"scene": "a.json", "sample": []}"#, "count: random frames need a count"),
            (#"{"scene": "a.json", "count": 0, "sample": []}"#, "count: expected a whole number"),
            (#"{"scene": "a.json", "count": 3}"#, "sample: random frames of one scene need keys"),
            (#"{"scene": "a.json", "count": 3, "seed": -1}"#, "seed: expected a whole number"),
            (
                #"{"scene": "a.json", "count": 3, "sweep": [{"key": "a", "values": [1]}]}"#,
                "count: give sweeps or a count"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a"}]}"#,
                "sample[0]: expected {\"key\": …} and one of"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a", "uniform": [2, 1]}]}"#,
                "sample[0].uniform: expected [lower, upper]"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a", "integer": [0, 1.5]}]}"#,
                "sample[0].integer: expected [lowest, highest]"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a", "normal": {"mean": 0, "sd": -1, "min": 0, "max": 1}}]}"#,
                "sample[0].normal: expected finite numbers, sd ≥ 0"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a", "normal": {"mean": 0, "sd": 1}}]}"#,
                "sample[0].normal: expected {\"mean\", \"sd\", \"min\", \"max\"}"
            ),
            (
                #"{"scene": "a.json", "count": 3, "sample": [{"key": "a", "choice": []}]}"#,
                "sample[0].choice: expected a non-empty list"
            ),
            (
                #"{"scene": {"example": "segmented"}, "count": 3, "sample": [{"key": "controls[0].preset", "choice": ["clear"]}]}"#,
                "sample[0].key: a preset cannot be sampled over a built-in example"
            ),
            (
                #"{"scenes": [{"workload": "screen"}], "count": 3, "sample": [{"key": "canvas.width", "integer": [9, 10]}]}"#,
                "scenes[0].workload: a benchmark workload's frame cannot be swept or sampled"
            ),
        ])
    func errors(_ json: String, _ message: String) {
        #expect {
            _ = try manifest(json)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
