// libFuzzer target: scene JSON and batch manifests must decode or fail with a SceneError, never
// crash.
import Foundation
import LensCatalog
import LensModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let scene = try? Scene.decode(data) {
        _ = try? scene.validate()
        _ = scene.frame(at: 0.5)
    }
    if let manifest = try? BatchManifest.decode(data, baseDirectory: URL(fileURLWithPath: "/nonexistent")) {
        _ = manifest.shard(0, of: 3)
        _ = manifest.outputStem(max(0, manifest.count - 1))
        if manifest.count > 0 { _ = try? manifest.scene(0, text: NoText()) }
    }
    return 0
}

/// Text is not what this target fuzzes: the lens-heavy workload's label fails, like a missing font.
private struct NoText: TextRasterizer {
    func line(_ text: String, font: FontSpec, pixelSize: Double) throws -> TextLine {
        throw SceneError(keyPath: "", message: "no text in the fuzzer")
    }
}
