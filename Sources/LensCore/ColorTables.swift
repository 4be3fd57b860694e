import Foundation

/// sRGB transfer functions in `Double` for the model, and the `Float` tables both backends read,
/// so neither backend evaluates `pow` (whose approximations differ between CPU and GPU).
public enum ColorTables {
    /// sRGB-encoded value in 0…1 to linear light.
    public static func srgbToLinear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0…1 to the sRGB-encoded value.
    public static func linearToSRGB(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear value of each 8-bit sRGB code.
    public static let srgbDecode: [Float] = (0..<256).map { Float(srgbToLinear(Double($0) / 255)) }

    /// Entry k−1 is the linear value at which the correctly rounded code steps from k−1 to k.
    public static let srgbEncodeThresholds: [Float] = (1..<256).map {
        Float(srgbToLinear((Double($0) - 0.5) / 255))
    }
}
