import Foundation
import LensIO
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
    var framesInFlight = FramesInFlightOption()
    var device = DeviceOption()

    func run() throws {
        let junit = reports.junitURL
        let manifest = try loadFile(manifestPath, BatchManifest.load(contentsOf:))
        let configuration = try thresholds.configuration(defaults: DiffConfiguration(thresholds: .parity))
        let gpu = try makeRenderer(.vulkan, device.vulkanOptions, whileCompiling: .wait)
        let cpu = try LensRenderer(backend: .cpu)
        let start = Date()
        let imageFolder = reports.imageFolder
        let progress = Progress(total: manifest.count, style: reports.progress.style)
        let comparisons = Comparisons(
            count: manifest.count, workers: reports.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
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
                try DiffReport.Pair.compare(
                    name: name, actual: gpuImage, expected: cpuImage, configuration: configuration,
                    imageFolder: imageFolder, index: index)
            }
            progress.advance(index: index)
        }
        let pairs = try comparisons.finish()
        progress.finish()
        let report = DiffReport(
            title: "\(gpu.backendName) vs cpu reference: \(manifestPath)", pairs: pairs, date: start,
            seconds: Date().timeIntervalSince(start))
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
