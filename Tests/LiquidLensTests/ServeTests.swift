import Foundation
import LensModel
import LensServe
import LiquidLens
import Testing

/// `liquidlens serve`: the tuning page's schema, the render queue, the session's answers, and the
/// page itself in Chromium.
@Suite("serve: the live tuning page")
struct ServeTests {
    /// `Tests/Samples`: the scenes and images the README's examples use.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples")

    /// A scene with one glass element carrying `value` at `path` (inside `glass[0]`), over a lift so
    /// that lift values have their required `progress`.
    static func scene(setting path: String, to value: Any) throws -> Data {
        var element: [String: Any] = [
            "shape": "capsule", "frame": ["x": 10, "y": 10, "width": 100, "height": 40], "lift": ["progress": 1],
        ]
        let keys = path.split(separator: ".").map(String.init)
        func set(_ object: inout [String: Any], _ keys: ArraySlice<String>) {
            guard let first = keys.first else { return }
            if keys.count == 1 {
                object[first] = value
                return
            }
            var child = object[first] as? [String: Any] ?? [:]
            set(&child, keys.dropFirst())
            object[first] = child
        }
        set(&element, keys[...])
        return try JSONSerialization.data(withJSONObject: [
            "canvas": ["width": 120, "height": 60], "glass": [element],
        ])
    }

    /// The decoder's error at `glass[0].<path>`, or nil when the scene decodes.
    static func decodingError(_ data: Data) -> SceneError? {
        do {
            _ = try Scene.decode(data)
            return nil
        } catch {
            return error as? SceneError ?? SceneError(keyPath: "?", message: "\(error)")
        }
    }

