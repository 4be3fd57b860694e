internal import CVulkan
import Foundation
import LensModel
import LensResolve

/// The buffers a frame slot owns (several descriptor bindings may show one buffer).
enum Binding: Int, CaseIterable {
    case params, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite
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
/// `FrameReuse` record of what those buffers hold. The renderer keeps a ring of slots; a slot
/// is touched by the host only after its fence signalled.
final class FrameSlot {
    let device: Device
    let descriptorSet: DescriptorSet
    let commandBuffer: CommandBuffer
    let fence: Fence
    let reuse = FrameReuse()
    private(set) var buffers: [Buffer] = []
    /// The texel-buffer views of `buffers`, remade whenever a buffer is.
    private(set) var views: [DescriptorBinding: BufferView] = [:]
    /// The backdrop with the resting label, copied into `output` at the start of every frame.
    private(set) var base: Buffer?
    private(set) var queries: TimestampQueryPool?
    /// The frame submitted and not yet read back.
    var pending: PendingFrame?

    struct PendingFrame {
        var width: Int
        var height: Int
        var lensCount: Int
        var timestampCount: UInt32
    }

    init(device: Device, setLayout: DescriptorSetLayout) throws {
        self.device = device
        descriptorSet = try DescriptorSet(layout: setLayout)
        commandBuffer = try CommandBuffer(device: device)
        fence = try Fence(device: device)
    }

    func buffer(_ binding: Binding) -> Buffer { buffers[binding.rawValue] }

    /// Reallocates any buffer smaller than needed, then remakes the views and rebinds the
    /// descriptor set; reallocation forgets what the buffers held.
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
        var changed = buffers.isEmpty
        var updated = buffers
        for binding in Binding.allCases {
            let needed = max(16, sizes[binding] ?? 16)
            if updated.count <= binding.rawValue {
                updated.append(try Buffer(device: device, size: needed))
                changed = true
            } else if updated[binding.rawValue].size < needed {
                updated[binding.rawValue] = try Buffer(device: device, size: needed)
                changed = true
            }
        }
        if (base?.size ?? 0) < baseSize {
            base = try Buffer(device: device, size: baseSize)
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
            reuse.invalidate()
        }
    }

    /// Makes sure the timestamp pool holds `count` queries (when the queue has timestamps at all).
    func ensureQueries(_ count: UInt32) throws {
        guard device.physical.timestampValidBits > 0, (queries?.capacity ?? 0) < count else { return }
        queries = try TimestampQueryPool(device: device, capacity: count)
    }
}
