import Foundation
import LensIO
import LiquidLens

/// `liquidlens gallery`: every shape and optical feature alone, in one contact sheet.
struct GalleryCommand: Command {
    static let name = "gallery"
    static let abstract = "Render every shape and optical feature, each alone, into one contact sheet."
    static let discussion: String? =
        "Cells run left to right, top to bottom, in the order 'liquidlens gallery --list' prints."

    var output = OutputOption(
        help:
            "The image to write (.png, .jpg, .webp or .qoi), a folder ending in /, or - for stdout (default: gallery.png)."
    )
    var imageFormat = ImageFormatOption()
    var quality = QualityOption()
    var backend = BackendOption()
    var device = DeviceOption()
    var compile = CompileOption()
    @Flag("list", help: "Print the cell names instead of rendering.") var list: Bool
    var quiet = QuietOption()

    func run() throws {
        if list {
            try StandardStreams.writeProduct(
                FeatureGallery.cells.enumerated().map { "\($0.offset + 1). \($0.element.name)\n" }.joined())
            return
        }
        let (outputURL, format) = try Console.imageOutputURL(
            output.path, defaultStem: "gallery", format: imageFormat.format)
        quality.noteIfUnused(writing: format, quiet: quiet.isOn)
        noteVulkanOptionsUnused(backend.choice, device: device, compile: compile, quiet: quiet.isOn)
        let cells = FeatureGallery.cells.map { (name: $0.name, scene: $0.scene) }
        let renderer = try makeRenderer(
            backend.choice, device.vulkanOptions, job: RenderJob(frames: cells.count, scene: cells[0].scene),
            whileCompiling: compile.policy, quiet: quiet.isOn)
        let sheet = try renderContactSheet(cells, columns: FeatureGallery.columns, on: renderer, quiet: quiet.isOn)
        try OutputFile.write(try format.encode(sheet, quality: quality.value), to: outputURL)
        if !quiet.isOn {
            Console.say("wrote \(Console.name(outputURL)) (\(cells.count) cells, \(sheet.width)×\(sheet.height) px)")
            noteCompiles(renderer, compile)
        }
    }
}

/// `liquidlens presets`: the named glass themes, listed or rendered side by side.
struct PresetsCommand: Command {
    static let name = "presets"
    static let abstract = "List the named glass themes, or render them side by side."
    static let discussion: String? = """
        A scene uses a preset with "theme": "arctic" (all its glass) or per element; an object
        {"preset": "arctic", "cornerRadius": 24, …} starts from the preset and changes keys.
        """

    @Option("sheet", valueName: "file.png", help: "Render every preset into one contact sheet.") var sheet: String?
    var backend = BackendOption()
    var device = DeviceOption()
    var compile = CompileOption()
    var quiet = QuietOption()

    func run() throws {
        guard let sheet else {
            try StandardStreams.writeProduct(ThemePreset.allCases.map { helpRow($0.rawValue, $0.summary) }.joined())
            return
        }
        let sheetURL = try Console.pngOutputURL(sheet, defaultStem: "presets")
        noteVulkanOptionsUnused(backend.choice, device: device, compile: compile, quiet: quiet.isOn)
        let cells = ThemePreset.allCases.map { (name: $0.rawValue, scene: $0.sampleScene()) }
        let renderer = try makeRenderer(
            backend.choice, device.vulkanOptions, job: RenderJob(frames: cells.count, scene: cells[0].scene),
            whileCompiling: compile.policy, quiet: quiet.isOn)
        let image = try renderContactSheet(cells, columns: 6, on: renderer, quiet: quiet.isOn)
        try PNGCodec.write(image, to: sheetURL)
        if !quiet.isOn {
            Console.say("wrote \(Console.name(sheetURL)) (\(cells.count) presets, \(image.width)×\(image.height) px)")
            noteCompiles(renderer, compile)
        }
    }
}

/// Renders the cells in order, naming each on stderr as it is done (unless `quiet`), into a sheet
/// `columns` wide.
private func renderContactSheet(
    _ cells: [(name: String, scene: Scene)], columns: Int, on renderer: LensRenderer, quiet: Bool
) throws -> RGBA8Image {
    let frames = try cells.map { try LensRenderer.resolve($0.scene) }
    renderer.prepare(frames)
    var images: [RGBA8Image] = []
    for (index, cell) in cells.enumerated() {
        images.append(try renderer.render(frames[index]))
        if !quiet { printError("[\(index + 1)/\(cells.count)] \(cell.name)") }
    }
    return ContactSheet.compose(images, columns: columns)
}
