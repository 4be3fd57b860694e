import Foundation
import Testing

/// The LiquidLens module's surface is what Sources/LiquidLens/PublicSurface.swift names: every
/// public type of the layers below is exported there by name, every name exported there is
/// public in its layer, and nothing is re-exported wholesale.
@Suite("Public surface")
struct PublicSurfaceTests {
    static let sources = packageRoot.appendingPathComponent("Sources")
    static let layers = [
        "LensModel", "LensControls", "LensResolve", "LensCatalog", "LensReference", "LensVulkan", "LensIO", "LensText",
    ]

    /// LensCompare: a product of its own, not exported by the façade.
    static let ownProducts = ["LensCompare"]

    /// `Module.Type` for each top-level type declared `public` (or `open`) in `modules`.
    static func publicTypes(in modules: [String] = layers) throws -> Set<String> {
        let declaration = try Regex(#"^(?:public|open) (?:final )?(?:class|struct|enum|protocol) (\w+)"#)
        var names = Set<String>()
        for layer in modules {
            let folder = sources.appendingPathComponent(layer)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift")
            {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    if let match = line.firstMatch(of: declaration), let name = match.output[1].substring {
                        names.insert("\(layer).\(name)")
                    }
                }
            }
        }
        return names
    }

    /// The lines of PublicSurface.swift and the other façade files that import.
    static func facadeImports() throws -> [Substring] {
        let folder = sources.appendingPathComponent("LiquidLens")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .flatMap { file in
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                    .filter { $0.contains("import ") && !$0.hasPrefix("//") }
            }
    }

    @Test("Every public type of the layers is exported by name, and every exported name is public")
    func exportedByName() throws {
        let exported = try Self.facadeImports().compactMap { line -> String? in
            guard line.hasPrefix("@_exported import ") else { return nil }
            return line.split(separator: " ").last.map(String.init)
        }
        #expect(exported.count == Set(exported).count, "each type exported once")
        let publicTypes = try Self.publicTypes()
        #expect(publicTypes.count > 80, "\(publicTypes.count) public types found")
        #expect(
            publicTypes.subtracting(exported).isEmpty, "public but not exported: \(publicTypes.subtracting(exported))")
        #expect(
            Set(exported).subtracting(publicTypes).isEmpty,
            "exported but not public: \(Set(exported).subtracting(publicTypes))")
    }

    @Test("The renderer's product links no comparison code: LensCompare is a product of its own")
    func comparisonIsItsOwnProduct() throws {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for product in Self.ownProducts {
            #expect(manifest.contains(#".library(name: "\#(product)", targets: ["\#(product)"])"#))
        }
        let facade = try #require(manifest.firstRange(of: try Regex(#"\.target\(\s*name: "LiquidLens","#))).upperBound
        let facadeDependencies = manifest[facade...].prefix { $0 != "]" }
        #expect(Self.ownProducts.allSatisfy { !facadeDependencies.contains($0) }, "\(facadeDependencies)")
        #expect(try Self.facadeImports().allSatisfy { line in Self.ownProducts.allSatisfy { !line.contains($0) } })
    }

    @Test("No layer is re-exported wholesale")
    func noBlanketExports() throws {
        let blanket = try Self.facadeImports().filter {
            $0.hasPrefix("@_exported import ") && $0.split(separator: " ").count == 3
        }
        #expect(blanket.isEmpty, "\(blanket)")
    }

    /// `public` or `open` members declared inside a type (or an extension of a type) that is not
    /// itself public, in every module below the command line: they promise a reach they do not
    /// have. Each as `file:line`.
    static func overstatedMembers() throws -> [String] {
        let publicNames = Set(
            try publicTypes(in: layers + ownProducts).map { $0.split(separator: ".").last.map(String.init)! })
        let declaration = try Regex(
            #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|open|final|indirect)\s+)*)(struct|enum|class|actor|protocol|extension)\s+([\w.]+)"#
        )
        let publicMember = try Regex(#"^\s*(?:@[\w()" ,:.]+\s+)*(?:public|open)\s"#)
        var found: [String] = []
        for layer in layers + ownProducts + ["LiquidLens", "LensServe"] {
            let folder = sources.appendingPathComponent(layer)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift")
            {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                // Each open brace's scope: whether the type it opens is not public.
                var scopes: [Bool] = []
                var opensNonPublic: Bool?
                for (number, line) in SwiftCode.withoutCommentsAndStrings(text).split(
                    separator: "\n", omittingEmptySubsequences: false
                ).enumerated() {
                    if let match = line.firstMatch(of: declaration) {
                        let modifiers = match.output[1].substring ?? ""
                        let name =
                            String(match.output[3].substring ?? "").split(separator: ".").first.map(String.init) ?? ""
                        opensNonPublic =
                            match.output[2].substring == "extension"
                            ? !publicNames.contains(name) && !modifiers.contains("public")
                            : !modifiers.contains("public") && !modifiers.contains("open")
                    }
                    if scopes.contains(true) && line.firstMatch(of: publicMember) != nil {
                        found.append("\(layer)/\(file):\(number + 1)")
                    }
                    for character in line {
                        if character == "{" {
                            scopes.append(opensNonPublic ?? false)
                            opensNonPublic = nil
                        } else if character == "}" {
                            _ = scopes.popLast()
                        }
                    }
                }
            }
        }
        return found
    }

    @Test("No public member sits inside a type that is not public: declarations say how far they reach")
    func membersDoNotOverstate() throws {
        let found = try Self.overstatedMembers()
        #expect(found.isEmpty, "\(found.count): \(found.prefix(20))")
    }
}

