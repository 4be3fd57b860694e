internal import CVulkan
import Foundation
import LensModel
import LensResolve
import LensShaders
import Synchronization

/// The Vulkan compute backend. Creates instance, device and pipelines once; keeps a ring of
/// `FrameSlot`s (buffers, descriptor set, command buffer, fence, timestamps) so several frames
/// are in flight, reuses them for every frame, and skips uploads, composing and blurring whose
/// inputs did not change (`FrameReuse`). Buffers grow when a larger frame arrives. Where the
/// buffers live follows the device's memory (``memoryPath``): host-visible and read in place on
/// unified memory, device-local behind a staging ring and a readback copy on a discrete GPU. Not
/// thread-safe: use one renderer per thread.
public final class VulkanRenderer {
    let device: Device
    private let setLayout: DescriptorSetLayout
    /// Where the frame and each lens sit in the params buffer, aligned for dynamic offsets.
    private let paramsLayout: ParamsBufferLayout
    private let layout: PipelineLayout
    private let composePipeline: ComputePipeline
    private let overlayPipeline: ComputePipeline
    /// The lens and frost pipelines by variant, compiled on first use and kept for the renderer's life.
    private let compiler: PipelineCompiler
    /// Renders a frame on the host while its pipelines compile; nil waits for them.
    private let standIn: (@Sendable (FrameParameters) -> RGBA8Image)?
    /// The pipelines the stand-in frames since the last frame needed.
    private var standInWanted: [PipelineVariant] = []
    /// The label-free variants device frames could have run, compiled or not.
    private var labelFreeWanted: Set<PipelineVariant> = []
    /// A lens's pipelines: its two frost passes, its lens pass over every tile (nil where it has
    /// none), and, once compiled, the variant without the label for its tiles that cannot reach one.
    private typealias LensPipelines = (frost: [ComputePipeline], lens: ComputePipeline?, labelFree: ComputePipeline?)
    private var slots: [FrameSlot] = []
    private let faults: FaultInjection
    /// Frames submitted so far, for ``FaultInjection/deviceLostAtFrame``.
    private var framesSubmitted = 0
    /// Lens tiles recorded for a label-free variant so far (the tests check the split runs).
    private(set) var labelFreeTilesDispatched = 0
    /// How many lens variants are compiled or compiling (the tests check what a frame starts).
    var lensVariantsKnown: Int { compiler.lensVariantsKnown }

    /// The device in use.
    public let deviceDescription: DeviceDescription
    /// The memory path in use, `.unified` or `.discrete` (never `.automatic`): the device's, or
    /// the one ``VulkanOptions/memoryPath`` forced.
    public let memoryPath: MemoryPath
    /// What crossed between host and device for the frame submitted last.
    public private(set) var lastTransfers = FrameTransfers()
    /// Whether the validation layer is on.
    public var validationEnabled: Bool { device.instance.validationEnabled }
    /// Everything the validation layer reported so far (warnings and errors).
    public var validationMessages: [String] { device.instance.validationLog.messages }
    /// Frames the host stand-in (``VulkanOptions/standIn``) rendered while their pipelines compiled.
    public private(set) var standInFrames = 0
    /// Stage times of the frame delivered last; nil when the queue has no timestamps or the
    /// stand-in rendered it.
    public private(set) var lastStageTimes: GPUStageTimes?

