internal import CVulkan
import Foundation
import Synchronization

/// A compile skipped because its renderer went away.
struct CompileSkipped: Error {}

/// Compiles the specialised pipelines off the render thread, one batch at a time and each batch
/// on every core at once, so the renderer can either wait for a frame's pipelines or render the
/// frame on its host stand-in while they compile. On lavapipe a lens variant takes a noticeable
/// part of a second of one core even when Mesa's shader cache holds its machine code (SPIR-V to
/// NIR and its passes run every time). Owned and called by one renderer on one thread; the queue only touches the
/// `Finished` box.
final class PipelineCompiler {
    private let layout: PipelineLayout
    private let cache: PipelineCache
    private let lensShader: ShaderModule
    private let frostShader: ShaderModule
    private let faults: FaultInjection
    /// One batch at a time, so a batch has every core.
    private let queue = DispatchQueue(label: "LiquidLens.PipelineCompiler")
    private let batches = DispatchGroup()
    private let finished = Finished()
    /// Pipelines compiled and taken over from `finished`.
    private var ready: [PipelineVariant: ComputePipeline] = [:]
    /// Variants handed to the queue and not yet taken over.
    private var started: Set<PipelineVariant> = []
    /// Compiles that failed, until a frame that needs the variant is told.
    private var failures: [PipelineVariant: any Error] = [:]
    /// Which variants are worth compiling, for a renderer with a stand-in; the renderer notes its
    /// frame times here.
    var payback = CompilePayback()
    /// How long frames have waited for their compiles (``waitFor(_:)``), milliseconds.
    private(set) var waitedMs = 0.0

    /// A compile's pipeline or error, and how long it took.
    typealias Compiled = (result: Result<ComputePipeline, any Error>, milliseconds: Double)

    /// What the queue hands back: each variant's pipeline or error, under a condition the
    /// renderer waits on.
    private final class Finished: @unchecked Sendable {
        let condition = NSCondition()
        var results: [PipelineVariant: Compiled] = [:]
        /// Set when the owner goes: compiles not begun are skipped.
        var abandoned = false

        var isAbandoned: Bool {
            condition.lock()
            defer { condition.unlock() }
            return abandoned
        }
    }

    init(
        layout: PipelineLayout, cache: PipelineCache, lensShader: ShaderModule, frostShader: ShaderModule,
        faults: FaultInjection
    ) {
        self.faults = faults
        self.layout = layout
        self.cache = cache
        self.lensShader = lensShader
        self.frostShader = frostShader
    }

    /// Skips the compiles not begun and waits for those in progress (they use the layout,
    /// cache and shaders this owner holds): a renderer dropped after a stand-in frame does not
    /// compile what it will never use.
    deinit {
        finished.condition.lock()
        finished.abandoned = true
        finished.condition.unlock()
        batches.wait()
    }

    /// The pipelines of `variants` if every one is compiled, else nil.
    /// - Throws: the error one of their compiles failed with (it is tried again when next asked).
    func compiled(_ variants: [PipelineVariant]) throws -> [PipelineVariant: ComputePipeline]? {
        if variants.contains(where: { ready[$0] == nil }) {
            collect()
            try throwFailure(of: variants)
        }
        return readyPipelines(variants)
    }

    /// The compiled ones among the label-free variants a device frame could run, each with the
    /// tiles it would run on; the others start compiling once ``payback`` finds they have paid
    /// for it. The frame does without them (its label variants do their work), so a failed
    /// compile is not the frame's error: it is dropped, and retried once the variant has paid again.
    func labelFree(_ asks: [(variant: LensVariant, tiles: Int)]) -> [PipelineVariant: ComputePipeline] {
        guard !asks.isEmpty else { return [:] }
        collect()
        var due: [PipelineVariant] = []
        var compiled: [PipelineVariant: ComputePipeline] = [:]
        for ask in asks {
            let variant = PipelineVariant.lens(ask.variant)
            failures[variant] = nil
            if let pipeline = ready[variant] {
                compiled[variant] = pipeline
            } else if !started.contains(variant) && payback.labelFreePays(ask.variant, tiles: ask.tiles) {
                due.append(variant)
            }
        }
        start(due)
        return compiled
    }

    /// How many lens variants are compiled or compiling.
    var lensVariantsKnown: Int { ready.keys.filter(\.isLens).count + started.filter(\.isLens).count }

    /// Starts compiling the variants among `variants` neither compiled nor started, as one batch.
    func start(_ variants: [PipelineVariant]) {
        let new = missing(variants)
        guard !new.isEmpty else { return }
        started.formUnion(new)
        enqueue(new)
    }

    /// Whether every variant among `variants` is compiled or compiling.
    func allStarted(_ variants: [PipelineVariant]) -> Bool { missing(variants).isEmpty }

    /// Starts compiling those of the stand-in frames' variants that ``payback`` finds worth it.
    func startPaying(_ frames: [PipelinePolicy.StandInFrame]) {
        for frame in frames { start(payback.toCompile(missing(frame.variants), pixels: frame.pixels)) }
    }

