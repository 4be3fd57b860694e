import Foundation
import LensModel

/// A batch: a list of scenes, one scene with parameter sweeps whose cartesian product gives the
/// frames, or a count of random frames (``Sampling``). Output names are deterministic, so a batch
/// can be sharded, resumed and compared.
///
/// ```json
/// {"scenes": ["a.json", {"example": "tab-bar"}, {"workload": "screen"}]}
/// {"scene": "lens.json", "name": "move",
///  "sweep": [{"key": "glass[0].frame.x", "from": 100, "to": 500, "steps": 24},
///            {"key": "glass[0].optics.frost", "values": [0, 4, 8]}]}
/// {"scenes": [{"example": "segmented"}, {"example": "tab-bar"}], "count": 1000, "seed": 7,
///  "sample": [{"key": "controls[0].lift", "uniform": [0, 1]}]}
/// ```
public struct BatchManifest: Sendable {
    /// Where a scene comes from.
    public enum Source: Sendable, Equatable {
        /// A scene file, relative to the manifest.
        case file(String)
        /// A built-in scene (`liquidlens examples`).
        case example(BuiltInScene)
        /// The frame of a benchmark workload that `liquidlens bench` verifies: the middle one of
        /// its default run.
        case workload(BenchmarkWorkload)
    }

    /// One swept key and the values it takes, in order.
    public struct Sweep: Sendable {
        /// A key path in the scene's JSON, as errors print them: `glass[0].frame.x`.
        public var key: String
        /// JSON values (numbers, strings, objects).
        package var values: [JSONValue]
    }

    /// The scenes, in order; with sweeps, the one scene they vary.
    public var scenes: [Source]
    /// The swept keys, at most 8; empty renders each scene once.
    public var sweeps: [Sweep]
    /// Prefix of swept outputs: `<name>-00001`.
    public var name: String
    /// Pixels per point for every frame; nil keeps each scene's.
    public var scale: Double?
    /// The folder relative scene paths are read from.
    public var baseDirectory: URL
    /// Random frames; nil for a list or a sweep.
    public var sampling: Sampling? = nil

    /// The number of frames: one per scene, the product of the sweeps' lengths, or the count of
    /// random frames.
    public var count: Int {
        if let sampling { return sampling.count }
        return sweeps.isEmpty ? scenes.count : sweeps.reduce(1) { $0 * $1.values.count }
    }

    /// Reads and checks a manifest file.
    public static func load(contentsOf url: URL) throws -> BatchManifest {
        try decode(try SceneError.readFile(url, document: "manifest"), baseDirectory: url.deletingLastPathComponent())
    }

    /// Parses manifest JSON; errors name the key.
    public static func decode(_ data: Data, baseDirectory: URL) throws -> BatchManifest {
        let object = try topLevelObject(data)
        var manifest = BatchManifest(
            scenes: [], sweeps: [], name: "frame", scale: nil, baseDirectory: baseDirectory)
        try manifest.decodeScenes(object)
        manifest.sampling = try sampling(object)
        try manifest.checkVaried(listed: object["scenes"] != nil)
        if let name = object["name"] {
            guard let name = name as? String, !name.isEmpty, name.count <= Limits.batchNameLength,
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else {
                throw SceneError(
                    keyPath: "name", message: "expected 1…\(Limits.batchNameLength) letters, digits, - or _")
            }
            manifest.name = name
        }
        if let scale = object["scale"] {
            guard let value = (scale as? NSNumber)?.doubleValue, value.isFinite, Limits.scale.contains(value) else {
                throw SceneError(
                    keyPath: "scale",
                    message:
                        "expected a number in \(Limits.scale.lowerBound.formatted)…\(Limits.scale.upperBound.formatted)"
                )
            }
            manifest.scale = value
        }
        guard manifest.count <= Limits.batchFrames else {
            throw SceneError(
                keyPath: "sweep",
                message: "the sweeps make \(manifest.count) frames; the limit is \(Limits.batchFrames)")
        }
        return manifest
    }

