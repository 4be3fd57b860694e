import Foundation
import LensModel
import LensServe
import LiquidLens

/// `liquidlens serve`: the live tuning page for a scene file or a built-in example.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract =
        "Serve a live tuning page: edit a scene, see the GPU render it, compare with the CPU reference."
    static let discussion: String? = """
        Prints the page's address, with a token every request must carry; open it in a browser.
        The page shows the render (GPU, CPU reference, or their difference), the scene's JSON,
        and sliders and menus for the selected glass and for the scene's controls (lift, hold,
        appearance, Dynamic Type); drag a glass on the picture to move it. The scene file is
        watched: saving it in another editor updates the page. The page writes its edits back to the file only with --write (atomically,
        keeping the file as it was in <file>.bak). Images are read only from the scene's folder.
        Ctrl-C stops the server.
        """

    @Argument("scene", help: "A scene JSON file.") var scenePath: String?
    @Option("example", valueName: "name", help: "A built-in scene (see 'liquidlens examples'; default: the showcase).")
    var example: BuiltInScene?
    @Option("port", valueName: "n", help: "The port to listen on; 0 picks a free one.", parser: .integer(in: 0...65535))
    var port = 8421
    @Option("host", valueName: "address", help: "The address to listen on (default 127.0.0.1, this machine only).")
    var host = "127.0.0.1"
    @Flag("write", help: "Let the page save its edits to the scene file.") var writes: Bool
    var backend = BackendOption()
    var scale = ScaleOption()
    var device = DeviceOption()
    var compile = CompileOption()

    func run() throws {
        if scenePath != nil && example != nil {
            throw UsageError(message: "Give either <scene> or --example, not both")
        }
        if writes && scenePath == nil {
            throw UsageError(message: "--write saves edits to a scene file; give one (an example has no file)")
        }
        let source = try loadSource()
        // Ctrl-C and SIGTERM are taken by `sigwait` below; blocked before any thread starts, so
        // that no other thread is interrupted by them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        HTTPServer.shareMallocArenas()

        let (renderer, note) = try makeServeRenderer()
        let session = try ServeSession(
            source: source, primary: renderer, backendNote: note, scale: scale.pixelsPerPoint,
            pixelBudget: CommandEnvironment.pixelBudget)
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: UInt16(port), admit: session.admit) { session.respond(to: $0) }
        } catch let error as ServerError {
            throw CommandFailure(message: error.description)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            printError(
                "warning: listening on \(host), not only this machine: whoever reaches it with the token can render\(writes ? " and write \(source.file?.lastPathComponent ?? "the scene")" : "")"
            )
        }
        let shownHost = ["0.0.0.0", "::"].contains(host) ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        // Written unbuffered: a script that started the server reads the address at once.
        let announcement = """
            liquidlens serve: \(source.file?.path ?? "example \(source.name)"), \(renderer.backendName)
            open http://\(shownHost):\(server.port)/?token=\(session.token)
            Ctrl-C stops it\(writes ? "; the page's Save writes \(source.file?.lastPathComponent ?? "")" : "")

            """
        StandardStreams.writeOutputNow(announcement)

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        // The session first: requests waiting for a render are answered at once, so the
        // server's connections end and it can stop.
        session.stop()
        server.stop()
        let file = source.file.map { $0.lastPathComponent } ?? "nothing"
        print(
            "stopped (\(received == SIGINT ? "Ctrl-C" : "SIGTERM")); \(writes ? "\(file) holds what the page saved" : "\(file) untouched")"
        )
    }

    /// The scene file's text (not yet validated: the page shows its errors), or the example's JSON.
    private func loadSource() throws -> ServeSource {
        if let scenePath {
            let url = URL(fileURLWithPath: scenePath).standardizedFileURL
            try hintAtExampleName(scenePath, verb: "tune", command: Self.name)
            let data: Data
            do {
                data = try SceneError.readFile(url, document: "scene")
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            return ServeSource(
                file: url, text: String(decoding: data, as: UTF8.self),
                name: url.deletingPathExtension().lastPathComponent,
                folder: url.deletingLastPathComponent(), writable: writes)
        }
        let example = example ?? .segmented
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(example.scene)
        return ServeSource(
            file: nil, text: String(decoding: json, as: UTF8.self), name: example.rawValue,
            folder: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), writable: false)
    }

    /// The renderer of the page's GPU view: Vulkan (by default, frames whose pipelines are still
    /// compiling from the CPU reference, the same pixels), else the CPU reference with the reason.
    private func makeServeRenderer() throws -> (LensRenderer, String?) {
        let renderer = try makeRenderer(
            backend.choice, try device.vulkanOptions, whileCompiling: compile.policy ?? .cpu)
        if backend.choice == .cpu { return (renderer, "the CPU reference renders every view (--backend cpu)") }
        return (
            renderer,
            renderer.fallbackReason.map { "Vulkan is unavailable (\($0)); the CPU reference renders every view" }
        )
    }
}
