internal import CVulkan
import Foundation
import LensModel
import LensResolve

/// Puts frames on the device and takes them back: the ring of ``FrameSlot``s, each frame's
/// buffers and uploads, the queue submits with their semaphores and fence, and the readback with
/// its stage times. Which pipelines a frame runs is decided before it arrives here
/// (``PipelinePolicy``); how its commands are recorded is the ``FrameRecorder``'s.
final class FrameSubmitter {
    private let device: Device
    private let setLayout: DescriptorSetLayout
    private let paramsLayout: ParamsBufferLayout
    private let recorder: FrameRecorder
    private let memoryPath: MemoryPath
    private let faults: FaultInjection
    private(set) var slots: [FrameSlot] = []
    /// Frames submitted so far, for `FaultInjection/deviceLostAtFrame`.
    private var framesSubmitted = 0
    /// What crossed between host and device for the frame submitted last.
    private(set) var lastTransfers = FrameTransfers()
    /// How the lens passes of the device frame submitted last were dispatched.
    private(set) var lastDispatches = LensDispatches()
    /// Whether frames split their GPU time by stage, with timestamps around each lens's passes.
    var measuresStages = false

    init(
        device: Device, setLayout: DescriptorSetLayout, paramsLayout: ParamsBufferLayout, recorder: FrameRecorder,
        memoryPath: MemoryPath, faults: FaultInjection
    ) throws {
        self.device = device
        self.setLayout = setLayout
        self.paramsLayout = paramsLayout
        self.recorder = recorder
        self.memoryPath = memoryPath
        self.faults = faults
        slots = [try makeSlot()]
    }

    /// Grows the ring to at least `size` slots.
    func ensureRing(_ size: Int) throws {
        while slots.count < size { slots.append(try makeSlot()) }
    }

    /// A frame slot for the memory path: on the discrete path it copies on the dedicated transfer
    /// queue, or on the compute queue where the device has no transfer family (lavapipe).
    private func makeSlot() throws -> FrameSlot {
        try FrameSlot(
            device: device, setLayout: setLayout,
            transferQueue: memoryPath == .discrete ? device.transfer ?? device.compute : nil)
    }

    /// The bytes each buffer needs for `parameters` (the composite a token 16 unless glass sees glass).
    private func bufferSizes(_ parameters: FrameParameters) -> [Binding: Int] {
        let pixelCount = parameters.width * parameters.height
        return [
            .params: paramsLayout.byteCount(lensCount: parameters.lenses.count),
            .tables: parameters.tables.count * 4,
            .backdrop: pixelCount * 4,
            .label: parameters.labelWords.count * 4,
            .scratch: FrostPyramid.scratchCount(width: parameters.width, height: parameters.height) * 16,
            .frosted: pixelCount * 16,
            .output: pixelCount * 4,
            .shapes: parameters.shapes.count * MemoryLayout<ShapeParams>.stride,
            .tiles: parameters.tiles.count * MemoryLayout<SIMD4<UInt32>>.stride,
            .tileShapes: parameters.tileShapes.count * 4,
            .foreground: parameters.foreground.count * 4,
            .composite: parameters.usesComposite ? pixelCount * 4 : 16,
        ]
    }

    /// Plans, uploads what changed, records and submits one frame on `slot` without waiting. On
    /// the discrete path that is three submits: the upload copies on the transfer queue (when an
    /// input changed), the passes on the compute queue, the readback copy on the transfer queue,
    /// each waiting for the one before through a semaphore; the last signals the slot's fence.
    func submit(_ parameters: FrameParameters, running lensPipelines: [LensPipelines], on slot: FrameSlot) throws {
        let pixelCount = parameters.width * parameters.height
        let allocatedBytes = try ensureBuffers(slot, sizes: bufferSizes(parameters), baseSize: pixelCount * 4)
        framesSubmitted += 1
        try faults.failSubmitIfInjected(frameNumber: framesSubmitted)
        let timestampCount = FrameRecorder.timestampCount(
            lensCount: parameters.lenses.count, stampsEachLens: measuresStages)
        try slot.ensureQueries(timestampCount)
        let plan = slot.reuse.plan(parameters)
        let planned = plan.parameters
        var dispatched = LensDispatches()
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
                dispatched = recorder.record(
                    commands, planned, on: slot, baseFromBackdrop: plan.baseFromBackdrop,
                    composeRegion: plan.composeRegion, lensPipelines: lensPipelines, stampsEachLens: measuresStages)
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
        lastTransfers.allocatedBytes = allocatedBytes
        lastDispatches = dispatched
        slot.pending = FrameSlot.PendingFrame(
            width: parameters.width, height: parameters.height, lensCount: parameters.lenses.count,
            lensTiles: dispatched.lensTiles, timestampCount: timestampCount, stampsEachLens: measuresStages)
    }