    /// The manifest's JSON object, within the size limit and with no key a manifest does not have.
    private static func topLevelObject(_ data: Data) throws -> [String: Any] {
        guard data.count <= Limits.sceneFileBytes else {
            throw SceneError(
                keyPath: "", message: "manifest is \(data.count) bytes; the limit is \(Limits.sceneFileBytes)")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw SceneError.notJSON(data, document: "manifest", parserError: error)
        }
        guard let object = root as? [String: Any] else {
            throw SceneError(keyPath: "", message: "the manifest must be a JSON object")
        }
        let known: Set<String> = ["scenes", "scene", "sweep", "name", "scale", "count", "seed", "sample"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw SceneError(
                keyPath: unknown, message: "unknown key (expected one of: \(known.sorted().joined(separator: ", ")))")
        }
        return object
    }

    /// `scenes` (a list), or `scene` with its `sweep`: one of the two, and nothing swept that
    /// cannot be (a workload's frame; a preset over an example, whose keys would override it).
    private mutating func decodeScenes(_ object: [String: Any]) throws {
        switch (object["scenes"], object["scene"]) {
        case (let list?, nil):
            guard let list = list as? [Any], !list.isEmpty, list.count <= Limits.batchFrames else {
                throw SceneError(keyPath: "scenes", message: "expected a list of 1…\(Limits.batchFrames) scenes")
            }
            scenes = try list.enumerated().map { try Self.source($1, keyPath: "scenes[\($0)]") }
            if object["sweep"] != nil {
                throw SceneError(keyPath: "sweep", message: "sweeps apply to one \"scene\", not to a \"scenes\" list")
            }
        case (nil, let single?):
            scenes = [try Self.source(single, keyPath: "scene")]
            sweeps = try Self.sweeps(object["sweep"] ?? [Any]())
        case (nil, nil):
            throw SceneError(keyPath: "", message: "give \"scenes\" (a list) or \"scene\" (with \"sweep\")")
        case (_?, _?):
            throw SceneError(keyPath: "", message: "give either \"scenes\" or \"scene\", not both")
        }
    }

    /// Nothing swept or sampled that cannot be: a workload's frame, or a preset over an example
    /// (whose keys would override it); a count of one scene needs keys to sample.
    private func checkVaried(listed: Bool) throws {
        let keys = sweeps.map(\.key) + (sampling?.samples.map(\.key) ?? [])
        let (what, done) = sampling == nil ? ("sweep", "swept") : ("sample", "sampled")
        if sampling?.samples.isEmpty == true && scenes.count == 1 {
            throw SceneError(
                keyPath: "sample", message: "random frames of one scene need keys to sample (\"sample\": [...])")
        }
        guard !keys.isEmpty else { return }
        if let index = scenes.firstIndex(where: { if case .workload = $0 { true } else { false } }) {
            throw SceneError(
                keyPath: listed ? "scenes[\(index)].workload" : "scene.workload",
                message: "a benchmark workload's frame cannot be swept or sampled (vary a scene file or an example)")
        }
        let hasExample = scenes.contains { if case .example = $0 { true } else { false } }
        if hasExample, let index = keys.firstIndex(where: Self.setsPreset) {
            let place = index < sweeps.count ? index : index - sweeps.count
            throw SceneError(
                keyPath: "\(what)[\(place)].key",
                message:
                    "a preset cannot be \(done) over a built-in example: the example spells out every key the preset sets, and those would override it (vary a scene file that names its preset)"
            )
        }
    }

    private static func source(_ value: Any, keyPath: String) throws -> Source {
        if let path = value as? String, !path.isEmpty { return .file(path) }
        if let object = value as? [String: Any], object.count == 1, let name = object["example"] as? String {
            return .example(try named(name, kind: "example", keyPath: "\(keyPath).example"))
        }
        if let object = value as? [String: Any], object.count == 1, let name = object["workload"] as? String {
            return .workload(try named(name, kind: "workload", keyPath: "\(keyPath).workload"))
        }
        throw SceneError(
            keyPath: keyPath, message: "expected a scene file path, {\"example\": name} or {\"workload\": name}")
    }

    /// The case of `Name` called `name`; an error listing the names otherwise.
    private static func named<Name: RawRepresentable & CaseIterable>(_ name: String, kind: String, keyPath: String)
        throws -> Name where Name.RawValue == String
    {
        guard let value = Name(rawValue: name) else {
            let names = Name.allCases.map(\.rawValue).joined(separator: ", ")
            throw SceneError(keyPath: keyPath, message: "unknown \(kind) \"\(name)\" (expected one of: \(names))")
        }
        return value
    }

