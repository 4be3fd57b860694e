import Foundation
import LensModel

extension BatchManifest {
    /// Random frames: `count` frames, each with every sampled key drawn anew (and, from a list of
    /// scenes, one of them chosen). Frame k's values depend only on the seed and k, so shards and
    /// resumed runs give the frames one run gives.
    ///
    /// ```json
    /// {"scene": "lens.json", "name": "random", "count": 1000, "seed": 7,
    ///  "sample": [{"key": "glass[0].frame.x", "uniform": [20, 150]},
    ///             {"key": "glass[0].optics.frost", "normal": {"mean": 6, "sd": 3, "min": 0, "max": 12}},
    ///             {"key": "controls[0].thumbPosition", "integer": [0, 3]},
    ///             {"key": "glass[0].optics.preset", "choice": ["regular", "clear"]}]}
    /// ```
    public struct Sampling: Sendable {
        /// The number of frames.
        public var count: Int
        /// The seed every frame's values are drawn from.
        public var seed: UInt64
        /// The keys drawn for each frame, in order.
        public var samples: [Sample]
    }

    /// One key drawn at random for each frame.
    public struct Sample: Sendable {
        /// A key path in the scene's JSON, as errors print them: `glass[0].frame.x`.
        public var key: String
        package var distribution: Distribution
    }

    /// What a sampled key's values are drawn from.
    package enum Distribution: Sendable {
        /// A number in `lower ..< upper` (the lower bound when they are equal).
        case uniform(lower: Double, upper: Double)
        /// A normal number clipped to `lower ... upper`.
        case normal(mean: Double, deviation: Double, lower: Double, upper: Double)
        /// A whole number in `lower ... upper`, each equally likely.
        case integer(lower: Int, upper: Int)
        /// One of the values (numbers, strings, objects, a preset's or an example's name), each
        /// equally likely.
        case choice([JSONValue])
    }

    /// `count`, `seed` and `sample` of a manifest's object, or nil when it has none of them.
    static func sampling(_ object: [String: Any]) throws -> Sampling? {
        guard object["count"] != nil || object["seed"] != nil || object["sample"] != nil else { return nil }
        guard let count = object["count"] else {
            throw SceneError(keyPath: "count", message: "random frames need a count (\"count\": frames)")
        }
        guard let count = count as? Int, (1...Limits.batchFrames).contains(count) else {
            throw SceneError(keyPath: "count", message: "expected a whole number in 1…\(Limits.batchFrames)")
        }
        if object["sweep"] != nil {
            throw SceneError(keyPath: "count", message: "give sweeps or a count of random frames, not both")
        }
        var seed: UInt64 = 0
        if let value = object["seed"] {
            guard let value = value as? Int, (0...Limits.batchSeed).contains(value) else {
                throw SceneError(keyPath: "seed", message: "expected a whole number in 0…\(Limits.batchSeed)")
            }
            seed = UInt64(value)
        }
        return Sampling(count: count, seed: seed, samples: try samples(object["sample"] ?? [Any]()))
    }

