import Foundation
import LiquidLens

/// A scene or manifest as a C caller passes it: JSON text, or the path of a file. Relative paths
/// inside it are read from the file's folder, or for text from `baseDirectory` (the caller's
/// working folder when none).
struct DocumentSource {
    let text: String?
    let path: String?
    let baseDirectory: String?

    /// Reads the scene, its errors worded as the command line words them (a file's path first).
    func scene() throws -> (scene: Scene, baseDirectory: URL) {
        if let path {
            let url = URL(fileURLWithPath: path)
            return (try prefixed(path) { try Scene.load(contentsOf: url) }, url.deletingLastPathComponent())
        }
        return (try Scene.decode(try data()), base)
    }

    /// Reads the batch manifest, its errors worded as the command line words them.
    func manifest() throws -> BatchManifest {
        if let path {
            return try prefixed(path) { try BatchManifest.load(contentsOf: URL(fileURLWithPath: path)) }
        }
        return try BatchManifest.decode(try data(), baseDirectory: base)
    }

    /// The folder relative paths of text are read from.
    private var base: URL {
        URL(fileURLWithPath: baseDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// The text's bytes; neither text nor path is a caller's mistake.
    private func data() throws -> Data {
        guard let text else { throw Failure(kind: "other", message: "neither JSON text nor a path was given") }
        return Data(text.utf8)
    }

    /// What `load` returns; its failure's message after `path: `.
    private func prefixed<Value>(_ path: String, _ load: () throws -> Value) throws -> Value {
        do {
            return try load()
        } catch {
            throw Failure(describing: error, prefix: "\(path): ")
        }
    }
}
