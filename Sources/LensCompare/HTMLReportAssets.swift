/// The style sheet and script the HTML report inlines, so the page fetches nothing: the files under
/// `Web/`, embedded at build time.
enum HTMLReportAssets {
    static let style = String(decoding: PackageResources.report_css, as: UTF8.self)
    static let script = String(decoding: PackageResources.report_js, as: UTF8.self)
}
