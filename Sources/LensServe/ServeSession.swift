import Foundation
import LensCompare
import LensIO
import LensModel
import LensResolve
import LiquidLens

/// Where `liquidlens serve` gets its scene and what it may touch.
package struct ServeSource: Sendable {
    /// The scene file, watched and (with `writable`) written; nil for a built-in example.
    package var file: URL?
    /// The scene's JSON when there is no file (a built-in example's).
    package var text: String
    /// The name the page shows and the exports take.
    package var name: String
    /// The only folder images are read from: the scene file's (or the working folder).
    package var folder: URL
    /// Whether the page may write its edits back to `file` (`--write`).
    package var writable: Bool

    package init(file: URL?, text: String, name: String, folder: URL, writable: Bool) {
        self.file = file
        self.text = text
        self.name = name
        self.folder = folder
        self.writable = writable
    }
}

/// What one render gave: the picture as PNG and what to say about it.
package struct RenderedView: Sendable {
    package var png: Data
    package var width: Int
    package var height: Int
    /// Resolve and render, milliseconds (encoding not counted).
    package var renderMilliseconds: Double
    /// "vulkan, <device>" or "cpu reference".
    package var renderedBy: String
    /// For the diff view: pixels that differ and the largest difference, in levels.
    package var differentPixels: Int?
    package var largestDifference: Int?
}

/// Why a scene could not be rendered, for the page: the message and where in the scene.
package struct ServeProblem: Error, Sendable {
    package var status: Int
    package var message: String
    package var keyPath: String
}