    /// Holds a frame the host stand-in rendered as `slot`'s pending frame. The slot's buffers and
    /// reuse state stay those of its last device frame, which they still hold.
    func hold(standIn image: RGBA8Image, on slot: FrameSlot) {
        lastTransfers = FrameTransfers()
        slot.pending = FrameSlot.PendingFrame(
            width: image.width, height: image.height, lensCount: 0, timestampCount: 0, standInImage: image)
    }

    /// The discrete path's submits: the staged copies on the transfer queue (when there are any),
    /// the passes on the compute queue, the readback copy on the transfer queue and the fence.
    private func submitDiscrete(_ slot: FrameSlot, _ transfers: SlotTransfers, frameBytes: Int) throws {
        let uploading = !transfers.copies.isEmpty
        if uploading {
            try transfers.uploadCommands.record { FrameRecorder.recordUploads($0, transfers) }
            try transfers.uploadCommands.submit(signalling: transfers.uploaded)
        }
        // The compose pass and the base and composite copies are the first to read the inputs.
        try slot.commandBuffer.submit(
            waiting: uploading ? (transfers.uploaded, FrameRecorder.computeAndTransferStages) : nil,
            signalling: transfers.rendered)
        try transfers.readbackCommands.record { commands in
            FrameRecorder.recordReadback(
                commands, from: slot.buffer(.output), to: transfers.readback!, bytes: frameBytes)
        }
        try transfers.readbackCommands.submit(
            waiting: (transfers.rendered, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue), fence: slot.fence)
        slot.noteReadback(bytes: frameBytes)
    }

    /// A frame taken back from its slot: the image, and for a device frame with timestamps its
    /// GPU time, the lenses' time (without the foreground; their frost included unless the stages
    /// were measured), the lens tiles run and, when measured, the stage times.
    struct FinishedFrame {
        var image: RGBA8Image
        var measured: FrameTimes?
    }

    struct FrameTimes {
        var deviceMs: Double
        var lensPasses: Double
        var lensTiles: Int
        var stages: GPUStageTimes?
    }

    /// Waits for `slot`'s frame and copies it out of the mapped output (unified path) or
    /// readback (discrete path) buffer.
    func finish(_ slot: FrameSlot) throws -> FinishedFrame {
        guard let pending = slot.pending else { preconditionFailure("no frame in flight on this slot") }
        if let image = pending.standInImage {
            slot.pending = nil
            return FinishedFrame(image: image)
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
        return FinishedFrame(image: image, measured: try frameTimes(slot, pending, readback: readback))
    }

    /// Forgets every frame in flight after a failure, waiting for those on the device first.
    func abandonInFlight() {
        for slot in slots where slot.pending != nil {
            if slot.pending?.standInImage == nil { try? slot.fence.wait() }
            slot.pending = nil
            slot.forgetContents()
        }
    }

    /// Grows `slot`'s buffers to the frame. A frame the device has no memory for fails with the
    /// size it needed.
    /// - Returns: the bytes allocated.
    private func ensureBuffers(_ slot: FrameSlot, sizes: [Binding: Int], baseSize: Int) throws -> Int {
        do {
            try faults.failAllocationIfInjected()
            return try slot.ensureBuffers(sizes: sizes, baseSize: baseSize)
        } catch let error as VulkanError where error.isOutOfMemory {
            let total = (sizes.values.reduce(0, +) + baseSize) >> 20
            throw error.explained(
                "\(device.physical.description.name) has no memory for this frame (about \(total) MiB of buffers): \(error); use --backend cpu or a smaller --scale"
            )
        }
    }

    /// Times from the slot's timestamps: start, after compose, after the base copy, after each
    /// lens's frost and after its lens pass (or, unless the stages are measured, after all the
    /// lenses), then after the foreground (counted as lens).
    private func frameTimes(_ slot: FrameSlot, _ pending: FrameSlot.PendingFrame, readback: Double) throws
        -> FrameTimes?
    {
        guard let queries = slot.queries, let stamps = try queries.results(count: pending.timestampCount) else {
            return nil
        }
        let last = Int(pending.timestampCount) - 1
        let lensesEnd = stamps[last - 1]
        var times = FrameTimes(
            deviceMs: (stamps[last] - stamps[0]) / 1e6,
            lensPasses: (lensesEnd - stamps[2]) / 1e6, lensTiles: pending.lensTiles)
        guard pending.stampsEachLens else { return times }
        var stages = GPUStageTimes(
            compose: (stamps[1] - stamps[0]) / 1e6, copy: (stamps[2] - stamps[1]) / 1e6, frost: 0, lens: 0,
            readback: readback)
        for lens in 0..<pending.lensCount {
            stages.frost += (stamps[3 + 2 * lens] - stamps[2 + 2 * lens]) / 1e6
            stages.lens += (stamps[4 + 2 * lens] - stamps[3 + 2 * lens]) / 1e6
        }
        times.lensPasses = stages.lens
        stages.lens += (stamps[last] - lensesEnd) / 1e6
        times.stages = stages
        return times
    }
}
