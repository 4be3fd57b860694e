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

    /// `Module.Type` for each top-level type declared `public` (or `open`) in the layers.
    static func publicTypes() throws -> Set<String> {
        let declaration = try Regex(#"^(?:public|open) (?:final )?(?:class|struct|enum|protocol) (\w+)"#)
        var names = Set<String>()
        for layer in layers {
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

    @Test("No layer is re-exported wholesale")
    func noBlanketExports() throws {
        let blanket = try Self.facadeImports().filter {
            $0.hasPrefix("@_exported import ") && $0.split(separator: " ").count == 3
        }
        #expect(blanket.isEmpty, "\(blanket)")
    }
}