    /// Sets up instance, device and pipelines.
    /// - Throws: ``VulkanError`` when there is no usable loader, driver or device.
    public init(options: VulkanOptions = VulkanOptions()) throws {
        faults = options.faultInjection
        let instance = try Instance(validation: options.validation)
        let choice = try DeviceSelector.choose(instance, preference: options.device)
        device = try Device(instance: instance, physical: choice)
        deviceDescription = choice.description
        memoryPath =
            options.memoryPath != .automatic
            ? options.memoryPath : choice.description.memory.isUnified ? .unified : .discrete
        setLayout = try DescriptorSetLayout(device: device)
        paramsLayout = ParamsBufferLayout(alignment: choice.uniformOffsetAlignment)
        layout = try PipelineLayout(setLayout: setLayout, pushConstantSize: DispatchConstants.pushSize)
        let cache = try PipelineCache(device: device, directory: options.pipelineCacheDirectory)
        let device = device
        compiler = PipelineCompiler(
            layout: layout, cache: cache, lensShader: try ShaderModule(device: device, name: .lens),
            frostShader: try ShaderModule(device: device, name: .frost), faults: faults)
        standIn = options.standIn
        compiler.payback.deviceIsTimed = device.physical.timestampValidBits > 0
        let fixed = try [ShaderModuleName.compose, .overlay].map { try ShaderModule(device: device, name: $0) }
        let made = try PipelineCompiler.compile(fixed.map { ($0, [:]) }, layout: layout, cache: cache).map {
            try $0.result.get()
        }
        composePipeline = made[0]
        overlayPipeline = made[1]
        cache.save()
        slots = [try makeSlot()]
    }

    /// A frame slot for the memory path: on the discrete path it copies on the dedicated transfer
    /// queue, or on the compute queue where the device has no transfer family (lavapipe).
    private func makeSlot() throws -> FrameSlot {
        try FrameSlot(
            device: device, setLayout: setLayout,
            transferQueue: memoryPath == .discrete ? device.transfer ?? device.compute : nil)
    }

    /// Compiles every pipeline the stand-in frames needed and every label-free variant device
    /// frames could have run, whether or not it has paid for itself yet, and waits for them and
    /// any other compile in progress, so frames like those run on the device at full speed from
    /// here on.
    /// - Throws: the ``VulkanError`` a compile failed with; not a label-free variant's, which
    ///   frames do without (their label variant draws the same pixels).
    public func waitForPipelines() throws {
        let labelFree = labelFreeWanted
        compiler.start(standInWanted + labelFree)
        standInWanted = []
        labelFreeWanted = []
        try compiler.waitForAll(optional: labelFree)
    }

    /// Starts compiling what the stand-in frames since the last frame needed, as far as it pays.
    /// Not before the next frame: the stand-in frame had every core, and a renderer that renders
    /// no more frames (one still) compiles nothing it will not use.
    private func startStandInCompiles() {
        guard !standInWanted.isEmpty else { return }
        compiler.startPaying(standInWanted)
        standInWanted = []
    }

    /// Every physical device Vulkan reports, with why each is or is not usable.
    public static func listDevices() throws -> [DeviceDescription] {
        try DeviceSelector.survey(Instance(validation: false)).map(\.description)
    }

    /// Renders one resolved frame to 8-bit sRGB pixels.
    public func render(_ parameters: FrameParameters) throws -> RGBA8Image {
        var rendered: RGBA8Image?
        try renderBatch(
            count: 1, framesInFlight: 1, frame: { _ in parameters }, deliver: { _, image in rendered = image })
        return rendered!
    }

