import Foundation
import LensCompare
import LensIO
import LensVulkan
import LiquidLens

/// `liquidlens bench`: GPU vs CPU parity on the benchmark workloads, then their timings.
struct BenchCommand: Command {
    /// `--backend`: the backends timed.
    enum Backends: String, CaseIterable {
        case vulkan, cpu, both
    }

    static let name = "bench"
    static let abstract = "Verify GPU vs CPU parity on the benchmark workloads, then time them."
    static let discussion: String? = """
        Workloads (fixed, so results compare over time): lens-heavy (1920×1080, one moving
        900×300 lens, every effect), screen (1206×2622 glass UI, lens dragged), thumbnails (256
        distinct 512×512 scenes). First one frame of each is rendered on both backends and
        compared (≤ 1/255 per channel, ≥ 99.9 % identical); a failed check stops the run before
        anything is timed. Each verified frame is then encoded as PNG, fast, default and with
        libpng at zlib level 1, and as QOI, JPEG and WebP (quality 90), taking turns (median of 7,
        MB/s, bytes). Then, per backend: setup (instance, device, pipelines), the first
        frame, every frame of a render-only batch (frames resolved beforehand; median and p90
        of the time between finished frames once every pipeline is compiled; frames over the
        whole batch with compiles and stand-ins included; a few frames rendered alone, one call
        each), GPU stage times from timestamp queries (8 frames more: they cost lavapipe time), and an
        end-to-end batch (resolve, render, fast PNG encoding on the other cores, write; again
        for each format --formats names).
        With --backend both each workload's Vulkan/CPU ratio is printed; --rounds n repeats the
        timing with the backends taking turns and reports the median round and the median ratio.
        --sweeps all adds the scaling sweeps (resolution, glass coverage, shapes per group, separate
        panes, panes in one container, frost σ, progressive blur σ)
        on the lens-heavy frame; --chart draws them.
        """

    @Option(
        "workload", valueName: "name", help: "lens-heavy, screen, screen-motion, thumbnails, panes or all.",
        parser: .workloads
    )
    var workloads = BenchmarkWorkload.allCases
    @Option("backend", help: "vulkan, cpu or both.", parser: .choice()) var backendChoice = Backends.both
    var device = DeviceOption()
    @Option(
        "frames", valueName: "n",
        help: "Frames per workload (default: lens-heavy 60, screen 120, screen-motion 114, thumbnails 256, panes 24).",
        parser: .integer(in: 1...10_000))
    var frames: Int?
    var framesInFlight = FramesInFlightOption()
    @Option(
        "while-compiling", valueName: "policy",
        help:
            "What renders Vulkan frames whose pipelines are still compiling: cpu (the CPU reference, as --backend auto renders) or wait (the GPU alone). Parity is always checked on the GPU.",
        parser: .choice())
    var whileCompiling = WhileCompiling.cpu
    @Option(
        "sweeps", valueName: "list",
        help: "Scaling sweeps to run: all, or some of resolution,coverage,shapes,panes,container,frost,blur.",
        parser: .sweepNames)
    var sweepNames: [String]?
    @Option("sweep-frames", valueName: "n", help: "Frames per sweep point.", parser: .integer(in: 2...100))
    var sweepFrames = 8
    @Option(
        "rounds", valueName: "n",
        help:
            "Time every workload n times, the backends taking turns (vulkan then cpu, then cpu then vulkan, …); report each one's median round and the median of the paired Vulkan/CPU ratios, steadier on a shared, noisy machine.",
        parser: .integer(in: 1...50))
    var rounds = 1
    @Option("json", valueName: "file", help: "Write the report as JSON, - for stdout (see --print-schema).")
    var jsonPath: String?
    @Option("chart", valueName: "file.svg", help: "Draw the scaling sweeps, - for stdout (implies --sweeps).")
    var chartPath: String?
    @Option(
        "formats", valueName: "list",
        help:
            "Time the end-to-end batch also writing these formats: all, or some of qoi,jpeg,webp (fast PNG is always timed; JPEG and WebP at quality 90).",
        parser: .endToEndFormats)
    var endToEndFormats: [ImageFormat] = []
    @Option("save-frames", valueName: "dir", help: "Write each workload's verified frame (GPU and CPU) as PNGs.")
    var saveFramesPath: String?
    @Option(
        "compare", valueName: "file",
        help: "An earlier --json report: print frames/s ratios, exit 1 past --max-slowdown.")
    var comparePath: String?
    @Option(
        "max-slowdown", valueName: "percent", help: "How much slower a workload may be than in --compare.",
        parser: .number(expectation: "a percentage in 0…100") { (0...100).contains($0) })
    var maxSlowdown = 10.0
    @Flag("print-schema", help: "Print the JSON schema of the report.") var printSchema: Bool
    var quiet = QuietOption()

