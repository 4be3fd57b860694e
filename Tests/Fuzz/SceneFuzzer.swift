// libFuzzer target: scene JSON must decode or fail with a SceneError, never crash.
import Foundation
import LensCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let scene = try? Scene.decode(data) {
        _ = try? scene.validate()
        _ = scene.frame(at: 0.5)
    }
    return 0
}
