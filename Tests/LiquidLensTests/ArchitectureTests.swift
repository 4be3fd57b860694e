import Foundation
import Testing

/// The Architecture article's list of modules is the package's: every Swift target of
/// `Package.swift` is listed, nothing else is, and each depends only on targets listed above it.
@Suite("Architecture article")
struct ArchitectureTests {
    /// The module names down the left of the article's first code block, in order.
    static func listedModules() throws -> [String] {
        let article = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/LiquidLens/LiquidLens.docc/Architecture.md"),
            encoding: .utf8)
        let block = try #require(article.split(separator: "```", omittingEmptySubsequences: false).dropFirst().first)
        return block.split(separator: "\n").compactMap { line in
            line.first == " " ? nil : line.split(separator: " ").first.map(String.init)
        }
    }

    /// A C library's system-library target: `C` and a capital (`CVulkan`, `CPNG`).
    static func isCLibrary(_ name: String) -> Bool {
        name.count > 1 && name.first == "C" && name.dropFirst().first!.isUppercase
    }

    /// Each Swift target of `Package.swift` with the Swift targets it depends on. Left out: the C
    /// libraries (the article's `C*` line), the build-time shader compiler, and the fuzz targets.
    static func packageTargets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(
            #"\.(?:target|executableTarget)\(\s*name: "([\w-]+)"(?:,\s*dependencies: \[([^\]]*)\])?"#)
        var targets: [String: [String]] = [:]
        for match in manifest.matches(of: declaration) {
            let name = String(match.output[1].substring ?? "")
            guard !isCLibrary(name), name != "ShaderCompiler", !name.hasSuffix("-fuzzer") else { continue }
            targets[name] = (match.output[2].substring ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" \n")) }
                .filter { !$0.isEmpty && !isCLibrary($0) }
        }
        return targets
    }

    @Test("The article lists every target of Package.swift, and only those")
    func listMatchesPackage() throws {
        let listed = try Self.listedModules().filter { $0 != "C*" }
        let targets = try Self.packageTargets()
        #expect(targets.count >= 12, "\(targets.keys.sorted())")
        #expect(listed.count == Set(listed).count, "each module listed once: \(listed)")
        #expect(Set(listed) == Set(targets.keys), "listed \(listed.sorted()), declared \(targets.keys.sorted())")
    }

    @Test("Each target depends only on targets listed above it")
    func layersPointUp() throws {
        let listed = try Self.listedModules()
        for (name, dependencies) in try Self.packageTargets() {
            let position = try #require(listed.firstIndex(of: name), "\(name) not listed")
            for dependency in dependencies {
                let above = listed.firstIndex(of: dependency).map { $0 < position } ?? false
                #expect(above, "\(name) depends on \(dependency), which the article lists below it (or not at all)")
            }
        }
    }
}
