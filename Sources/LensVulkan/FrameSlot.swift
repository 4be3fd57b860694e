internal import CVulkan
import Foundation
import LensModel
import LensResolve

/// Buffer bindings, in the order of `Shaders/lens_common.glsl`.
enum Binding: Int, CaseIterable {
    case params, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite
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
        descriptorSet = try DescriptorSet(layout: setLayout, storageBufferCount: Binding.allCases.count)
        commandBuffer = try CommandBuffer(device: device)
        fence = try Fence(device: device)
    }

    func buffer(_ binding: Binding) -> Buffer { buffers[binding.rawValue] }

    /// Reallocates any buffer smaller than needed, then rebinds the descriptor set; reallocation
    /// forgets what the buffers held.
    func ensureBuffers(sizes: [Binding: Int], baseSize: Int) throws {
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
            descriptorSet.bind(buffers)
            reuse.invalidate()
        }
    }

    /// Makes sure the timestamp pool holds `count` queries (when the queue has timestamps at all).
    func ensureQueries(_ count: UInt32) throws {
        guard device.physical.timestampValidBits > 0, (queries?.capacity ?? 0) < count else { return }
        queries = try TimestampQueryPool(device: device, capacity: count)
    }
}
