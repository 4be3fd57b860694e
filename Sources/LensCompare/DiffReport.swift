import Foundation
import LensIO
import LensModel

/// The outcome of comparing pairs of images: what each pair measured against its thresholds,
/// and a summary. ``junitXML(suiteName:hostname:)`` and ``HTMLReport`` write it for CI systems and people.
///
/// ```swift
/// var report = DiffReport(title: "screens")
/// report.pairs.append(try DiffReport.Pair.compare(name: "home.png", actual: image, expected: reference))
/// #expect(report.passed, "\(report.failureSummary)")
/// ```
public struct DiffReport: Sendable {
    /// How a pair ended.
    public enum Outcome: String, Sendable {
        /// Within every threshold.
        case passed
        /// Over a threshold, a different size, or unreadable.
        case failed
        /// The expected image has no actual one: a failure unless ``DiffConfiguration/allowMissing``.
        case missing
        /// An actual image without an expected one: a failure unless ``DiffConfiguration/allowExtra``.
        case extra
    }

    /// Image files of a pair, for the HTML report.
    public struct Images: Sendable, Equatable {
        /// The reference image.
        public var expected: URL?
        /// The image under test.
        public var actual: URL?
        /// Where they differ (``ImageDiff/heatmap(_:_:)``); nil when identical.
        public var heatmap: URL?

        /// Image files of a pair.
        public init(expected: URL? = nil, actual: URL? = nil, heatmap: URL? = nil) {
            self.expected = expected
            self.actual = actual
            self.heatmap = heatmap
        }
    }

    /// One compared pair.
    public struct Pair: Sendable {
        /// The pair's name: its relative path in a folder diff, or the frame's name.
        public let name: String
        /// Whether it passed.
        public let outcome: Outcome
        /// The measurements; nil when the pair could not be compared (missing, unreadable, sizes differ).
        public let diff: ImageDiff?
        /// The limits it was held to.
        public let thresholds: DiffThresholds
        /// Why it failed (thresholds broken, or why it could not be compared); empty when it passed.
        public let problems: [String]
        /// Its image files, when written for a report.
        public var images: Images
        /// Seconds spent reading and comparing it.
        public let seconds: Double
        /// Whether a missing or extra pair is let pass (``DiffConfiguration/allowMissing``,
        /// ``DiffConfiguration/allowExtra``).
        public let isAllowed: Bool

        /// A pair with every field given.
        public init(
            name: String, outcome: Outcome, diff: ImageDiff?, thresholds: DiffThresholds, problems: [String],
            images: Images = Images(), seconds: Double = 0, isAllowed: Bool = false
        ) {
            self.name = name
            self.outcome = outcome
            self.diff = diff
            self.thresholds = thresholds
            self.problems = problems
            self.images = images
            self.seconds = seconds
            self.isAllowed = isAllowed
        }

        /// Whether this pair makes the run fail: it failed, or it is missing or extra and not allowed.
        public var isFailure: Bool {
            switch outcome {
            case .passed: false
            case .failed: true
            case .missing, .extra: !isAllowed
            }
        }

        /// Whether both images were there to compare (it passed or failed).
        public var wasCompared: Bool { outcome == .passed || outcome == .failed }

