internal import CVulkan
import Foundation
import LensModel
import LensResolve

/// The buffers a frame slot owns (several descriptor bindings may show one buffer).
enum Binding: Int, CaseIterable {
    case params, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite

    /// Written by the host; the others are the passes' intermediates and their output.
    var isInput: Bool {
        switch self {
        case .params, .tables, .backdrop, .label, .shapes, .tiles, .tileShapes, .foreground: true
        case .scratch, .frosted, .output, .composite: false
        }
    }
}

/// The descriptor set's bindings, numbered as in `Shaders/lens_common.glsl`: which buffer each
/// shows and as what. Uniform blocks and texel buffers where the shaders only read (llvmpipe
/// loads those with one scalar load or one gather; a storage-buffer load is a loop over the
/// SIMD lanes), storage texel buffers where they write (a store is one scatter).
enum DescriptorBinding: UInt32, CaseIterable {
    case frame, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite
    case lens, scratchTexels, frostedTexels

    enum Kind: Equatable {
        /// A uniform block over the buffer's first `range` bytes.
        case uniformBuffer(range: Int)
        /// A uniform block of `range` bytes at an offset given with each dispatch.
        case dynamicUniformBuffer(range: Int)
        /// A uniform texel buffer of `format`, `texelSize` bytes a texel.
        case texels(format: VkFormat, texelSize: Int)
        /// A storage texel buffer (the shader writes it) of `format`, `texelSize` bytes a texel.
        case storageTexels(format: VkFormat, texelSize: Int)

        /// Format and texel size of a texel-buffer binding; nil for the others.
        var texelFormat: (format: VkFormat, texelSize: Int)? {
            switch self {
            case .texels(let format, let texelSize), .storageTexels(let format, let texelSize): (format, texelSize)
            case .uniformBuffer, .dynamicUniformBuffer: nil
            }
        }
    }

    var kind: Kind {
        switch self {
        case .frame: .uniformBuffer(range: MemoryLayout<FrameParams>.size)
        case .lens: .dynamicUniformBuffer(range: MemoryLayout<LensParams>.size)
        case .tables, .backdrop, .tileShapes, .foreground: .texels(format: VK_FORMAT_R32_UINT, texelSize: 4)
        case .label: .texels(format: VK_FORMAT_R8_UINT, texelSize: 1)
        case .shapes, .tiles, .scratchTexels, .frostedTexels:
            .texels(format: VK_FORMAT_R32G32B32A32_UINT, texelSize: 16)
        case .scratch, .frosted: .storageTexels(format: VK_FORMAT_R32G32B32A32_UINT, texelSize: 16)
        case .output, .composite: .storageTexels(format: VK_FORMAT_R32_UINT, texelSize: 4)
        }
    }

    var descriptorType: VkDescriptorType {
        switch kind {
        case .uniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
        case .dynamicUniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
        case .texels: VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
        case .storageTexels: VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
        }
    }

    /// The buffer this binding shows.
    var buffer: Binding {
        switch self {
        case .frame, .lens: .params
        case .tables: .tables
        case .backdrop: .backdrop
        case .label: .label
        case .scratch, .scratchTexels: .scratch
        case .frosted, .frostedTexels: .frosted
        case .output: .output
        case .shapes: .shapes
        case .tiles: .tiles
        case .tileShapes: .tileShapes
        case .foreground: .foreground
        case .composite: .composite
        }
    }
}

/// Everything one frame in flight owns: its buffers (and the composed base layer kept for the
/// next frame it renders), descriptor set, command buffer, fence and timestamp pool, plus the
/// `FrameReuse` record of what those buffers hold, and on the discrete memory path its
/// ``SlotTransfers``. The renderer keeps a ring of slots; a slot is touched by the host only
/// after its fence signalled.
final class FrameSlot {
    let device: Device
    let descriptorSet: DescriptorSet
    let commandBuffer: CommandBuffer
    let fence: Fence
    let reuse = FrameReuse()
    /// Staging, readback, transfer commands and semaphores: set on the discrete path only.
    let transfers: SlotTransfers?
    private(set) var buffers: [Buffer] = []
    /// The texel-buffer views of `buffers`, remade whenever a buffer is.
    private(set) var views: [DescriptorBinding: BufferView] = [:]
    /// The backdrop with the resting label, copied into `output` at the start of every frame.
    private(set) var base: Buffer?
    private(set) var queries: TimestampQueryPool?
    /// The frame submitted and not yet read back.
    var pending: PendingFrame?
    /// What the uploads of the frame being prepared wrote and copied.
    private(set) var transfersOfFrame = FrameTransfers()
    /// The bytes last written to each small input (all but backdrop, label and foreground, whose
    /// changes `FrameReuse` tracks), so an input that did not change is not written again.
    private var written: [Binding: [UInt8]] = [:]

