internal import CVulkan
import Foundation
import LensModel
import LensResolve

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