/// Swift source read as code: comments and the insides of string literals blanked (newlines
/// kept), so braces and keywords in them are not counted.
enum SwiftCode {
    static func withoutCommentsAndStrings(_ text: String) -> String {
        var characters = Array(text)
        var index = 0
        func blank(_ range: Range<Int>) {
            for position in range where characters[position] != "\n" { characters[position] = " " }
        }
        func starts(_ prefix: String, at position: Int) -> Bool {
            let needle = Array(prefix)
            return position + needle.count <= characters.count
                && Array(characters[position..<(position + needle.count)]) == needle
        }
        while index < characters.count {
            if starts("//", at: index) {
                let end = characters[index...].firstIndex(of: "\n") ?? characters.count
                blank(index..<end)
                index = end
            } else if starts("/*", at: index) {
                var end = index + 2
                while end < characters.count && !starts("*/", at: end) { end += 1 }
                blank(index..<min(characters.count, end + 2))
                index = end + 2
            } else if characters[index] == "#" || characters[index] == "\"" {
                var hashes = 0
                while index + hashes < characters.count && characters[index + hashes] == "#" { hashes += 1 }
                guard index + hashes < characters.count, characters[index + hashes] == "\"" else {
                    index += max(1, hashes)
                    continue
                }
                let quote = starts("\"\"\"", at: index + hashes) ? "\"\"\"" : "\""
                let close = quote + String(repeating: "#", count: hashes)
                var end = index + hashes + quote.count
                while end < characters.count && !starts(close, at: end) {
                    if hashes == 0 && characters[end] == "\\" {
                        if starts("\\(", at: end) {
                            var depth = 0
                            var inner = end + 1
                            repeat {
                                if characters[inner] == "(" { depth += 1 }
                                if characters[inner] == ")" { depth -= 1 }
                                inner += 1
                            } while depth > 0 && inner < characters.count
                            end = inner
                            continue
                        }
                        end += 2
                        continue
                    }
                    end += 1
                }
                blank((index + hashes + quote.count)..<min(end, characters.count))
                index = end + close.count
            } else {
                index += 1
            }
        }
        return String(characters)
    }
}