    struct PendingFrame {
        var width: Int
        var height: Int
        var lensCount: Int
        /// The lens tiles dispatched, for the time of one (``CompilePayback``).
        var lensTiles: Int = 0
        var timestampCount: UInt32
        /// The frame the host stand-in rendered instead, while its pipelines compiled.
        var standInImage: RGBA8Image? = nil
    }

    /// - Parameter transferQueue: the queue the discrete path copies on; nil for the unified path.
    init(device: Device, setLayout: DescriptorSetLayout, transferQueue: Queue?) throws {
        self.device = device
        descriptorSet = try DescriptorSet(layout: setLayout)
        commandBuffer = try CommandBuffer(device: device, queue: device.compute)
        fence = try Fence(device: device)
        transfers = try transferQueue.map { try SlotTransfers(device: device, queue: $0) }
    }

    func buffer(_ binding: Binding) -> Buffer { buffers[binding.rawValue] }

    /// The buffer the host reads the finished frame from: the readback buffer on the discrete
    /// path, the output itself on the unified one.
    var frameSource: Buffer { transfers?.readback ?? buffer(.output) }

    /// Reallocates any buffer smaller than needed, then remakes the views and rebinds the
    /// descriptor set; reallocation forgets what the buffers held. On the discrete path the
    /// buffers are device-local, and the staging buffer grows to hold every input at once and the
    /// readback buffer to hold the output.
    /// - Throws: ``VulkanError`` when a texel buffer would hold more texels than the device allows.
    func ensureBuffers(sizes: [Binding: Int], baseSize: Int) throws {
        for binding in DescriptorBinding.allCases {
            guard let texelSize = binding.kind.texelFormat?.texelSize else { continue }
            let texels = (sizes[binding.buffer] ?? 0) / texelSize
            guard texels <= device.physical.maxTexelBufferElements else {
                throw VulkanError(
                    "the frame is too large for \(device.physical.description.name): its \(binding) buffer needs \(texels) texels, the device reads at most \(device.physical.maxTexelBufferElements) per texel buffer (maxTexelBufferElements); render it on the CPU (--backend cpu) or smaller"
                )
            }
        }
        try transfers?.ensure(
            stagingSize: Binding.allCases.filter(\.isInput).reduce(0) {
                $0 + SlotTransfers.aligned(max(16, sizes[$1] ?? 16))
            }, readbackSize: max(16, sizes[.output] ?? 16))
        let placement: Buffer.Placement = transfers == nil ? .shared : .deviceLocal
        let families = transfers?.sharingFamilies ?? []
        var changed = buffers.isEmpty
        var updated = buffers
        for binding in Binding.allCases {
            let needed = max(16, sizes[binding] ?? 16)
            if updated.count <= binding.rawValue {
                updated.append(try Buffer(device: device, size: needed, placement: placement, queueFamilies: families))
                changed = true
            } else if updated[binding.rawValue].size < needed {
                updated[binding.rawValue] = try Buffer(
                    device: device, size: needed, placement: placement, queueFamilies: families)
                changed = true
            }
        }
        if (base?.size ?? 0) < baseSize {
            base = try Buffer(device: device, size: baseSize, placement: placement, queueFamilies: families)
            changed = true
        }
        buffers = updated
        if changed {
            views = [:]
            for binding in DescriptorBinding.allCases {
                guard let (format, texelSize) = binding.kind.texelFormat else { continue }
                let buffer = buffers[binding.buffer.rawValue]
                views[binding] = try BufferView(
                    buffer: buffer, format: format, texelSize: texelSize,
                    texelCount: min(buffer.size / texelSize, device.physical.maxTexelBufferElements))
            }
            descriptorSet.bind(buffers: buffers, views: views)
            forgetContents()
        }
    }

    /// Forgets what the buffers hold, so the next frame uploads and computes everything.
    func forgetContents() {
        reuse.invalidate()
        written = [:]
    }

    /// Makes sure the timestamp pool holds `count` queries (when the queue has timestamps at all).
    func ensureQueries(_ count: UInt32) throws {
        guard device.physical.timestampValidBits > 0, (queries?.capacity ?? 0) < count else { return }
        queries = try TimestampQueryPool(device: device, capacity: count)
    }

    /// Starts the uploads of a new frame.
    func beginUploads() {
        transfersOfFrame = FrameTransfers()
        transfers?.beginFrame()
    }

