import Foundation
import LiquidLens

@testable import LensIO

/// What was measured from one iOS capture (`shared/reference/captures`), kept in the project as
/// numbers with their source, and the scene that re-creates the capture at its size in pixels.
/// The same ``CaptureWindow/measure(_:)`` reads a capture and a render, so a reader can re-measure
/// either: `LIQUIDLENS_RECORD_CAPTURES=1 swift test --filter Captures` rewrites the numbers from
/// the captures and our renders.
struct CaptureRecord: Codable, Sendable {
    /// File name in `shared/reference/captures`.
    var capture: String
    /// Repository, path and commit the capture was taken from.
    var source: String
    var pixelsPerPoint: Double
    /// The colour space of the capture's codes where it is not sRGB; the capture is converted to
    /// sRGB before it is measured, as our renders are sRGB.
    var colorSpace: CaptureColorSpace?
    /// The scene file beside this record that re-creates the capture.
    var scene: String
    var windows: [CaptureWindow]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Captures")
    /// The captures themselves, outside the project (never copied into it).
    static let capturesFolder = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/reference/captures")

    static let names = [
        "union-lens-lifted", "union-resting", "mecid-regular", "mecid-clear", "mecid-container", "mecid-tabs",
        "cn-segmented", "cn-buttons", "cn-slider", "cnb-segmented", "cn-tab-bar", "jarx-menu-morph",
        "jarx-switch-lifted", "fabbar-lifted", "sdtaheri-table-top-edge-ios27", "sdtaheri-grid-ios27",
        "ralfebert-glass-stripes", "ralfebert-glass-gradient",
    ]

    /// The capture in sRGB codes.
    func readCapture() throws -> RGBA8Image {
        var image = try PNGCodec.read(contentsOf: Self.capturesFolder.appendingPathComponent(capture))
        if colorSpace == .displayP3 {
            // H.273 code points: colour primaries 12 (P3-D65), transfer 13 (sRGB's curve).
            try ColorConversion.convert(&image.pixels, from: ColorConversion.CodePoints(primaries: 12, transfer: 13))
        }
        return image
    }

    static func load(_ name: String) throws -> CaptureRecord {
        try JSONDecoder().decode(
            CaptureRecord.self, from: Data(contentsOf: folder.appendingPathComponent("\(name).measured.json")))
    }

    func save(as name: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(
            to: Self.folder.appendingPathComponent("\(name).measured.json"), options: .atomic)
    }
}

/// Where a capture's codes are not sRGB.
enum CaptureColorSpace: String, Codable, Sendable {
    /// Display P3 without its profile: iOS screenshots are P3, and a copy that drops the profile
    /// keeps P3 codes (`mecid-*`: the backdrop reads (101, 196, 102), which is systemGreen, sRGB
    /// (52, 199, 89), in Display P3).
    case displayP3
}

