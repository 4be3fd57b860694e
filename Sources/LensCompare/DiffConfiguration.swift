import Foundation
import LensModel

/// How pairs of images are compared and judged: the thresholds, rules that change them for some
/// files, and the two sensitivity settings. A config file sets any of them:
///
/// ```json
/// {"thresholds": {"minSSIM": 0.995, "maxFLIP": 0.01, "maxDiffPixels": null},
///  "files": [{"match": "dark/*.png", "thresholds": {"maxDeltaE99": 2}}],
///  "levelThreshold": 1, "pixelmatchThreshold": 0.1, "allowExtra": false}
/// ```
///
/// `null` removes a limit. Rules apply in order to the pairs whose relative path matches their
/// shell pattern (`*` also crosses folders); a later rule wins.
public struct DiffConfiguration: Sendable {
    /// Threshold changes for the files whose relative path matches `pattern`.
    public struct Rule: Sendable {
        /// A shell pattern (`fnmatch`) over the pair's relative path.
        public var pattern: String
        /// The limits it sets (nil removes one).
        public var overrides: [DiffMetric: Double?]

        /// A rule setting `overrides` for the pairs matching `pattern`.
        public init(pattern: String, overrides: [DiffMetric: Double?]) {
            self.pattern = pattern
            self.overrides = overrides
        }

        /// Whether the rule applies to `name`.
        public func matches(_ name: String) -> Bool { fnmatch(pattern, name, 0) == 0 }
    }

    /// The limits every pair is held to, before the rules.
    public var thresholds: DiffThresholds
    /// Per-file changes, applied in order.
    public var rules: [Rule]
    /// Levels a channel may differ by before its pixel counts in "over N/255".
    public var levelThreshold: Int
    /// pixelmatch's sensitivity, 0…1.
    public var pixelmatchThreshold: Double
    /// Whether an expected image with no actual one is let pass (by default it fails the run).
    public var allowMissing = false
    /// Whether an actual image with no expected one is let pass (by default it fails the run, as a
    /// new screen without a reference is in visual-regression tools).
    public var allowExtra = false
    /// Whether a folder comparison that compared no pair passes (by default it fails: an empty or
    /// mistyped expected folder must not look like a green run).
    public var allowEmpty = false

    /// A configuration; by default a pair fails when a pixel differs visibly.
    public init(
        thresholds: DiffThresholds = .visiblySame, rules: [Rule] = [], levelThreshold: Int = 1,
        pixelmatchThreshold: Double = 0.1
    ) {
        self.thresholds = thresholds
        self.rules = rules
        self.levelThreshold = levelThreshold
        self.pixelmatchThreshold = pixelmatchThreshold
    }

    /// The thresholds for the pair named `name`: the rules that match it applied in order.
    public func thresholds(for name: String) -> DiffThresholds {
        rules.filter { $0.matches(name) }.reduce(thresholds) { $0.applying($1.overrides) }
    }

    /// Reads a config file over `defaults`; errors name the file's key path.
    public static func load(contentsOf url: URL, over defaults: DiffConfiguration = DiffConfiguration()) throws
        -> DiffConfiguration
    {
        try decode(try SceneError.readFile(url, document: "config"), over: defaults)
    }

    /// Parses config JSON over `defaults`.
    public static func decode(_ data: Data, over defaults: DiffConfiguration = DiffConfiguration()) throws
        -> DiffConfiguration
    {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw SceneError(keyPath: "", message: "not valid JSON")
        }
        let object = try dictionary(
            root, keyPath: "",
            known: [
                "thresholds", "files", "levelThreshold", "pixelmatchThreshold", "allowMissing", "allowExtra",
                "allowEmpty",
            ])
        var configuration = defaults
        for (key, allowance) in [
            ("allowMissing", \DiffConfiguration.allowMissing), ("allowExtra", \.allowExtra),
            ("allowEmpty", \.allowEmpty),
        ] {
            guard let value = object[key] else { continue }
            // JSON's true and false decode as NSNumber's boolean kind ("c"); 0 and 1 must not pass for them.
            guard let number = value as? NSNumber, String(cString: number.objCType) == "c", let flag = value as? Bool
            else {
                throw SceneError(keyPath: key, message: "expected true or false")
            }
            configuration[keyPath: allowance] = flag
        }
        if let thresholds = object["thresholds"] {
            configuration.thresholds = defaults.thresholds.applying(try overrides(thresholds, keyPath: "thresholds"))
        }
        if let level = object["levelThreshold"] {
            configuration.levelThreshold = Int(try number(level, keyPath: "levelThreshold", in: 0...255, whole: true))
        }
        if let sensitivity = object["pixelmatchThreshold"] {
            configuration.pixelmatchThreshold = try number(sensitivity, keyPath: "pixelmatchThreshold", in: 0...1)
        }
        if let files = object["files"] {
            guard let list = files as? [Any] else {
                throw SceneError(keyPath: "files", message: "expected a list of rules")
            }
            configuration.rules = try list.enumerated().map { index, entry in
                let keyPath = "files[\(index)]"
                let rule = try dictionary(entry, keyPath: keyPath, known: ["match", "thresholds"])
                guard let pattern = rule["match"] as? String, !pattern.isEmpty else {
                    throw SceneError(
                        keyPath: keyPath + ".match", message: "expected a file pattern such as \"dark/*.png\"")
                }
                return Rule(
                    pattern: pattern,
                    overrides: try overrides(rule["thresholds"] ?? [:], keyPath: keyPath + ".thresholds"))
            }
        }
        return configuration
    }

    private static func dictionary(_ value: Any, keyPath: String, known: [String]) throws -> [String: Any] {
        guard let object = value as? [String: Any] else {
            throw SceneError(keyPath: keyPath, message: "expected an object")
        }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw SceneError(
                keyPath: keyPath.isEmpty ? unknown : "\(keyPath).\(unknown)",
                message: "unknown key (expected one of: \(known.sorted().joined(separator: ", ")))")
        }
        return object
    }

    private static func overrides(_ value: Any, keyPath: String) throws -> [DiffMetric: Double?] {
        let object = try dictionary(value, keyPath: keyPath, known: DiffMetric.allCases.map(\.rawValue))
        var result: [DiffMetric: Double?] = [:]
        for (key, limit) in object {
            let metric = DiffMetric(rawValue: key)!
            result[metric] =
                limit is NSNull
                ? .some(nil)
                : try number(
                    limit, keyPath: "\(keyPath).\(key)", in: metric.range,
                    whole: metric == .maxError || metric == .maxDiffPixels)
        }
        return result
    }

    private static func number(_ value: Any, keyPath: String, in range: ClosedRange<Double>, whole: Bool = false) throws
        -> Double
    {
        guard let number = value as? NSNumber,
            range.contains(number.doubleValue), !whole || number.doubleValue.rounded() == number.doubleValue
        else {
            throw SceneError(
                keyPath: keyPath,
                message:
                    "expected \(whole ? "a whole number" : "a number") in \(range.lowerBound.formatted)…\(range.upperBound.formatted)"
            )
        }
        return number.doubleValue
    }
}
