internal import CRsvg
import Foundation
import LensModel

/// SVG through librsvg, rasterised at `scale` pixels per SVG pixel (a point), so an icon drawn at
/// 3× stays crisp. Self-contained documents only: a reference to another file or a URL (`href`,
/// `url(…)`, `@import`, an external entity) is refused before librsvg sees the file, and librsvg
/// is given no base location, so it could not resolve one anyway.
enum SVGRasterizer {
    static func rasterize(_ data: Data, scale: Double) throws -> RGBA8Image {
        if let reference = externalReference(in: String(decoding: data, as: UTF8.self)) {
            throw ImageFileError(
                description:
                    "SVG refers to \(reference), another file or a URL; only self-contained SVG (# and data: references) is read"
            )
        }
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBytes { bytes in
            rsvg_handle_new_from_data(bytes.bindMemory(to: guint8.self).baseAddress, gsize(bytes.count), &error)
        }
        guard let handle else { throw ImageFileError(description: "not valid SVG (\(consume(&error)))") }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var width = 0.0
        var height = 0.0
        guard rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 || viewBox(handle, &width, &height)
        else {
            throw ImageFileError(description: "SVG has no size: give its svg element a width and height, or a viewBox")
        }
        // Sizes are checked as numbers before they become pixel counts: a height of 10³⁰ (found by
        // the svg fuzzer) does not fit an Int.
        let sideLimit = Double(ImageLimits.maxSide)
        guard width.isFinite, height.isFinite, width * scale <= sideLimit, height * scale <= sideLimit else {
            throw ImageFileError(
                description: "SVG of \(width)×\(height) at scale \(scale) is over \(ImageLimits.maxSide) px a side")
        }
        let pixelWidth = Int((width * scale).rounded(.up))
        let pixelHeight = Int((height * scale).rounded(.up))
        guard ImageLimits.allows(width: pixelWidth, height: pixelHeight) else {
            throw ImageLimits.tooLarge(width: pixelWidth, height: pixelHeight)
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw ImageFileError(description: "cairo is out of memory for \(pixelWidth)×\(pixelHeight) px") }
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)
        defer { cairo_destroy(cairo) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(pixelWidth), height: Double(pixelHeight))
        guard rsvg_handle_render_document(handle, cairo, &viewport, &error) != 0 else {
            throw ImageFileError(description: "librsvg could not draw it (\(consume(&error)))")
        }
        cairo_surface_flush(surface)
        return unpremultiplied(surface, width: pixelWidth, height: pixelHeight)
    }

    /// What refers outside the file: href targets, `url(…)` targets, `@import`s, and external
    /// entities (flagged as such). Compiled once; NSRegularExpression is safe to share.
    private static let referencePatterns: [(expression: NSRegularExpression, isEntity: Bool)] = [
        (#"(?:xlink:)?href\s*=\s*["']\s*([^"'\s][^"']*)["']"#, false), (#"url\(\s*["']?\s*([^"')\s][^"')]*)"#, false),
        (#"@import\s+(?:url\()?\s*["']?([^"');\s]+)"#, false), (#"<!ENTITY[^>]*?(SYSTEM|PUBLIC)\s"#, true),
    ].map { (try! NSRegularExpression(pattern: $0.0, options: [.caseInsensitive]), $0.1) }

    /// The first reference in `text` to something outside the document, or nil.
    static func externalReference(in text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        for (expression, isEntity) in referencePatterns {
            for match in expression.matches(in: text, range: range) {
                guard let found = Range(match.range(at: 1), in: text) else { continue }
                if isEntity { return "an external entity" }
                let target = String(text[found])
                if target.hasPrefix("#") || target.lowercased().hasPrefix("data:") { continue }
                return "\"\(target.prefix(80))\""
            }
        }
        return nil
    }

    /// The size the viewBox gives, when the document has one and no width and height.
    private static func viewBox(
        _ handle: UnsafeMutablePointer<RsvgHandle>, _ width: inout Double, _ height: inout Double
    ) -> Bool {
        var hasWidth: gboolean = 0
        var hasHeight: gboolean = 0
        var hasViewBox: gboolean = 0
        var box = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, nil, &hasHeight, nil, &hasViewBox, &box)
        guard hasViewBox != 0, box.width > 0, box.height > 0 else { return false }
        width = box.width
        height = box.height
        return true
    }

    /// Cairo's premultiplied native-endian ARGB as straight RGBA.
    private static func unpremultiplied(_ surface: OpaquePointer, width: Int, height: Int) -> RGBA8Image {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let argb = row[x]
                let alpha = Int(argb >> 24)
                let target = (y * width + x) * 4
                guard alpha > 0 else { continue }
                for (channel, shift) in [16, 8, 0].enumerated() {
                    let premultiplied = Int((argb >> UInt32(shift)) & 0xFF)
                    pixels[target + channel] = UInt8(min(255, (premultiplied * 255 + alpha / 2) / alpha))
                }
                pixels[target + 3] = UInt8(alpha)
            }
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }

    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let pointer = error else { return "no reason given" }
        defer {
            g_error_free(pointer)
            error = nil
        }
        return ImageFileError.oneLine(String(cString: pointer.pointee.message))
    }
}
