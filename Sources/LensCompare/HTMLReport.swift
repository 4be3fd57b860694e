import Foundation
import LensIO

/// A diff report as one HTML page with no network fetches (styles and script inline, a Content
/// Security Policy that allows nothing else): a summary, filters (failed only, by name) and per
/// pair the problems, a swipe / onion-skin comparison of expected and actual, the expected,
/// actual and heatmap images, every metric against its limit, and the FLIP histogram. Images are
/// files beside the page (``imageFolder(for:)``), referenced by relative paths.
public enum HTMLReport {
    /// Where the images of the report at `url` go: `report-files/` beside `report.html`.
    public static func imageFolder(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "-files")
    }

    /// Writes the page for `report` to `url` as `OutputFile` does (a file atomically).
    public static func write(_ report: DiffReport, to url: URL) throws {
        try OutputFile.write(Data(html(report, relativeTo: url.deletingLastPathComponent()).utf8), to: url)
    }

    /// The page, with image paths relative to `folder` (where the page will be).
    public static func html(_ report: DiffReport, relativeTo folder: URL) -> String {
        let formatter = ISO8601DateFormatter()
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(escape(report.title)) — liquidlens diff</title>
            <style>\(HTMLReportAssets.style)</style>
            </head>
            <body>
            <header>
            <h1>\(escape(report.title))</h1>
            <p class="summary \(report.passed ? "passed" : "failed")"><strong>\(report.passed ? "Passed" : "Failed")</strong> · \
            \(escape(report.nothingCompared ?? report.summary)) · \(String(format: "%.2f", report.seconds)) s · \(formatter.string(from: report.date))</p>
            <div class="filters">
            <label><input type="checkbox" id="failed-only"> Failed only</label>
            <input type="search" id="name-filter" placeholder="Filter by name" aria-label="Filter by name">
            <span class="shown"><span id="shown-count">\(report.pairs.count)</span> of \(report.pairs.count) shown</span>
            </div>
            </header>
            <main>

            """
        for (index, pair) in report.pairs.enumerated() {
            page += section(pair, index: index, relativeTo: folder)
        }
        page += "</main>\n<script>\(HTMLReportAssets.script)</script>\n</body>\n</html>\n"
        return page
    }

    private static func section(_ pair: DiffReport.Pair, index: Int, relativeTo folder: URL) -> String {
        func source(_ url: URL?) -> String? { url.map { escape(relativePath(from: folder, to: $0)) } }
        let expected = source(pair.images.expected)
        let actual = source(pair.images.actual)
        var html = """
            <section class="pair \(pair.outcome.rawValue)" id="pair-\(index + 1)" data-name="\(escape(pair.name))" \
            data-failure="\(pair.isFailure)">
            <h2><span class="badge \(pair.outcome.rawValue)">\(pair.outcome.rawValue)</span> <code>\(escape(pair.name))</code></h2>

            """
        if !pair.problems.isEmpty {
            html += "<ul class=\"problems\">" + pair.problems.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        html += "<div class=\"body\">\n"
        if let expected, let actual, pair.diff != nil {
            html += """
                <div class="compare" data-mode="swipe">
                <div class="modes" role="group" aria-label="Comparison mode">\
                <button type="button" data-mode="swipe" aria-pressed="true">Swipe</button>\
                <button type="button" data-mode="onion" aria-pressed="false">Onion skin</button></div>
                <div class="stage"><img class="under" src="\(expected)" alt="expected"><img class="over" src="\(actual)" alt="actual"><div class="divider"></div></div>
                <input class="slider" type="range" min="0" max="100" value="50" aria-label="Position between expected and actual">
                <div class="legend"><span>◀ expected</span><span>actual ▶</span></div>
                </div>

                """
        }
        html += "<div class=\"side\">\n<div class=\"thumbs\">"
        for (label, image) in [("expected", expected), ("actual", actual), ("heatmap", source(pair.images.heatmap))] {
            guard let image else { continue }
            html += "<figure><a href=\"\(image)\"><img loading=\"lazy\" src=\"\(image)\" alt=\"\(label)\"></a>"
            html += "<figcaption>\(label)</figcaption></figure>"
        }
        html += "</div>\n"
        if let diff = pair.diff { html += metricsTable(diff, pair.thresholds) + histogram(diff.flip) }
        html += "</div>\n</div>\n</section>\n"
        return html
    }

    private static func metricsTable(_ diff: ImageDiff, _ thresholds: DiffThresholds) -> String {
        var rows = "<table class=\"metrics\"><thead><tr><th>metric</th><th>value</th><th>limit</th></tr></thead><tbody>"
        for metric in DiffMetric.allCases {
            let value = metric.value(of: diff).map { DiffThresholds.format($0, metric) } ?? "n/a"
            var limit = "—"
            var verdict = ""
            if let bound = thresholds[metric] {
                limit = "\(metric.isMinimum ? "≥" : "≤") \(bound.formatted)"
                let passes = metric.value(of: diff).map { metric.isMinimum ? $0 >= bound : $0 <= bound } ?? false
                verdict = passes ? " class=\"within\"" : " class=\"broken\""
            }
            rows += "<tr\(verdict)><td>\(escape(metric.label))</td><td>\(value)</td><td>\(escape(limit))</td></tr>"
        }
        let mean = diff.meanError
        rows += "<tr><td>mean error (R G B A)</td><td colspan=\"2\">"
        rows += String(format: "%.3f %.3f %.3f %.3f", mean[0], mean[1], mean[2], mean[3]) + "</td></tr>"
        rows += "<tr><td>over \(diff.threshold)/255</td><td colspan=\"2\">\(diff.pixelsOverThreshold) px</td></tr>"
        rows +=
            "<tr><td>anti-aliased (pixelmatch)</td><td colspan=\"2\">\(diff.pixelmatch.antialiasedPixels) px</td></tr>"
        rows += "<tr><td>size</td><td colspan=\"2\">\(diff.width)×\(diff.height)</td></tr>"
        return rows + "</tbody></table>\n"
    }

    /// The FLIP histogram as bars on a log scale (most pixels sit in the first bucket).
    private static func histogram(_ flip: FLIPError) -> String {
        let largest = log10(1 + Double(flip.histogram.max() ?? 0))
        var html = "<figure class=\"histogram\"><div class=\"bars\">"
        for (bucket, count) in flip.histogram.enumerated() {
            let height = largest > 0 ? 100 * log10(1 + Double(count)) / largest : 0
            let low = Double(bucket) / Double(flip.histogram.count)
            let high = Double(bucket + 1) / Double(flip.histogram.count)
            html += "<span style=\"height:\(String(format: "%.1f", height))%\" "
            html += "title=\"FLIP \(String(format: "%.2f–%.2f", low, high)): \(count) px\"></span>"
        }
        return html + "</div><figcaption>FLIP histogram (log scale), 0 → 1</figcaption></figure>\n"
    }

    /// `file` as a URL path relative to `folder`, each component percent-encoded.
    static func relativePath(from folder: URL, to file: URL) -> String {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let target =
            file.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().pathComponents
            + [file.lastPathComponent]
        var shared = 0
        while shared < base.count, shared < target.count - 1, base[shared] == target[shared] { shared += 1 }
        let components = Array(repeating: "..", count: base.count - shared) + target[shared...]
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return components.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }
}
