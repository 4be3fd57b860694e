import Foundation
import LensCompare
import LensModel
import LensServe
import Testing

/// The two web pages, the tuning page and the diff report, are files under `Web/` embedded at build
/// time: each page carries its files verbatim and its markup parses. (Their scripts run in the
/// Chromium tests of ServeTests and DiffReportTests.)
@Suite("Web pages from their files")
struct WebPageTests {
    static func file(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Sources/\(path)"), encoding: .utf8)
    }

    /// xmllint's complaints about `html`, but for the HTML5 elements its HTML 4 parser does not know.
    static func markupErrors(_ html: String) throws -> [String] {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("web-page-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        try Data(html.utf8).write(to: page)
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["xmllint", "--html", "--noout", page.path])
        let html5 = try Regex(
            #"Tag (header|main|section|output|nav|article|aside|footer|figure|figcaption|details|summary) invalid"#)
        return result.stderr.split(separator: "\n").filter { $0.contains("error") && $0.firstMatch(of: html5) == nil }
            .map(String.init)
    }

    @Test("The tuning page is its three files, the nonce on its style and script")
    func tuningPage() throws {
        let page = ServePage.document(nonce: "n0nce")
        #expect(page.contains(try Self.file("LensServe/Web/tuning-page.css")))
        #expect(page.contains(try Self.file("LensServe/Web/tuning-page.js")))
        #expect(page.contains(#"<style nonce="n0nce">"#) && page.contains(#"<script nonce="n0nce">"#))
        #expect(!page.contains("{{"), "a placeholder left unfilled")
        #expect(try Self.markupErrors(page) == [])
    }

    @Test("The diff report inlines its style sheet and script, and its markup parses")
    func diffReport() throws {
        let image = RGBA8Image(width: 16, height: 8, pixels: (0..<(16 * 8 * 4)).map { UInt8($0 % 256) })
        var report = DiffReport(title: "web page")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        report.pairs.append(
            try DiffReport.Pair.compare(
                name: "same", actual: image, expected: image, configuration: DiffConfiguration(thresholds: .parity),
                imageFolder: folder))
        let page = HTMLReport.html(report, relativeTo: folder)
        #expect(page.contains(try Self.file("LensCompare/Web/report.css")))
        #expect(page.contains(try Self.file("LensCompare/Web/report.js")))
        #expect(try Self.markupErrors(page) == [])
    }
}
