import Foundation

/// A metric a pair of images can be held to, named as the config file and JUnit output name it.
public enum DiffMetric: String, CaseIterable, Sendable {
    /// Largest difference in any channel, in 8-bit levels (at most).
    case maxError
    /// Share of pixels with all four channels equal, in percent (at least).
    case minIdenticalPercent
    /// Peak signal-to-noise ratio over RGB, in dB (at least).
    case minPSNR
    /// Mean structural similarity over RGB (at least).
    case minSSIM
    /// Mean CIEDE2000 colour difference (at most).
    case maxDeltaE
    /// 99th percentile of the CIEDE2000 colour difference (at most).
    case maxDeltaE99
    /// Pixels pixelmatch counts as visibly different, anti-aliasing excluded (at most).
    case maxDiffPixels
    /// Mean FLIP error (at most).
    case maxFLIP

    /// Whether the limit is a floor (the value must reach it) rather than a ceiling.
    public var isMinimum: Bool { rawValue.hasPrefix("min") }

    /// The values a limit may take.
    public var range: ClosedRange<Double> {
        switch self {
        case .maxError: 0...255
        case .minIdenticalPercent: 0...100
        case .minPSNR: 0...1000
        case .minSSIM: -1...1
        case .maxDeltaE, .maxDeltaE99: 0...1000
        case .maxDiffPixels: 0...Double(Int32.max)
        case .maxFLIP: 0...1
        }
    }

    /// How reports name the measured quantity: `SSIM`, `mean ΔE2000`.
    public var label: String {
        switch self {
        case .maxError: "max error"
        case .minIdenticalPercent: "identical %"
        case .minPSNR: "PSNR"
        case .minSSIM: "SSIM"
        case .maxDeltaE: "mean ΔE2000"
        case .maxDeltaE99: "ΔE2000 p99"
        case .maxDiffPixels: "pixelmatch pixels"
        case .maxFLIP: "mean FLIP"
        }
    }

    /// The measured value; nil when the metric is undefined for these images (SSIM under 11 px).
    public func value(of diff: ImageDiff) -> Double? {
        switch self {
        case .maxError: Double(diff.maxError.max())
        case .minIdenticalPercent: 100 * diff.identicalFraction
        case .minPSNR: diff.psnr
        case .minSSIM: diff.ssim
        case .maxDeltaE: diff.deltaE.mean
        case .maxDeltaE99: diff.deltaE.percentile99
        case .maxDiffPixels: Double(diff.pixelmatch.differentPixels)
        case .maxFLIP: diff.flip.mean
        }
    }
}

/// The limits a pair must stay within to pass; a metric without a limit is reported, not judged.
public struct DiffThresholds: Sendable, Equatable {
    /// The limit per metric.
    public var limits: [DiffMetric: Double]

    /// Thresholds with the given limits.
    public init(_ limits: [DiffMetric: Double] = [:]) {
        self.limits = limits
    }

    /// What `liquidlens diff` holds pairs to by default: no pixel differs visibly (pixelmatch,
    /// anti-aliasing excepted), like Playwright's and reg-suit's defaults.
    public static let visiblySame = DiffThresholds([.maxDiffPixels: 0])

    /// The GPU and the CPU reference agree as the parity tests require: at most 1/255 per
    /// channel and at least 99.9 % of pixels identical.
    public static let parity = DiffThresholds([.maxError: 1, .minIdenticalPercent: 99.9])

    /// The limit for `metric`, if any.
    public subscript(metric: DiffMetric) -> Double? {
        get { limits[metric] }
        set { limits[metric] = newValue }
    }

    /// These thresholds with each metric `overrides` names set to its value, or unjudged where the
    /// value is nil.
    public func applying(_ overrides: [DiffMetric: Double?]) -> DiffThresholds {
        var result = self
        for (metric, limit) in overrides { result.limits[metric] = limit }
        return result
    }

    /// One line per limit `diff` breaks, such as `SSIM 0.971200 < 0.99`; empty when it passes.
    public func violations(of diff: ImageDiff) -> [String] {
        DiffMetric.allCases.compactMap { metric in
            guard let limit = limits[metric] else { return nil }
            guard let value = metric.value(of: diff) else { return "\(metric.label) is undefined for these images" }
            let passes = metric.isMinimum ? value >= limit : value <= limit
            return passes
                ? nil
                : "\(metric.label) \(Self.format(value, metric)) \(metric.isMinimum ? "<" : ">") \(limit.formatted)"
        }
    }

    /// `metric = limit` for each limit, in the order of ``DiffMetric``.
    public var summary: String {
        let parts = DiffMetric.allCases.compactMap { metric in
            limits[metric].map { "\(metric.rawValue) \(metric.isMinimum ? "≥" : "≤") \($0.formatted)" }
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// A metric's value as reports print it: whole numbers for counts, more digits for SSIM and FLIP.
    public static func format(_ value: Double, _ metric: DiffMetric) -> String {
        switch metric {
        case .maxError, .maxDiffPixels: String(Int(value))
        case .minSSIM, .maxFLIP: String(format: "%.6f", value)
        case .minPSNR: value.isInfinite ? "inf" : String(format: "%.2f", value)
        default: String(format: "%.4f", value)
        }
    }
}
