internal import CVulkan
import LensModel
import LensResolve

/// Records a frame's commands: the base copies, the compose, frost, lens and overlay
/// dispatches with the barriers between them, and on the discrete path the upload and readback
/// copies. Holds the pipelines every frame runs and the layout they share; the lens and frost
/// pipelines come with each frame.
final class FrameRecorder {
    private let layout: PipelineLayout
    private let paramsLayout: ParamsBufferLayout
    private let composePipeline: ComputePipeline
    private let overlayPipeline: ComputePipeline

    init(
        layout: PipelineLayout, paramsLayout: ParamsBufferLayout, composePipeline: ComputePipeline,
        overlayPipeline: ComputePipeline
    ) {
        self.layout = layout
        self.paramsLayout = paramsLayout
        self.composePipeline = composePipeline
        self.overlayPipeline = overlayPipeline
    }

    /// The frame's stage timestamps, written in order into the slot's query pool when it has one.
    private struct Timestamps {
        let commands: VkCommandBuffer
        let queries: TimestampQueryPool?
        /// Whether each lens's frost and lens passes get timestamps of their own: lavapipe flushes
        /// its context at every timestamp, so only when the stages are asked for.
        let eachLens: Bool
        private var next: UInt32 = 0

        init(_ commands: VkCommandBuffer, _ queries: TimestampQueryPool?, eachLens: Bool) {
            self.commands = commands
            self.queries = queries
            self.eachLens = eachLens
            if let queries { vkCmdResetQueryPool(commands, queries.handle, 0, queries.capacity) }
        }

        mutating func write() {
            guard let queries else { return }
            vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries.handle, next)
            next += 1
        }

        /// A timestamp after one lens's frost or lens pass, when each lens gets its own.
        mutating func writeForLens() {
            if eachLens { write() }
        }