/// One place measured the same way in a capture and in a render. Pixel coordinates of the
/// capture, which the scene's canvas matches. Luma is Rec. 709's weights on the 8-bit sRGB codes
/// (0.2126 R′ + 0.7152 G′ + 0.0722 B′), averaged over the window to cancel GIF dithering.
struct CaptureWindow: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// Luma down the window: averaged across its width, in bins of `bin` rows.
        case columns
        /// Luma along the window: averaged across its height, in bins of `bin` columns.
        case rows
        /// The window's mean colour, R G B.
        case color
        /// Where the luma, averaged across the window's width, first and last exceeds `threshold`
        /// (falls below it where `darker`) down the window: the top and bottom edges (rows) of
        /// what lies there.
        case extent
        /// The same along the window, averaged across its height: left and right edges (columns).
        case horizontalExtent
    }

    var name: String
    var kind: Kind
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var bin: Int?
    var threshold: Double?
    /// An extent of what is darker than `threshold` (a tinted bridge on a light page), not lighter.
    var darker: Bool?
    /// True: the renderer is held to the capture here (profiles within 3 levels mean absolute
    /// difference, colours within 4 levels per channel, extents within 1 pt). False: a known gap,
    /// measured and reported, not yet fitted.
    var held: Bool
    /// The tolerance an issue set for this window, where it set one (a morph's edges: 2 pt, issue
    /// 48); nil: the kind's (see `held`).
    var allowed: Double?
    /// The numbers measured from the capture.
    var capture: [Double]
    /// Our render of the scene before the fit that first held it, for the Fidelity article's
    /// before/after: commit 5ce2271 for union-*, mecid-regular and mecid-clear, c520233 for
    /// fabbar-lifted, 6194593 for the rest.
    var before: [Double]?
    /// Our render now (rewritten when recording).
    var ours: [Double]?

    static func luma(_ image: RGBA8Image, _ x: Int, _ y: Int) -> Double {
        let i = (y * image.width + x) * 4
        return 0.2126 * Double(image.pixels[i]) + 0.7152 * Double(image.pixels[i + 1]) + 0.0722
            * Double(image.pixels[i + 2])
    }

    /// The window's numbers in `image` (rounded to 0.1 level or 0.1 pixel).
    func measure(_ image: RGBA8Image) -> [Double] {
        let values: [Double]
        switch kind {
        case .columns, .rows:
            let along = kind == .columns ? height : width
            let across = kind == .columns ? width : height
            let step = bin ?? 1
            values = stride(from: 0, to: along - step + 1, by: step).map { start in
                var sum = 0.0
                for a in start..<start + step {
                    for c in 0..<across {
                        sum += kind == .columns ? Self.luma(image, x + c, y + a) : Self.luma(image, x + a, y + c)
                    }
                }
                return sum / Double(step * across)
            }
        case .color:
            var sum = SIMD3<Double>.zero
            for row in y..<y + height {
                for column in x..<x + width {
                    let i = (row * image.width + column) * 4
                    sum += SIMD3(Double(image.pixels[i]), Double(image.pixels[i + 1]), Double(image.pixels[i + 2]))
                }
            }
            let mean = sum / Double(width * height)
            values = [mean.x, mean.y, mean.z]
        case .extent, .horizontalExtent:
            let vertical = kind == .extent
            let profile = (0..<(vertical ? height : width)).map { a in
                (0..<(vertical ? width : height)).reduce(0.0) {
                    $0 + (vertical ? Self.luma(image, x + $1, y + a) : Self.luma(image, x + a, y + $1))
                } / Double(vertical ? width : height)
            }
            let inside = profile.indices.filter {
                darker == true ? profile[$0] < (threshold ?? 8) : profile[$0] > (threshold ?? 8)
            }
            let start = vertical ? y : x
            values = [Double(start + (inside.first ?? 0)), Double(start + (inside.last ?? 0))]
        }
        return values.map { ($0 * 10).rounded() / 10 }
    }

    /// How far `ours` is from the capture, in the window's unit: mean absolute difference in
    /// levels for a profile, the largest channel difference for a colour, the largest edge
    /// difference in points for an extent.
    func distance(_ ours: [Double], pixelsPerPoint: Double) -> Double {
        let differences = zip(ours, capture).map { abs($0 - $1) }
        switch kind {
        case .columns, .rows: return differences.reduce(0, +) / Double(differences.count)
        case .color: return differences.max() ?? 0
        case .extent, .horizontalExtent: return (differences.max() ?? 0) / pixelsPerPoint
        }
    }

    /// The tolerance a held window must meet (see `held` and `allowed`).
    var tolerance: Double {
        if let allowed { return allowed }
        return switch kind {
        case .columns, .rows: 3
        case .color: 4
        case .extent, .horizontalExtent: 1
        }
    }

    var unit: String { kind == .extent || kind == .horizontalExtent ? "pt" : "levels" }
}

/// The Fidelity article's plot: every profile window of more than one bin (a one-bin window is a
/// box's mean luma, nothing to draw), the capture (black) against our render before the
/// fit (grey, dashed) and now (blue), one small panel each, levels 0…255 up the side.
enum CapturePlot {
    static let resource = packageRoot.appendingPathComponent(
        "Sources/LiquidLens/LiquidLens.docc/Resources/against-ios.svg")

    static func svg(_ records: [CaptureRecord]) -> String {
        let panels = records.flatMap { record in
            record.windows.filter { ($0.kind == .columns || $0.kind == .rows) && $0.capture.count > 1 }.map {
                (record.capture, $0)
            }
        }
        let panelWidth = 280.0
        let panelHeight = 120.0
        let columns = 3
        let rows = (panels.count + columns - 1) / columns
        var body = ""
        for (index, (capture, window)) in panels.enumerated() {
            let left = 10 + Double(index % columns) * (panelWidth + 20)
            let top = 14 + Double(index / columns) * (panelHeight + 40)
            body += "<text x=\"\(left)\" y=\"\(top)\" font-size=\"9\" fill=\"#666\">\(capture)</text>\n"
            body += "<text x=\"\(left)\" y=\"\(top + 11)\" font-size=\"9\">\(window.name)</text>\n"
            body +=
                "<rect x=\"\(left)\" y=\"\(top + 16)\" width=\"\(panelWidth)\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#ccc\"/>\n"
            let series: [([Double]?, String, String)] = [
                (window.capture, "#000", ""), (window.before, "#999", " stroke-dasharray=\"4 3\""),
                (window.ours, "#1a73e8", ""),
            ]
            for (values, colour, dash) in series {
                guard let values, values.count > 1 else { continue }
                let points = values.enumerated().map { i, level in
                    let x = left + panelWidth * Double(i) / Double(values.count - 1)
                    let y = top + 16 + panelHeight * (1 - level / 255)
                    return "\((x * 10).rounded() / 10),\((y * 10).rounded() / 10)"
                }
                body +=
                    "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\"\(dash)/>\n"
            }
        }
        let width = 10 + Double(columns) * (panelWidth + 20)
        let height = 10 + Double(rows) * (panelHeight + 40)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" font-family="sans-serif">
            <rect width="100%" height="100%" fill="#fff"/>
            \(body)</svg>

            """
    }
}
