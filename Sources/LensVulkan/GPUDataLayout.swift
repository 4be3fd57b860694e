import LensModel
import LensResolve

// The GPU's side of the frame contract: how the parameter block (`FrameParams`, `LensParams`,
// declared in LensResolve beside the CPU reference that reads them too) is laid out in the
// params buffer, and the push constants of each dispatch. Only this backend uses them.

/// GLSL twin: the `DispatchConstants` push-constant block.
package struct DispatchConstants: Sendable, Equatable {
    /// x0, y0, x1, y1 of the pixels one dispatch covers.
    package var region: SIMD4<UInt32>
    /// Lens: the first tile of workgroup 0 in `tiles`.
    package var firstTile: UInt32
    /// Lens: the tiles from `firstTile` on that the dispatch shades.
    package var tileCount: UInt32

    /// The constants for a dispatch over `region`; no tiles by default.
    package init(region: PixelRegion, firstTile: UInt32 = 0, tileCount: UInt32 = 0) {
        self.region = region.bounds
        self.firstTile = firstTile
        self.tileCount = tileCount
    }

    /// Byte offsets of each field, named as in GLSL.
    package static let fieldOffsets: [(name: String, offset: Int)] = [
        ("region", MemoryLayout<Self>.offset(of: \.region)!),
        ("firstTile", MemoryLayout<Self>.offset(of: \.firstTile)!),
        ("tileCount", MemoryLayout<Self>.offset(of: \.tileCount)!),
    ]

    /// Bytes pushed: the fields, without Swift's trailing stride padding.
    package static let pushSize = MemoryLayout<Self>.offset(of: \.tileCount)! + MemoryLayout<UInt32>.size
}

/// The params buffer as the GPU reads it: the `FrameBlock` (`FrameParams`, std140) at 0, then
/// each lens's `LensBlock` (one `LensParams`) at a dynamic offset. Both offsets are multiples of
/// the device's uniform-buffer offset alignment.
package struct ParamsBufferLayout: Sendable, Equatable {
    /// Byte offset of the first lens: `FrameParams` rounded up to the alignment.
    package let lensArrayOffset: Int
    /// Bytes between consecutive lenses: `LensParams` rounded up to the alignment.
    package let lensStride: Int

    /// The layout for a device whose dynamic uniform offsets must be multiples of `alignment`
    /// (a power of two; 16 is the std140 minimum).
    package init(alignment: Int) {
        let step = max(16, alignment)
        lensArrayOffset = (MemoryLayout<FrameParams>.size + step - 1) / step * step
        lensStride = (MemoryLayout<LensParams>.size + step - 1) / step * step
    }

    /// Byte offset of lens `index`, the dynamic offset of its dispatches.
    package func lensOffset(_ index: Int) -> Int { lensArrayOffset + lensStride * index }

    /// Size of the buffer holding `lensCount` lenses (room for one at least: the binding needs it).
    package func byteCount(lensCount: Int) -> Int { lensOffset(max(1, lensCount)) }

    /// The buffer contents for one frame.
    package func bytes(frame: FrameParams, lenses: [LensParams]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount(lensCount: lenses.count))
        bytes.withUnsafeMutableBytes { buffer in
            withUnsafeBytes(of: frame) { buffer.copyMemory(from: $0) }
            for (index, lens) in lenses.enumerated() {
                withUnsafeBytes(of: lens) { source in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[lensOffset(index)...]).copyMemory(from: source)
                }
            }
        }
        return bytes
    }
}
