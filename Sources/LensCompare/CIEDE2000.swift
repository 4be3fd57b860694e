import Foundation
import LensModel

/// CIEDE2000 colour differences (ΔE₀₀) between the pixels of two images, in CIE L*a*b* under D65.
public struct ColorDifference: Sendable, Equatable {
    /// Mean ΔE₀₀ over every pixel (identical pixels count as 0). About 1 is a just-noticeable
    /// difference side by side.
    public let mean: Double
    /// The 99th percentile of ΔE₀₀ over every pixel (linear interpolation between order
    /// statistics, as NumPy's `percentile` does): the difference the worst 1 % of pixels exceed.
    public let percentile99: Double
}

/// sRGB to L*a*b* and the CIEDE2000 formula (Sharma, Wu and Dalal 2005), in Double.
enum CIEDE2000 {
    /// ΔE₀₀ per differing pixel; identical pixels are 0 without computing anything.
    static func difference(_ actual: RGBA8Image, _ expected: RGBA8Image, mask: DifferenceMask) -> ColorDifference {
        var values: [Double] = []
        values.reserveCapacity(mask.differingPixels.count)
        var sum = 0.0
        var labs = Memo(placeholder: SIMD3<Double>.zero, count: mask.differingPixels.count)
        var differences = Memo(placeholder: 0.0, count: mask.differingPixels.count)
        for index in mask.differingPixels {
            let base = Int(index) * 4
            let a = SIMD3(actual.pixels[base], actual.pixels[base + 1], actual.pixels[base + 2])
            let b = SIMD3(expected.pixels[base], expected.pixels[base + 1], expected.pixels[base + 2])
            guard a != b else { continue }
            let (keyA, keyB) = (key(a), key(b))
            let value = differences.value(keyA << 24 | keyB) {
                deltaE(labs.value(keyA) { lab(a) }, labs.value(keyB) { lab(b) })
            }
            values.append(value)
            sum += value
        }
        let count = max(1, actual.width * actual.height)
        return ColorDifference(
            mean: sum / Double(count),
            percentile99: percentile(0.99, of: values, zeros: count - values.count))
    }

