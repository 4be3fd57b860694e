import Foundation
import LiquidLens

/// The scaling sweeps of `liquidlens bench --sweeps`: the lens-heavy frame with one thing varied.
/// Each point renders a few frames with the lens moving on a fresh renderer: the first frame is cold
/// (everything composed and blurred), the median of the rest is the steady cost of a batch.
enum BenchSweeps {
    struct Point: Sendable {
        var label: String
        var value: Double
        /// Frame `index` of the point's run.
        var scene: @Sendable (Int) throws -> Scene
    }

    struct Definition: Sendable {
        var name: String
        var parameter: String
        var points: [Point]
    }

    /// The lens-heavy lens at frame `index`: 15.6 px to the right per frame, as in the workload.
    private static func centerX(_ index: Int) -> Double { 500 + 920 * Double(index) / 59 }

    static let all: [Definition] = [
        Definition(
            name: "resolution", parameter: "megapixels",
            points: [(1280, 720), (1920, 1080), (3840, 2160)].map { size in
                Point(label: "\(size.0)×\(size.1)", value: Double(size.0 * size.1) / 1e6) {
                    try BenchmarkWorkload.lensHeavy(
                        lensCenterX: centerX($0), width: Double(size.0), height: Double(size.1))
                }
            }),
        Definition(
            name: "coverage", parameter: "glass coverage (fraction of the frame)",
            points: [0.05, 0.1, 0.25, 0.5, 1].map { fraction in
                Point(label: "\(Int(fraction * 100)) %", value: fraction) { index in
                    let width = 1920 * fraction.squareRoot()
                    let height = 1080 * fraction.squareRoot()
                    let shift = index % 2 == 0 ? 4.0 : -4.0
                    let glass = GlassElement(
                        shape: .roundedRectangle(cornerRadii: [40, 40, 40, 40]),
                        frame: Rect(
                            x: (1920 - width) / 2 + shift, y: (1080 - height) / 2, width: width, height: height),
                        optics: BenchmarkWorkload.lensHeavyOptics)
                    return try BenchmarkWorkload.lensHeavy(lensCenterX: 960, glass: [glass])
                }
            }),
        Definition(
            name: "shapes", parameter: "shapes per glass group",
            points: [1, 2, 4, 8, 16].map { count in
                Point(label: "\(count)", value: Double(count)) { index in
                    let left = centerX(index) - 450
                    let pieceWidth = 900 / Double(count)
                    let shapes = (0..<count).map { piece in
                        PlacedShape(
                            shape: .capsule,
                            frame: Rect(x: left + Double(piece) * pieceWidth, y: 390, width: pieceWidth, height: 300))
                    }
                    let glass = GlassElement(shapes: shapes, blend: 24, optics: BenchmarkWorkload.lensHeavyOptics)
                    return try BenchmarkWorkload.lensHeavy(lensCenterX: 960, glass: [glass])
                }
            }),
        panes(grouped: false),
        panes(grouped: true),
        Definition(
            name: "frost", parameter: "frost σ (px)",
            points: [0, 2, 4, 8, 12, 16, 20].map { sigma in
                Point(label: "σ \(Int(sigma))", value: sigma) { index in
                    var optics = BenchmarkWorkload.lensHeavyOptics
                    optics.frost = sigma
                    return try BenchmarkWorkload.lensHeavy(lensCenterX: centerX(index), optics: optics)
                }
            }),
        Definition(
            name: "blur", parameter: "progressive blur σ at the edge (pt)",
            points: [2, 5, 10, 20, 40].map { radius in
                Point(label: "σ \(Int(radius))", value: radius) { index in
                    var scene = try BenchmarkWorkload.lensHeavy(lensCenterX: centerX(index))
                    // The top third of the frame, σ falling from `radius` at the top to 0.
                    let region = Rect(x: 0, y: 0, width: 1920, height: 360)
                    scene.progressiveBlurs = [ProgressiveBlur(frame: region, radius: radius)]
                    return scene
                }
            }),
    ]

    /// 1 to 256 frosted panes over the lens-heavy backdrop, always 1.41 MP of glass together:
    /// separate glass elements, or one container's shapes (at most 64, a group's limit). Cost
    /// should follow the area, not the count.
    private static func panes(grouped: Bool) -> Definition {
        Definition(
            name: grouped ? "container" : "panes",
            parameter: grouped ? "panes in one container (1.41 MP of glass)" : "separate panes (1.41 MP of glass)",
            points: (grouped ? [1, 4, 16, 64] : [1, 4, 16, 64, 256]).map { count in
                Point(label: "\(count)", value: Double(count)) { index in
                    try BenchmarkWorkload.lensHeavy(
                        lensCenterX: 960, glass: BenchmarkWorkload.panes(count, grouped: grouped, frame: index))
                }
            })
    }

