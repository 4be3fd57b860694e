import Foundation
import LensModel
import LiquidLens
import Testing

/// The images and links of the README and the articles, read as a repository page follows them:
/// paths relative to the document, `#anchor`s by GitHub's rule. (For the DocC archive,
/// `Tests/Docs/docc-links.py` turns a copy's links into `doc:` links, which DocC checks.)
enum DocumentationLinks {
    /// A Markdown image (`![alt](destination)`) or inline link (`[text](destination)`).
    struct Reference: CustomStringConvertible {
        let isImage: Bool
        let destination: String
        var description: String { (isImage ? "image " : "link ") + destination }
    }

    /// The lines of `text`, those of fenced code blocks (fences included) left empty.
    static func linesOutsideFences(_ text: String) -> [Substring] {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("```") {
                fenced.toggle()
                return ""
            }
            return fenced ? "" : line
        }
    }

    /// The text outside fenced code blocks, paragraph by paragraph, without its code spans.
    static func prose(_ text: String) -> [String] {
        linesOutsideFences(text).joined(separator: "\n").components(separatedBy: "\n\n").map(withoutCodeSpans)
    }

    /// `paragraph` without its code spans: a run of backticks up to the next run of the same length
    /// (a run with no partner is kept, as Markdown keeps it).
    static func withoutCodeSpans(_ paragraph: String) -> String {
        let characters = Array(paragraph)
        func run(at start: Int) -> Int {
            var end = start
            while end < characters.count && characters[end] == "`" { end += 1 }
            return end - start
        }
        var result = ""
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else {
                result.append(characters[index])
                index += 1
                continue
            }
            let opening = run(at: index)
            var search = index + opening
            var closed: Int?
            while search < characters.count && closed == nil {
                if characters[search] == "`" {
                    let length = run(at: search)
                    if length == opening { closed = search + length }
                    search += length
                } else {
                    search += 1
                }
            }
            if let closed {
                index = closed
            } else {
                result.append(String(repeating: "`", count: opening))
                index += opening
            }
        }
        return result
    }

    /// Every image and inline link of `text` outside code, in order.
    static func references(in text: String) throws -> [Reference] {
        let pattern = try Regex(#"(!?)\[([^\[\]]*)\]\(([^()\s]+)(?:\s+"[^"]*")?\)"#)
        var found: [Reference] = []
        for paragraph in prose(text) {
            for match in paragraph.matches(of: pattern) {
                guard let bang = match.output[1].substring, let destination = match.output[3].substring else {
                    continue
                }
                found.append(Reference(isImage: bang == "!", destination: String(destination)))
            }
        }
        return found
    }

    /// Whether `destination` is a URL with a scheme (`https:`, `mailto:`, `doc:`), not a path.
    static func isExternal(_ destination: String) -> Bool {
        guard let colon = destination.firstIndex(of: ":"), let first = destination.first, first.isLetter else {
            return false
        }
        return destination[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) }
    }

    /// The file a relative destination names (the document itself for `#anchor` alone), and its anchor.
    static func resolve(_ destination: String, from document: String) -> (file: URL, fragment: String?) {
        let parts = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        let documentURL = packageRoot.appendingPathComponent(document)
        let file: URL
        if path.isEmpty {
            file = documentURL
        } else if path.hasPrefix("/") {
            file = packageRoot.appendingPathComponent(String(path.dropFirst()))
        } else {
            file = documentURL.deletingLastPathComponent().appendingPathComponent(path)
        }
        return (file.standardizedFileURL, fragment)
    }

    /// The ATX headings (`## Title`) outside fenced code blocks, without their `#` marks.
    static func headings(_ text: String) -> [String] {
        var found: [String] = []
        for line in linesOutsideFences(text) {
            let level = line.prefix { $0 == "#" }.count
            let rest = line.dropFirst(level)
            guard (1...6).contains(level), rest.first == " " || rest.first == "\t" else { continue }
            var title = rest.trimmingCharacters(in: .whitespaces)
            let closing = title.reversed().prefix { $0 == "#" }.count
            if closing == title.count || title.dropLast(closing).last == " " {
                title = String(title.dropLast(closing)).trimmingCharacters(in: .whitespaces)
            }
            found.append(title)
        }
        return found
    }

    /// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept, each space a hyphen.
    static func anchor(_ heading: String) -> String {
        let kept = heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
        return String(kept.map { $0 == " " ? "-" : $0 })
    }

    /// The anchors of a document's headings; a repeated one gets `-1`, `-2`, … as on GitHub.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        for heading in headings(text) {
            let base = anchor(heading)
            let count = seen[base, default: 0]
            seen[base] = count + 1
            result.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return result
    }

    /// The text of a document named relative to the repository root.
    static func text(of document: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
    }
}

