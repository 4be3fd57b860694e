import Dispatch
import Synchronization

/// The lens pass's pipelines, in two tiers (``LensSpecialization/automatic``). Before a lens's
/// first frame its structural variant (``LensVariant/structural``) is compiled, on every core at
/// once with the frame's other new ones; once a lens's exact variant has been asked for twice it
/// is compiled in the background, and used from the frame after it is ready. Both draw the same pixels (a variant only leaves out
/// code whose conditions are false), so which one ran never shows in a frame, only in its time.
///
/// Why two tiers: an exact variant runs llvmpipe's lens pass several times faster than code that
/// tests every stage, but takes 0.1–0.5 s to compile; a still or a batch of distinct scenes
/// would pay that per frame, a long batch pays it once, off the frames' path.
final class LensPipelineStore: @unchecked Sendable {
    private let shader: ShaderModule
    private let layout: PipelineLayout
    private let cache: PipelineCache
    private let specialization: LensSpecialization
    private let state = Mutex(State())
    /// One background compile at a time, beside the frames being rendered.
    private let compiles = DispatchQueue(label: "liquidlens.lens-variants", qos: .utility)

    private struct State {
        /// How often each exact variant was asked for.
        var requests: [LensVariant: Int] = [:]
        var ready: [LensVariant: ComputePipeline] = [:]
        /// Set when the renderer goes: compiles not started yet are dropped.
        var cancelled = false
    }

    init(shader: ShaderModule, layout: PipelineLayout, cache: PipelineCache, specialization: LensSpecialization) {
        self.specialization = specialization
        self.shader = shader
        self.layout = layout
        self.cache = cache
    }

    /// The pipeline to dispatch each exact variant with now: the variant itself when compiled,
    /// else its structural variant, compiled here first where missing (the exact one, when
    /// ``LensSpecialization/exact`` is asked for).
    /// - Throws: ``VulkanError`` when a variant compiled here fails to compile.
    func pipelines(for variants: [LensVariant]) throws -> [ComputePipeline] {
        let specialization = specialization
        let (missing, compileLater) = state.withLock { state -> ([LensVariant], [LensVariant]) in
            var missing: [LensVariant] = []
            var compileLater: [LensVariant] = []
            for variant in variants where state.ready[variant] == nil {
                let requests = state.requests[variant, default: 0] + 1
                state.requests[variant] = requests
                if requests == 2 && specialization == .automatic { compileLater.append(variant) }
                let now = specialization == .exact ? variant : variant.structural
                if state.ready[now] == nil && !missing.contains(now) { missing.append(now) }
            }
            return (missing, compileLater)
        }
        if !missing.isEmpty {
            let made = try Self.compile(missing.map { (shader, $0.constants) }, layout: layout, cache: cache)
            state.withLock { state in
                for (variant, pipeline) in zip(missing, made) { state.ready[variant] = pipeline }
            }
            cache.save()
        }
        for variant in compileLater { compiles.async { self.compileInBackground(variant) } }
        return state.withLock { state in variants.map { state.ready[$0] ?? state.ready[$0.structural]! } }
    }

    /// The variants compiled so far.
    var readyVariants: Set<LensVariant> { state.withLock { Set($0.ready.keys) } }

    /// Blocks until the background compiles queued so far have ended.
    func waitForBackgroundCompiles() { compiles.sync {} }

    /// Drops the background compiles not started yet. The one running holds the store, and with
    /// it the device, until it ends.
    func cancelPendingCompiles() { state.withLock { $0.cancelled = true } }

    private func compileInBackground(_ variant: LensVariant) {
        guard !state.withLock({ $0.cancelled }) else { return }
        // A variant that fails to compile (out of memory, say) leaves its lens on the structural
        // variant, which draws the same pixels.
        guard let made = try? Self.compile([(shader, variant.constants)], layout: layout, cache: cache) else { return }
        state.withLock { $0.ready[variant] = made[0] }
        cache.save()
    }

    /// Compiles the pipelines on every core at once (llvmpipe compiles each on the calling
    /// thread; the pipeline cache is internally synchronised), in the order asked.
    static func compile(
        _ requests: [(shader: ShaderModule, specialization: [UInt32])], layout: PipelineLayout, cache: PipelineCache
    ) throws -> [ComputePipeline] {
        // The Vulkan objects are only read here, and vkCreateComputePipelines may run on several
        // threads at once with the same layout, shaders and cache.
        nonisolated(unsafe) let requests = requests
        nonisolated(unsafe) let layout = layout
        nonisolated(unsafe) let cache = cache
        let results = Mutex([Result<ComputePipeline, any Error>?](repeating: nil, count: requests.count))
        DispatchQueue.concurrentPerform(iterations: requests.count) { index in
            let result = Result {
                try ComputePipeline(
                    layout: layout, shader: requests[index].shader, cache: cache,
                    specialization: requests[index].specialization)
            }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { try $0.map { try $0!.get() } }
    }
}