    static func run(
        _ definition: Definition, backend: Backend, frames: Int, inFlight: Int, vulkanOptions: VulkanOptions
    ) throws -> BenchReport.Sweep {
        var points: [BenchReport.SweepPoint] = []
        for point in definition.points {
            let cache = ResolveCache()
            let parameters = try (0..<frames).map { try LensRenderer.resolve(try point.scene($0), cache: cache) }
            let renderer = try LensRenderer(backend: backend, vulkanOptions: vulkanOptions, whileCompiling: .wait)
            // The cold frame alone, then the rest as a batch: a first frame inside the batch
            // would absorb the work of the frame submitted behind it.
            let clock = BenchClock()
            _ = try renderer.render(parameters[0])
            let firstFrameMs = clock.lap()
            let batch = try BenchClock.timeBatch(renderer, Array(parameters.dropFirst()), inFlight: inFlight).intervals
            let intervals = BenchClock.perFrame(batch, inFlight: backend == .vulkan ? inFlight : 1)
            points.append(
                BenchReport.SweepPoint(
                    label: point.label, value: point.value, frameMs: BenchClock.percentile(intervals, 0.5),
                    firstFrameMs: firstFrameMs))
        }
        return BenchReport.Sweep(
            name: definition.name, parameter: definition.parameter, backend: backend.rawValue, points: points)
    }
}

/// The SVG chart of the sweeps: one panel per sweep, a line per backend; solid lines are the
/// steady per-frame median, dashed lines the cold first frame.
enum BenchChart {
    // Over 60 lines on purpose: one drawing top to bottom (panels, axes, lines, legend) sharing
    // its scales, rather than passing them between pieces.
    static func svg(_ sweeps: [BenchReport.Sweep]) -> String {
        let names = BenchSweeps.all.map(\.name).filter { name in sweeps.contains { $0.name == name } }
        let panelWidth = 460.0
        let panelHeight = 300.0
        let columns = 2
        let rows = max(1, (names.count + 1) / 2)
        let width = panelWidth * Double(columns)
        let height = panelHeight * Double(rows) + 40
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="DejaVu Sans, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="12" y="22" font-size="14" font-weight="bold">liquidlens bench: scaling sweeps (ms per frame)</text>
            <text x="\(Int(width) - 330)" y="22">solid: steady median · dashed: first (cold) frame</text>

            """
        let colors = ["vulkan": "#0a84ff", "cpu": "#ff9f0a"]
        for (panel, name) in names.enumerated() {
            let originX = Double(panel % columns) * panelWidth
            let originY = 40 + Double(panel / columns) * panelHeight
            let plotLeft = originX + 56
            let plotRight = originX + panelWidth - 20
            let plotTop = originY + 30
            let plotBottom = originY + panelHeight - 50
            let series = sweeps.filter { $0.name == name }
            let labels = series.first?.points.map(\.label) ?? []
            let maximum = max(1, series.flatMap { $0.points.flatMap { [$0.frameMs, $0.firstFrameMs] } }.max() ?? 1)
            let top = niceCeiling(maximum)
            func x(_ index: Int) -> Double {
                labels.count < 2
                    ? (plotLeft + plotRight) / 2
                    : plotLeft + (plotRight - plotLeft) * Double(index) / Double(labels.count - 1)
            }
            func y(_ value: Double) -> Double { plotBottom - (plotBottom - plotTop) * value / top }
            svg +=
                "<text x=\"\(f(originX + 12))\" y=\"\(f(originY + 18))\" font-weight=\"bold\">\(name): \(escape(series.first?.parameter ?? ""))</text>\n"
            for tick in 0...4 {
                let value = top * Double(tick) / 4
                svg +=
                    "<line x1=\"\(f(plotLeft))\" x2=\"\(f(plotRight))\" y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\" stroke=\"#ddd\"/>\n"
                svg +=
                    "<text x=\"\(f(plotLeft - 6))\" y=\"\(f(y(value) + 4))\" text-anchor=\"end\">\(f(value))</text>\n"
            }
            for (index, label) in labels.enumerated() {
                svg +=
                    "<text x=\"\(f(x(index)))\" y=\"\(f(plotBottom + 16))\" text-anchor=\"middle\">\(escape(label))</text>\n"
            }
            for (row, sweep) in series.enumerated() {
                let color = colors[sweep.backend] ?? "#444"
                for (key, dash) in [
                    (\BenchReport.SweepPoint.frameMs, ""),
                    (\BenchReport.SweepPoint.firstFrameMs, " stroke-dasharray=\"5 4\""),
                ] {
                    let path = sweep.points.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element[keyPath: key])))" }
                    svg +=
                        "<polyline points=\"\(path.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
                }
                for (index, point) in sweep.points.enumerated() {
                    svg += "<circle cx=\"\(f(x(index)))\" cy=\"\(f(y(point.frameMs)))\" r=\"3\" fill=\"\(color)\"/>\n"
                }
                svg +=
                    "<text x=\"\(f(plotRight - 80))\" y=\"\(f(plotTop + 14 * Double(row)))\" fill=\"\(color)\">\(sweep.backend)</text>\n"
            }
        }
        return svg + "</svg>\n"
    }

    private static func niceCeiling(_ value: Double) -> Double {
        let magnitude = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    private static func f(_ value: Double) -> String { String(format: "%g", (value * 10).rounded() / 10) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
