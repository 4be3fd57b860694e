import Foundation
import LensVulkan
import LiquidLens
import Testing

@Suite("The library takes only what it is given; the command line maps the environment")
struct LibraryEnvironmentTests {
    @Test("No module below the command line reads an environment variable")
    func noEnvironmentBelowTheCLI() throws {
        // Finding ffmpeg on PATH is what exec does for any program; it is the one read allowed.
        let allowed = [#"ProcessInfo.processInfo.environment["PATH"]"#]
        let sources = packageRoot.appendingPathComponent("Sources")
        var readers: [String] = []
        // The two front ends map their process's environment: the command line and the C ABI
        // (the Python package's pipeline cache follows LIQUIDLENS_CACHE_DIR as the tool's does).
        let frontEnds: Set = ["liquidlens", "LiquidLensC"]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path)
        where !frontEnds.contains(module) {
            guard let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)
            else { continue }
            while let file = files.nextObject() as? String {
                guard file.hasSuffix(".swift") || file.hasSuffix(".h") else { continue }
                let text = try String(
                    contentsOf: sources.appendingPathComponent("\(module)/\(file)"), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where (line.contains("processInfo.environment") || line.contains("getenv("))
                    && !allowed.contains(where: { line.contains($0) })
                {
                    readers.append("\(module)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(readers.isEmpty, "environment read below the command line:\n\(readers.joined(separator: "\n"))")
    }

    @Test("Default options carry no faults and no cache folder; the faults come only from what is passed")
    func defaults() {
        let options = VulkanOptions()
        #expect(options.faultInjection == FaultInjection())
        #expect(options.pipelineCacheDirectory == nil)
        let asked = FaultInjection(environment: ["LIQUIDLENS_INJECT_DEVICE_LOST": "2"])
        #expect(asked.deviceLostAtFrame == 2 && !asked.wrongPixels)
        #expect(
            VulkanOptions.cacheDirectory(environment: ["HOME": "/home/u"])?.path == "/home/u/.cache/liquidlens")
        #expect(
            VulkanOptions.cacheDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/home/u"])?.path
                == "/x/liquidlens")
    }

    @Test("A variable set in this process changes nothing in the library, and the command line honours it")
    func variableInProcess() throws {
        let folder = try temporaryFolder("library-environment")
        let cache = folder.appendingPathComponent("cache")
        // A cache folder is harmless to any other test's child process that inherits it meanwhile.
        setenv("LIQUIDLENS_CACHE_DIR", cache.path, 1)
        let options = VulkanOptions()
        unsetenv("LIQUIDLENS_CACHE_DIR")
        #expect(options.pipelineCacheDirectory == nil, "the library read LIQUIDLENS_CACHE_DIR")

        let cli = try runCLI(
            ["render", "--backend", "vulkan", "-o", "out.png"], environment: ["LIQUIDLENS_CACHE_DIR": cache.path],
            in: folder)
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: cache.path)).isEmpty,
            "the command line keeps its pipeline cache where LIQUIDLENS_CACHE_DIR says")
    }

    @Test("The pixel budget is a value passed to the resolver, not read from the environment")
    func pixelBudget() throws {
        let scene = BuiltInScene.segmented.scene
        #expect(throws: Never.self) { try LensRenderer.resolve(scene) }
        #expect(throws: SceneError.self) { try LensRenderer.resolve(scene, pixelBudget: 1000) }
    }
}