    /// The `q` quantile of the values plus `zeros` zeros, interpolating linearly between order
    /// statistics. The two order statistics are selected, not sorted for: the same values in
    /// linear time.
    static func percentile(_ q: Double, of values: [Double], zeros: Int) -> Double {
        let count = values.count + zeros
        guard count > 0 else { return 0 }
        let position = q * Double(count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(count - 1, lower + 1)
        var values = values
        let lowerValue = lower < zeros ? 0 : select(&values, rank: lower - zeros)
        let upperValue: Double
        if upper < zeros {
            upperValue = 0
        } else if upper == lower {
            upperValue = lowerValue
        } else if lower < zeros {
            upperValue = values.min() ?? 0
        } else {
            // Selection leaves every value past the lower rank no smaller than it.
            upperValue = values[(lower - zeros + 1)...].min() ?? lowerValue
        }
        return lowerValue + (upperValue - lowerValue) * (position - Double(lower))
    }

    /// The value of rank `rank` (0 the smallest) of `values`, which are reordered so that every
    /// value before that index is no larger and every value after it no smaller (Hoare's
    /// selection, the pivot a median of three).
    static func select(_ values: inout [Double], rank: Int) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if values[middle] < values[low] { values.swapAt(middle, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[middle] { values.swapAt(high, middle) }
            let pivot = values[middle]
            var left = low
            var right = high
            while left <= right {
                while values[left] < pivot { left += 1 }
                while pivot < values[right] { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if rank <= right {
                high = right
            } else if rank >= left {
                low = left
            } else {
                return values[rank]
            }
        }
        return values[rank]
    }

    /// Values computed before, in a table indexed by a hash of their key (a newer key takes the
    /// slot): a shifted or re-lit frame shows the same colours, and the same pairs of colours,
    /// again and again, so most are found rather than computed.
    struct Memo<Value> {
        private let slotBits: Int
        private var keys: [UInt64]
        private var values: [Value]

        /// A table of about twice `count` slots, from 2⁶ to 2¹⁶ (a larger one costs more in page
        /// faults than it saves).
        init(placeholder: Value, count: Int) {
            slotBits = min(16, max(6, Int.bitWidth - (2 * count).leadingZeroBitCount))
            keys = [UInt64](repeating: .max, count: 1 << slotBits)
            values = [Value](repeating: placeholder, count: 1 << slotBits)
        }

        /// The value of `key` (under 2⁶⁴ − 1), computed by `compute` when not found.
        @inline(__always)
        mutating func value(_ key: UInt64, _ compute: () -> Value) -> Value {
            let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> (64 - slotBits))
            if keys[slot] == key { return values[slot] }
            let value = compute()
            keys[slot] = key
            values[slot] = value
            return value
        }
    }

    /// A colour's 24 bits as a key.
    @inline(__always)
    static func key(_ color: SIMD3<UInt8>) -> UInt64 {
        UInt64(color.x) << 16 | UInt64(color.y) << 8 | UInt64(color.z)
    }

    /// sRGB levels to linear light: the IEC 61966-2-1 curve.
    static let linear: [Double] = (0..<256).map { level in
        let encoded = Double(level) / 255
        return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// D65 from its chromaticity (0.3127, 0.3290), Y = 1.
    static let whitePoint = SIMD3<Double>(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)

    /// L*a*b* of an 8-bit sRGB colour, through XYZ by the IEC 61966-2-1 matrix (four decimals, as
    /// the standard prints it and colour-science uses).
    static func lab(_ color: SIMD3<UInt8>) -> SIMD3<Double> {
        let r = linear[Int(color.x)]
        let g = linear[Int(color.y)]
        let b = linear[Int(color.z)]
        let xyz =
            SIMD3(
                0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
                0.0193 * r + 0.1192 * g + 0.9505 * b) / whitePoint
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(xyz.x), f(xyz.y), f(xyz.z))
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// 25⁷, against which the mean chroma's seventh power is weighed.
    static let twentyFive7 = pow(25.0, 7.0)

    /// x⁷ by multiplication: within rounding of `pow(x, 7)`, at a fraction of its cost.
    @inline(__always)
    static func seventhPower(_ x: Double) -> Double {
        let square = x * x
        return square * square * square * x
    }

    /// T = 1 − 0.17·cos(h − 30°) + 0.24·cos 2h + 0.32·cos(3h + 6°) − 0.20·cos(4h − 63°), the
    /// multiple angles from cos h and sin h by the angle-sum formulas (one sine and one cosine
    /// where four cosines were; the same value within rounding).
    static func hueWeighting(_ hue: Double) -> Double {
        let (c1, s1) = (cos(hue), sin(hue))
        let (c2, s2) = (2 * c1 * c1 - 1, 2 * s1 * c1)
        let (c3, s3) = (c2 * c1 - s2 * s1, s2 * c1 + c2 * s1)
        let (c4, s4) = (2 * c2 * c2 - 1, 2 * s2 * c2)
        return 1 - 0.17 * (c1 * cos30 + s1 * sin30) + 0.24 * c2 + 0.32 * (c3 * cos6 - s3 * sin6)
            - 0.20 * (c4 * cos63 + s4 * sin63)
    }

    private static let (cos30, sin30) = (cos(Double.pi / 6), sin(Double.pi / 6))
    private static let (cos6, sin6) = (cos(6 * Double.pi / 180), sin(6 * Double.pi / 180))
    private static let (cos63, sin63) = (cos(63 * Double.pi / 180), sin(63 * Double.pi / 180))

    /// ΔE₀₀ between two L*a*b* colours (kL = kC = kH = 1).
    static func deltaE(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
        let degrees = 180 / Double.pi
        let chroma1 = (lab1.y * lab1.y + lab1.z * lab1.z).squareRoot()
        let chroma2 = (lab2.y * lab2.y + lab2.z * lab2.z).squareRoot()
        let meanChroma7 = seventhPower((chroma1 + chroma2) / 2)
        let g = 0.5 * (1 - (meanChroma7 / (meanChroma7 + twentyFive7)).squareRoot())
        let a1 = (1 + g) * lab1.y
        let a2 = (1 + g) * lab2.y
        let c1 = (a1 * a1 + lab1.z * lab1.z).squareRoot()
        let c2 = (a2 * a2 + lab2.z * lab2.z).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let angle = atan2(b, a) * degrees
            return angle < 0 ? angle + 360 : angle
        }
        let h1 = hue(lab1.z, a1)
        let h2 = hue(lab2.z, a2)
        let deltaL = lab2.x - lab1.x
        let deltaC = c2 - c1
        var deltaHue = 0.0
        if c1 * c2 != 0 {
            deltaHue = h2 - h1
            if deltaHue > 180 { deltaHue -= 360 } else if deltaHue < -180 { deltaHue += 360 }
        }
        let deltaH = 2 * (c1 * c2).squareRoot() * sin(deltaHue / 2 / degrees)
        let meanL = (lab1.x + lab2.x) / 2
        let meanC = (c1 + c2) / 2
        var meanHue = h1 + h2
        if c1 * c2 != 0 {
            if abs(h1 - h2) <= 180 {
                meanHue = (h1 + h2) / 2
            } else {
                meanHue = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
            }
        }
        let t = hueWeighting(meanHue / degrees)
        let hueOffset = (meanHue - 275) / 25
        let deltaTheta = 30 * exp(-hueOffset * hueOffset)
        let meanC7 = seventhPower(meanC)
        let rotationC = 2 * (meanC7 / (meanC7 + twentyFive7)).squareRoot()
        let lightnessOffset = (meanL - 50) * (meanL - 50)
        let scaleL = 1 + 0.015 * lightnessOffset / (20 + lightnessOffset).squareRoot()
        let scaleC = 1 + 0.045 * meanC
        let scaleH = 1 + 0.015 * meanC * t
        let rotation = -sin(2 * deltaTheta / degrees) * rotationC
        let l = deltaL / scaleL
        let c = deltaC / scaleC
        let h = deltaH / scaleH
        return (l * l + c * c + h * h + rotation * c * h).squareRoot()
    }
}
