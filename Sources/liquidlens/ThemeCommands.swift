import Foundation
import LiquidLens

extension Commands {
    static let presets = CommandSpec(
        name: "presets",
        abstract: "List the named glass themes, or render them side by side.",
        discussion: """
            A scene uses a preset with "theme": "arctic" (all its glass) or per element; an object
            {"preset": "arctic", "cornerRadius": 24, …} starts from the preset and changes keys.
            """,
        arguments: [],
        options: [
            .init(
                long: "sheet", short: nil, valueName: "file.png", help: "Render every preset into one contact sheet.",
                defaultValue: nil),
            .init(
                long: "backend", short: nil, valueName: "backend", help: "auto, vulkan or cpu.", defaultValue: "auto"),
        ])

    static let theme = CommandSpec(
        name: "theme",
        abstract: "Export a theme as JSON and as Swift source that builds it with the LiquidLens API.",
        discussion: """
            <source> is a preset name or a scene file with a "theme". Without --json or --swift both
            are printed to stdout.
            """,
        arguments: [.init(name: "source", help: "A preset name or a scene JSON file.", optional: false)],
        options: [
            .init(long: "json", short: nil, valueName: "file", help: "Write the theme's JSON here.", defaultValue: nil),
            .init(
                long: "swift", short: nil, valueName: "file", help: "Write the Swift source here.", defaultValue: nil),
            .init(
                long: "name", short: nil, valueName: "identifier", help: "The Swift constant's name.",
                defaultValue: "theme"),
        ])

    static func runPresets(_ arguments: ParsedArguments) throws {
        guard let sheet = arguments.value("sheet") else {
            for preset in ThemePreset.allCases { print(helpRow(preset.rawValue, preset.summary), terminator: "") }
            return
        }
        let renderer = try makeRenderer(try parseBackend(arguments, presets))
        var images: [RGBA8Image] = []
        for (index, preset) in ThemePreset.allCases.enumerated() {
            images.append(try renderer.render(preset.sampleScene()))
            printError("[\(index + 1)/\(ThemePreset.allCases.count)] \(preset.rawValue)")
        }
        let image = ContactSheet.compose(images, columns: 7)
        try PNGCodec.write(image, to: URL(fileURLWithPath: sheet))
        print("wrote \(sheet) (\(images.count) presets, \(image.width)×\(image.height) px)")
    }

    static func runTheme(_ arguments: ParsedArguments) throws {
        let source = arguments.positionals["source"]!
        let name = arguments.value("name")!
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else {
            throw UsageError(
                message: "Invalid value '\(name)' for '--name <identifier>' (expected a Swift identifier)", spec: theme)
        }
        let chosen: Theme
        if let preset = ThemePreset(rawValue: source) {
            chosen = preset.theme
        } else {
            let scene: Scene
            do {
                scene = try Scene.load(contentsOf: URL(fileURLWithPath: source))
            } catch let error as SceneError {
                throw CommandFailure(
                    message:
                        "\(source): \(error) (give a scene file or one of: \(ThemePreset.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            guard let sceneTheme = scene.theme else {
                throw CommandFailure(message: "\(source): the scene has no \"theme\" to export")
            }
            chosen = sceneTheme
        }
        let json = try ThemeExport.json(chosen)
        let swift = ThemeExport.swift(chosen, name: name)
        let jsonPath = arguments.value("json")
        let swiftPath = arguments.value("swift")
        if let jsonPath { try AtomicFile.write(json + Data("\n".utf8), to: URL(fileURLWithPath: jsonPath)) }
        if let swiftPath { try AtomicFile.write(Data(swift.utf8), to: URL(fileURLWithPath: swiftPath)) }
        if jsonPath == nil && swiftPath == nil {
            print(String(decoding: json, as: UTF8.self))
            print()
            print(swift, terminator: "")
        }
    }
}
