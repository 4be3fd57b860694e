internal import CVulkan
import Foundation
import LensModel
import LensResolve

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
        /// Whether each lens's frost and lens passes have timestamps of their own.
        var stampsEachLens = false
        /// The frame the host stand-in rendered instead, its pipelines not compiled.
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
    /// - Returns: the bytes of the buffers allocated, 0 when every buffer was large enough.
    /// - Throws: ``VulkanError`` when a texel buffer would hold more texels than the device allows.
    @discardableResult
    func ensureBuffers(sizes: [Binding: Int], baseSize: Int) throws -> Int {
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
        var allocated = 0
        func allocate(_ size: Int) throws -> Buffer {
            allocated += size
            return try Buffer(device: device, size: size, placement: placement, queueFamilies: families)
        }
        var updated = buffers
        for binding in Binding.allCases {
            let needed = max(16, sizes[binding] ?? 16)
            if updated.count <= binding.rawValue {
                updated.append(try allocate(needed))
            } else if updated[binding.rawValue].size < needed {
                updated[binding.rawValue] = try allocate(needed)
            }
        }
        if (base?.size ?? 0) < baseSize { base = try allocate(baseSize) }
        buffers = updated
        if allocated > 0 {
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
        return allocated
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
