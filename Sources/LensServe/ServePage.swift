import Foundation

/// The tuning page `liquidlens serve` answers at `/`: one document with its style and script
/// inline, under a Content Security Policy that allows nothing else (no fetch but to this server,
/// pictures only from data and blob URLs), so the page works offline and nothing injected runs.
package enum ServePage {
    /// The page, its style and script marked with a fresh nonce that the policy names.
    static func response(token: String) -> HTTPResponse {
        let nonce = ServeSession.newToken()
        let policy = [
            "default-src 'none'", "script-src 'nonce-\(nonce)'", "style-src 'nonce-\(nonce)'",
            "img-src data: blob:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
        let html = document(nonce: nonce)
        return HTTPResponse(
            status: 200, contentType: "text/html; charset=utf-8", body: Data(html.utf8),
            headers: [
                ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
            ])
    }

    /// The page, its style sheet and script inline, both marked with `nonce`: the files under
    /// `Web/`, embedded at build time.
    package static func document(nonce: String) -> String {
        let markup = String(decoding: PackageResources.tuning_page_html, as: UTF8.self)
        return markup.replacingOccurrences(of: "{{nonce}}", with: nonce)
            .replacingOccurrences(
                of: "{{style}}", with: String(decoding: PackageResources.tuning_page_css, as: UTF8.self)
            )
            .replacingOccurrences(
                of: "{{script}}", with: String(decoding: PackageResources.tuning_page_js, as: UTF8.self))
    }
}
