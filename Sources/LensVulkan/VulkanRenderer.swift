internal import CVulkan
import Foundation
import LensModel
import LensResolve
import LensShaders

/// The Vulkan compute backend. Creates instance, device and pipelines once; keeps a ring of
/// frame slots (buffers, descriptor set, command buffer, fence, timestamps) so several frames
/// are in flight, reuses them for every frame, and skips uploads, composing and blurring whose
/// inputs did not change (`FrameReuse`). Buffers grow when a larger frame arrives. Where the
/// buffers live follows the device's memory (``memoryPath``): host-visible and read in place on
/// unified memory, device-local behind a staging ring and a readback copy on a discrete GPU. Not
/// thread-safe: use one renderer per thread.
///
/// Made of three parts: a pipeline policy (which variants a frame needs; device, wait or
/// stand-in), a frame recorder (dispatches and barriers) and a frame submitter (slots, queues,
/// semaphores, readback); this type runs the batch and owns the compiles.
package final class VulkanRenderer {
    let device: Device
    /// The lens and frost pipelines by variant, compiled on first use and kept for the renderer's life.
    private let compiler: PipelineCompiler
    private var policy = PipelinePolicy()
    private let submitter: FrameSubmitter
    /// Renders a frame on the host while its pipelines are not compiled; nil waits for them.
    private let standIn: (@Sendable (FrameParameters) -> RGBA8Image)?

    /// The device in use.
    package let deviceDescription: DeviceDescription
    /// The memory path in use, `.unified` or `.discrete` (never `.automatic`): the device's, or
    /// the one ``VulkanOptions/memoryPath`` forced.
    package let memoryPath: MemoryPath
    /// What crossed between host and device for the frame submitted last.
    package var lastTransfers: FrameTransfers { submitter.lastTransfers }
    /// How the lens passes of the device frame submitted last were dispatched.
    package var lastDispatches: LensDispatches { submitter.lastDispatches }
    /// Whether the validation layer is on.
    package var validationEnabled: Bool { device.instance.validationEnabled }
    /// Everything the validation layer reported so far (warnings and errors).
    package var validationMessages: [String] { device.instance.validationLog.messages }
    /// Frames the host stand-in (``VulkanOptions/standIn``) rendered because their pipelines were not compiled.
    package private(set) var standInFrames = 0
    /// Stage times of the frame delivered last; nil unless ``measuresStages`` was on when it was
    /// submitted, and when the queue has no timestamps or the stand-in rendered it.
    package private(set) var lastStageTimes: GPUStageTimes?
    /// Whether frames submitted from now on split their GPU time by stage (``lastStageTimes``):
    /// a timestamp after each lens's frost and lens passes. Off by default, because lavapipe
    /// flushes its context at every timestamp: 10–18 ms a frame of 64 panes, about a third of
    /// their fixed cost. Without it a frame still writes five, its GPU time for the compile payback.
    package var measuresStages: Bool {
        get { submitter.measuresStages }
        set { submitter.measuresStages = newValue }
    }
    /// How many lens variants are compiled or compiling.
    package var lensVariantsKnown: Int { compiler.lensVariantsKnown }
    /// How long frames have waited for their pipelines to compile, milliseconds.
    package var compileWaitMs: Double { compiler.waitedMs }

    /// Sets up instance, device and pipelines; on `probe`'s instance and device when given.
    /// - Throws: ``VulkanError`` when there is no usable loader, driver or device.
    package init(options: VulkanOptions = VulkanOptions(), probe: DeviceProbe? = nil) throws {
        let probe = try probe ?? DeviceProbe(options: options)
        let instance = probe.instance
        let choice = probe.choice
        let device = try Device(instance: instance, physical: choice)
        self.device = device
        deviceDescription = choice.description
        memoryPath =
            options.memoryPath != .automatic
            ? options.memoryPath : choice.description.memory.isUnified ? .unified : .discrete
        let setLayout = try DescriptorSetLayout(device: device)
        let paramsLayout = ParamsBufferLayout(alignment: choice.uniformOffsetAlignment)
        let layout = try PipelineLayout(setLayout: setLayout, pushConstantSize: DispatchConstants.pushSize)
        let cache = try PipelineCache(device: device, directory: options.pipelineCacheDirectory)
        compiler = PipelineCompiler(
            layout: layout, cache: cache, lensShader: try ShaderModule(device: device, name: .lens),
            frostShader: try ShaderModule(device: device, name: .frost), faults: options.faultInjection)
        standIn = options.standIn
        compiler.payback.deviceIsTimed = device.physical.timestampValidBits > 0
        let fixed = try [ShaderModuleName.compose, .overlay].map { try ShaderModule(device: device, name: $0) }
        let made = try PipelineCompiler.compile(fixed.map { ($0, [:]) }, layout: layout, cache: cache).map {
            try $0.result.get()
        }
        cache.save()
        let recorder = FrameRecorder(
            layout: layout, paramsLayout: paramsLayout, composePipeline: made[0], overlayPipeline: made[1])
        submitter = try FrameSubmitter(
            device: device, setLayout: setLayout, paramsLayout: paramsLayout, recorder: recorder,
            memoryPath: memoryPath, faults: options.faultInjection)
    }

    /// Waits for the device before anything it may still use is released (the slots' buffers,
    /// command buffers and fences, the pipelines); the compiler then waits for its compiles.
    deinit {
        try? device.waitIdle()
    }

    /// Compiles every pipeline the stand-in frames needed and every label-free variant device
    /// frames could have run, whether or not it has paid for itself yet, and waits for them and
    /// any other compile in progress, so frames like those run on the device at full speed from
    /// here on.
    /// - Throws: the ``VulkanError`` a compile failed with; not a label-free variant's, which
    ///   frames do without (their label variant draws the same pixels).
    package func waitForPipelines() throws {
        let wanted = policy.takeAllWanted()
        compiler.start(wanted.required + wanted.optional)
        try compiler.waitForAll(optional: wanted.optional)
    }

    /// Starts compiling every pipeline `frames` need, as one batch on every core, so that frames
    /// that wait for their compiles (no stand-in) wait only for what is not done by then, not for
    /// one compile after another. With a stand-in it starts nothing: the payback decides.
    package func prepare(_ frames: [FrameParameters]) {
        guard standIn == nil else { return }
        compiler.start(frames.flatMap { FramePipelines($0).all })
    }

    /// Every physical device Vulkan reports, with why each is or is not usable.
    package static func listDevices() throws -> [DeviceDescription] {
        try DeviceSelector.survey(Instance(validation: false)).map(\.description)
    }

    /// The instance and the device a renderer with `options` would use, found without setting the
    /// device up: the automatic backend looks at the device first, and the renderer it then makes
    /// takes both rather than making a second instance.
    package struct DeviceProbe {
        let instance: Instance
        let choice: PhysicalDeviceChoice
        /// The device found.
        package var device: DeviceDescription { choice.description }

        /// - Throws: ``VulkanError`` as the renderer would, when there is no usable loader, driver or device.
        package init(options: VulkanOptions) throws {
            instance = try Instance(validation: options.validation)
            choice = try DeviceSelector.choose(instance, preference: options.device)
        }
    }

    /// Renders one resolved frame to 8-bit sRGB pixels.
    package func render(_ parameters: FrameParameters) throws -> RGBA8Image {
        var rendered: RGBA8Image?
        try renderBatch(
            count: 1, framesInFlight: 1, frame: { _ in parameters }, deliver: { _, image in rendered = image })
        return rendered!
    }

    /// Renders `count` frames with up to `framesInFlight` submitted at once: frame `i` is asked
    /// for with `frame(i)` while earlier frames run, and handed to `deliver` in order as soon as it
    /// is read back (``lastStageTimes`` then holds its stage times, with ``measuresStages`` on when
    /// it was submitted). Memory is bounded by the ring,
    /// however long the batch. An error stops the batch after the frames in flight have finished.
    package func renderBatch(
        count: Int, framesInFlight: Int = 2, frame: (Int) throws -> FrameParameters,
        deliver: (Int, RGBA8Image) throws -> Void
    ) throws {
        let ringSize = max(1, framesInFlight)
        try submitter.ensureRing(ringSize)
        let slots = submitter.slots
        var delivered = 0
        func deliverUpTo(_ end: Int) throws {
            while delivered < end {
                try deliver(delivered, try finish(slots[delivered % ringSize]))
                delivered += 1
            }
        }
        do {
            for index in 0..<count {
                try deliverUpTo(index - ringSize + 1)
                let parameters: FrameParameters
                do {
                    parameters = try frame(index)
                } catch {
                    // A frame that cannot be made stops the batch, but the frames already submitted are delivered.
                    try deliverUpTo(index)
                    throw error
                }
                try submit(parameters, on: slots[index % ringSize])
            }
            try deliverUpTo(count)
        } catch {
            submitter.abandonInFlight()
            throw error
        }
    }

    /// Routes one frame: on the device with its pipelines (waiting for their compiles where the
    /// policy says so), or to the host stand-in.
    private func submit(_ parameters: FrameParameters, on slot: FrameSlot) throws {
        // Not before the next frame: the stand-in frame had every core, and a renderer that
        // renders no more frames (one still) compiles nothing it will not use.
        compiler.startPaying(policy.takeStandInWanted())
        let needed = FramePipelines(parameters)
        let ready = try compiler.compiled(needed.all)
        let route = PipelinePolicy.route(
            compiled: ready != nil, hasStandIn: standIn != nil, missingAllStarted: compiler.allStarted(needed.all))
        let compiled: [PipelineVariant: ComputePipeline]
        switch route {
        case .device: compiled = ready!
        case .waitForCompiles: compiled = try compiler.waitFor(needed.all)
        case .standIn:
            renderStandIn(parameters, needing: needed.all, on: slot)
            return
        }
        let labelFreeAsks = needed.labelFree.compactMap { $0 }
        policy.noteLabelFree(labelFreeAsks)
        let labelFree = compiler.labelFree(labelFreeAsks)
        try submitter.submit(parameters, running: needed.pipelines(compiled, labelFree: labelFree), on: slot)
    }

    /// The host stand-in renders the frame (the same pixels) into `slot`'s pending frame.
    private func renderStandIn(_ parameters: FrameParameters, needing variants: [PipelineVariant], on slot: FrameSlot) {
        standInFrames += 1
        let started = DispatchTime.now().uptimeNanoseconds
        let image = standIn!(parameters)
        let pixels = parameters.width * parameters.height
        compiler.payback.noteStandIn(
            milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6, pixels: pixels)
        submitter.hold(standIn: image, on: slot)
        policy.noteStandIn(needing: variants, pixels: pixels)
    }

    /// Takes `slot`'s frame back and notes its times for the compile payback.
    private func finish(_ slot: FrameSlot) throws -> RGBA8Image {
        let finished = try submitter.finish(slot)
        lastStageTimes = finished.measured?.stages
        if let measured = finished.measured {
            if standIn != nil {
                compiler.payback.noteDevice(
                    milliseconds: measured.deviceMs, pixels: finished.image.width * finished.image.height)
            }
            compiler.payback.noteLensPass(milliseconds: measured.lensPasses, tiles: measured.lensTiles)
        }
        return finished.image
    }
}