/// The server side of the tuning page: answers the page's requests (``respond(to:)``), renders
/// through a newest-wins queue on one renderer per backend, watches the scene file and writes it
/// back when allowed. Every request but the page's own assets needs ``token``.
package final class ServeSession: @unchecked Sendable {
    /// The secret every request carries, in the URL the user opens.
    package let token: String
    /// The views the page can ask for.
    package enum View: String, CaseIterable, Sendable { case gpu, cpu, diff }

    private let source: ServeSource
    private let folderPath: String
    private let scale: Double?
    private let pixelBudget: Int
    private let queue: RenderQueue<Result<RenderedView, ServeProblem>>
    private var watcher: FileWatcher?

    // Used by the render queue's thread only.
    private var primary: LensRenderer
    private let reference: LensRenderer
    private var resolveCache = ResolveCache()
    /// The images generation `resolveCache` was filled in: it keeps backdrops and label rasters by
    /// the scene's values, which name a file, not its contents, so a new generation empties it.
    private var resolveCacheGeneration = 0

    private let lock = NSLock()
    private var text: String
    private var version = 1
    /// The image files renders have read, stamped when first read in this generation (nil: the
    /// file was missing then, and its appearing is a change too).
    private var imagesRead: [String: FileStamp?] = [:]
    /// How many times an image renders read changed on disk: part of every render's key, so that a
    /// result drawn from an image's old version is not answered again.
    private var imagesGeneration = 0
    private var backendNote: String?
    private var backupWritten = false

    /// A session for `source`, rendering the GPU view with `primary` (the CPU reference when
    /// Vulkan is unavailable, `backendNote` saying why) at `scale` (nil: the scene's).
    package init(
        source: ServeSource, primary: LensRenderer, backendNote: String?, scale: Double?, pixelBudget: Int,
        token: String = ServeSession.newToken()
    ) throws {
        self.source = source
        self.primary = primary
        self.backendNote = backendNote
        self.scale = scale
        self.pixelBudget = pixelBudget
        self.token = token
        reference = try LensRenderer(backend: .cpu)
        folderPath = Self.realPath(source.folder.path) ?? source.folder.standardizedFileURL.path
        text = source.text
        queue = RenderQueue()
        watcher = source.file.map { file in
            FileWatcher(url: file, text: source.text) { [weak self] text in self?.fileChanged(text) }
        }
    }

    /// Stops watching and rendering: requests waiting for a render are answered busy.
    package func stop() {
        watcher?.stop()
        queue.stop()
    }

    /// 128 random bits as hex.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// The refusal of a request without a known path or the token, from its head alone (the
    /// server answers it before reading the body); nil to go on.
    package func admit(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.path == "/" || request.path.hasPrefix("/api/") else {
            return .error(404, "no such page: \(request.path); the page is at / with its token")
        }
        guard hasToken(request) else {
            return .error(403, "this request needs the token in the URL that liquidlens serve printed")
        }
        return nil
    }

    /// The answer to `request`; never throws, errors are JSON with a message.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        if let refusal = admit(request) { return refusal }
        let path = request.path
        switch (request.method, path) {
        case ("GET", "/"):
            return ServePage.response(token: token)
        case ("GET", "/api/state"):
            return state(since: request.query["since"].flatMap(Int.init))
        case ("POST", "/api/render"):
            return render(request.body)
        case ("POST", "/api/save"):
            return save(request.body)
        case ("POST", "/api/theme"):
            return theme(request.body)
        case (_, "/"), (_, "/api/state"), (_, "/api/render"), (_, "/api/save"), (_, "/api/theme"):
            return .error(405, "\(request.method) is not allowed on \(path)")
        default:
            return .error(404, "no such endpoint: \(path)")
        }
    }

    private func hasToken(_ request: HTTPRequest) -> Bool {
        let given = request.headers["x-liquidlens-token"] ?? request.query["token"] ?? ""
        // Compared in constant time: the answer's timing says nothing of how much matched.
        let expected = Array(token.utf8)
        let offered = Array(given.utf8)
        guard offered.count == expected.count else { return false }
        return zip(offered, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    // MARK: State

    private func state(since: Int?) -> HTTPResponse {
        checkImages()
        let (text, version, generation, note) = lock.withLock {
            (self.text, self.version, imagesGeneration, backendNote)
        }
        if since == version { return HTTPResponse(status: 204, contentType: "application/json", body: Data()) }
        var object: [String: Any] = [
            "version": version, "text": text, "name": source.name, "writable": source.writable,
            "imagesGeneration": generation,
            "tunables": [
                "glass": SceneTuning.glass.map(\.json), "controls": SceneTuning.controls.map(\.json),
            ],
        ]
        object["file"] = source.file?.path
        object["backendNote"] = note
        return .json(200, object)
    }

    /// Looks again at the images renders have read (before each render, and each time the page
    /// asks for the state, every second): when one was written since, renders read it again and
    /// the page, told by a new version, draws again.
    private func checkImages() {
        lock.withLock {
            guard imagesRead.contains(where: { FileStamp.of($0.key) != $0.value }) else { return }
            imagesRead.removeAll()
            imagesGeneration += 1
            version += 1
        }
    }

    /// Another program saved the file (what this session saved itself is not news).
    private func fileChanged(_ newText: String) {
        lock.withLock {
            guard newText != text else { return }
            text = newText
            version += 1
        }
    }

    // MARK: Render

    /// What the page posts: the scene's text, the time, the view and the client's id.
    private struct RenderRequest: Decodable {
        var scene: String
        var time: Double?
        var view: String?
        var client: String?
    }

    private func render(_ body: Data) -> HTTPResponse {
        guard let request = try? JSONDecoder().decode(RenderRequest.self, from: body) else {
            return .error(400, "the body is not {\"scene\": text, \"time\": seconds, \"view\": gpu|cpu|diff}")
        }
        guard let view = View(rawValue: request.view ?? "gpu") else {
            return .error(400, "view \(request.view ?? ""): expected one of gpu, cpu, diff")
        }
        let time = request.time ?? 0
        guard time.isFinite, Limits.time.contains(time) else {
            return .error(400, "time \(time): expected seconds in 0…\(Limits.time.upperBound.formatted)")
        }
        let client = request.client ?? "anonymous"
        let scene: Scene
        switch decode(request.scene) {
        case .success(let decoded): scene = decoded
        case .failure(let refusal):
            // The newest edit cannot be drawn: the client's older renders not yet started go too.
            queue.withdraw(client)
            return refusal.response
        }
        // The scene encoded once: its values for the page, and (unless it moves) the render's key.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let animated = Self.isAnimated(scene)
        let frame = animated ? scene.frame(at: time) : scene
        guard let encoded = try? encoder.encode(scene), let canonical = animated ? try? encoder.encode(frame) : encoded
        else { return .error(500, "the scene cannot be encoded") }
        let effective = try? JSONSerialization.jsonObject(with: encoded)
        checkImages()
        let generation = lock.withLock { imagesGeneration }
        let key = "\(generation) " + view.rawValue + String(decoding: canonical, as: UTF8.self)
        switch queue.render(key: key, client: client, work: { self.draw(frame, view) }) {
        case .superseded:
            return .json(409, ["superseded": true, "error": "a newer edit from this page replaced this render"])
        case .busy:
            return .error(503, "\(queue.waitingLimit) renders are waiting; try again")
        case .rendered(.failure(let failure)):
            return problem(failure, text: request.scene)
        case .rendered(.success(let rendered)):
            let note = lock.withLock { backendNote }
            var object: [String: Any] = [
                "image": "data:image/png;base64," + rendered.png.base64EncodedString(),
                "width": rendered.width, "height": rendered.height, "renderMs": rendered.renderMilliseconds,
                "renderedBy": rendered.renderedBy, "view": view.rawValue, "animated": animated,
                "duration": Self.duration(scene),
            ]
            object["effective"] = effective
            object["backendNote"] = note
            object["differentPixels"] = rendered.differentPixels
            object["largestDifference"] = rendered.largestDifference
            return .json(200, object)
        }
    }

    /// Why a request's scene is refused, answered as the page shows it.
    private struct Refusal: Error {
        let response: HTTPResponse
    }

    /// The scene in `text`, or the refusal that says where it is wrong (`prefix` before the message).
    private func decode(_ text: String, prefix: String = "") -> Result<Scene, Refusal> {
        do {
            return .success(try Scene.decode(Data(text.utf8)))
        } catch let error as SceneError {
            return .failure(
                Refusal(
                    response: problem(
                        ServeProblem(status: 400, message: prefix + error.message, keyPath: error.keyPath),
                        text: text)))
        } catch {
            return .failure(Refusal(response: .error(400, prefix + "\(error)")))
        }
    }

    /// The scene text a save or export request carries.
    private struct SceneBody: Decodable { var scene: String }

    /// The scene of a save or export request, or why not.
    private func sceneBody(_ body: Data, prefix: String = "") -> Result<(text: String, scene: Scene), Refusal> {
        guard let request = try? JSONDecoder().decode(SceneBody.self, from: body) else {
            return .failure(Refusal(response: .error(400, "the body is not {\"scene\": text}")))
        }
        return decode(request.scene, prefix: prefix).map { (request.scene, $0) }
    }

    /// A scene problem as the page shows it: the message, the key path and its line in `text`
    /// (none for a problem that is about no place in it, such as a device failure).
    private func problem(_ problem: ServeProblem, text: String) -> HTTPResponse {
        guard !problem.keyPath.isEmpty || problem.message.contains("at line") else {
            return .error(problem.status, problem.message, ["keyPath": problem.keyPath])
        }
        let line = JSONKeyPathLines(text).line(of: problem.keyPath, message: problem.message)
        return .error(problem.status, problem.message, ["keyPath": problem.keyPath, "line": line])
    }

    /// Whether the scene moves: an animation, or a glass's animated highlight.
    private static func isAnimated(_ scene: Scene) -> Bool {
        scene.animation != nil || scene.glass.contains { $0.highlight != nil }
    }

    /// The animation's length; for highlights alone, the longest highlight's period.
    private static func duration(_ scene: Scene) -> Double {
        scene.animation?.duration ?? scene.glass.compactMap { $0.highlight?.kind.period }.max() ?? 0
    }

    /// Resolves and renders `frame` for `view`, on the render queue's thread.
    private func draw(_ frame: Scene, _ view: View) -> Result<RenderedView, ServeProblem> {
        let start = Date()
        let generation = lock.withLock { imagesGeneration }
        if generation != resolveCacheGeneration {
            resolveCache = ResolveCache()
            resolveCacheGeneration = generation
        }
        let parameters: FrameParameters
        do {
            let folderPath = self.folderPath
            let folder = source.folder
            let resolver = SceneResolver(
                loadImage: { path, scale in
                    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
                    // The path checked is the path read: a link swapped in between reads nothing outside.
                    let real = Self.realPath(url.path) ?? url.standardizedFileURL.path
                    guard real.hasPrefix(folderPath + "/") else {
                        throw SceneError(
                            keyPath: "",
                            message:
                                "image \(path) is outside the scene's folder \(folderPath); serve reads only files inside it"
                        )
                    }
                    // The first stamp of the generation is kept: a file written since, read again by a
                    // render that missed the cache, is still a change for the next look.
                    let stamp = FileStamp.of(real)
                    self.lock.withLock {
                        if self.imagesRead[real] == nil { self.imagesRead[real] = .some(stamp) }
                    }
                    return try LensRenderer.sharedImages.image(
                        at: URL(fileURLWithPath: real), scale: scale, stamp: stamp)
                }, text: frame.needsText ? try LensRenderer.sharedText() : nil, cache: resolveCache,
                pixelBudget: pixelBudget)
            parameters = try resolver.resolve(frame, scale: scale)
        } catch let error as SceneError {
            return .failure(ServeProblem(status: 400, message: error.message, keyPath: error.keyPath))
        } catch {
            return .failure(ServeProblem(status: 400, message: "\(error)", keyPath: ""))
        }
        do {
            var image: RGBA8Image
            var renderedBy: String
            var different: Int?
            var largest: Int?
            switch view {
            case .gpu:
                (image, renderedBy) = try renderOnPrimary(parameters)
            case .cpu:
                (image, renderedBy) = (try reference.render(parameters), "cpu reference")
            case .diff:
                let gpu = try renderOnPrimary(parameters)
                let cpu = try reference.render(parameters)
                image = ImageDiff.heatmap(gpu.image, cpu)
                renderedBy = "\(gpu.renderedBy) against the cpu reference"
                (different, largest) = Self.difference(gpu.image, cpu)
            }
            let milliseconds = Date().timeIntervalSince(start) * 1000
            return .success(
                RenderedView(
                    png: try PNGCodec.encode(image, compression: .fast), width: image.width, height: image.height,
                    renderMilliseconds: milliseconds, renderedBy: renderedBy, differentPixels: different,
                    largestDifference: largest))
        } catch {
            return .failure(ServeProblem(status: 500, message: "\(error)", keyPath: ""))
        }
    }

    /// Renders on the primary renderer; when Vulkan fails, the CPU reference takes over from
    /// then on and the page is told why.
    private func renderOnPrimary(_ parameters: FrameParameters) throws -> (image: RGBA8Image, renderedBy: String) {
        do {
            let standInsBefore = primary.standInFrames
            let image = try primary.render(parameters)
            guard let device = primary.device else { return (image, "cpu reference") }
            let standIn = primary.standInFrames > standInsBefore
            return (
                image,
                "vulkan, \(device.name)" + (standIn ? " (the CPU reference stood in while its pipelines compiled)" : "")
            )
        } catch let error as VulkanError {
            guard primary.activeBackend == .vulkan else { throw error }
            primary = reference
            lock.withLock { backendNote = "Vulkan failed (\(error)); the CPU reference renders from now on" }
            return (try reference.render(parameters), "cpu reference (Vulkan failed)")
        }
    }

    /// Pixels that differ in any channel, and the largest difference.
    private static func difference(_ first: RGBA8Image, _ second: RGBA8Image) -> (Int, Int) {
        var count = 0
        var largest = 0
        for pixel in 0..<first.width * first.height {
            var pixelLargest = 0
            for channel in 0..<4 {
                let index = pixel * 4 + channel
                pixelLargest = max(pixelLargest, abs(Int(first.pixels[index]) - Int(second.pixels[index])))
            }
            if pixelLargest > 0 { count += 1 }
            largest = max(largest, pixelLargest)
        }
        return (count, largest)
    }

    // MARK: Save and export

    private func save(_ body: Data) -> HTTPResponse {
        guard let file = source.file, source.writable else {
            return .error(
                403,
                source.file == nil
                    ? "this page shows a built-in example; serve a scene file with --write to save edits"
                    : "start liquidlens serve with --write to save edits to \(source.file?.lastPathComponent ?? "the file")"
            )
        }
        let saved: String
        switch sceneBody(body, prefix: "not saved: ") {
        case .success(let request): saved = request.text
        case .failure(let refusal): return refusal.response
        }
        do {
            lock.lock()
            defer { lock.unlock() }
            let backup = file.appendingPathExtension("bak")
            if !backupWritten, let original = try? Data(contentsOf: file) {
                try OutputFile.write(original, to: backup)
                backupWritten = true
            }
            try OutputFile.write(Data(saved.utf8), to: file)
            // The watcher will see this save too; `fileChanged` knows the text and ignores it.
            text = saved
            version += 1
            return .json(200, ["saved": file.path, "backup": backup.path, "version": version])
        } catch {
            return .error(500, "not saved: \(error)")
        }
    }

    private func theme(_ body: Data) -> HTTPResponse {
        let scene: Scene
        switch sceneBody(body) {
        case .success(let request): scene = request.scene
        case .failure(let refusal): return refusal.response
        }
        guard let theme = scene.theme else {
            return .error(400, "the scene has no \"theme\" to export (add one, e.g. \"theme\": \"arctic\")")
        }
        return HTTPResponse(
            status: 200, contentType: "text/x-swift; charset=utf-8", body: Data(ThemeExport.swift(theme).utf8))
    }

    /// `path` with links and `..` resolved; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