        /// Compares two images under `configuration` (its rules matched against `name`). With an
        /// `imageFolder`, writes both images and, when they differ, the heatmap there (atomically),
        /// named after `index` and `name`, for the HTML report.
        public static func compare(
            name: String, actual: RGBA8Image, expected: RGBA8Image,
            configuration: DiffConfiguration = DiffConfiguration(), imageFolder: URL? = nil, index: Int = 0
        ) throws -> Pair {
            let start = Stopwatch()
            let thresholds = configuration.thresholds(for: name)
            let diff: ImageDiff
            do {
                diff = try ImageDiff(
                    actual, expected, threshold: configuration.levelThreshold,
                    pixelmatchThreshold: configuration.pixelmatchThreshold)
            } catch let error as ImageFileError {
                return Pair(
                    name: name, outcome: .failed, diff: nil, thresholds: thresholds, problems: [error.description],
                    seconds: start.seconds)
            }
            var images = Images()
            if let imageFolder {
                let stem = imageFolder.appendingPathComponent(assetStem(index: index, name: name)).path
                images.expected = URL(fileURLWithPath: stem + "-expected.png")
                images.actual = URL(fileURLWithPath: stem + "-actual.png")
                try PNGCodec.write(expected, to: images.expected!, compression: .fast)
                try PNGCodec.write(actual, to: images.actual!, compression: .fast)
                images.heatmap = try writeHeatmap(diff, actual, expected, stem: stem)
            }
            let problems = thresholds.violations(of: diff)
            return Pair(
                name: name, outcome: problems.isEmpty ? .passed : .failed, diff: diff, thresholds: thresholds,
                problems: problems, images: images, seconds: start.seconds)
        }

        /// Writes the heatmap beside the pair's images when they differ; its URL, or nil.
        static func writeHeatmap(_ diff: ImageDiff, _ actual: RGBA8Image, _ expected: RGBA8Image, stem: String) throws
            -> URL?
        {
            guard diff.identicalPixels < diff.pixelCount else { return nil }
            let url = URL(fileURLWithPath: stem + "-heatmap.png")
            try PNGCodec.write(ImageDiff.heatmap(actual, expected), to: url, compression: .fast)
            return url
        }

        /// `0001-dark-home` for pair 0 named `dark/home.png`: unique, readable, safe as a file name.
        static func assetStem(index: Int, name: String) -> String {
            let base = (name as NSString).deletingPathExtension
            let slug = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(80))
            return String(format: "%04d-", index + 1) + slug
        }
    }

    /// What the report is about, shown as its title.
    public var title: String
    /// The pairs, in order.
    public var pairs: [Pair]
    /// When the comparison ran.
    public var date: Date
    /// Seconds the whole comparison took.
    public var seconds: Double
    /// Whether a report that compared no pair passes (``DiffConfiguration/allowEmpty``).
    public var allowsEmpty = false

    /// A report of `pairs`.
    public init(title: String, pairs: [Pair] = [], date: Date = Date(), seconds: Double = 0) {
        self.title = title
        self.pairs = pairs
        self.date = date
        self.seconds = seconds
    }

    /// Whether no pair failed, and some pair was compared (unless ``allowsEmpty``).
    public var passed: Bool { !pairs.contains(where: \.isFailure) && (comparedCount > 0 || allowsEmpty) }

    /// How many pairs had both images to compare.
    public var comparedCount: Int { pairs.filter(\.wasCompared).count }

    /// Why the run failed although no pair did: nothing was compared. Nil when something was.
    public var nothingCompared: String? {
        guard comparedCount == 0 && !allowsEmpty else { return nil }
        let expected = pairs.filter { $0.outcome != .extra }.count
        return expected == 0
            ? "compared no pair: the expected side holds no images"
            : "compared no pair: none of the \(expected) expected images has an actual one"
    }

    /// Pairs with the given outcome.
    public func count(_ outcome: Outcome) -> Int { pairs.filter { $0.outcome == outcome }.count }

    /// `12 pairs: 10 passed, 1 failed, 1 missing, 0 extra`.
    public var summary: String {
        "\(pairs.count) pairs: \(count(.passed)) passed, \(count(.failed)) failed, \(count(.missing)) missing, \(count(.extra)) extra"
    }

    /// One line per failing pair with its problems (and why nothing compared is a failure), for
    /// test messages.
    public var failureSummary: String {
        (pairs.filter(\.isFailure).map { "\($0.name): \($0.problems.joined(separator: "; "))" }
            + [nothingCompared].compactMap { $0 }).joined(separator: "\n")
    }
}
