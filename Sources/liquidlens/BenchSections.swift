import Foundation
import LensIO
import LiquidLens

/// `bench`'s phases, one function per section it prints (VERIFY, ENCODE, ROUNDS and TIME,
/// RATIOS, SWEEPS, the comparison), in the order `run()` calls them.
extension BenchCommand {
    /// The backends `--backend` times.
    var backends: [Backend] {
        switch backendChoice {
        case .vulkan: [.vulkan]
        case .cpu: [.cpu]
        case .both: [.vulkan, .cpu]
        }
    }

    /// The Vulkan renderer parity is checked on, with the line that names the machine.
    func parityRenderer(_ vulkanOptions: VulkanOptions) throws -> LensRenderer {
        let vulkan: LensRenderer
        do {
            vulkan = try LensRenderer(backend: .vulkan, vulkanOptions: vulkanOptions, whileCompiling: .wait)
        } catch {
            throw CommandFailure(
                message:
                    "the benchmark verifies GPU vs CPU parity first and needs a Vulkan device: \(error) (for lavapipe: apt-get install mesa-vulkan-drivers)"
            )
        }
        let deviceName = vulkan.device?.name ?? "none"
        Console.say(
            "liquidlens bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, Vulkan device \(deviceName)"
                + (vulkan.memoryPath.map { ", \($0.rawValue) memory path" } ?? ""))
        return vulkan
    }