@Suite("Documentation links")
struct DocumentationLinkTests {
    @Test("The README and the articles have images and relative links to check, and headings anchor as on GitHub")
    func referencesAreFound() throws {
        var images = 0
        var links = 0
        for document in Documentation.documents {
            let references = try DocumentationLinks.references(in: DocumentationLinks.text(of: document))
                .filter { !DocumentationLinks.isExternal($0.destination) }
            images += references.filter(\.isImage).count
            links += references.filter { !$0.isImage }.count
        }
        #expect(Documentation.documents.count > 10, "\(Documentation.documents)")
        #expect(images >= 10 && links >= 50, "\(images) images, \(links) relative links")
        #expect(
            DocumentationLinks.anchor("Apple's lens and glass, number by number")
                == "apples-lens-and-glass-number-by-number")
        #expect(DocumentationLinks.anchor("examples, completions, version") == "examples-completions-version")
        #expect(
            DocumentationLinks.anchors("# A\n```\n# not a heading\n```\n## Exit status\n## Exit status ##\n")
                == ["a", "exit-status", "exit-status-1"])
        #expect(DocumentationLinks.withoutCodeSpans("a `[x](y)` ``b ` c`` [t](u)") == "a   [t](u)")
    }

    /// `![alt](Resources/picture.png)`: the picture is a file at that path from the document.
    @Test(
        "Every image of the README and the articles is a file at its path from the document",
        arguments: Documentation.documents)
    func imagesExist(_ document: String) throws {
        for reference in try DocumentationLinks.references(in: DocumentationLinks.text(of: document))
        where reference.isImage && !DocumentationLinks.isExternal(reference.destination) {
            let (file, _) = DocumentationLinks.resolve(reference.destination, from: document)
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory)
            #expect(exists && !isDirectory.boolValue, "\(document): \(reference) is not a file (\(file.path))")
        }
    }

    /// `[Exit status](CommandLine.md#exit-status)`: the file exists, and has a heading with that anchor.
    @Test(
        "Every relative link of the README and the articles names a file that exists, its #anchor a heading of it",
        arguments: Documentation.documents)
    func linksResolve(_ document: String) throws {
        for reference in try DocumentationLinks.references(in: DocumentationLinks.text(of: document))
        where !reference.isImage && !DocumentationLinks.isExternal(reference.destination) {
            let (file, fragment) = DocumentationLinks.resolve(reference.destination, from: document)
            guard FileManager.default.fileExists(atPath: file.path) else {
                Issue.record("\(document): \(reference) names nothing (\(file.path))")
                continue
            }
            guard let fragment, file.pathExtension == "md" else { continue }
            let anchor = fragment.removingPercentEncoding ?? fragment
            let target = try String(contentsOf: file, encoding: .utf8)
            let anchors = DocumentationLinks.anchors(target)
            #expect(
                anchors.contains(anchor),
                "\(document): \(reference): no heading of \(file.lastPathComponent) has the anchor #\(anchor)")
        }
    }

    /// `<doc:Name>` is a link only inside DocC; on a repository page it goes nowhere.
    @Test("No DocC-only <doc:> link is left in the README or an article", arguments: Documentation.documents)
    func noDocLinks(_ document: String) throws {
        let text = try DocumentationLinks.text(of: document)
        let left = DocumentationLinks.prose(text).filter { $0.contains("<doc:") }
        #expect(left.isEmpty, "\(document) still has <doc:> links, in: \(left)")
    }
}

@Suite("Documentation pictures")
struct DocumentationPictureTests {
    /// The README says of `lens.json`: the titles outside the glass keep their resting white, the
    /// W of Week split at the rim. Its capsule's left rim is at 126 pt (252 px); the label row
    /// spans 60…84 pt.
    @Test("lens.json shows a glyph split at the rim: resting white just outside, accent blue just inside")
    func lensSampleSplitsAGlyph() throws {
        let samples = packageRoot.appendingPathComponent("Tests/Samples")
        let scene = try Scene.load(contentsOf: samples.appendingPathComponent("lens.json"))
        let image = try LensRenderer(backend: .cpu).render(scene, baseDirectory: samples)
        func count(columns: Range<Int>, _ matches: (SIMD4<UInt8>) -> Bool) -> Int {
            var found = 0
            for y in 120..<168 {
                for x in columns {
                    let offset = (y * image.width + x) * 4
                    let pixel = SIMD4(
                        image.pixels[offset], image.pixels[offset + 1], image.pixels[offset + 2],
                        image.pixels[offset + 3])
                    if matches(pixel) { found += 1 }
                }
            }
            return found
        }
        let restingWhite = count(columns: 232..<250) { $0.x > 200 && $0.y > 200 && $0.z > 200 }
        let accentBlue = count(columns: 254..<280) { $0.z > 200 && $0.x < 90 && $0.y < 170 }
        #expect(restingWhite > 20, "resting glyph pixels left of the rim: \(restingWhite)")
        #expect(accentBlue > 20, "accent glyph pixels right of the rim: \(accentBlue)")
    }
}