    func run() throws {
        if printSchema {
            try StandardStreams.writeProduct(BenchReport.schema + "\n")
            return
        }
        Console.isQuiet = quiet.isOn
        let chart = chartPath.map(Console.outputURL)
        let reportURL = jsonPath.map(Console.outputURL)
        let sweeps = sweepNames ?? (chart != nil ? BenchSweeps.all.map(\.name) : [])
        if chart != nil && sweeps.isEmpty {
            throw UsageError(message: "--chart draws the sweeps; give --sweeps a list")
        }
        let earlier = try comparePath.map(BenchComparison.load)
        let vulkanOptions = try device.vulkanOptions
        let vulkan = try parityRenderer(vulkanOptions)

        var report = newReport(vulkan)
        let verified = try verifySection(vulkan, into: &report, writingTo: reportURL)
        try encodeSection(verified, into: &report)
        try timeSections(vulkanOptions, into: &report)
        try sweepsSection(sweeps, vulkanOptions, into: &report)
        try write(report, to: reportURL)
        if let chart {
            try OutputFile.write(Data(BenchChart.svg(report.sweeps).utf8), to: chart)
            Console.say("chart: \(Console.name(chart))")
        }
        if let earlier { try compareSection(report, with: earlier) }
    }

    /// Writes `report` as JSON to `url`, when --json gave one.
    func write(_ report: BenchReport, to url: URL?) throws {
        guard let url else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try OutputFile.write(try encoder.encode(report), to: url)
        Console.say("report: \(Console.name(url))")
    }

    func verify(
        _ workload: BenchmarkWorkload, frame: Int, of count: Int, vulkan: LensRenderer, saveTo folder: URL?
    ) throws -> (BenchReport.Verification, RGBA8Image) {
        let parameters = try LensRenderer.resolve(try workload.scene(frame, of: count))
        let gpu = try vulkan.render(parameters)
        let cpu = try LensRenderer(backend: .cpu).render(parameters)
        let diff = try ImageDiff(gpu, cpu, threshold: 1)
        let passed = diff.maxError.max() <= 1 && diff.identicalFraction >= 0.999
        Console.say(
            "  \(workload.rawValue.padding(toLength: BenchmarkWorkload.nameColumnWidth, withPad: " ", startingAt: 0)) frame \(frame): max error \((0..<4).map { String(diff.maxError[$0]) }.joined(separator: "/")), "
                + String(format: "%.4f %% identical", diff.identicalFraction * 100) + (passed ? "  ok" : "  FAILED"))
        if let folder {
            try PNGCodec.write(gpu, to: folder.appendingPathComponent("\(workload.rawValue)-vulkan.png"))
            try PNGCodec.write(cpu, to: folder.appendingPathComponent("\(workload.rawValue)-cpu.png"))
        }
        let verification = BenchReport.Verification(
            workload: workload.rawValue, frame: frame, maxError: (0..<4).map { diff.maxError[$0] },
            identicalFraction: diff.identicalFraction, passed: passed)
        return (verification, gpu)
    }

    /// Runs per compression in the ENCODE section.
    static let encodeRuns = 7

