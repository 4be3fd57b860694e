/// The parameter block the shaders read, declared once here and once in `Shaders/lens_common.glsl`.
///
/// Field order, types and padding follow GLSL std430: `SIMD4` members first (16-byte aligned), then
/// 4-byte scalars, so Swift's natural layout equals the GLSL one. `LayoutTests` proves it against the
/// offsets glslang wrote into the SPIR-V.

/// GLSL twin: `struct FrameParams`.
public struct FrameParams: Sendable, Equatable {
    public var width: UInt32
    public var height: UInt32
    public var lensCount: UInt32
    /// Label coverage is one byte per pixel, packed four to a `uint`; rows start on a word.
    public var labelWordsPerRow: UInt32
    /// Resting label colour, linear light, premultiplied.
    public var restingColor: SIMD4<Float>
    /// Accent label colour, linear light, premultiplied.
    public var accentColor: SIMD4<Float>

    public init(
        width: UInt32, height: UInt32, lensCount: UInt32, labelWordsPerRow: UInt32, restingColor: SIMD4<Float>,
        accentColor: SIMD4<Float>
    ) {
        self.width = width
        self.height = height
        self.lensCount = lensCount
        self.labelWordsPerRow = labelWordsPerRow
        self.restingColor = restingColor
        self.accentColor = accentColor
    }

    /// Byte offsets of each field, named as in GLSL.
    public static let fieldOffsets: [(name: String, offset: Int)] = [
        ("width", MemoryLayout<Self>.offset(of: \.width)!),
        ("height", MemoryLayout<Self>.offset(of: \.height)!),
        ("lensCount", MemoryLayout<Self>.offset(of: \.lensCount)!),
        ("labelWordsPerRow", MemoryLayout<Self>.offset(of: \.labelWordsPerRow)!),
        ("restingColor", MemoryLayout<Self>.offset(of: \.restingColor)!),
        ("accentColor", MemoryLayout<Self>.offset(of: \.accentColor)!),
    ]
}

/// GLSL twin: `struct LensParams`. All lengths in pixels.
public struct LensParams: Sendable, Equatable {
    /// Centre x, y and half width, half height.
    public var centerHalfSize: SIMD4<Float>
    /// Top-left, top-right, bottom-right, bottom-left.
    public var cornerRadii: SIMD4<Float>
    /// Linear premultiplied rgb and alpha.
    public var tint: SIMD4<Float>
    /// Direction x, y (unit, y down); amount; unused.
    public var keyLight: SIMD4<Float>
    /// Direction x, y (unit, y down); amount; unused.
    public var fillLight: SIMD4<Float>
    /// Offset x, y; radius; opacity.
    public var shadow: SIMD4<Float>
    /// x0, y0, x1, y1 of the frosted backdrop the lens may sample.
    public var sourceRegion: SIMD4<UInt32>
    public var bevelWidth: Float
    public var bevelAmount: Float
    public var inverseMagnification: Float
    /// Per-channel spread k: red samples at 1−k of the offset, blue at 1+k. Zero when under ¼ px.
    public var dispersion: Float
    public var saturation: Float
    public var softness: Float
    public var rimWidth: Float
    public var rimFalloff: UInt32
    public var kernelOffset: UInt32
    public var kernelRadius: UInt32
    public var normalSmoothing: Float
    public var ovalization: Float