    /// Renders `count` frames with up to `framesInFlight` submitted at once: frame `i` is asked
    /// for with `frame(i)` while earlier frames run, and handed to `deliver` in order as soon as it
    /// is read back (``lastStageTimes`` then holds its stage times). Memory is bounded by the ring,
    /// however long the batch. An error stops the batch after the frames in flight have finished.
    public func renderBatch(
        count: Int, framesInFlight: Int = 2, frame: (Int) throws -> FrameParameters,
        deliver: (Int, RGBA8Image) throws -> Void
    ) throws {
        let ringSize = max(1, framesInFlight)
        while slots.count < ringSize { slots.append(try makeSlot()) }
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
            for slot in slots where slot.pending != nil {
                if slot.pending?.standInImage == nil { try? slot.fence.wait() }
                slot.pending = nil
                slot.forgetContents()
            }
            throw error
        }
    }

    /// Plans, uploads what changed, records and submits one frame on `slot` without waiting. On
    /// the discrete path that is three submits: the upload copies on the transfer queue (when an
    /// input changed), the passes on the compute queue, the readback copy on the transfer queue,
    /// each waiting for the one before through a semaphore; the last signals the slot's fence.
    private func submit(_ parameters: FrameParameters, on slot: FrameSlot) throws {
        // Planning trims only frost and row tiles, so the frame's pipelines are known before it.
        startStandInCompiles()
        let needed = NeededPipelines(parameters)
        // Without a stand-in, or when every pipeline missing is already compiling (waiting leaves
        // the cores to the compile, and the device frame is the faster one), the frame waits.
        guard
            let compiled = try compiler.compiled(needed.all)
                ?? (standIn == nil || compiler.allStarted(needed.all) ? compiler.waitFor(needed.all) : nil)
        else {
            renderStandIn(parameters, needing: needed.all, on: slot)
            return
        }
        // Asked only by frames the device renders: an optional compile never queues ahead of a stand-in's.
        let labelFreeAsks = needed.labelFree.compactMap { $0 }
        labelFreeWanted.formUnion(labelFreeAsks.map { .lens($0.variant) })
        let labelFree = compiler.labelFree(labelFreeAsks)
        let pixelCount = parameters.width * parameters.height
        try ensureBuffers(
            slot,
            sizes: [
                .params: paramsLayout.byteCount(lensCount: parameters.lenses.count),
                .tables: parameters.tables.count * 4,
                .backdrop: pixelCount * 4,
                .label: parameters.labelWords.count * 4,
                .scratch: pixelCount * 16,
                .frosted: pixelCount * 16,
                .output: pixelCount * 4,
                .shapes: parameters.shapes.count * MemoryLayout<ShapeParams>.stride,
                .tiles: parameters.tiles.count * MemoryLayout<SIMD4<UInt32>>.stride,
                .tileShapes: parameters.tileShapes.count * 4,
                .foreground: parameters.foreground.count * 4,
                .composite: parameters.usesComposite ? pixelCount * 4 : 16,
            ], baseSize: pixelCount * 4)
        framesSubmitted += 1
        try faults.failSubmitIfInjected(frameNumber: framesSubmitted)
        let timestampCount = UInt32(4 + 2 * parameters.lenses.count)
        try slot.ensureQueries(timestampCount)
        let plan = slot.reuse.plan(parameters)
        let planned = plan.parameters
        do {
            slot.beginUploads()
            slot.upload(paramsLayout.bytes(frame: planned.frame, lenses: planned.lenses), to: .params)
            slot.upload(planned.tables, to: .tables)
            if plan.uploadBackdrop { slot.upload(planned.backdrop, to: .backdrop, skipUnchanged: false) }
            if plan.uploadLabel { slot.upload(planned.labelWords, to: .label, skipUnchanged: false) }
            if plan.uploadForeground { slot.upload(planned.foreground, to: .foreground, skipUnchanged: false) }
            slot.upload(planned.shapes, to: .shapes)
            slot.upload(planned.tiles, to: .tiles)
            slot.upload(planned.tileShapes, to: .tileShapes)
            try slot.commandBuffer.record { commands in
                record(
                    commands, planned, on: slot, baseFromBackdrop: plan.baseFromBackdrop,
                    composeRegion: plan.composeRegion, lensPipelines: needed.pipelines(compiled, labelFree: labelFree))
            }
            try slot.fence.reset()
            if let transfers = slot.transfers {
                try submitDiscrete(slot, transfers, frameBytes: pixelCount * 4)
            } else {
                try slot.commandBuffer.submit(fence: slot.fence)
            }
        } catch {
            slot.forgetContents()
            if let transfers = slot.transfers {
                // A submit that failed after an earlier one of this frame went through leaves a
                // semaphore signalled that nobody will wait for: let the queues drain, start afresh.
                try? device.waitIdle()
                try? transfers.renewSemaphores()
            }
            throw error
        }
        lastTransfers = slot.transfersOfFrame
        slot.pending = FrameSlot.PendingFrame(
            width: parameters.width, height: parameters.height, lensCount: parameters.lenses.count,
            lensTiles: Int(parameters.lenses.reduce(0) { $0 + $1.tileCount }), timestampCount: timestampCount)
    }

    /// The host stand-in renders the frame (the same pixels) into `slot`'s pending frame. The
    /// slot's buffers and reuse state stay those of its last device frame, which they still hold.
    private func renderStandIn(_ parameters: FrameParameters, needing variants: [PipelineVariant], on slot: FrameSlot) {
        lastTransfers = FrameTransfers()
        standInFrames += 1
        let started = DispatchTime.now().uptimeNanoseconds
        let image = standIn!(parameters)
        compiler.payback.noteStandIn(milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        slot.pending = FrameSlot.PendingFrame(
            width: parameters.width, height: parameters.height, lensCount: parameters.lenses.count,
            timestampCount: 0, standInImage: image)
        standInWanted += variants
    }

    /// The discrete path's submits: the staged copies on the transfer queue (when there are any),
    /// the passes on the compute queue, the readback copy on the transfer queue and the fence.
    private func submitDiscrete(_ slot: FrameSlot, _ transfers: SlotTransfers, frameBytes: Int) throws {
        let uploading = !transfers.copies.isEmpty
        if uploading {
            try transfers.uploadCommands.record { commands in
                // The host wrote the staging buffer before this submit (which makes host writes
                // visible) → the copies read it; the `uploaded` semaphore hands their writes to the passes.
                for (destination, region) in transfers.copies {
                    var region = region
                    vkCmdCopyBuffer(commands, transfers.staging!.handle, destination.handle, 1, &region)
                }
            }
            try transfers.uploadCommands.submit(signalling: transfers.uploaded)
        }
        // The compose pass and the base and composite copies are the first to read the inputs.
        try slot.commandBuffer.submit(
            waiting: uploading ? (transfers.uploaded, Self.computeAndTransferStages) : nil,
            signalling: transfers.rendered)
        try transfers.readbackCommands.record { commands in
            // The passes wrote output before signalling `rendered`, which this submit waits for → the copy reads it.
            copy(commands, from: slot.buffer(.output), to: transfers.readback!, bytes: VkDeviceSize(frameBytes))
            // The readback copy wrote the readback buffer → the host reads it after the fence.
            memoryBarrier(
                commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
                to: (VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue))
        }
        try transfers.readbackCommands.submit(
            waiting: (transfers.rendered, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue), fence: slot.fence)
        slot.noteReadback(bytes: frameBytes)
    }

    /// Waits for `slot`'s frame and copies it out of the mapped output (unified path) or
    /// readback (discrete path) buffer.
    private func finish(_ slot: FrameSlot) throws -> RGBA8Image {
        guard let pending = slot.pending else { preconditionFailure("no frame in flight on this slot") }
        if let image = pending.standInImage {
            slot.pending = nil
            lastStageTimes = nil
            return image
        }
        do {
            try slot.fence.wait()
        } catch {
            slot.pending = nil
            slot.forgetContents()
            throw error
        }
        slot.pending = nil
        let started = DispatchTime.now().uptimeNanoseconds
        let source = slot.frameSource
        try source.invalidate()
        var image = RGBA8Image(
            width: pending.width, height: pending.height,
            packedMemory: UnsafeRawBufferPointer(start: source.mapped, count: pending.width * pending.height * 4))
        let readback = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        faults.corruptIfInjected(&image)
        let measured = try stageTimes(slot, pending, readback: readback)
        lastStageTimes = measured?.times
        if let measured {
            if standIn != nil { compiler.payback.noteDevice(milliseconds: measured.times.total) }
            compiler.payback.noteLensPass(milliseconds: measured.lensPasses, tiles: pending.lensTiles)
        }
        return image
    }

    /// Grows `slot`'s buffers to the frame. A frame the device has no memory for fails with the
    /// size it needed.
    private func ensureBuffers(_ slot: FrameSlot, sizes: [Binding: Int], baseSize: Int) throws {
        do {
            try faults.failAllocationIfInjected()
            try slot.ensureBuffers(sizes: sizes, baseSize: baseSize)
        } catch let error as VulkanError where error.isOutOfMemory {
            let total = (sizes.values.reduce(0, +) + baseSize) >> 20
            throw error.explained(
                "\(deviceDescription.name) has no memory for this frame (about \(total) MiB of buffers): \(error); use --backend cpu or a smaller --scale"
            )
        }
    }

    /// The specialised pipelines a frame needs: per lens its lens variant over every tile (nil
    /// where it has none) and its two frost passes. A lens whose tiles reach the label runs all of
    /// them with the label variant (the others read zero coverage, so the pixels are the same)
    /// until its label-free variant is compiled. That one is optional: compiled in the background
    /// once it has paid for itself (``CompilePayback``), so a still or a short batch never pays its
    /// compile, and then run on the other tiles (lens-heavy's lens pass 11.5 → 10.2 ms).
    private struct NeededPipelines {
        var lens: [LensVariant?]
        /// Per lens, the variant for its tiles that cannot reach a glyph and how many they are,
        /// where it has tiles of both kinds.
        var labelFree: [(variant: LensVariant, tiles: Int)?]
        var frost: [[FrostVariant]]

        init(_ parameters: FrameParameters) {
            let linearBlending = parameters.frame.linearBlending != 0
            let variants = parameters.lenses.map { lens in
                let group = parameters.shapes[Int(lens.shapeOffset)..<Int(lens.shapeOffset + lens.shapeCount)]
                return { (reachesLabel: Bool) in
                    LensVariant(lens: lens, shapes: group, reachesLabel: reachesLabel, linearBlending: linearBlending)
                }
            }
            lens = zip(parameters.lenses, variants).map { lens, variant in
                lens.tileCount > 0 ? variant(lens.labelTileCount > 0) : nil
            }
            labelFree = zip(parameters.lenses, variants).map { lens, variant in
                lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount
                    ? (variant(false), Int(lens.tileCount - lens.labelTileCount)) : nil
            }
            frost = parameters.lenses.map(FrostVariant.passes)
        }

        /// The variants the frame cannot do without.
        var all: [PipelineVariant] {
            lens.compactMap { $0.map(PipelineVariant.lens) } + frost.joined().map(PipelineVariant.frost)
        }

        /// Each lens's pipelines, out of `compiled` and the optional ones compiled so far.
        func pipelines(
            _ compiled: [PipelineVariant: ComputePipeline], labelFree optional: [PipelineVariant: ComputePipeline]
        ) -> [LensPipelines] {
            (0..<lens.count).map { index in
                (
                    frost: frost[index].map { compiled[.frost($0)]! },
                    lens: lens[index].map { compiled[.lens($0)]! },
                    labelFree: labelFree[index].flatMap { optional[.lens($0.variant)] }
                )
            }
        }
    }

    private func record(
        _ commands: VkCommandBuffer, _ parameters: FrameParameters, on slot: FrameSlot, baseFromBackdrop: Bool,
        composeRegion: PixelRegion?,
        lensPipelines: [LensPipelines]
    ) {
        let queries = slot.queries
        var query: UInt32 = 0
        func timestamp() {
            guard let queries else { return }
            vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries.handle, query)
            query += 1
        }
        if let queries { vkCmdResetQueryPool(commands, queries.handle, 0, queries.capacity) }
        // This slot's previous frame (compute passes, base copies) → this frame's copies and passes.
        memoryBarrier(
            commands, from: (Self.computeAndTransferStages, Self.allWrites),
            to: (Self.computeAndTransferStages, Self.allReadsAndWrites))

        let output = slot.buffer(.output)
        let base = slot.base!
        let frameBytes = VkDeviceSize(parameters.width * parameters.height * 4)
        timestamp()
        if baseFromBackdrop || composeRegion != nil {
            // Off the label the base is the backdrop itself; a partly damaged base starts from the kept one.
            copy(commands, from: baseFromBackdrop ? slot.buffer(.backdrop) : base, to: output, bytes: frameBytes)
            if let composeRegion {
                // The copy wrote output → compose redraws the label's part of it.
                memoryBarrier(
                    commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
                    to: (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, Self.shaderReadWrite))
                dispatch(commands, composePipeline, slot, DispatchConstants(region: composeRegion))
            }
            timestamp()
            // The copy or compose wrote output → the copy reads it into the kept base.
            memoryBarrier(
                commands, from: (Self.computeAndTransferStages, Self.allWrites),
                to: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_READ_BIT.rawValue))
            copy(commands, from: output, to: base, bytes: frameBytes)
        } else {
            timestamp()
            copy(commands, from: base, to: output, bytes: frameBytes)
        }
        if parameters.usesComposite {
            copy(commands, from: slot.buffer(.backdrop), to: slot.buffer(.composite), bytes: frameBytes)
        }
        timestamp()
        // The base copy read or wrote output, the composite reset wrote composite → the lens
        // passes read and write both.
        memoryBarrier(
            commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
            to: (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, Self.shaderReadWrite))
        for (index, regions) in parameters.regions.enumerated() {
            // Earlier passes wrote scratch/frosted/output/composite → this lens's frost reads composite,
            // overwrites scratch/frosted.
            computeBarrier(commands)
            let lens = parameters.lenses[index]
            dispatch(
                commands, lensPipelines[index].frost[0], slot, DispatchConstants(region: parameters.fullFrame),
                lens: index, workgroups: (lens.rowTileCount, 1))
            // Horizontal frost wrote scratch → vertical frost reads it.
            computeBarrier(commands)
            dispatch(
                commands, lensPipelines[index].frost[1], slot, DispatchConstants(region: parameters.fullFrame),
                lens: index, workgroups: (lens.frostTileCount, 1))
            timestamp()
            // Vertical frost wrote frosted, the base copy/earlier lenses wrote output and composite → this
            // lens reads them, writes output and composite.
            computeBarrier(commands)
            if let pipeline = lensPipelines[index].lens {
                // With the label-free variant, the tiles past the label tiles run without the label
                // sampling. The two dispatches write disjoint tiles: no barrier between them.
                let labelFree = lensPipelines[index].labelFree
                let split = labelFree == nil ? lens.tileCount : lens.labelTileCount
                dispatch(
                    commands, pipeline, slot, DispatchConstants(region: regions.lens, firstTile: lens.tileOffset),
                    lens: index, workgroups: (split, 1))
                if let labelFree {
                    dispatch(
                        commands, labelFree, slot,
                        DispatchConstants(region: regions.lens, firstTile: lens.tileOffset + split),
                        lens: index, workgroups: (lens.tileCount - split, 1))
                    labelFreeTilesDispatched += Int(lens.tileCount - split)
                }
            }
            timestamp()
        }
        // The lenses wrote output → the foreground goes over it.
        computeBarrier(commands)
        dispatch(
            commands, overlayPipeline, slot, DispatchConstants(region: parameters.fullFrame),
            workgroups: (parameters.frame.foregroundTileCount, 1))
        timestamp()
        // Discrete path: the `rendered` semaphore hands output to the readback copy instead.
        guard slot.transfers == nil else { return }
        // The last compute pass wrote output → the host reads it after the fence.
        memoryBarrier(
            commands, from: (Self.computeAndTransferStages, Self.allWrites),
            to: (VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue))
    }

    private static let computeAndTransferStages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
    private static let shaderReadWrite = VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
    private static let allWrites = VK_ACCESS_SHADER_WRITE_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
    private static let allReadsAndWrites =
        VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
        | VK_ACCESS_TRANSFER_READ_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue

    /// A global memory dependency between two (stage mask, access mask) scopes; each call site names
    /// producer and consumer.
    private func memoryBarrier(
        _ commands: VkCommandBuffer, from source: (UInt32, UInt32), to destination: (UInt32, UInt32)
    ) {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = source.1
        barrier.dstAccessMask = destination.1
        vkCmdPipelineBarrier(commands, source.0, destination.0, 0, 1, &barrier, 0, nil, 0, nil)
    }

    /// Copies the first `bytes` of one buffer into another.
    private func copy(_ commands: VkCommandBuffer, from source: Buffer, to destination: Buffer, bytes: VkDeviceSize) {
        var region = VkBufferCopy(srcOffset: 0, dstOffset: 0, size: bytes)
        vkCmdCopyBuffer(commands, source.handle, destination.handle, 1, &region)
    }

    /// A compute → compute memory dependency; each call site names producer and consumer.
    private func computeBarrier(_ commands: VkCommandBuffer) {
        let compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue
        memoryBarrier(commands, from: (compute, Self.shaderReadWrite), to: (compute, Self.shaderReadWrite))
    }

    /// Dispatches over the region in 16×16 workgroups, or over `workgroups` when given (a tile
    /// list), with the slot's descriptor set showing lens `lens` (0 for the passes without one).
    private func dispatch(
        _ commands: VkCommandBuffer, _ pipeline: ComputePipeline, _ slot: FrameSlot, _ constants: DispatchConstants,
        lens: Int = 0, workgroups: (UInt32, UInt32)? = nil
    ) {
        let width = constants.region.z - constants.region.x
        let height = constants.region.w - constants.region.y
        let groups = workgroups ?? ((width + 15) / 16, (height + 15) / 16)
        guard width > 0, height > 0, groups.0 > 0, groups.1 > 0 else { return }
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle)
        var set: VkDescriptorSet? = slot.descriptorSet.handle
        var lensOffset = UInt32(paramsLayout.lensOffset(lens))
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout.handle, 0, 1, &set, 1, &lensOffset)
        var pushed = constants
        vkCmdPushConstants(
            commands, layout.handle, VK_SHADER_STAGE_COMPUTE_BIT.rawValue, 0, layout.pushConstantSize, &pushed)
        vkCmdDispatch(commands, groups.0, groups.1, 1)
    }

    /// Stage times from the slot's timestamps: start, after compose, after the base copy, after
    /// each lens's frost and after its lens pass, then after the foreground (counted as lens);
    /// and the lens passes' own time, without the foreground.
    private func stageTimes(_ slot: FrameSlot, _ pending: FrameSlot.PendingFrame, readback: Double) throws
        -> (times: GPUStageTimes, lensPasses: Double)?
    {
        guard let queries = slot.queries, let stamps = try queries.results(count: pending.timestampCount) else {
            return nil
        }
        var times = GPUStageTimes(
            compose: (stamps[1] - stamps[0]) / 1e6, copy: (stamps[2] - stamps[1]) / 1e6, frost: 0, lens: 0,
            readback: readback)
        for lens in 0..<pending.lensCount {
            times.frost += (stamps[3 + 2 * lens] - stamps[2 + 2 * lens]) / 1e6
            times.lens += (stamps[4 + 2 * lens] - stamps[3 + 2 * lens]) / 1e6
        }
        let lensPasses = times.lens
        let last = Int(pending.timestampCount) - 1
        times.lens += (stamps[last] - stamps[last - 1]) / 1e6
        return (times, lensPasses)
    }
}