    private static func samples(_ value: Any) throws -> [Sample] {
        guard let list = value as? [Any], list.count <= Limits.batchSamples else {
            throw SceneError(keyPath: "sample", message: "expected a list of up to \(Limits.batchSamples) keys")
        }
        return try list.enumerated().map { index, entry in
            let keyPath = "sample[\(index)]"
            let kinds = ["uniform", "normal", "integer", "choice"]
            guard let entry = entry as? [String: Any], let key = entry["key"] as? String, !key.isEmpty,
                entry.count == 2, let kind = kinds.first(where: { entry[$0] != nil })
            else {
                throw SceneError(
                    keyPath: keyPath,
                    message: "expected {\"key\": …} and one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            _ = try JSONValue.path(key, keyPath: "\(keyPath).key")
            return Sample(key: key, distribution: try distribution(kind, entry[kind]!, keyPath: "\(keyPath).\(kind)"))
        }
    }

    private static func distribution(_ kind: String, _ value: Any, keyPath: String) throws -> Distribution {
        switch kind {
        case "uniform":
            let (lower, upper) = try bounds(value, keyPath: keyPath)
            return .uniform(lower: lower, upper: upper)
        case "integer":
            guard let pair = value as? [Any], pair.count == 2, let lower = pair[0] as? Int, let upper = pair[1] as? Int,
                lower <= upper, abs(lower) <= Limits.batchSeed, abs(upper) <= Limits.batchSeed
            else {
                throw SceneError(
                    keyPath: keyPath, message: "expected [lowest, highest]: whole numbers within ±\(Limits.batchSeed)")
            }
            return .integer(lower: lower, upper: upper)
        case "normal":
            return try normal(value, keyPath: keyPath)
        default:
            guard let values = value as? [Any], !values.isEmpty else {
                throw SceneError(keyPath: keyPath, message: "expected a non-empty list of values")
            }
            return .choice(values.map(JSONValue.init))
        }
    }

    /// `[lower, upper]`: finite numbers, the first no greater than the second.
    private static func bounds(_ value: Any, keyPath: String) throws -> (Double, Double) {
        guard let pair = value as? [Any], pair.count == 2, let lower = (pair[0] as? NSNumber)?.doubleValue,
            let upper = (pair[1] as? NSNumber)?.doubleValue, lower.isFinite, upper.isFinite, lower <= upper
        else {
            throw SceneError(keyPath: keyPath, message: "expected [lower, upper]: finite numbers, lower ≤ upper")
        }
        return (lower, upper)
    }

    private static func normal(_ value: Any, keyPath: String) throws -> Distribution {
        let keys = ["mean", "sd", "min", "max"]
        guard let object = value as? [String: Any], Set(object.keys) == Set(keys) else {
            throw SceneError(
                keyPath: keyPath,
                message: "expected {\"mean\", \"sd\", \"min\", \"max\"} (the values are clipped to min…max)")
        }
        let numbers = keys.map { (object[$0] as? NSNumber)?.doubleValue ?? .nan }
        guard numbers.allSatisfy(\.isFinite), numbers[1] >= 0, numbers[2] <= numbers[3] else {
            throw SceneError(keyPath: keyPath, message: "expected finite numbers, sd ≥ 0 and min ≤ max")
        }
        return .normal(mean: numbers[0], deviation: numbers[1], lower: numbers[2], upper: numbers[3])
    }

    /// The keys frame `index` sets and their values as one compact JSON object, keys sorted
    /// (`{"glass[0].frame.x":42.5}`); nil for a list of scenes, which sets none.
    package func keyValuesJSON(_ index: Int) -> String? {
        let values = keyValues(index)
        guard !values.isEmpty else { return nil }
        let object = Dictionary(values.map { ($0.key, $0.value.object) }) { _, last in last }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The values of frame `index`'s sampled keys, in the manifest's order.
    func sampledValues(_ index: Int, of sampling: Sampling) -> [(key: String, value: JSONValue)] {
        sampling.samples.enumerated().map { number, sample in
            var random = FrameRandom(seed: sampling.seed, frame: index, stream: number + 1)
            return (sample.key, random.value(of: sample.distribution))
        }
    }

    /// The scene of a random frame `index`: one of a list, chosen by the seed and the frame.
    func sampledSceneIndex(_ index: Int, of sampling: Sampling) -> Int {
        var random = FrameRandom(seed: sampling.seed, frame: index, stream: 0)
        return random.whole(below: scenes.count)
    }
}

/// The random numbers of one frame's key: SplitMix64 from the seed, the frame and the key's place
/// (its own stream, so that adding a key leaves the others' values as they were). Every step is
/// integer arithmetic but the normal distribution's `log` and `cos`, so the values do not depend
/// on the toolchain, and a normal's only on the platform's libm.
struct FrameRandom {
    private var state: UInt64

    init(seed: UInt64, frame: Int, stream: Int) {
        state = Self.mixed(Self.mixed(Self.mixed(seed) ^ UInt64(frame)) ^ UInt64(stream))
    }

    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        state = Self.mixed(state)
        return state
    }

    /// A number in 0 ..< 1 with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A whole number in 0 ..< `count`, each equally likely (draws that would favour some are
    /// drawn again).
    mutating func whole(below count: Int) -> Int {
        let span = UInt64(count)
        let limit = UInt64.max - UInt64.max % span
        var draw = next()
        while draw >= limit { draw = next() }
        return Int(draw % span)
    }

    mutating func value(of distribution: BatchManifest.Distribution) -> JSONValue {
        switch distribution {
        case .uniform(let lower, let upper):
            return JSONValue(NSNumber(value: lower + (upper - lower) * unit()))
        case .normal(let mean, let deviation, let lower, let upper):
            // Box–Muller: 1 − unit() is in (0, 1], so its logarithm is finite.
            let radius = (-2 * Foundation.log(1 - unit())).squareRoot()
            let normal = radius * Foundation.cos(2 * Double.pi * unit())
            return JSONValue(NSNumber(value: min(max(mean + deviation * normal, lower), upper)))
        case .integer(let lower, let upper):
            return JSONValue(NSNumber(value: lower + whole(below: upper - lower + 1)))
        case .choice(let values):
            return values[whole(below: values.count)]
        }
    }
}