    /// Writes `values` into `binding`'s buffer: in place on the unified path, into the staging
    /// buffer (with a copy for the upload submit) on the discrete one. With `skipUnchanged`, the
    /// slot remembers the bytes and skips them when its buffer already holds them.
    func upload<T>(_ values: [T], to binding: Binding, skipUnchanged: Bool = true) {
        values.withUnsafeBytes { bytes in
            if skipUnchanged {
                if let last = written[binding], Self.same(last, bytes) { return }
                written[binding] = Array(bytes)
            }
            guard !bytes.isEmpty else { return }
            transfersOfFrame.inputs.append("\(binding)")
            transfersOfFrame.uploadedBytes += bytes.count
            if let transfers {
                transfers.stage(bytes, into: buffer(binding))
                transfersOfFrame.copiedBytes += bytes.count
            } else {
                buffer(binding).write(bytes)
            }
        }
    }

    /// Records that the finished frame's `bytes` are copied into the readback buffer.
    func noteReadback(bytes: Int) {
        transfersOfFrame.readbackBytes = bytes
    }

    private static func same(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        stored.count == bytes.count
            && stored.withUnsafeBytes { stored in
                bytes.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
    }
}

/// A frame slot's share of the discrete memory path: its staging buffer, its host-cached
/// readback buffer, the command buffers that copy into the device and out of it on the transfer
/// queue, and the semaphores between those and the compute submit.
///
/// The slots' staging buffers are the staging ring: frame i stages into slot i mod n's while the
/// frames before it are still copying or running, and the host writes a staging buffer again
/// only after its slot's fence, which signals after the copies out of it. Each grows when a
/// larger frame arrives and is never allocated per frame.
///
/// Queue-family ownership: where the transfer queue is of another family than the compute queue,
/// the device-local buffers are created `VK_SHARING_MODE_CONCURRENT` between the two families.
/// Buffers have no layout or compression that exclusive ownership would preserve, so concurrent
/// sharing costs nothing here, while release/acquire barriers would add a barrier on each queue
/// per copied buffer per frame. The semaphores order the queues and carry the memory dependency.
final class SlotTransfers {
    let queue: Queue
    /// Copies the frame's staged inputs into the device-local buffers.
    let uploadCommands: CommandBuffer
    /// Copies the finished frame into the readback buffer.
    let readbackCommands: CommandBuffer
    /// Signalled by the upload submit, waited for by the compute submit.
    private(set) var uploaded: Semaphore
    /// Signalled by the compute submit, waited for by the readback submit.
    private(set) var rendered: Semaphore
    private(set) var staging: Buffer?
    private(set) var readback: Buffer?
    /// The copies staged for the frame being prepared: a region of `staging` into the start of a
    /// device-local buffer.
    private(set) var copies: [(destination: Buffer, region: VkBufferCopy)] = []
    /// The queue families of the device-local buffers when they are two (compute, transfer).
    let sharingFamilies: [UInt32]
    private let device: Device
    private var cursor = 0

    init(device: Device, queue: Queue) throws {
        self.device = device
        self.queue = queue
        uploadCommands = try CommandBuffer(device: device, queue: queue)
        readbackCommands = try CommandBuffer(device: device, queue: queue)
        uploaded = try Semaphore(device: device)
        rendered = try Semaphore(device: device)
        sharingFamilies = queue.family == device.compute.family ? [] : [device.compute.family, queue.family]
    }

    /// Offsets in the staging buffer start on 256 bytes, which copy engines move fastest.
    static func aligned(_ bytes: Int) -> Int { (bytes + 255) / 256 * 256 }

    /// Grows the staging and readback buffers to at least these sizes.
    func ensure(stagingSize: Int, readbackSize: Int) throws {
        if (staging?.size ?? 0) < stagingSize {
            staging = try Buffer(device: device, size: stagingSize, placement: .staging)
        }
        if (readback?.size ?? 0) < readbackSize {
            readback = try Buffer(device: device, size: readbackSize, placement: .readback)
        }
    }

    /// Empties the list of staged copies for a new frame.
    func beginFrame() {
        copies.removeAll(keepingCapacity: true)
        cursor = 0
    }

    /// Writes `bytes` into the staging buffer and adds the copy of them into `destination`.
    func stage(_ bytes: UnsafeRawBufferPointer, into destination: Buffer) {
        staging!.write(bytes, at: cursor)
        copies.append(
            (destination, VkBufferCopy(srcOffset: VkDeviceSize(cursor), dstOffset: 0, size: VkDeviceSize(bytes.count))))
        cursor += Self.aligned(bytes.count)
    }

    /// New semaphores, after a failed submit may have left one signalled with nobody to wait for
    /// it; the caller has waited for the device to go idle.
    func renewSemaphores() throws {
        uploaded = try Semaphore(device: device)
        rendered = try Semaphore(device: device)
    }
}
