import Foundation
import LensModel

/// The tables the shaders read besides the frame's pixels: the fixed colour and spectral tables
/// every frame starts with, the frost kernels and the physical model's refraction profile. Each
/// is computed once in `Double` and handed to both backends as `Float`.
package enum OpticsTables {
    /// Normalised Gaussian weights w[0…r] for σ in pixels, r = ⌈3σ⌉; σ under ¼ px gives [1].
    package static func gaussianKernel(sigma: Double) -> [Float] {
        guard sigma >= 0.25 else { return [1] }
        let radius = Int((3 * sigma).rounded(.up))
        let raw = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        return raw.map { Float($0 / total) }
    }

    /// Inward displacement (pixels) across the band for the physical model, x = 0 at depth H to
    /// x = 1 at the silhouette: the vertical view ray refracted by the surface (Snell) and carried
    /// down to the backdrop plane. Computed once in `Double`; both backends interpolate it.
    package static func physicalProfile(_ optics: Optics, bandWidth: Double, scale: Double) -> [Float] {
        let samples = TableLayout.profileSamples
        // Air on both sides of the surface bends nothing; skip the rounding of the Snell terms.
        guard optics.ior > 1 else { return [Float](repeating: 0, count: samples) }
        let thickness = optics.thickness * scale
        let ratio = 1 / optics.ior
        return (0..<samples).map { index in
            let x = Double(index) / Double(samples - 1)
            guard bandWidth > 0 else { return 0 }
            let s = 1 - x
            let height = thickness * optics.profile.height(s)
            // Slope along the outward direction (x grows outward, s shrinks), by central difference;
            // past s = 1 the surface mirrors, as the flat face continues it, so the slope there is 0.
            let step = 1e-4
            func mirroredHeight(_ s: Double) -> Double { optics.profile.height(s > 1 ? 2 - s : s) }
            let lower = max(s - step, 0)
            let rise = mirroredHeight(s + step) - mirroredHeight(lower)
            let slope = -thickness * rise / ((s + step - lower) * bandWidth)
            // Surface normal (outward r, up z), refracted view ray going down.
            let normalLength = (slope * slope + 1).squareRoot()
            let normalR = -slope / normalLength
            let normalZ = 1 / normalLength
            let cosine = normalZ
            let radicand = 1 - ratio * ratio * (1 - cosine * cosine)
            guard radicand >= 0 else { return 0 }
            let factor = ratio * cosine - radicand.squareRoot()
            let rayR = factor * normalR
            let rayZ = -ratio + factor * normalZ
            guard rayZ < -1e-9 else { return 0 }
            return Float(-rayR * height / -rayZ)
        }
    }

    /// The tables every frame starts with, in `TableLayout` order: sRGB decode, spectral taps,
    /// encode buckets (words, carried as float bit patterns like every table entry).
    package static let fixedTables =
        ColorTables.srgbDecode + spectralTable() + ColorTables.srgbEncodeBuckets.map { Float(bitPattern: $0) }

    /// Seven spectral taps from the red end (scale 1−k) to the blue end (1+k), each weighted into
    /// red, green and blue by a Gaussian response; each channel's weights sum to 1.
    static func spectralTable() -> [Float] {
        let taps = TableLayout.spectralTaps
        let positions = (0..<taps).map { -1 + 2 * Double($0) / Double(taps - 1) }
        let centres = [-0.66, 0.0, 0.66]
        let responses = centres.map { centre in positions.map { exp(-($0 - centre) * ($0 - centre) / (2 * 0.25)) } }
        let sums = responses.map { $0.reduce(0, +) }
        return (0..<taps).flatMap { tap in
            [Float(positions[tap])] + (0..<3).map { Float(responses[$0][tap] / sums[$0]) }
        }
    }
}