    @Test(
        "Every slider's range is the decoder's: both ends decode, just past them is refused at the same key path",
        arguments: SceneTuning.glass)
    func glassTunablesMatchTheDecoder(_ tunable: TunableValue) throws {
        switch tunable.kind {
        case .number(let range, let step):
            #expect(step > 0 && step <= (range.upperBound - range.lowerBound) / 10)
            for value in [range.lowerBound, range.upperBound] {
                let error = Self.decodingError(try Self.scene(setting: tunable.path, to: value))
                #expect(error == nil, "\(tunable.path) = \(value): \(String(describing: error))")
            }
            let past = range.upperBound + max(1, range.upperBound - range.lowerBound)
            let error = Self.decodingError(try Self.scene(setting: tunable.path, to: past))
            #expect(
                error?.keyPath == "glass[0].\(tunable.path)", "\(tunable.path) = \(past): \(String(describing: error))")
        case .choice(let choices):
            for choice in choices {
                let error = Self.decodingError(try Self.scene(setting: tunable.path, to: choice))
                #expect(error == nil, "\(tunable.path) = \(choice): \(String(describing: error))")
            }
            let error = Self.decodingError(try Self.scene(setting: tunable.path, to: "nonsense"))
            #expect(error?.keyPath.hasPrefix("glass[0].\(tunable.path)") == true, "\(String(describing: error))")
        case .color:
            #expect(Self.decodingError(try Self.scene(setting: tunable.path, to: "#11223344")) == nil)
            #expect(Self.decodingError(try Self.scene(setting: tunable.path, to: "#1122")) != nil)
        case .toggle:
            #expect(Self.decodingError(try Self.scene(setting: tunable.path, to: true)) == nil)
        }
    }

    @Test("Control settings reach exactly the control types that have them, over the decoder's choices and ranges")
    func controlTunablesMatchTheDecoder() throws {
        let everyGlassControl = Scene(
            canvas: Canvas(width: 400, height: 400), background: [], glass: [],
            controls: GlassControl.Kind.allCases.map {
                .glass(GlassControl($0, frame: Rect(x: 10, y: 10, width: 200, height: 60), title: "Title"))
            })
        let scenes = [
            BuiltInScene.segmented.scene, BuiltInScene.tabBar.scene, BuiltInScene.lensMenu.scene, everyGlassControl,
        ]
        var seen: Set<String> = []
        for scene in scenes {
            let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(scene)) as? [String: Any])
            let controls = try #require(object["controls"] as? [[String: Any]])
            for (index, control) in controls.enumerated() {
                let type = try #require(control["type"] as? String)
                seen.insert(type)
                for tunable in SceneTuning.controls {
                    let has = tunable.controlTypes.contains(type)
                    let values: [Any]
                    switch tunable.kind {
                    case .choice(let choices): values = has ? choices : [choices[0]]
                    case .number(let range, _):
                        values = has ? [range.lowerBound, range.upperBound] : [range.lowerBound]
                    case .color, .toggle:
                        Issue.record("\(tunable.path): only choices and numbers are control settings")
                        continue
                    }
                    var editedControls = controls
                    func error(with value: Any) throws -> SceneError? {
                        editedControls[index][tunable.path] = value
                        var edited = object
                        edited["controls"] = editedControls
                        return Self.decodingError(try JSONSerialization.data(withJSONObject: edited))
                    }
                    for value in values {
                        let problem = try error(with: value)
                        if has {
                            #expect(
                                problem == nil, "\(type).\(tunable.path) = \(value): \(String(describing: problem))")
                        } else {
                            #expect(
                                problem?.keyPath == "controls[\(index)].\(tunable.path)",
                                "\(type) has no \(tunable.path)")
                        }
                    }
                    if case .number(let range, _) = tunable.kind, has {
                        let problem = try error(with: range.upperBound + 1)
                        #expect(
                            problem?.keyPath == "controls[\(index)].\(tunable.path)",
                            "\(type).\(tunable.path) past its range")
                    }
                }
            }
        }
        #expect(
            seen == Set(["segmented", "tabBar", "lensMenu"] + GlassControl.Kind.allCases.map(\.rawValue)), "\(seen)")
    }

    @Test("An error's key path finds its line; a missing key finds its object's; a parser's line is kept")
    func keyPathLines() {
        let text = """
            {
              "canvas": {"width": 10, "height": 10},
              "glass": [
                {"shape": "circle"},
                {
                  "shape": "capsule",
                  "optics": {
                    "frost": 99
                  }
                }
              ]
            }
            """
        let lines = JSONKeyPathLines(text)
        #expect(lines.line(of: "glass[1].optics.frost") == 8)
        #expect(lines.line(of: "glass[1].optics") == 7)
        #expect(lines.line(of: "glass[0]") == 4)
        #expect(lines.line(of: "glass[0].frame") == 4, "a missing key: its object's line")
        #expect(lines.line(of: "canvas.height") == 2)
        #expect(lines.line(of: "", message: "not valid JSON: unexpected character at line 5, column 3") == 5)
        #expect(JSONKeyPathLines("{\"a\": [1, ").line(of: "a[1]") == 1, "a cut text is scanned as far as it goes")
        #expect(JSONKeyPathLines("{\"glass\":[{\"x\":1}}\n").line(of: "glass[0].x") == 1, "a stray } ends the scan")
        #expect(JSONKeyPathLines("[1, :, 2]").line(of: "[2]") == 1, "a stray : ends the scan")
        let deep = String(repeating: "[", count: 1 << 20)
        #expect(JSONKeyPathLines(deep).line(of: "") == 1, "nesting past the decoder's limit is not followed")
    }

    @Test("The render queue: a newer request from the same client replaces its waiting one; equal frames render once")
    func renderQueueNewestWins() throws {
        let queue = RenderQueue<Int>(waitingLimit: 2)
        defer { queue.stop() }
        let gate = DispatchSemaphore(value: 0)
        let counter = Counter()
        let answers = Answers()
        let group = DispatchGroup()
        func submit(_ key: String, _ client: String, _ value: Int, blocking: Bool = false) {
            group.enter()
            // A thread of its own: each request blocks until answered, as a connection's does,
            // and the shared pool would add threads for them only slowly.
            Thread.detachNewThread {
                let answer = queue.render(key: key, client: client) {
                    counter.add()
                    if blocking { gate.wait() }
                    return value
                }
                answers.record("\(client):\(key)", answer)
                group.leave()
            }
        }
        // Each request is sent once the queue shows the one before it has arrived.
        func waiting() -> [String] { queue.snapshot.waiting.map { "\($0.key):\($0.clients.sorted().joined())" } }
        submit("busy", "a", 0, blocking: true)
        try waitUntil("the busy render to start") { queue.snapshot.running == "busy" }
        submit("first", "b", 1)
        try waitUntil("b's first request to wait") { waiting() == ["first:b"] }
        submit("second", "b", 2)
        try waitUntil("b's second request to replace its first") {
            waiting() == ["second:b"] && answers.values["b:first"] != nil
        }
        submit("second", "c", 2)
        try waitUntil("c to share b's render") { waiting() == ["second:bc"] }
        submit("other", "d", 3)
        try waitUntil("d's request to wait") { waiting() == ["second:bc", "other:d"] }
        submit("third", "e", 4)
        try waitUntil("e to be told the queue is busy") { answers.values["e:third"] != nil }
        gate.signal()
        group.wait()
        #expect(answers.values["b:first"] == "superseded")
        #expect(answers.values["b:second"] == "2" && answers.values["c:second"] == "2")
        #expect(answers.values["e:third"] == "busy", "two renders were already waiting")
        #expect(answers.values["a:busy"] == "0" && answers.values["d:other"] == "3")
        #expect(counter.value == 3, "busy, second (shared by b and c) and other rendered; first never")
        // A kept result answers again without rendering.
        #expect(queue.render(key: "other", client: "z") { 99 }.description == "3")
    }

    @Test(
        "The session: the token is required, errors name their key path and line, images stay in the folder, saves keep a backup"
    )
    func sessionAnswers() throws {
        let folder = try temporaryFolder("serve-session")
        let samples = Self.samples
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("scenes"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("scenes/scene.json")
        let text = try String(contentsOf: samples.appendingPathComponent("lens.json"), encoding: .utf8)
        try Data(text.utf8).write(to: file)
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("titles.png"), to: folder.appendingPathComponent("scenes/titles.png"))
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("titles.png"), to: folder.appendingPathComponent("outside.png"))
        let session = try ServeSession(
            source: ServeSource(
                file: file, text: text, name: "scene", folder: file.deletingLastPathComponent(), writable: true),
            primary: LensRenderer(backend: .cpu), backendNote: nil, scale: nil, pixelBudget: Limits.maxPixels)
        defer { session.stop() }
        func ask(_ method: String, _ path: String, _ body: [String: Any]? = nil, token: Bool = true) throws -> (
            Int, [String: Any]
        ) {
            let response = session.respond(
                to: HTTPRequest(
                    method: method, path: path, headers: token ? ["x-liquidlens-token": session.token] : [:],
                    body: try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()))
            let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
            return (response.status, object)
        }

        #expect(try ask("GET", "/api/state", token: false).0 == 403)
        #expect(
            session.respond(to: HTTPRequest(method: "GET", path: "/", query: ["token": session.token])).status == 200)
        #expect(try ask("GET", "/nowhere").0 == 404)
        #expect(try ask("PUT", "/api/save").0 == 405)
        let (stateStatus, state) = try ask("GET", "/api/state")
        #expect(stateStatus == 200 && state["text"] as? String == text && state["writable"] as? Bool == true)

        let (status, rendered) = try ask("POST", "/api/render", ["scene": text, "view": "gpu"])
        #expect(
            status == 200 && rendered["width"] as? Int == 720 && rendered["renderedBy"] as? String == "cpu reference")
        let image = try #require(
            (rendered["image"] as? String)?.split(separator: ",").last.flatMap { Data(base64Encoded: String($0)) })
        let cli = try LensRenderer(backend: .cpu).render(
            Scene.load(contentsOf: file), baseDirectory: file.deletingLastPathComponent())
        #expect(try PNGCodec.decode(image).pixels == cli.pixels, "the page's picture is the library's")

        let invalid = text.replacingOccurrences(of: "\"frost\": 6", with: "\"frost\": -1")
        let (invalidStatus, problem) = try ask("POST", "/api/render", ["scene": invalid])
        #expect(invalidStatus == 400 && problem["keyPath"] as? String == "glass[0].optics.frost")
        #expect(problem["line"] as? Int == 10, "\(problem)")

        for mask in ["../outside.png", folder.appendingPathComponent("outside.png").path] {
            let climbing = text.replacingOccurrences(of: "\"titles.png\"", with: "\"\(mask)\"")
            let (climbStatus, refusal) = try ask("POST", "/api/render", ["scene": climbing])
            #expect(climbStatus == 400)
            #expect((refusal["error"] as? String)?.contains("outside the scene's folder") == true, "\(refusal)")
        }

        let (themeStatus, themeError) = try ask("POST", "/api/theme", ["scene": text])
        #expect(themeStatus == 400 && (themeError["error"] as? String)?.contains("no \"theme\"") == true)
        let themed = session.respond(
            to: HTTPRequest(
                method: "POST", path: "/api/theme", headers: ["x-liquidlens-token": session.token],
                body: try JSONSerialization.data(withJSONObject: [
                    "scene": text.replacingOccurrences(of: "\"glass\": [", with: "\"theme\": \"arctic\", \"glass\": [")
                ])))
        #expect(
            themed.status == 200
                && String(decoding: themed.body, as: UTF8.self) == ThemeExport.swift(ThemePreset.arctic.theme))

        let edited = text.replacingOccurrences(of: "\"frost\": 6", with: "\"frost\": 9")
        #expect(try ask("POST", "/api/save", ["scene": invalid]).0 == 400, "an invalid scene is not saved")
        let (saveStatus, saved) = try ask("POST", "/api/save", ["scene": edited])
        #expect(saveStatus == 200, "\(saved)")
        #expect(try String(contentsOf: file, encoding: .utf8) == edited)
        #expect(try String(contentsOf: file.appendingPathExtension("bak"), encoding: .utf8) == text)
        let (_, second) = try ask("POST", "/api/save", ["scene": text])
        #expect(second["saved"] != nil)
        #expect(
            try String(contentsOf: file.appendingPathExtension("bak"), encoding: .utf8) == text,
            "the backup is the file as it was before the session's first save")
    }

    @Test("An image the scene reads, written by another program, is read again: the page gets a new version")
    func imageWrittenOnDisk() throws {
        let folder = try temporaryFolder("serve-image")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scene.json")
        let text = try String(contentsOf: Self.samples.appendingPathComponent("lens.json"), encoding: .utf8)
        try Data(text.utf8).write(to: file)
        let mask = folder.appendingPathComponent("titles.png")
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("titles.png"), to: mask)
        let session = try ServeSession(
            source: ServeSource(file: file, text: text, name: "scene", folder: folder, writable: false),
            primary: LensRenderer(backend: .cpu), backendNote: nil, scale: nil, pixelBudget: Limits.maxPixels)
        defer { session.stop() }
        func ask(_ method: String, _ path: String, _ body: [String: Any]? = nil, since: Int? = nil) throws -> (
            Int, [String: Any]
        ) {
            let response = session.respond(
                to: HTTPRequest(
                    method: method, path: path, query: since.map { ["since": String($0)] } ?? [:],
                    headers: ["x-liquidlens-token": session.token],
                    body: try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()))
            return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
        }
        func picture() throws -> RGBA8Image {
            let (status, rendered) = try ask("POST", "/api/render", ["scene": text, "view": "gpu", "client": "a"])
            #expect(status == 200)
            return try PNGCodec.decode(
                try #require(
                    (rendered["image"] as? String)?.split(separator: ",").last.flatMap {
                        Data(base64Encoded: String($0))
                    }))
        }
        let version = try #require(try ask("GET", "/api/state").1["version"] as? Int)
        let before = try picture()
        let unchanged = try ask("GET", "/api/state", since: version)
        #expect(unchanged.0 == 204, "nothing changed yet: \(unchanged)")

        let titles = try PNGCodec.read(contentsOf: mask)
        try PNGCodec.write(
            RGBA8Image(
                width: titles.width, height: titles.height, pixels: [UInt8](repeating: 0, count: titles.pixels.count)),
            to: mask)
        let after = try picture()
        let redrawn = after != before
        #expect(redrawn, "the emptied mask is drawn")
        let cli = try LensRenderer(backend: .cpu).render(Scene.load(contentsOf: file), baseDirectory: folder)
        let same = after.pixels == cli.pixels
        #expect(same, "the page's picture is the library's, read from the new file")
        let (status, state) = try ask("GET", "/api/state", since: version)
        #expect(status == 200 && state["version"] as? Int == version + 1 && state["imagesGeneration"] as? Int == 1)

        // Removed, the mask cannot be read; written back, the failure is not kept.
        try FileManager.default.removeItem(at: mask)
        let missing = try ask("POST", "/api/render", ["scene": text, "view": "gpu", "client": "a"])
        #expect(missing.0 == 400 && (missing.1["error"] as? String)?.contains("titles.png") == true, "\(missing)")
        try PNGCodec.write(titles, to: mask)
        let restored = try picture()
        let drawnAsBefore = restored == before
        #expect(drawnAsBefore, "the mask written back is drawn as before")
    }

    @Test(
        "In Chromium: sliders, the A/B toggle, invalid edits, export, save, file watching, drag, animation, load, faults, Ctrl-C"
    )
    func pageInBrowser() throws {
        let work = try temporaryFolder("serve-browser")
        let samples = Self.samples
        let shot = work.appendingPathComponent("serve.png")
        let facts = try runPython("check_serve.py", [cliBinary().path, samples.path, work.path, shot.path])
        #expect(facts.contains("\"pageEqualsCLI\": \"720x440 px, every pixel equal\""), "\(facts)")
        #expect(facts.contains("\"requests\": 2000"), "\(facts)")
        let screenshot = try PNGCodec.read(contentsOf: shot)
        #expect(screenshot.width >= 1000 && Set(screenshot.packed).count > 100, "a real page, not a blank one")
        if ProcessInfo.processInfo.environment["LIQUIDLENS_RECORD_SCREENSHOTS"] == "1" {
            let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(
                    "Sources/LiquidLens/LiquidLens.docc/Resources/serve.png")
            try? FileManager.default.removeItem(at: resources)
            try FileManager.default.copyItem(at: shot, to: resources)
        }
    }
}

extension TunableValue: CustomTestStringConvertible {
    public var testDescription: String { path }
}

extension RenderQueue.Answer: CustomStringConvertible {
    public var description: String {
        switch self {
        case .rendered(let value): "\(value)"
        case .superseded: "superseded"
        case .busy: "busy"
        }
    }
}

/// Renders counted across threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Answers by request, across threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: String] = [:]
    func record<Outcome>(_ name: String, _ answer: RenderQueue<Outcome>.Answer) {
        lock.withLock { stored[name] = answer.description }
    }
    var values: [String: String] { lock.withLock { stored } }
}
