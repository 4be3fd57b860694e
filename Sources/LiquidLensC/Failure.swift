import Foundation
import LiquidLens

/// The caller's `char **error`: where a call of the C ABI reports its failure.
public typealias ErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// A failure as the C ABI reports it: a JSON object `{"kind", "message", "keyPath"}` written to
/// the caller's `char **error` as a string the caller frees with `liquidlens_string_free`.
/// `kind` is `scene` (a scene, manifest or argument is wrong: the message and key path the
/// command line prints), `backend` (no backend can render as asked) or `other`.
struct Failure: Error, Encodable {
    let kind: String
    let message: String
    let keyPath: String?

    /// A failure of `kind` that no error of the library describes.
    init(kind: String, message: String, keyPath: String? = nil) {
        self.kind = kind
        self.message = message
        self.keyPath = keyPath
    }

    /// The failure `error` is, its message after `prefix` (a file's path, as the command line
    /// names it).
    init(describing error: any Error, prefix: String = "") {
        switch error {
        case let failure as Failure:
            self.init(kind: failure.kind, message: prefix + failure.message, keyPath: failure.keyPath)
        case let scene as SceneError:
            self.init(kind: "scene", message: prefix + "\(scene)", keyPath: scene.keyPath)
        case is VulkanError:
            self.init(kind: "backend", message: prefix + "\(error)")
        default:
            self.init(kind: "other", message: prefix + "\(error)")
        }
    }

    /// Writes the failure to `out`, when the caller gave one.
    func report(to out: ErrorOut) {
        guard let out else { return }
        let json = (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) }
        out.pointee = strdup(json ?? #"{"kind": "other", "message": "a failure that could not be described"}"#)
    }
}

/// Runs `body`, returning what it returns, or reporting what it throws to `out` and returning
/// `fallback`.
func reportingFailure<Value>(to out: ErrorOut, fallback: Value, _ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        Failure(describing: error).report(to: out)
        return fallback
    }
}

/// The string a C caller passed, nil for a null pointer.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}
