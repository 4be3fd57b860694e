// libFuzzer target: PNG bytes must decode or fail with an ImageFileError, never crash.
import Foundation
import LensIO

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? PNGCodec.decode(Data(bytes: bytes, count: count))
    return 0
}
