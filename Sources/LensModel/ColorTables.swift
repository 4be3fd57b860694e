import Foundation

/// sRGB transfer functions in `Double` for the model, and the `Float` tables both backends read,
/// so neither backend evaluates `pow` (whose approximations differ between CPU and GPU).
package enum ColorTables {
    /// sRGB-encoded value in 0…1 to linear light.
    package static func srgbToLinear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0…1 to the sRGB-encoded value.
    package static func linearToSRGB(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Relative luminance of a linear-light colour (Rec. 709 weights; 0 black … 1 white).
    package static func relativeLuminance(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        0.2126 * red + 0.7152 * green + 0.0722 * blue
    }

    /// Linear value of each 8-bit sRGB code.
    package static let srgbDecode: [Float] = (0..<256).map { Float(srgbToLinear(Double($0) / 255)) }

    /// Entry k−1 is the linear value at which the correctly rounded code steps from k−1 to k.
    package static let srgbEncodeThresholds: [Float] = (1..<256).map {
        Float(srgbToLinear((Double($0) - 0.5) / 255))
    }

    /// The encode table, one word per float bucket (value bits shifted right by 16) of (0, 1):
    /// the bucket's first code in the low 8 bits and, above them, the low 16 bits of the threshold
    /// inside the bucket where the code steps up (0x10000 where none does). No bucket holds more
    /// than one threshold, so the shaders encode with one table read and one integer comparison.
    package static let srgbEncodeBuckets: [UInt32] = {
        let thresholds = srgbEncodeThresholds
        var buckets: [UInt32] = []
        var code = 0
        for bucket in 0..<encodeBucketCount {
            let start = Float(bitPattern: UInt32(bucket) << 16)
            while code < thresholds.count && thresholds[code] <= start { code += 1 }
            let end = Float(bitPattern: UInt32(bucket + 1) << 16)
            precondition(
                code + 1 >= thresholds.count || thresholds[code + 1] >= end, "an encode bucket holds two thresholds")
            let stepsInside = code < thresholds.count && thresholds[code] < end
            let step = stepsInside ? thresholds[code].bitPattern & 0xFFFF : 0x10000
            buckets.append(UInt32(code) | step << 8)
        }
        return buckets
    }()

    /// Buckets cover the float bit patterns of [0, 1): 1.0 is 0x3F80_0000.
    package static let encodeBucketCount = 0x3F80
}
