import Foundation
import LensCompare
import LensModel
import LiquidLens

/// `liquidlens diff`: two PNGs or two folders of them, measured and held to thresholds.
struct DiffCommand: Command {
    static let name = "diff"
    static let abstract = "Compare two PNGs or two folders of PNGs: error, PSNR, SSIM, ΔE2000, pixelmatch, FLIP."
    static let discussion: String? = """
        Folders are matched by relative path: an expected image with no actual one is missing, an
        actual one with no expected one is extra; both fail the run unless --allow-missing or
        --allow-extra says otherwise, and so does a run that compared no pair (--allow-empty). A
        pair fails when a metric breaks its limit; by default when any pixel differs visibly
        (--max-diff-pixels 0). Limits come from --config, then the options (off drops one); exit 1
        when the run fails.
        """

    @Argument("actual", help: "The image (or folder of images) under test.") var actual: String
    @Argument("expected", help: "The reference image (or folder).") var expected: String
    @Option("heatmap", help: "Write a PNG showing where two images differ (- for stdout).") var heatmap: String?
    @Flag("allow-missing", help: "Let expected images with no actual one pass (folders).") var allowMissing: Bool
    @Flag("allow-extra", help: "Let actual images with no expected one pass (folders).") var allowExtra: Bool
    @Flag("allow-empty", help: "Let a folder comparison that compared no pair pass.") var allowEmpty: Bool
    var thresholds = ThresholdOptions()
    var reports = ReportOptions()

    func run() throws {
        let heatmapURL = heatmap.map(Console.outputURL)
        let junit = reports.junitURL
        var configuration = try thresholds.configuration(defaults: DiffConfiguration())
        if allowMissing { configuration.allowMissing = true }
        if allowExtra { configuration.allowExtra = true }
        if allowEmpty { configuration.allowEmpty = true }
        let actualURL = URL(fileURLWithPath: actual)
        let expectedURL = URL(fileURLWithPath: expected)
        for (path, side) in [(actual, "actual"), (expected, "expected")]
        where !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(message: "\(path): no such file or folder (the \(side) side)")
        }
        switch (isFolder(actual), isFolder(expected)) {
        case (true, true):
            if heatmap != nil {
                throw UsageError(message: "--heatmap compares two images; for folders use --report")
            }
            try compareFolders(actualURL, expectedURL, configuration, junit: junit)
        case (false, false):
            try comparePair(actualURL, expectedURL, configuration, heatmap: heatmapURL, junit: junit)
        default:
            throw UsageError(message: "Give two PNG files or two folders, not one of each")
        }
    }

    private func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    private func comparePair(
        _ actualURL: URL, _ expectedURL: URL, _ configuration: DiffConfiguration, heatmap: URL?, junit: URL?
    ) throws {
        let start = Date()
        let stopwatch = Stopwatch()
        let (actualImage, expectedImage) = try PNGCodec.readPair(actualURL, expectedURL)
        let pair = try DiffReport.Pair.compare(
            name: actualURL.lastPathComponent, actual: actualImage, expected: expectedImage,
            configuration: configuration, imageFolder: reports.imageFolder)
        guard let diff = pair.diff else { throw CommandFailure(message: pair.problems.joined(separator: "; ")) }
        Console.say(diff.report)
        if let heatmap {
            try PNGCodec.write(ImageDiff.heatmap(actualImage, expectedImage), to: heatmap)
            Console.say("heatmap:     \(Console.name(heatmap))")
        }
        Console.say("thresholds:  \(pair.thresholds.summary)")
        let report = DiffReport(
            title: "\(actual) vs \(expected)", pairs: [pair], date: start,
            seconds: stopwatch.seconds)
        try reports.finish(report, suiteName: "liquidlens diff", junit: junit)
    }

    private func compareFolders(
        _ actualURL: URL, _ expectedURL: URL, _ configuration: DiffConfiguration, junit: URL?
    ) throws {
        let progress = Progress(total: 0, style: reports.progress.style, unit: "pairs")
        var report = try DiffReport.compareFolders(
            actual: actualURL, expected: expectedURL, configuration: configuration, imageFolder: reports.imageFolder,
            jobs: reports.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        ) { _, total in progress.advance(total: total) }
        progress.finish()
        report.title = "\(actual) vs \(expected)"
        try reports.finish(report, suiteName: "liquidlens diff", junit: junit)
    }
}
