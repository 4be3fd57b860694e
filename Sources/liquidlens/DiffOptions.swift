import Foundation
import LensCompare
import LiquidLens

/// A threshold given on the command line: a limit, or `off` to drop one the config or the
/// default sets.
enum LimitArgument {
    case limit(Double)
    case off
}

extension ValueParser where Value == LimitArgument {
    /// A number in the metric's range, or `off`.
    static func limit(_ metric: DiffMetric) -> Self {
        let range = metric.range
        let whole = metric == .maxError || metric == .maxDiffPixels
        return Self(
            expectation:
                "\(whole ? "a whole number" : "a number") in \(range.lowerBound.formatted)…\(range.upperBound.formatted), or off"
        ) { text in
            if text == "off" { return .off }
            guard let value = Double(text), value.isFinite, range.contains(value), !whole || value.rounded() == value
            else { return nil }
            return .limit(value)
        }
    }
}

/// The thresholds, the config file and the two sensitivity settings of `diff` and `verify`.
struct ThresholdOptions: ParsableArguments {
    @Option(
        "config", valueName: "file",
        help: "JSON thresholds and per-file rules (see the DiffsAndReports article); options override it.")
    var configPath: String?
    @Option("max-error", valueName: "levels", help: "Largest channel difference allowed.", parser: .limit(.maxError))
    var maxError: LimitArgument?
    @Option(
        "min-identical", valueName: "percent", help: "Share of identical pixels required.",
        parser: .limit(.minIdenticalPercent))
    var minIdentical: LimitArgument?
    @Option("min-psnr", valueName: "dB", help: "Lowest PSNR allowed.", parser: .limit(.minPSNR)) var minPSNR:
        LimitArgument?
    @Option("min-ssim", valueName: "value", help: "Lowest mean SSIM allowed.", parser: .limit(.minSSIM))
    var minSSIM: LimitArgument?
    @Option("max-delta-e", valueName: "value", help: "Largest mean CIEDE2000 allowed.", parser: .limit(.maxDeltaE))
    var maxDeltaE: LimitArgument?
    @Option(
        "max-delta-e-99", valueName: "value", help: "Largest 99th-percentile CIEDE2000 allowed.",
        parser: .limit(.maxDeltaE99))
    var maxDeltaE99: LimitArgument?
    @Option(
        "max-diff-pixels", valueName: "count",
        help: "Visibly differing pixels allowed (pixelmatch, anti-aliasing excluded).",
        parser: .limit(.maxDiffPixels))
    var maxDiffPixels: LimitArgument?
    @Option("max-flip", valueName: "value", help: "Largest mean FLIP error allowed.", parser: .limit(.maxFLIP))
    var maxFLIP: LimitArgument?
    @Option(
        "threshold", valueName: "levels",
        help: "Channel difference (0…255) past which a pixel counts as over (default: 1).",
        parser: .integer(in: 0...255))
    var levelThreshold: Int?
    @Option(
        "pixelmatch-threshold", valueName: "0…1", help: "pixelmatch's sensitivity (default: 0.1); smaller is stricter.",
        parser: .number(in: 0...1))
    var pixelmatchThreshold: Double?

    /// `defaults`, then the config file, then the options given.
    func configuration(defaults: DiffConfiguration) throws -> DiffConfiguration {
        var configuration = defaults
        if let configPath {
            configuration = try loadFile(configPath) { try DiffConfiguration.load(contentsOf: $0, over: defaults) }
        }
        let given: [(DiffMetric, LimitArgument?)] = [
            (.maxError, maxError), (.minIdenticalPercent, minIdentical), (.minPSNR, minPSNR), (.minSSIM, minSSIM),
            (.maxDeltaE, maxDeltaE), (.maxDeltaE99, maxDeltaE99), (.maxDiffPixels, maxDiffPixels), (.maxFLIP, maxFLIP),
        ]
        for case let (metric, argument?) in given {
            switch argument {
            case .limit(let value): configuration.thresholds[metric] = value
            case .off: configuration.thresholds[metric] = nil
            }
        }
        if let levelThreshold { configuration.levelThreshold = levelThreshold }
        if let pixelmatchThreshold { configuration.pixelmatchThreshold = pixelmatchThreshold }
        return configuration
    }
}

/// `--junit`, `--report`, `-j`, `--progress` and `-q` of `diff` and `verify`.
struct ReportOptions: ParsableArguments {
    @Option("junit", valueName: "file", help: "Write JUnit XML: one test case per pair.") var junitPath: String?
    @Option("report", valueName: "file.html", help: "Write an HTML report (images in <name>-files/ beside it).")
    var htmlPath: String?
    @Option(
        "jobs", short: "j", valueName: "n", help: "Pairs compared at once (default: the core count).",
        parser: .integer(in: 1...256))
    var jobs: Int?
    var progress = ProgressOption()

    /// Where the HTML report's images go; nil without `--report`.
    var imageFolder: URL? { htmlPath.map { HTMLReport.imageFolder(for: URL(fileURLWithPath: $0)) } }

    /// The `--junit` file, `-` for stdout; asked for before the first report line, so that those
    /// lines move to stderr when the XML takes stdout.
    var junitURL: URL? { junitPath.map(Console.outputURL) }

    /// Writes the reports asked for (the JUnit XML to `junit`, from ``junitURL``) and prints the
    /// failing pairs and the summary; throws (exit 1) when a pair failed.
    func finish(_ report: DiffReport, suiteName: String, junit: URL?) throws {
        if let junit { try report.writeJUnit(to: junit, suiteName: suiteName) }
        if let htmlPath { try HTMLReport.write(report, to: URL(fileURLWithPath: htmlPath)) }
        for pair in report.pairs where pair.outcome != .passed {
            Console.say("\(pair.outcome.rawValue.uppercased()) \(pair.name): \(pair.problems.joined(separator: "; "))")
        }
        Console.say(report.summary + String(format: " (%.2f s)", report.seconds))
        if let junit { Console.say("junit:       \(Console.name(junit))") }
        if let htmlPath { Console.say("report:      \(htmlPath)") }
        guard !report.passed else { return }
        let failed = report.pairs.filter(\.isFailure).count
        guard failed > 0 else {
            throw CommandFailure(
                message: (report.nothingCompared ?? "nothing compared") + " (--allow-empty lets it pass)")
        }
        let unpaired = report.pairs.filter { $0.isFailure && !$0.wasCompared }.count
        throw CommandFailure(
            message: "\(failed) of \(report.pairs.count) pairs failed (\(report.comparedCount) compared"
                + (unpaired > 0 ? ", \(unpaired) missing or extra: --allow-missing, --allow-extra" : "") + ")")
    }
}
