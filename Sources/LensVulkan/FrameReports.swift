/// What crossed between host and device for one frame, and the device memory it made.
package struct FrameTransfers: Sendable, Equatable {
    /// The inputs the host wrote, by buffer (`params`, `tables`, `backdrop`, `label`, `shapes`,
    /// `tiles`, `tileShapes`, `foreground`), in the order written. An input that holds the same
    /// bytes as the frame slot's previous frame is not written again.
    package var inputs: [String] = []
    /// Bytes the host wrote: into the buffers the shaders read (unified path) or into the
    /// staging buffer (discrete path).
    package var uploadedBytes = 0
    /// Bytes copied from the staging buffer into device-local buffers: all of ``uploadedBytes``
    /// on the discrete path, none on the unified one.
    package var copiedBytes = 0
    /// Bytes of the finished frame copied into the host-cached readback buffer: the frame on the
    /// discrete path, none on the unified one (the host reads the output buffer in place).
    package var readbackBytes = 0
    /// Bytes of buffers allocated for the frame: the slot's buffers grow to a larger frame than
    /// they held, and a frame they fit allocates nothing.
    package var allocatedBytes = 0

    /// Nothing transferred.
    package init() {}
}

/// GPU time of each stage of a frame, from timestamp queries, plus the host's readback, in
/// milliseconds.
package struct GPUStageTimes: Sendable {
    /// The base layer: backdrop and resting label (0 when the previous frame's base was reused).
    package var compose: Double
    /// Copying the base layer into the output (and, after composing, into the kept base).
    package var copy: Double
    /// The frost passes (level texels past full scale, rows, then columns) of every lens, summed.
    package var frost: Double
    /// The lens pass of every lens, summed, plus the foreground overlay.
    package var lens: Double
    /// The host copying the finished frame out of the mapped output buffer.
    package var readback: Double
    /// Time on the GPU: every stage but the readback.
    package var total: Double { compose + copy + frost + lens }
}

/// How the lens passes of one device frame were dispatched, in tiles.
package struct LensDispatches: Sendable, Equatable {
    /// Tiles every lens pass of the frame ran, with either variant.
    package var lensTiles = 0
    /// Of those, the tiles a lens's label-free variant ran: tiles that cannot reach a glyph, of a
    /// lens that also has tiles that can, once that variant is compiled.
    package var labelFreeVariantTiles = 0

    /// Nothing dispatched.
    package init() {}
}