    /// Times the encode of `image` as PNG with `fast` and `default` compression and with libpng at
    /// zlib level 1 (the usual fast setting of other tools, for the ratio), and as QOI, JPEG and
    /// WebP (quality 90), the encoders taking turns in every run so a drift of the machine's speed
    /// falls on all alike; one line each.
    func timeEncoding(_ workload: BenchmarkWorkload, _ image: RGBA8Image) throws -> [BenchReport.Encoding] {
        let encoders: [(name: String, encode: () throws -> Data)] = [
            ("fast", { try PNGCodec.encode(image, compression: .fast) }),
            ("default", { try PNGCodec.encode(image, compression: .default) }),
            ("zlib-1", { try PNGCodec.zlibEncode(image, level: 1) }),
            ("qoi", { try ImageFormat.qoi.encode(image) }),
            ("jpeg-90", { try ImageFormat.jpeg.encode(image, quality: 90) }),
            ("webp-90", { try ImageFormat.webp.encode(image, quality: 90) }),
        ]
        var times = [[Double]](repeating: [], count: encoders.count)
        var bytes = [Int](repeating: 0, count: encoders.count)
        let clock = BenchClock()
        for _ in 0..<Self.encodeRuns {
            for (index, encoder) in encoders.enumerated() {
                _ = clock.lap()
                bytes[index] = try encoder.encode().count
                times[index].append(clock.lap())
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        let rawMegabytes = Double(image.width * image.height * 4) / 1e6
        let name = workload.rawValue.padding(toLength: BenchmarkWorkload.nameColumnWidth, withPad: " ", startingAt: 0)
        for (index, encoder) in encoders.enumerated() {
            Console.say(
                "  \(name) \(encoder.name.padding(toLength: 8, withPad: " ", startingAt: 0))"
                    + String(
                        format: "%8.1f ms  %7.1f MB/s  %9d bytes", medians[index],
                        rawMegabytes / (medians[index] / 1000),
                        bytes[index]))
        }
        Console.say(
            "  \(name) fast is "
                + String(
                    format: "%.1f× libpng level 1's speed at %.2f× its size", medians[2] / medians[0],
                    Double(bytes[0]) / Double(bytes[2])))
        return encoders.indices.map { index in
            BenchReport.Encoding(
                workload: workload.rawValue, compression: encoders[index].name, runs: Self.encodeRuns,
                medianMs: medians[index], megabytesPerSecond: rawMegabytes / (medians[index] / 1000),
                bytes: bytes[index])
        }
    }

    func measure(
        _ workload: BenchmarkWorkload, backend: Backend, frames: Int, inFlight: Int, vulkanOptions: VulkanOptions
    ) throws -> BenchReport.Result {
        let clock = BenchClock()
        let renderer = try LensRenderer(backend: backend, vulkanOptions: vulkanOptions, whileCompiling: whileCompiling)
        let setupMs = clock.lap()
        let cache = ResolveCache()
        var resolveTimes: [Double] = []
        let parameters = try (0..<frames).map {
            let resolved = try LensRenderer.resolve(try workload.scene($0, of: frames), cache: cache)
            resolveTimes.append(clock.lap())
            return resolved
        }
        _ = try renderer.render(parameters[0])
        let firstFrameMs = clock.lap()
        let standInsBefore = renderer.standInFrames

        // The whole batch as a user meets it: compile waits and stand-in frames included.
        let wholeBatch = try BenchClock.timeBatch(renderer, parameters, inFlight: inFlight)
        let wholeBatchFPS = Double(frames) / (wholeBatch.intervals.reduce(0, +) / 1000)
        let standInFrames = renderer.standInFrames - standInsBefore
        let (intervals, stages) = try steadyFrames(
            renderer, parameters, inFlight: inFlight, wholeBatch: wholeBatch, onDevice: backend == .vulkan)
        let frameAloneMs = try BenchClock.timeAlone(renderer, parameters)
        // The end-to-end batches run with every pipeline compiled, so they are held to the steady rate.
        let renderOnlyFPS = 1000 / BenchClock.percentile(intervals, 0.5)

        func endToEnd(_ format: ImageFormat) throws -> Double {
            try endToEndFramesPerSecond(workload, renderer, frames: frames, inFlight: inFlight, format: format)
        }
        let endToEndFPS = try endToEnd(.png)
        let formats = try endToEndFormats.map { format in
            let fps = try endToEnd(format)
            return BenchReport.FormatEndToEnd(
                format: format.rawValue, framesPerSecond: fps, ratioToRenderOnly: fps / renderOnlyFPS)
        }

        let median = BenchClock.percentile(intervals, 0.5)
        let width = parameters[0].width
        let height = parameters[0].height
        return BenchReport.Result(
            workload: workload.rawValue, backend: renderer.activeBackend.rawValue, width: width, height: height,
            frames: frames, framesInFlight: backend == .vulkan ? inFlight : 1, setupMs: setupMs,
            resolveMs: BenchClock.percentile(resolveTimes, 0.5),
            firstFrameMs: firstFrameMs,
            frameMs: .init(median: median, p90: BenchClock.percentile(intervals, 0.9)), frameAloneMs: frameAloneMs,
            framesPerSecond: 1000 / median,
            batchFramesPerSecond: wholeBatchFPS, standInFrames: standInFrames,
            megapixelsPerSecond: Double(width * height) / 1e6 * 1000 / median,
            gpuStagesMs: BenchReport.Stages(medianOf: stages),
            endToEnd: .init(
                pngCompression: "fast", framesPerSecond: endToEndFPS, ratioToRenderOnly: endToEndFPS / renderOnlyFPS),
            endToEndFormats: formats.isEmpty ? nil : formats)
    }

    /// The steady cost: the same batch again once every pipeline is compiled, so no interval
    /// holds a compile wait or a stand-in frame rendered at submission (which made a frame that
    /// finished right after it look free); the CPU's whole batch is already steady. Per-frame
    /// times (``BenchClock/perFrame(_:inFlight:)``), and the GPU's stage times from up to 8 frames
    /// more with per-stage timestamps.
    private func steadyFrames(
        _ renderer: LensRenderer, _ parameters: [FrameParameters], inFlight: Int,
        wholeBatch: (intervals: [Double], stages: [GPUStageTimes]), onDevice: Bool
    ) throws -> (intervals: [Double], stages: [GPUStageTimes]) {
        try renderer.waitForPipelines()
        guard onDevice else { return (BenchClock.perFrame(wholeBatch.intervals, inFlight: 1), []) }
        // Every frame slot of the ring renders on the device once, so none starts cold.
        _ = try BenchClock.timeBatch(renderer, Array(parameters.prefix(inFlight)), inFlight: inFlight)
        let steady = try BenchClock.timeBatch(renderer, parameters, inFlight: inFlight)
        // The stages from a shorter batch of their own: their timestamps cost lavapipe time.
        renderer.measuresStages = true
        defer { renderer.measuresStages = false }
        let staged = try BenchClock.timeBatch(renderer, Array(parameters.prefix(8)), inFlight: inFlight)
        return (BenchClock.perFrame(steady.intervals, inFlight: inFlight), staged.stages)
    }

    /// Frames/s of the whole batch: resolve, render, encode as `format` on the other cores, write.
    private func endToEndFramesPerSecond(
        _ workload: BenchmarkWorkload, _ renderer: LensRenderer, frames: Int, inFlight: Int, format: ImageFormat
    ) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("liquidlens-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = EncodingQueue(workers: ProcessInfo.processInfo.activeProcessorCount)
        let cache = ResolveCache()
        let clock = BenchClock()
        try renderer.renderBatch(count: frames, framesInFlight: inFlight) {
            try LensRenderer.resolve(try workload.scene($0, of: frames), cache: cache)
        } deliver: { index, image in
            try encoder.write(
                image, to: folder.appendingPathComponent("frame-\(index).\(format.fileExtension)"), format: format,
                compression: .fast)
        }
        try encoder.finish()
        return Double(frames) / (clock.lap() / 1000)
    }

    func printResult(_ result: BenchReport.Result) {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        Console.say(
            "  \(result.workload) on \(result.backend): \(result.width)×\(result.height), \(result.frames) frames, "
                + "\(result.framesInFlight) in flight")
        Console.say(
            "    setup \(f(result.setupMs)) ms, resolve \(f(result.resolveMs)) ms (median), first frame \(f(result.firstFrameMs)) ms, per frame median \(f(result.frameMs.median)) ms "
                + "(p90 \(f(result.frameMs.p90))) = \(f(result.framesPerSecond)) frames/s, \(f(result.megapixelsPerSecond)) MP/s; "
                + "a frame alone \(f(result.frameAloneMs ?? 0)) ms"
        )
        Console.say(
            "    whole batch \(f(result.batchFramesPerSecond ?? 0)) frames/s (compiles included)"
                + ((result.standInFrames ?? 0) > 0
                    ? "; the CPU reference stood in for \(result.standInFrames!) frame(s) whose pipelines were not compiled"
                    : ""))
        if let stages = result.gpuStagesMs {
            Console.say(
                "    GPU stages (median): compose \(f(stages.compose, 2)), copy \(f(stages.copy, 2)), frost \(f(stages.frost, 2)), "
                    + "lens \(f(stages.lens, 2)) ms; host readback \(f(stages.readback, 2)) ms")
        }
        Console.say(
            "    end-to-end with fast PNG: \(f(result.endToEnd.framesPerSecond)) frames/s "
                + "(\(f(result.endToEnd.ratioToRenderOnly * 100, 0)) % of render-only)")
        for format in result.endToEndFormats ?? [] {
            Console.say(
                "    end-to-end with \(format.format): \(f(format.framesPerSecond)) frames/s "
                    + "(\(f(format.ratioToRenderOnly * 100, 0)) % of render-only)")
        }
    }
}

extension BenchmarkWorkload {
    /// Width of the workload column in bench's tables: the longest name, so none is cut.
    static let nameColumnWidth = allCases.map(\.rawValue.count).max() ?? 0
}

extension ValueParser where Value == [BenchmarkWorkload] {
    /// One workload by name, or `all`.
    static var workloads: Self {
        let names = BenchmarkWorkload.allCases.map(\.rawValue)
        return Self(
            expectation: names.joined(separator: ", ") + " or all", completions: names + ["all"],
            describe: { $0 == BenchmarkWorkload.allCases ? "all" : $0.map(\.rawValue).joined(separator: ",") }
        ) { text in
            text.lowercased() == "all" ? BenchmarkWorkload.allCases : BenchmarkWorkload.typed(text).map { [$0] }
        }
    }
}

extension ValueParser where Value == [ImageFormat] {
    /// The formats `--formats` times end to end besides fast PNG.
    static var endToEndFormats: Self {
        let choices: [ImageFormat] = [.qoi, .jpeg, .webp]
        return Self(expectation: "all or some of qoi,jpeg,webp", completions: ["all"] + choices.map(\.rawValue)) {
            text throws(ValueError) in
            if text == "all" { return choices }
            return try text.split(separator: ",").map { name throws(ValueError) in
                guard let format = ImageFormat(fileExtension: String(name)), choices.contains(format) else {
                    throw .invalid(String(name))
                }
                return format
            }
        }
    }
}

extension ValueParser where Value == [String] {
    /// `all`, or sweep names separated by commas; an unknown name is the invalid value.
    static var sweepNames: Self {
        let names = BenchSweeps.all.map(\.name)
        let list = names.joined(separator: ",")
        return Self(expectation: "all or some of \(list)", completions: ["all"] + names) { text throws(ValueError) in
            if text == "all" { return names }
            let chosen = text.split(separator: ",").map(String.init)
            if let unknown = chosen.first(where: { !names.contains($0) }) { throw .invalid(unknown) }
            return chosen
        }
    }
}