        /// The timestamp after all the lenses, when they get none of their own.
        mutating func writeAfterLenses() {
            if !eachLens { write() }
        }
    }

    /// The timestamps `record` writes for `lensCount` lenses: start, compose, base copy, the
    /// lenses' (two each with `stampsEachLens`, else one for all), foreground.
    static func timestampCount(lensCount: Int, stampsEachLens: Bool) -> UInt32 {
        UInt32(4 + (stampsEachLens ? 2 * lensCount : 1))
    }

    /// Records the frame's passes into `commands`, and returns how its lens tiles were dispatched.
    /// `baseFromBackdrop` and `composeRegion` come from the slot's reuse plan. Timestamps go at the
    /// start, after the compose and the base copy, after the lenses (with `stampsEachLens`, after
    /// each lens's frost and after its lens pass instead) and after the foreground.
    func record(
        _ commands: VkCommandBuffer, _ parameters: FrameParameters, on slot: FrameSlot, baseFromBackdrop: Bool,
        composeRegion: PixelRegion?, lensPipelines: [LensPipelines], stampsEachLens: Bool
    ) -> LensDispatches {
        var timestamps = Timestamps(commands, slot.queries, eachLens: stampsEachLens)
        // This slot's previous frame (compute passes, base copies) → this frame's copies and passes.
        Self.memoryBarrier(
            commands, from: (Self.computeAndTransferStages, Self.allWrites),
            to: (Self.computeAndTransferStages, Self.allReadsAndWrites))
        timestamps.write()
        recordBase(
            commands, parameters, on: slot, baseFromBackdrop: baseFromBackdrop, composeRegion: composeRegion,
            timestamps: &timestamps)
        timestamps.write()
        // The base copy read or wrote output, the composite reset wrote composite → the lens
        // passes read and write both.
        Self.memoryBarrier(
            commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
            to: (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, Self.shaderReadWrite))
        var dispatched = LensDispatches()
        for index in parameters.regions.indices {
            recordLens(
                index, commands, parameters, on: slot, pipelines: lensPipelines[index], timestamps: &timestamps,
                dispatched: &dispatched)
        }
        timestamps.writeAfterLenses()
        // The lenses wrote output → the foreground goes over it.
        Self.computeBarrier(commands)
        dispatch(
            commands, overlayPipeline, slot, DispatchConstants(region: parameters.fullFrame),
            tiles: parameters.frame.foregroundTileCount)
        timestamps.write()
        // Discrete path: the `rendered` semaphore hands output to the readback copy instead.
        guard slot.transfers == nil else { return dispatched }
        // The last compute pass wrote output → the host reads it after the fence.
        Self.memoryBarrier(
            commands, from: (Self.computeAndTransferStages, Self.allWrites),
            to: (VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue))
        return dispatched
    }

    /// The output starts as the base layer: the kept base copied in, or (when the plan says the
    /// base changed) the backdrop, with the label's region composed over it, kept as the new base.
    /// The composite starts as the backdrop when glass sees glass.
    private func recordBase(
        _ commands: VkCommandBuffer, _ parameters: FrameParameters, on slot: FrameSlot, baseFromBackdrop: Bool,
        composeRegion: PixelRegion?, timestamps: inout Timestamps
    ) {
        let output = slot.buffer(.output)
        let base = slot.base!
        let frameBytes = VkDeviceSize(parameters.width * parameters.height * 4)
        if baseFromBackdrop || composeRegion != nil {
            // Off the label the base is the backdrop itself; a partly damaged base starts from the kept one.
            Self.copy(commands, from: baseFromBackdrop ? slot.buffer(.backdrop) : base, to: output, bytes: frameBytes)
            if let composeRegion {
                // The copy wrote output → compose redraws the label's part of it.
                Self.memoryBarrier(
                    commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
                    to: (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, Self.shaderReadWrite))
                dispatch(commands, composePipeline, slot, DispatchConstants(region: composeRegion))
            }
            timestamps.write()
            // The copy or compose wrote output → the copy reads it into the kept base.
            Self.memoryBarrier(
                commands, from: (Self.computeAndTransferStages, Self.allWrites),
                to: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_READ_BIT.rawValue))
            Self.copy(commands, from: output, to: base, bytes: frameBytes)
        } else {
            timestamps.write()
            Self.copy(commands, from: base, to: output, bytes: frameBytes)
        }
        if parameters.usesComposite {
            Self.copy(commands, from: slot.buffer(.backdrop), to: slot.buffer(.composite), bytes: frameBytes)
        }
    }

    /// Lens `index`: its frost passes, then the lens pass over its tiles (split between the
    /// label-free variant and the full pipeline), counted into `dispatched`.
    private func recordLens(
        _ index: Int, _ commands: VkCommandBuffer, _ parameters: FrameParameters, on slot: FrameSlot,
        pipelines: LensPipelines, timestamps: inout Timestamps, dispatched: inout LensDispatches
    ) {
        let lens = parameters.lenses[index]
        let frame = DispatchConstants(region: parameters.fullFrame)
        // Earlier passes wrote scratch/frosted/output/composite → this lens's frost reads composite,
        // overwrites scratch/frosted.
        Self.computeBarrier(commands)
        if pipelines.frost.count == 3 {
            dispatch(commands, pipelines.frost[0], slot, frame, lens: index, tiles: lens.rowTileCount)
            // The level pass wrote the level's texels to scratch's tail → horizontal frost reads them.
            Self.computeBarrier(commands)
        }
        dispatch(
            commands, pipelines.frost[pipelines.frost.count - 2], slot, frame, lens: index,
            tiles: lens.rowTileCount)
        // Horizontal frost wrote scratch → vertical frost reads it, overwrites frosted.
        Self.computeBarrier(commands)
        dispatch(
            commands, pipelines.frost[pipelines.frost.count - 1], slot, frame, lens: index,
            tiles: lens.frostTileCount)
        timestamps.writeForLens()
        // Vertical frost wrote frosted, the base copy/earlier lenses wrote output and composite → this
        // lens reads them, writes output and composite.
        Self.computeBarrier(commands)
        if let pipeline = pipelines.lens {
            let split = PipelinePolicy.lensDispatches(
                tileOffset: lens.tileOffset, tileCount: lens.tileCount, labelTileCount: lens.labelTileCount,
                hasLabelFree: pipelines.labelFree != nil)
            for part in split {
                dispatch(
                    commands, part.labelFree ? pipelines.labelFree! : pipeline, slot,
                    DispatchConstants(
                        region: parameters.regions[index].lens, firstTile: part.firstTile, tileCount: part.count),
                    lens: index, tiles: part.count)
                dispatched.lensTiles += Int(part.count)
                if part.labelFree { dispatched.labelFreeVariantTiles += Int(part.count) }
            }
        }
        timestamps.writeForLens()
    }

    /// Records the discrete path's upload: the staged inputs copied into their device-local buffers.
    static func recordUploads(_ commands: VkCommandBuffer, _ transfers: SlotTransfers) {
        // The host wrote the staging buffer before this submit (which makes host writes
        // visible) → the copies read it; the `uploaded` semaphore hands their writes to the passes.
        for (destination, region) in transfers.copies {
            var region = region
            vkCmdCopyBuffer(commands, transfers.staging!.handle, destination.handle, 1, &region)
        }
    }

    /// Records the discrete path's readback: the finished frame copied into the host-cached buffer.
    static func recordReadback(_ commands: VkCommandBuffer, from output: Buffer, to readback: Buffer, bytes: Int) {
        // The passes wrote output before signalling `rendered`, which this submit waits for → the copy reads it.
        copy(commands, from: output, to: readback, bytes: VkDeviceSize(bytes))
        // The readback copy wrote the readback buffer → the host reads it after the fence.
        memoryBarrier(
            commands, from: (VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue),
            to: (VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue))
    }

    /// The stages a frame's first passes run in, for the semaphore they wait on.
    static let computeAndTransferStages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
    private static let shaderReadWrite = VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
    private static let allWrites = VK_ACCESS_SHADER_WRITE_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
    private static let allReadsAndWrites =
        VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
        | VK_ACCESS_TRANSFER_READ_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue

    /// A global memory dependency between two (stage mask, access mask) scopes; each call site names
    /// producer and consumer.
    private static func memoryBarrier(
        _ commands: VkCommandBuffer, from source: (UInt32, UInt32), to destination: (UInt32, UInt32)
    ) {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = source.1
        barrier.dstAccessMask = destination.1
        vkCmdPipelineBarrier(commands, source.0, destination.0, 0, 1, &barrier, 0, nil, 0, nil)
    }

    /// Copies the first `bytes` of one buffer into another.
    private static func copy(
        _ commands: VkCommandBuffer, from source: Buffer, to destination: Buffer, bytes: VkDeviceSize
    ) {
        var region = VkBufferCopy(srcOffset: 0, dstOffset: 0, size: bytes)
        vkCmdCopyBuffer(commands, source.handle, destination.handle, 1, &region)
    }

    /// A compute → compute memory dependency; each call site names producer and consumer.
    private static func computeBarrier(_ commands: VkCommandBuffer) {
        let compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue
        memoryBarrier(commands, from: (compute, shaderReadWrite), to: (compute, shaderReadWrite))
    }

    /// Dispatches over the region in 16×16 workgroups, or over `tiles` tiles of a tile list when
    /// given (`TableLayout.tilesPerWorkgroup` to a workgroup), with the slot's descriptor set
    /// showing lens `lens` (0 for the passes without one).
    private func dispatch(
        _ commands: VkCommandBuffer, _ pipeline: ComputePipeline, _ slot: FrameSlot, _ constants: DispatchConstants,
        lens: Int = 0, tiles: UInt32? = nil
    ) {
        let width = constants.region.z - constants.region.x
        let height = constants.region.w - constants.region.y
        let perWorkgroup = UInt32(TableLayout.tilesPerWorkgroup)
        let groups =
            tiles.map { (($0 + perWorkgroup - 1) / perWorkgroup, UInt32(1)) } ?? ((width + 15) / 16, (height + 15) / 16)
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
}