    private static func sweeps(_ value: Any) throws -> [Sweep] {
        guard let list = value as? [Any], list.count <= Limits.batchSweeps else {
            throw SceneError(keyPath: "sweep", message: "expected a list of up to \(Limits.batchSweeps) sweeps")
        }
        return try list.enumerated().map { index, entry in
            let keyPath = "sweep[\(index)]"
            guard let entry = entry as? [String: Any], let key = entry["key"] as? String, !key.isEmpty else {
                throw SceneError(
                    keyPath: keyPath,
                    message: "expected {\"key\": …, \"from\", \"to\", \"steps\"} or {\"key\": …, \"values\": […]}")
            }
            _ = try JSONValue.path(key, keyPath: "\(keyPath).key")
            if let values = entry["values"] {
                guard entry.count == 2, let values = values as? [Any], !values.isEmpty else {
                    throw SceneError(
                        keyPath: "\(keyPath).values", message: "expected a non-empty list (and no from/to/steps)")
                }
                return Sweep(key: key, values: values.map(JSONValue.init))
            }
            let unknown = Set(entry.keys).subtracting(["key", "from", "to", "steps"])
            if let extra = unknown.sorted().first {
                throw SceneError(
                    keyPath: "\(keyPath).\(extra)", message: "unknown key (expected key, from, to, steps or values)")
            }
            guard let from = (entry["from"] as? NSNumber)?.doubleValue, from.isFinite,
                let to = (entry["to"] as? NSNumber)?.doubleValue, to.isFinite
            else {
                throw SceneError(keyPath: keyPath, message: "\"from\" and \"to\" must be finite numbers")
            }
            guard let steps = entry["steps"] as? Int, (1...Limits.batchFrames).contains(steps) else {
                throw SceneError(
                    keyPath: "\(keyPath).steps", message: "expected a whole number in 1…\(Limits.batchFrames)")
            }
            let values = (0..<steps).map { step in
                steps == 1 ? from : from + (to - from) * Double(step) / Double(steps - 1)
            }
            return Sweep(key: key, values: values.map { JSONValue(NSNumber(value: $0)) })
        }
    }

    /// Whether sweeping `key` sets a preset. A preset applies before the keys beside it, so it is
    /// swept over the scene file as written: over the decoded scene, which spells out every key,
    /// the keys beside it would override it and the sweep would change nothing.
    static func setsPreset(_ key: String) -> Bool {
        (try? JSONValue.path(key, keyPath: "sweep"))?.last == .key("preset")
    }

    /// Output file stem of frame `index` (without extension): the scene's name for a list, the
    /// manifest's name and the frame number for a sweep, zero-padded so names sort in order.
    public func outputStem(_ index: Int) -> String {
        let number = frameNumber(index)
        guard sweeps.isEmpty && sampling == nil else { return "\(name)-\(number)" }
        switch scenes[index] {
        case .file(let path): return "\(number)-\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)"
        case .example(let example): return "\(number)-\(example.rawValue)"
        case .workload(let workload): return "\(number)-\(workload.rawValue)"
        }
    }

    /// Frame `index`'s number from 1, zero-padded to at least five digits so names sort in order.
    public func frameNumber(_ index: Int) -> String {
        let digits = max(5, String(count).count)
        return String(repeating: "0", count: max(0, digits - String(index + 1).count)) + String(index + 1)
    }

    /// The slice of frames shard `index` of `count` renders: contiguous, disjoint, and together
    /// all frames (shard sizes differ by at most one).
    public func shard(_ index: Int, of count: Int) -> Range<Int> {
        precondition(count >= 1 && (0..<count).contains(index), "shard out of range")
        return self.count * index / count..<self.count * (index + 1) / count
    }