    /// The distinct variants among `variants` neither compiled nor started, in the order met.
    private func missing(_ variants: [PipelineVariant]) -> [PipelineVariant] {
        var seen = Set<PipelineVariant>()
        return variants.filter { ready[$0] == nil && !started.contains($0) && seen.insert($0).inserted }
    }

    /// The pipelines of `variants`, compiling those not compiled yet and waiting for them.
    /// - Throws: the error a variant's compile failed with (it is tried again when next asked).
    func waitFor(_ variants: [PipelineVariant]) throws -> [PipelineVariant: ComputePipeline] {
        start(variants)
        let pending = Set(variants).filter { ready[$0] == nil }
        if !pending.isEmpty {
            let waitStarted = DispatchTime.now().uptimeNanoseconds
            finished.condition.lock()
            while !pending.allSatisfy({ finished.results[$0] != nil }) { finished.condition.wait() }
            finished.condition.unlock()
            waitedMs += Double(DispatchTime.now().uptimeNanoseconds - waitStarted) / 1e6
            collect()
            try throwFailure(of: variants)
        }
        // Every variant asked for is compiled, or its failure was thrown.
        return readyPipelines(variants)!
    }

    /// Waits for every compile started so far and takes the pipelines over.
    /// - Throws: the error a compile failed with (it is tried again when next asked), unless it
    ///   was one of `optional`, which frames do without (``labelFree(_:)`` drops its failure).
    func waitForAll(optional: Set<PipelineVariant> = []) throws {
        batches.wait()
        collect()
        try throwFailure(of: failures.keys.filter { !optional.contains($0) })
    }

    /// The pipelines of `variants` if every one is compiled, else nil.
    private func readyPipelines(_ variants: [PipelineVariant]) -> [PipelineVariant: ComputePipeline]? {
        var result: [PipelineVariant: ComputePipeline] = [:]
        for variant in variants {
            guard let pipeline = ready[variant] else { return nil }
            result[variant] = pipeline
        }
        return result
    }

    /// Takes the finished compiles over: pipelines into `ready` (noting lens compile times),
    /// errors into `failures`.
    private func collect() {
        finished.condition.lock()
        let results = finished.results
        finished.results = [:]
        finished.condition.unlock()
        for (variant, compiled) in results {
            started.remove(variant)
            switch compiled.result {
            case .success(let pipeline):
                if let injected = faults.compileFailure(of: variant) {
                    failures[variant] = injected
                    continue
                }
                ready[variant] = pipeline
                if variant.isLens { payback.noteLensCompile(milliseconds: compiled.milliseconds) }
            case .failure(let error): failures[variant] = error
            }
        }
    }

    /// Throws the error a compile among `variants` failed with, forgetting the failures of
    /// `variants` so they are compiled again when next asked for.
    private func throwFailure(of variants: [PipelineVariant]) throws {
        let failed = variants.compactMap { failures.removeValue(forKey: $0) }
        if let error = failed.first { throw error }
    }

    /// Queues one batch: compiled on every core at once, then the cache saved.
    private func enqueue(_ variants: [PipelineVariant]) {
        // The Vulkan objects are only read by the batch, and this owner keeps them alive until
        // the batch is done (deinit waits for it).
        nonisolated(unsafe) let requests = variants.map {
            (shader: $0.isLens ? lensShader : frostShader, specialization: $0.constants)
        }
        nonisolated(unsafe) let layout = layout
        nonisolated(unsafe) let cache = cache
        let finished = finished
        queue.async(group: batches) {
            let results = Self.compile(requests, layout: layout, cache: cache) { finished.isAbandoned }
            cache.save()
            // The compilers' freed memory (LLVM's, on lavapipe) goes back to the system.
            liquidlens_release_free_memory()
            finished.condition.lock()
            for (variant, compiled) in zip(variants, results) { finished.results[variant] = compiled }
            finished.condition.broadcast()
            finished.condition.unlock()
        }
    }

    /// Compiles the pipelines on every core at once (llvmpipe compiles each on the calling
    /// thread; the pipeline cache is internally synchronised), in the order asked.
    /// A compile not begun when `skip` says so fails with ``CompileSkipped``.
    static func compile(
        _ requests: [(shader: ShaderModule, specialization: [UInt32: UInt32])], layout: PipelineLayout,
        cache: PipelineCache, skip: @Sendable () -> Bool = { false }
    ) -> [Compiled] {
        // vkCreateComputePipelines may run on several threads at once with the same layout,
        // shaders and cache, which are only read.
        nonisolated(unsafe) let requests = requests
        nonisolated(unsafe) let layout = layout
        nonisolated(unsafe) let cache = cache
        nonisolated(unsafe) var results = [Compiled?](repeating: nil, count: requests.count)
        let lock = Mutex(())
        DispatchQueue.concurrentPerform(iterations: requests.count) { index in
            let started = DispatchTime.now().uptimeNanoseconds
            let result = Result {
                if skip() { throw CompileSkipped() }
                return try ComputePipeline(
                    layout: layout, shader: requests[index].shader, cache: cache,
                    specialization: requests[index].specialization)
            }
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            lock.withLock { _ in results[index] = (result, milliseconds) }
        }
        return results.map { $0! }
    }
}
