import Foundation
import LensIO
import LensModel
import LiquidLens

/// `liquidlens theme`: a preset's or a scene's theme as JSON and as Swift source.
struct ThemeCommand: Command {
    static let name = "theme"
    static let abstract = "Export a theme as JSON and as Swift source that builds it with the LiquidLens API."
    static let discussion: String? = """
        <source> is a preset name or a scene file with a "theme". Without --json or --swift both
        are printed to stdout; - as a file is stdout too.
        """

    @Argument("source", help: "A preset name or a scene JSON file.") var source: String
    @Option("json", valueName: "file", help: "Write the theme's JSON here.") var jsonPath: String?
    @Option("swift", valueName: "file", help: "Write the Swift source here.") var swiftPath: String?
    @Option("name", valueName: "identifier", help: "The Swift constant's name.", parser: .swiftIdentifier)
    var constantName = "theme"
    var quiet = QuietOption()

    func run() throws {
        let theme = try loadTheme()
        let json = try ThemeExport.json(theme)
        let swift = ThemeExport.swift(theme, name: constantName)
        let jsonURL = jsonPath.map(Console.outputURL)
        let swiftURL = swiftPath.map(Console.outputURL)
        if let jsonURL {
            try OutputFile.write(json + Data("\n".utf8), to: jsonURL)
            if !quiet.isOn { Console.say("wrote \(Console.name(jsonURL)) (the theme as JSON)") }
        }
        if let swiftURL {
            try OutputFile.write(Data(swift.utf8), to: swiftURL)
            if !quiet.isOn {
                Console.say("wrote \(Console.name(swiftURL)) (Swift that builds the theme, constant '\(constantName)')")
            }
        }
        if jsonPath == nil && swiftPath == nil {
            try StandardStreams.writeProduct(String(decoding: json, as: UTF8.self) + "\n\n" + swift)
        }
    }

    /// The preset named `source`, else the theme of the scene file at `source`.
    private func loadTheme() throws -> Theme {
        if let preset = ThemePreset(rawValue: source) { return preset.theme }
        let presets = ThemePreset.allCases.map(\.rawValue)
        if !FileManager.default.fileExists(atPath: source),
            let meant = NameSuggestion.closest(to: source, among: presets)
        {
            throw CommandFailure(message: "\(source): no such preset or file; did you mean the preset '\(meant)'?")
        }
        let scene: Scene
        do {
            scene = try Scene.load(contentsOf: URL(fileURLWithPath: source))
        } catch let error as SceneError {
            throw CommandFailure(
                message:
                    "\(source): \(error) (give a scene file or one of: \(ThemePreset.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        guard let theme = scene.theme else {
            throw CommandFailure(message: "\(source): the scene has no \"theme\" to export")
        }
        return theme
    }
}

extension ValueParser where Value == String {
    /// A Swift identifier: a letter or `_`, then letters, digits or `_`.
    static var swiftIdentifier: Self {
        Self(expectation: "a Swift identifier") { name in
            guard let first = name.first, first.isLetter || first == "_",
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { return nil }
            return name
        }
    }
}