    /// Byte offsets of each field, named as in GLSL.
    public static let fieldOffsets: [(name: String, offset: Int)] = [
        ("centerHalfSize", MemoryLayout<Self>.offset(of: \.centerHalfSize)!),
        ("cornerRadii", MemoryLayout<Self>.offset(of: \.cornerRadii)!),
        ("tint", MemoryLayout<Self>.offset(of: \.tint)!),
        ("keyLight", MemoryLayout<Self>.offset(of: \.keyLight)!),
        ("fillLight", MemoryLayout<Self>.offset(of: \.fillLight)!),
        ("shadow", MemoryLayout<Self>.offset(of: \.shadow)!),
        ("sourceRegion", MemoryLayout<Self>.offset(of: \.sourceRegion)!),
        ("bevelWidth", MemoryLayout<Self>.offset(of: \.bevelWidth)!),
        ("bevelAmount", MemoryLayout<Self>.offset(of: \.bevelAmount)!),
        ("inverseMagnification", MemoryLayout<Self>.offset(of: \.inverseMagnification)!),
        ("dispersion", MemoryLayout<Self>.offset(of: \.dispersion)!),
        ("saturation", MemoryLayout<Self>.offset(of: \.saturation)!),
        ("softness", MemoryLayout<Self>.offset(of: \.softness)!),
        ("rimWidth", MemoryLayout<Self>.offset(of: \.rimWidth)!),
        ("rimFalloff", MemoryLayout<Self>.offset(of: \.rimFalloff)!),
        ("kernelOffset", MemoryLayout<Self>.offset(of: \.kernelOffset)!),
        ("kernelRadius", MemoryLayout<Self>.offset(of: \.kernelRadius)!),
        ("normalSmoothing", MemoryLayout<Self>.offset(of: \.normalSmoothing)!),
        ("ovalization", MemoryLayout<Self>.offset(of: \.ovalization)!),
    ]
}

/// GLSL twin: the `DispatchConstants` push-constant block.
public struct DispatchConstants: Sendable, Equatable {
    /// x0, y0, x1, y1 of the pixels one dispatch covers.
    public var region: SIMD4<UInt32>
    public var lensIndex: UInt32
    /// Frost axis: 0 horizontal, 1 vertical.
    public var axis: UInt32

    public init(region: PixelRegion, lensIndex: Int = 0, axis: UInt32 = 0) {
        self.region = SIMD4(UInt32(region.x0), UInt32(region.y0), UInt32(region.x1), UInt32(region.y1))
        self.lensIndex = UInt32(lensIndex)
        self.axis = axis
    }

    /// Byte offsets of each field, named as in GLSL.
    public static let fieldOffsets: [(name: String, offset: Int)] = [
        ("region", MemoryLayout<Self>.offset(of: \.region)!),
        ("lensIndex", MemoryLayout<Self>.offset(of: \.lensIndex)!),
        ("axis", MemoryLayout<Self>.offset(of: \.axis)!),
    ]

    /// Bytes pushed: the fields, without Swift's trailing stride padding.
    public static let pushSize = MemoryLayout<Self>.offset(of: \.axis)! + MemoryLayout<UInt32>.size
}

/// Where each table sits in the shaders' `tables` buffer (GLSL: `SRGB_*_OFFSET`).
public enum TableLayout {
    public static let srgbDecodeOffset = 0
    public static let srgbEncodeOffset = 256
    /// Frost kernels follow the colour tables, one run of `radius + 1` weights per lens.
    public static let kernelsOffset = 511
}

/// The `ParamsBuffer` block: `FrameParams frame; LensParams lenses[];` (std430).
public enum ParamsBufferLayout {
    /// Byte offset of `lenses[0]`: `FrameParams` rounded up to the array's 16-byte alignment.
    public static let lensArrayOffset = (MemoryLayout<FrameParams>.size + 15) / 16 * 16
    /// Bytes between consecutive `lenses[i]`.
    public static let lensStride = MemoryLayout<LensParams>.stride

    /// The buffer contents for one frame.
    public static func bytes(frame: FrameParams, lenses: [LensParams]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: lensArrayOffset + lensStride * max(1, lenses.count))
        bytes.withUnsafeMutableBytes { buffer in
            withUnsafeBytes(of: frame) { buffer.copyMemory(from: $0) }
            for (index, lens) in lenses.enumerated() {
                withUnsafeBytes(of: lens) { source in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[(lensArrayOffset + index * lensStride)...])
                        .copyMemory(from: source)
                }
            }
        }
        return bytes
    }
}
