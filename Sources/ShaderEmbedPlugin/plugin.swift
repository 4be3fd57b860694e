import Foundation
import PackagePlugin

/// Compiles every `Shaders/*.comp` (with its `*.glsl` includes as inputs) into one generated Swift
/// file of embedded SPIR-V for the target it is applied to.
@main
struct ShaderEmbedPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let shaders = context.package.directoryURL.appending(path: "Shaders")
        let files = try FileManager.default.contentsOfDirectory(at: shaders, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let stages = files.filter { $0.pathExtension == "comp" }
        let includes = files.filter { $0.pathExtension == "glsl" }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        return [
            .buildCommand(
                displayName: "Compiling \(stages.count) shaders to SPIR-V",
                executable: try context.tool(named: "ShaderCompiler").url,
                arguments: [output.path] + stages.map(\.path),
                inputFiles: stages + includes,
                outputFiles: [output])
        ]
    }
}
