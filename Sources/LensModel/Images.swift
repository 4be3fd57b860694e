/// An 8-bit sRGB image, rows top to bottom, four bytes (R, G, B, A) per pixel.
public struct RGBA8Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width` × `height` × 4 bytes: R, G, B, A of each pixel, rows top to bottom.
    public var pixels: [UInt8]

    /// An image from its bytes; `pixels` must hold exactly `width` × `height` × 4 (a precondition).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Builds an image from pixels packed as `r | g << 8 | b << 16 | a << 24` (the shaders' format).
    public init(width: Int, height: Int, packed: [UInt32]) {
        self = packed.prefix(width * height).withUnsafeBytes {
            RGBA8Image(width: width, height: height, packedMemory: $0)
        }
    }

    /// Builds an image from memory holding `width × height` packed pixels (a mapped buffer).
    public init(width: Int, height: Int, packedMemory: UnsafeRawBufferPointer) {
        precondition(packedMemory.count >= width * height * 4, "not enough packed pixels")
        #if _endian(little)
            // r | g << 8 | b << 16 | a << 24 in little-endian memory is already R, G, B, A.
            let bytes = [UInt8](UnsafeRawBufferPointer(rebasing: packedMemory[..<(width * height * 4)]))
        #else
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for index in 0..<width * height {
                let value = packedMemory.load(fromByteOffset: index * 4, as: UInt32.self)
                bytes[index * 4] = UInt8(value & 0xFF)
                bytes[index * 4 + 1] = UInt8((value >> 8) & 0xFF)
                bytes[index * 4 + 2] = UInt8((value >> 16) & 0xFF)
                bytes[index * 4 + 3] = UInt8(value >> 24)
            }
        #endif
        self.init(width: width, height: height, pixels: bytes)
    }

    /// Pixels packed as `r | g << 8 | b << 16 | a << 24`.
    public var packed: [UInt32] {
        (0..<width * height).map { index in
            UInt32(pixels[index * 4]) | UInt32(pixels[index * 4 + 1]) << 8
                | UInt32(pixels[index * 4 + 2]) << 16 | UInt32(pixels[index * 4 + 3]) << 24
        }
    }

    /// The four channels of pixel (x, y).
    public subscript(x: Int, y: Int) -> SIMD4<UInt8> {
        let base = (y * width + x) * 4
        return SIMD4(pixels[base], pixels[base + 1], pixels[base + 2], pixels[base + 3])
    }
}

/// A one-channel coverage image (0 = empty, 255 = full), e.g. a glyph mask.
public struct AlphaImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width` × `height` bytes, rows top to bottom: 0 empty … 255 full.
    public var coverage: [UInt8]

    /// A mask from its bytes; `coverage` must hold exactly `width` × `height` (a precondition).
    public init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(coverage.count == width * height, "coverage count does not match the size")
        self.width = width
        self.height = height
        self.coverage = coverage
    }
}
