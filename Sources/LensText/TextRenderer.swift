internal import CFontconfig
internal import CFreeType
internal import CHarfBuzz
import Foundation
import LensModel

/// A text problem: a font that does not exist, a font file FreeType cannot read.
public struct TextError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Shapes with HarfBuzz and rasterises with FreeType (grey, subpixel-positioned). Fonts are found
/// by family through fontconfig; faces are cached per file and size. One lock guards FreeType,
/// which is not thread-safe, so a renderer can be shared.
///
/// Fallbacks, as a system font cascade does: the default family (Inter) falls back to
/// `FontSpec.fallbackFamily` (DejaVu Sans) when it is not installed, and a character the
/// asked-for family lacks is drawn with the fallback family. Any other missing family, or a
/// character no font has, is a ``TextError`` naming it.
package final class TextRenderer: TextRasterizer, @unchecked Sendable {
    private let lock = NSLock()
    private var library: FT_Library?
    private var faces: [String: FT_Face] = [:]
    private var paths: [FontSpec: String] = [:]

    /// Where `fonts-dejavu-core` installs DejaVu Sans, used when fontconfig finds nothing at all.
    package static let bundledDefault = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A renderer with its own FreeType library; throws a ``TextError`` when FreeType cannot start.
    package init() throws {
        var created: FT_Library?
        guard FT_Init_FreeType(&created) == 0, let created else {
            throw TextError(description: "FreeType could not be initialised")
        }
        library = created
    }

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// One shaped, rasterised line of `text` at `pixelSize` pixels per em (1…1000); throws for a
    /// missing font or a character no installed font can draw.
    package func line(_ text: String, font: FontSpec, pixelSize: Double) throws -> TextLine {
        guard pixelSize.isFinite, pixelSize >= 1, pixelSize <= 1000 else {
            throw TextError(description: "text size \(pixelSize) px is outside 1…1000")
        }
        return try lock.withLock {
            let primary = try face(for: font, pixelSize: pixelSize)
            let runs = try fontRuns(text, primary: primary, font: font, pixelSize: pixelSize)
            return try render(runs, primary: primary)
        }
    }

    /// The font file for `font`: fontconfig's match, which must be the family asked for (or, for
    /// the default family when it is not installed, the fallback family's file).
    package func path(for font: FontSpec) throws -> String {
        try lock.withLock { try locate(font) }
    }

    private func locate(_ font: FontSpec) throws -> String {
        if let known = paths[font] { return known }
        let path: String
        do {
            path = try match(font)
        } catch is TextError where font.family == FontSpec.defaultFamily {
            path = try locate(FontSpec(family: FontSpec.fallbackFamily, weight: font.weight))
        }
        paths[font] = path
        return path
    }

    private func match(_ font: FontSpec) throws -> String {
        let isFallback = font.family == FontSpec.fallbackFamily
        guard let config = FcInitLoadConfigAndFonts() else {
            guard FileManager.default.fileExists(atPath: Self.bundledDefault), isFallback else {
                throw TextError(
                    description:
                        "fontconfig is unavailable and \(Self.bundledDefault) is missing (apt-get install fonts-dejavu-core)"
                )
            }
            return Self.bundledDefault
        }
        defer { FcConfigDestroy(config) }
        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = font.family.withCString {
            FcPatternAddString(pattern, "family", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        _ = FcPatternAddInteger(pattern, "weight", Self.fontconfigWeight(font.weight))
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else {
            guard isFallback, FileManager.default.fileExists(atPath: Self.bundledDefault) else {
                throw TextError(
                    description:
                        "no font found for family \"\(font.family)\" (is fontconfig configured? apt-get install fonts-dejavu-core)"
                )
            }
            return Self.bundledDefault
        }
        defer { FcPatternDestroy(match) }
        var families: [String] = []
        var index: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, "family", index, &value) == FcResultMatch, let value {
            families.append(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
            index += 1
        }
        guard families.contains(where: { $0.caseInsensitiveCompare(font.family) == .orderedSame }) else {
            throw TextError(
                description:
                    "font family \"\(font.family)\" is not installed (fontconfig offered \"\(families.first ?? "nothing")\" instead; fc-list lists what is installed)"
            )
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else {
            throw TextError(description: "fontconfig matched \"\(font.family)\" but gave no file")
        }
        return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
    }

    private static func fontconfigWeight(_ weight: FontWeight) -> Int32 {
        switch weight {
        case .regular: 80  // FC_WEIGHT_REGULAR
        case .medium: 100  // FC_WEIGHT_MEDIUM
        case .semibold: 180  // FC_WEIGHT_DEMIBOLD
        case .bold: 200  // FC_WEIGHT_BOLD
        }
    }

    private func face(for font: FontSpec, pixelSize: Double) throws -> FT_Face {
        let path = try locate(font)
        let face: FT_Face
        if let cached = faces[path] {
            face = cached
        } else {
            var created: FT_Face?
            guard FT_New_Face(library, path, 0, &created) == 0, let created else {
                throw TextError(description: "FreeType cannot read the font file \(path)")
            }
            faces[path] = created
            face = created
        }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
            throw TextError(description: "\(path) has no size \(pixelSize) px")
        }
        return face
    }

    /// `text` cut into runs of one face each, in visual order: the primary face where it has the
    /// glyphs, the fallback family's (same weight) where it does not.
    private func fontRuns(_ text: String, primary: FT_Face, font: FontSpec, pixelSize: Double) throws -> [(
        text: String, face: FT_Face
    )] {
        var runs: [(text: String, face: FT_Face)] = []
        var fallback: FT_Face?
        for character in text {
            var chosen = primary
            if !Self.face(primary, draws: character) {
                fallback =
                    try fallback
                    ?? face(for: FontSpec(family: FontSpec.fallbackFamily, weight: font.weight), pixelSize: pixelSize)
                guard let fallback, Self.face(fallback, draws: character) else {
                    let codes = character.unicodeScalars.map { String(format: "U+%04X", $0.value) }
                    throw TextError(
                        description:
                            "no installed font draws \"\(character)\" (\(codes.joined(separator: " "))): neither \"\(font.family)\" nor \"\(FontSpec.fallbackFamily)\" has it"
                    )
                }
                chosen = fallback
            }
            if let last = runs.last, last.face == chosen {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((String(character), chosen))
            }
        }
        return runs.count > 1 && Self.isRightToLeft(text) ? runs.reversed() : runs
    }

    /// Whether `face` has a glyph for every scalar of `character` that shows (HarfBuzz hides
    /// default-ignorable and control characters itself).
    private static func face(_ face: FT_Face, draws character: Character) -> Bool {
        character.unicodeScalars.allSatisfy {
            $0.properties.isDefaultIgnorableCodePoint || $0.properties.generalCategory == .control
                || FT_Get_Char_Index(face, FT_ULong($0.value)) != 0
        }
    }

    /// The direction HarfBuzz guesses for the whole line, which orders runs of different fonts.
    private static func isRightToLeft(_ text: String) -> Bool {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        return hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
    }

    /// A glyph placed on the line: its face, its index and its pen position in pixels.
    private typealias PlacedGlyph = (face: FT_Face, glyph: UInt32, x: Double, y: Double)

    /// Shapes each run with HarfBuzz, one pen across them: the glyphs placed, and the pen's end.
    private func shape(_ runs: [(text: String, face: FT_Face)]) throws -> (placed: [PlacedGlyph], pen: Double) {
        var pen = 0.0
        var placed: [PlacedGlyph] = []
        for run in runs {
            guard let font = hb_ft_font_create_referenced(run.face) else {
                throw TextError(description: "HarfBuzz could not open the font")
            }
            defer { hb_font_destroy(font) }
            let buffer = hb_buffer_create()
            defer { hb_buffer_destroy(buffer) }
            hb_buffer_add_utf8(buffer, run.text, -1, 0, -1)
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count)
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
            for index in 0..<Int(count) {
                guard let infos, let positions else { break }
                let position = positions[index]
                placed.append(
                    (
                        run.face, infos[index].codepoint, pen + Double(position.x_offset) / 64,
                        -Double(position.y_offset) / 64
                    ))
                pen += Double(position.x_advance) / 64
            }
        }

        return (placed, pen)
    }

    /// Renders `glyph` with FreeType at `x` (its subpixel part moves the outline) on `baseline`,
    /// adding its coverage into `mask`, clipped.
    private func stamp(_ glyph: PlacedGlyph, into mask: inout AlphaImage, x: Double, baseline: Double) {
        let face = glyph.face
        let whole = x.rounded(.down)
        guard FT_Load_Glyph(face, glyph.glyph, FT_Int32(FT_LOAD_NO_BITMAP)) == 0 else { return }
        let slot = face.pointee.glyph!
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(((x - whole) * 64).rounded()), 0)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return }
        let bitmap = slot.pointee.bitmap
        let left = Int(whole) + Int(slot.pointee.bitmap_left)
        let top = Int(baseline + glyph.y) - Int(slot.pointee.bitmap_top)
        guard let source = bitmap.buffer else { return }
        for row in 0..<Int(bitmap.rows) {
            let y = top + row
            guard y >= 0, y < mask.height else { continue }
            for column in 0..<Int(bitmap.width) {
                let px = left + column
                guard px >= 0, px < mask.width else { continue }
                let value = source[row * Int(bitmap.pitch) + column]
                let index = y * mask.width + px
                mask.coverage[index] = UInt8(min(255, Int(mask.coverage[index]) + Int(value)))
            }
        }
    }

    /// Shapes each run with its face, one pen across them; the line's metrics are the primary
    /// face's, the mask tall enough for every face used.
    private func render(_ runs: [(text: String, face: FT_Face)], primary: FT_Face) throws -> TextLine {
        let (placed, pen) = try shape(runs)
        func metrics(_ face: FT_Face) -> FT_Size_Metrics { face.pointee.size.pointee.metrics }
        let ascent = Double(metrics(primary).ascender) / 64
        let descent = -Double(metrics(primary).descender) / 64
        let lineHeight = Double(metrics(primary).height) / 64
        let used = runs.map(\.face)
        let maskAscent = used.map { Double(metrics($0).ascender) / 64 }.max() ?? ascent
        let maskDescent = used.map { -Double(metrics($0).descender) / 64 }.max() ?? descent
        let padding = 2.0
        let width = max(1, Int((pen + 2 * padding + lineHeight * 0.25).rounded(.up)))
        let height = max(1, Int((max(ascent, maskAscent) + max(descent, maskDescent) + 2 * padding).rounded(.up)))
        let originX = padding
        let baseline = (padding + max(ascent, maskAscent)).rounded()
        var mask = AlphaImage(width: width, height: height, coverage: [UInt8](repeating: 0, count: width * height))
        for glyph in placed { stamp(glyph, into: &mask, x: originX + glyph.x, baseline: baseline) }
        return TextLine(
            mask: mask, originX: originX, baseline: baseline, advance: pen, ascent: ascent, descent: descent,
            lineHeight: lineHeight)
    }
}
