import Foundation
import LensIO
import LiquidLens

/// What a C caller asks a frame to carry besides its image: the `extras` bits of
/// `liquidlens_render` and `liquidlens_frames_open`.
struct FrameExtras: OptionSet {
    let rawValue: Int32
    /// 1: the frame's annotations.
    static let annotations = FrameExtras(rawValue: 1)
    /// 2: the frame's glass and tint masks.
    static let masks = FrameExtras(rawValue: 2)

    /// The annotations and masks of `parameters` (resolved with annotations when asked for).
    func of(_ parameters: FrameParameters) -> (FrameAnnotations?, FrameMasks?) {
        (parameters.annotations, contains(.masks) ? LensRenderer.masks(of: parameters) : nil)
    }
}

/// A rendered frame handed to a C caller: the image, its frame's index in a batch, its
/// annotations as JSON (a NUL-terminated string that lives as long as the frame; numbers typed
/// as `--annotations` writes them) and its masks, each when asked for.
final class RenderedFrame {
    let index: Int
    let image: RGBA8Image
    let annotations: UnsafeMutablePointer<CChar>?
    let masks: FrameMasks?

    init(index: Int, image: RGBA8Image, extras: (FrameAnnotations?, FrameMasks?)) throws {
        self.index = index
        self.image = image
        self.annotations = try extras.0.map {
            strdup(String(decoding: try TypedJSONEncoder().encode($0), as: UTF8.self))
        }
        masks = extras.1
    }

    deinit {
        free(annotations)
    }
}

/// The frame `pointer` holds (`liquidlens_render`, `liquidlens_frames_next`).
private func frame(_ pointer: OpaquePointer) -> RenderedFrame {
    Unmanaged<RenderedFrame>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// The frame's width in pixels.
@_cdecl("liquidlens_frame_width")
public func frameWidth(_ pointer: OpaquePointer) -> Int {
    frame(pointer).image.width
}

/// The frame's height in pixels.
@_cdecl("liquidlens_frame_height")
public func frameHeight(_ pointer: OpaquePointer) -> Int {
    frame(pointer).image.height
}

/// The frame's index in its batch's manifest (0 for a frame of `liquidlens_render`).
@_cdecl("liquidlens_frame_index")
public func frameIndex(_ pointer: OpaquePointer) -> Int {
    frame(pointer).index
}

/// Copies the frame's pixels (rows top to bottom, R, G, B, A bytes, straight alpha) into
/// `destination`, which holds `capacity` bytes: 0 when copied, -1 when `capacity` is not width ×
/// height × 4.
@_cdecl("liquidlens_frame_copy_pixels")
public func frameCopyPixels(_ pointer: OpaquePointer, _ destination: UnsafeMutableRawPointer, _ capacity: Int) -> Int32
{
    copy(frame(pointer).image.pixels, to: destination, capacity: capacity)
}

/// Copies `bytes` into `destination` of `capacity` bytes: 0 when copied, -1 when `capacity` is
/// not their count.
private func copy(_ bytes: [UInt8], to destination: UnsafeMutableRawPointer, capacity: Int) -> Int32 {
    guard capacity == bytes.count else { return -1 }
    bytes.withUnsafeBytes { source in
        if let start = source.baseAddress { destination.copyMemory(from: start, byteCount: source.count) }
    }
    return 0
}

/// The frame's annotations as JSON (`FrameAnnotations`), valid until the frame is freed; null
/// when they were not asked for.
@_cdecl("liquidlens_frame_annotations")
public func frameAnnotations(_ pointer: OpaquePointer) -> UnsafePointer<CChar>? {
    frame(pointer).annotations.map { UnsafePointer($0) }
}

/// Copies one of the frame's masks (`which` 0: the glass, 1: the tint; rows top to bottom, one
/// byte a pixel) into `destination`, which holds `capacity` bytes: 0 when copied, -1 when
/// `capacity` is not width × height, -2 when the frame has no masks (not asked for) or `which`
/// names none.
@_cdecl("liquidlens_frame_copy_mask")
public func frameCopyMask(
    _ pointer: OpaquePointer, _ which: Int32, _ destination: UnsafeMutableRawPointer, _ capacity: Int
) -> Int32 {
    guard let masks = frame(pointer).masks, which == 0 || which == 1 else { return -2 }
    return copy((which == 0 ? masks.glass : masks.tint).coverage, to: destination, capacity: capacity)
}

/// Frees a frame.
@_cdecl("liquidlens_frame_free")
public func frameFree(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    Unmanaged<RenderedFrame>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

/// Frees a string the library returned (an error's JSON).
@_cdecl("liquidlens_string_free")
public func stringFree(_ pointer: UnsafeMutablePointer<CChar>?) {
    free(pointer)
}

/// A retained pointer to `frame`, for a C caller to free with `liquidlens_frame_free`.
func retained(_ frame: RenderedFrame) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(frame).toOpaque())
}