    /// The scene of frame `index` and the folder its relative paths are read from; `text` sets
    /// the lens-heavy workload's label row.
    public func scene(_ index: Int, text: any TextRasterizer) throws -> (scene: Scene, baseDirectory: URL?) {
        let sourceIndex: Int
        if let sampling {
            sourceIndex = sampledSceneIndex(index, of: sampling)
        } else {
            sourceIndex = sweeps.isEmpty ? index : 0
        }
        let (base, fileData, directory) = try load(scenes[sourceIndex], text: text)
        let assignments = keyValues(index)
        guard !assignments.isEmpty else { return (base, directory) }
        var json: Any
        do {
            if let fileData, assignments.contains(where: { Self.setsPreset($0.key) }) {
                json = try JSONSerialization.jsonObject(with: fileData)
            } else {
                json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(base))
            }
        } catch {
            throw SceneError(keyPath: "scene", message: "this scene cannot be varied: \(error)")
        }
        for (key, value) in assignments {
            try JSONValue.set(value, at: try JSONValue.path(key, keyPath: "sweep"), in: &json, key: key)
        }
        let data = try JSONSerialization.data(withJSONObject: json)
        let kind = sampling == nil ? "sweep" : "random frames"
        do {
            return (try Scene.decode(data), directory)
        } catch let error as SceneError {
            throw SceneError(keyPath: error.keyPath, message: "\(error.message) (frame \(index + 1) of the \(kind))")
        }
    }

    /// The keys frame `index` sets and their values: drawn for random frames, in the manifest's
    /// order; for a sweep, the last sweep's value innermost.
    package func keyValues(_ index: Int) -> [(key: String, value: JSONValue)] {
        if let sampling { return sampledValues(index, of: sampling) }
        var remainder = index
        var values: [(key: String, value: JSONValue)] = []
        for sweep in sweeps.reversed() {
            values.append((sweep.key, sweep.values[remainder % sweep.values.count]))
            remainder /= sweep.values.count
        }
        return values
    }

    /// A source's scene, the file's bytes when it is a file, and the folder its paths are read from.
    private func load(_ source: Source, text: any TextRasterizer) throws -> (Scene, Data?, URL?) {
        switch source {
        case .file(let path):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
            let data = try SceneError.readFile(url, document: "scene")
            return (try Scene.decode(data), data, url.deletingLastPathComponent())
        case .example(let example):
            return (example.scene, nil, nil)
        case .workload(let workload):
            return (try workload.scene(workload.defaultFrames / 2, of: workload.defaultFrames, text: text), nil, nil)
        }
    }
}

/// A JSON value held as Foundation's parsed object.
package struct JSONValue: @unchecked Sendable {
    let object: Any

    init(_ object: Any) { self.object = object }

    /// One step of a key path: an object key or an array index.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// Parses `glass[0].frame.x`.
    static func path(_ text: String, keyPath: String) throws -> [Step] {
        var steps: [Step] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let name = rest.prefix { $0 != "[" }
            if !name.isEmpty { steps.append(.key(String(name))) }
            rest = rest.dropFirst(name.count)
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    index >= 0
                else { throw SceneError(keyPath: keyPath, message: "cannot read the key path \"\(text)\"") }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty, !(name.isEmpty && steps.isEmpty) else {
                throw SceneError(keyPath: keyPath, message: "cannot read the key path \"\(text)\"")
            }
        }
        return steps
    }

    /// Sets `value` at `path` inside `json`; objects gain missing keys, arrays must have the index.
    static func set(_ value: JSONValue, at path: [Step], in json: inout Any, key: String) throws {
        guard let step = path.first else {
            json = value.object
            return
        }
        switch step {
        case .key(let name):
            // A theme named by its preset alone (`"theme": "frosted"`): the swept name replaces it.
            if name == "preset", path.count == 1, json is String {
                json = value.object
                return
            }
            guard var object = json as? [String: Any] else {
                throw SceneError(keyPath: key, message: "\"\(name)\" is not inside an object in this scene")
            }
            var child = object[name] ?? [String: Any]()
            try set(value, at: Array(path.dropFirst()), in: &child, key: key)
            object[name] = child
            json = object
        case .index(let index):
            guard var array = json as? [Any], index < array.count else {
                throw SceneError(keyPath: key, message: "index \(index) is outside the scene's list")
            }
            try set(value, at: Array(path.dropFirst()), in: &array[index], key: key)
            json = array
        }
    }
}