    /// A report with this machine and nothing measured yet.
    func newReport(_ vulkan: LensRenderer) -> BenchReport {
        BenchReport(
            tool: "liquidlens \(LiquidLensTool.version)", date: ISO8601DateFormatter().string(from: Date()),
            machine: .init(
                cores: ProcessInfo.processInfo.activeProcessorCount,
                memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30),
                os: ProcessInfo.processInfo.operatingSystemVersionString, vulkanDevice: vulkan.device?.name),
            verification: [], results: [], sweeps: [])
    }

    /// VERIFY: one frame of each workload on both backends; a disagreement writes the report and
    /// stops the run before anything is timed. Returns each workload's verified frame.
    func verifySection(_ vulkan: LensRenderer, into report: inout BenchReport, writingTo reportURL: URL?) throws
        -> [(BenchmarkWorkload, RGBA8Image)]
    {
        Console.say("\nVERIFY (one frame per workload, GPU vs CPU, ≤ 1/255 and ≥ 99.9 % identical):")
        let saveFolder = saveFramesPath.map { URL(fileURLWithPath: $0) }
        var verified: [(BenchmarkWorkload, RGBA8Image)] = []
        for workload in workloads {
            let count = frames ?? workload.defaultFrames
            let (verification, image) = try verify(
                workload, frame: count / 2, of: count, vulkan: vulkan, saveTo: saveFolder)
            report.verification.append(verification)
            verified.append((workload, image))
        }
        if let failed = report.verification.first(where: { !$0.passed }) {
            try write(report, to: reportURL)
            throw CommandFailure(
                message:
                    "parity check failed on \(failed.workload) frame \(failed.frame) (max error \(failed.maxError), \(String(format: "%.4f", failed.identicalFraction * 100)) % identical): the GPU and CPU disagree, so nothing was timed"
            )
        }
        return verified
    }

    /// ENCODE: each verified frame through every encoder.
    func encodeSection(_ verified: [(BenchmarkWorkload, RGBA8Image)], into report: inout BenchReport) throws {
        Console.say(
            "\nENCODE (each workload's verified frame as PNG, QOI, JPEG and WebP, median of \(Self.encodeRuns) runs, raw RGBA MB/s):"
        )
        report.encoding = try verified.flatMap { workload, image in try timeEncoding(workload, image) }
    }

    /// ROUNDS, TIME and RATIOS: every workload on every backend, `--rounds` times with the
    /// backends taking turns; the median round of each and the median of the paired ratios.
    func timeSections(_ vulkanOptions: VulkanOptions, into report: inout BenchReport) throws {
        if rounds > 1 {
            Console.say("\nROUNDS (render-only frames/s; the backends take turns):")
        }
        var measured: [[BenchReport.Result]] = []
        for round in 0..<rounds {
            var line: [String] = []
            for workload in workloads {
                // Alternating the order cancels a drift of the machine's speed over the run.
                let order = round.isMultiple(of: 2) ? backends : backends.reversed()
                let results = try order.map { backend in
                    try measure(
                        workload, backend: backend, frames: frames ?? workload.defaultFrames,
                        inFlight: framesInFlight.count, vulkanOptions: vulkanOptions)
                }
                measured.append(results)
                line.append(
                    "\(workload.rawValue) "
                        + results.map { "\($0.backend) \(String(format: "%.1f", $0.framesPerSecond))" }.joined(
                            separator: ", "))
            }
            if rounds > 1 { Console.say("  round \(round + 1) of \(rounds): \(line.joined(separator: "; "))") }
        }
        let rounded = BenchRounds(measured, workloads: workloads.map(\.rawValue), backends: backends.map(\.rawValue))
        report.results = rounded.medianRounds
        report.ratios = rounded.ratios
        Console.say(
            "\nTIME (render-only: frames resolved beforehand; end-to-end: resolve + render + encode (fast PNG, and each of --formats) + write)"
                + (rounds > 1 ? ", the median of \(rounds) rounds:" : ":"))
        report.results.forEach(printResult)
        printRatios(rounded.ratios)
    }

    /// RATIOS: Vulkan over CPU, each round's pair from one turn.
    private func printRatios(_ ratios: [BenchReport.Ratio]) {
        guard !ratios.isEmpty else { return }
        Console.say("\nRATIOS (Vulkan over CPU render-only frames/s, each round's pair from one turn):")
        for ratio in ratios {
            let spread =
                ratio.rounds.count > 1
                ? "median of \(ratio.rounds.count) rounds, "
                    + String(format: "%.2f–%.2f", ratio.rounds.min()!, ratio.rounds.max()!)
                : "one round; --rounds 5 gives a median"
            Console.say(
                "  \(ratio.workload): Vulkan \(String(format: "%.2f", ratio.median))× the CPU reference (\(spread))")
        }
    }

    /// SWEEPS: the lens-heavy frame with one thing varied, per backend.
    func sweepsSection(_ sweeps: [String], _ vulkanOptions: VulkanOptions, into report: inout BenchReport) throws {
        guard !sweeps.isEmpty else { return }
        Console.say(
            "\nSWEEPS (lens-heavy frame, \(sweepFrames) frames per point, lens moving; steady median / first frame):")
        for backend in backends {
            for sweep in BenchSweeps.all where sweeps.contains(sweep.name) {
                let measured = try BenchSweeps.run(
                    sweep, backend: backend, frames: sweepFrames, inFlight: framesInFlight.count,
                    vulkanOptions: vulkanOptions)
                report.sweeps.append(measured)
                let points = measured.points.map {
                    "\($0.label) \(String(format: "%.1f", $0.frameMs))/\(String(format: "%.0f", $0.firstFrameMs))"
                }
                Console.say(
                    "  \(backend.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(sweep.name): \(points.joined(separator: ", ")) ms"
                )
            }
        }
    }

    /// The comparison with `--compare`'s report: a line per workload, exit 1 past `--max-slowdown`.
    func compareSection(_ report: BenchReport, with earlier: BenchReport) throws {
        guard let comparePath else { return }
        let comparison = BenchComparison(current: report, earlier: earlier)
        for line in comparison.lines(against: comparePath, maxSlowdown: maxSlowdown) { Console.say(line) }
        let slower = comparison.regressions(beyond: maxSlowdown)
        guard slower.isEmpty else {
            let names = slower.map { "\($0.workload) on \($0.backend) \(String(format: "%.2f", $0.ratio))×" }
            throw CommandFailure(
                message:
                    "slower than \(comparePath) by more than \(maxSlowdown.formatted) %: \(names.joined(separator: ", "))"
            )
        }
    }
}
