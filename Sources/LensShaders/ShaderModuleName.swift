import Foundation

/// The compute shaders of `Shaders/`, compiled to SPIR-V at build time and embedded in the binary.
public enum ShaderModuleName: String, CaseIterable, Sendable {
    /// Backdrop plus resting label row over the whole frame.
    case compose
    /// One direction of the separable frost blur (push constant picks the axis).
    case frost
    /// The lens: SDF coverage, refraction, tint masking, light and shadow.
    case lens
    /// The foreground (labels on glass, focus rings) over the finished frame.
    case overlay

    /// The SPIR-V words of this module.
    public var spirv: [UInt32] {
        guard let text = Self.embeddedBase64[rawValue], let data = Data(base64Encoded: text),
            data.count % 4 == 0
        else {
            preconditionFailure("shader \(rawValue) was not embedded by the ShaderEmbedPlugin build step")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }
}
