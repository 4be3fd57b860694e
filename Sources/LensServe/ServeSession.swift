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

    let source: ServeSource
    let folderPath: String
    let scale: Double?
    let pixelBudget: Int
    let queue: RenderQueue<Result<RenderedView, ServeProblem>>
    private var watcher: FileWatcher?

    // Used by the render queue's thread only.
    var primary: LensRenderer
    let reference: LensRenderer
    var resolveCache = ResolveCache()
    /// The images generation `resolveCache` was filled in: it keeps backdrops and label rasters by
    /// the scene's values, which name a file, not its contents, so a new generation empties it.
    var resolveCacheGeneration = 0

    let lock = NSLock()
    private var text: String
    private var version = 1
    /// The image files renders have read, stamped when first read in this generation (nil: the
    /// file was missing then, and its appearing is a change too).
    var imagesRead: [String: FileStamp?] = [:]
    /// How many times an image renders read changed on disk: part of every render's key, so that a
    /// result drawn from an image's old version is not answered again.
    var imagesGeneration = 0
    var backendNote: String?
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
    func checkImages() {
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
}
