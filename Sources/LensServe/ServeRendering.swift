import Foundation
import LensCompare
import LensIO
import LensModel
import LensResolve
import LiquidLens

// The session's renders: a request decoded into a scene and a view, the frame resolved with
// images read only from the scene's folder, rendered on the render queue's thread.
extension ServeSession {
    /// What the page posts: the scene's text, the time, the view and the client's id.
    private struct RenderRequest: Decodable {
        var scene: String
        var time: Double?
        var view: String?
        var client: String?
    }

    func render(_ body: Data) -> HTTPResponse {
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
    struct Refusal: Error {
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
    struct SceneBody: Decodable { var scene: String }

    /// The scene of a save or export request, or why not.
    func sceneBody(_ body: Data, prefix: String = "") -> Result<(text: String, scene: Scene), Refusal> {
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

    /// The image at `path` (relative to the scene's folder), read only when it lies inside that
    /// folder; its stamp is noted so that a later change to the file shows as a new version.
    private func imageInFolder(_ path: String, scale: Double) throws -> RGBA8Image {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : source.folder.appendingPathComponent(path)
        // The path checked is the path read: a link swapped in between reads nothing outside.
        let real = Self.realPath(url.path) ?? url.standardizedFileURL.path
        guard real.hasPrefix(folderPath + "/") else {
            throw SceneError(
                keyPath: "",
                message: "image \(path) is outside the scene's folder \(folderPath); serve reads only files inside it")
        }
        // The first stamp of the generation is kept: a file written since, read again by a
        // render that missed the cache, is still a change for the next look.
        let stamp = FileStamp.of(real)
        lock.withLock {
            if imagesRead[real] == nil { imagesRead[real] = .some(stamp) }
        }
        return try LensRenderer.sharedImages.image(at: URL(fileURLWithPath: real), scale: scale, stamp: stamp)
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
            let resolver = SceneResolver(
                loadImage: { try self.imageInFolder($0, scale: $1) },
                text: frame.needsText ? try LensRenderer.sharedText() : nil, cache: resolveCache,
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
                "vulkan, \(device.name)"
                    + (standIn ? " (the CPU reference stood in: its pipelines were not compiled)" : "")
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

    /// `path` with links and `..` resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
