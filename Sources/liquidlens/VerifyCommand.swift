import Foundation
import LensCompare
import LensIO
import LensModel
import LiquidLens

/// `liquidlens verify`: every frame of a manifest on the GPU and on the CPU reference, compared.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Render every frame of a batch manifest on the GPU and the CPU reference and compare them."
    static let discussion: String? = """
        Each frame is rendered on Vulkan and on its CPU twin, the reference renderer, and the two
        are measured as 'diff' does (the GPU image is the actual one). By default they must agree
        as the parity tests require: at most 1/255 per channel and at least 99.9 % of pixels
        identical; --config and the threshold options change that. Exit 1 when a frame fails.
        """

    @Argument("manifest", help: "A batch manifest JSON file.") var manifestPath: String
    var thresholds = ThresholdOptions()
    var reports = ReportOptions()
    @Option(
        "failures", valueName: "file.png",
        help:
            "When frames fail, draw them into one PNG, a row each in frame order: GPU, CPU reference, heatmap (the first \(FailureSheet.rowLimit))."
    )
    var failuresPath: String?
    var framesInFlight = FramesInFlightOption()
    var device = DeviceOption()

    func run() throws {
        let junit = reports.junitURL
        let manifest = try loadFile(manifestPath, expected: .manifest, BatchManifest.load(contentsOf:))
        let configuration = try thresholds.configuration(defaults: DiffConfiguration(thresholds: .parity))
        let gpu = try makeRenderer(.vulkan, device.vulkanOptions, whileCompiling: .wait)
        let cpu = try LensRenderer(backend: .cpu)
        let start = Date()
        let stopwatch = Stopwatch()
        let imageFolder = reports.imageFolder
        let progress = Progress(total: manifest.count, style: reports.progress.style)
        let comparisons = Comparisons(
            count: manifest.count, workers: reports.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let failures = failuresPath.map { _ in FailureSheet() }
        let cache = ResolveCache()
        var parameters: [Int: FrameParameters] = [:]
        try gpu.renderBatch(count: manifest.count, framesInFlight: framesInFlight.count) { index in
            do {
                let (scene, directory) = try manifest.scene(index)
                let resolved = try LensRenderer.resolve(
                    scene, baseDirectory: directory, scale: manifest.scale, cache: cache,
                    pixelBudget: CommandEnvironment.pixelBudget)
                parameters[index] = resolved
                return resolved
            } catch let error as SceneError {
                throw CommandFailure(
                    message: "\(manifestPath), frame \(index + 1) (\(manifest.outputStem(index))): \(error)")
            }
        } deliver: { index, gpuImage in
            // The CPU reference spreads one frame over the cores; the comparisons run beside it.
            let cpuImage = try cpu.render(parameters.removeValue(forKey: index)!)
            let name = manifest.outputStem(index)
            try comparisons.add(index) {
                let pair = try DiffReport.Pair.compare(
                    name: name, actual: gpuImage, expected: cpuImage, configuration: configuration,
                    imageFolder: imageFolder, index: index)
                if pair.isFailure { failures?.add(index, gpu: gpuImage, cpu: cpuImage) }
                return pair
            }
            progress.advance(index: index)
        }
        let pairs = try comparisons.finish()
        progress.finish()
        if let failures, let failuresPath, let sheet = failures.sheet() {
            try PNGCodec.write(
                sheet, to: try Console.pngOutputURL(failuresPath, defaultStem: "failures"),
                compression: .fast)
            Console.say("failures:    \(failuresPath)")
        }
        let report = DiffReport(
            title: "\(gpu.backendName) vs cpu reference: \(manifestPath)", pairs: pairs, date: start,
            seconds: stopwatch.seconds)
        try reports.finish(report, suiteName: "liquidlens verify", junit: junit)
    }
}

/// The pairs of the comparisons running on other cores, kept in frame order.
private final class Comparisons: @unchecked Sendable {
    private let work: WorkQueue
    private let lock = NSLock()
    private var pairs: [DiffReport.Pair?]

    init(count: Int, workers: Int) {
        pairs = Array(repeating: nil, count: count)
        work = WorkQueue(label: "liquidlens.verify", workers: workers)
    }

    /// Runs `compare` on another core (waiting while `workers` already run) and keeps its pair.
    func add(_ index: Int, _ compare: @escaping @Sendable () throws -> DiffReport.Pair) throws {
        try work.submit { [self] in
            let pair = try compare()
            lock.withLock { pairs[index] = pair }
        }
    }

    func finish() throws -> [DiffReport.Pair] {
        try work.finish()
        return lock.withLock { pairs.map { $0! } }
    }
}

/// The failing frames of a run, kept (up to ``rowLimit``) to be drawn side by side.
private final class FailureSheet: @unchecked Sendable {
    /// Rows kept: enough to see a pattern, bounded so a run where everything fails stays small.
    static let rowLimit = 12
    private let lock = NSLock()
    private var rows: [Int: [RGBA8Image]] = [:]

    /// Keeps frame `index`'s images and their heatmap, unless ``rowLimit`` earlier frames failed.
    func add(_ index: Int, gpu: RGBA8Image, cpu: RGBA8Image) {
        let row = [gpu, cpu, ImageDiff.heatmap(gpu, cpu)]
        lock.withLock {
            rows[index] = row
            if rows.count > Self.rowLimit, let last = rows.keys.max() { rows[last] = nil }
        }
    }

    /// The sheet, three columns, rows in frame order; nil when no frame failed.
    func sheet() -> RGBA8Image? {
        lock.withLock {
            rows.isEmpty ? nil : ContactSheet.compose(rows.keys.sorted().flatMap { rows[$0]! }, columns: 3)
        }
    }
}
