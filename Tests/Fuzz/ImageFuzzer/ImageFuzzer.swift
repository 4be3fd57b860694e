// libFuzzer target for the decoders of users' images: the bytes go to the one decoder that
// $LIQUIDLENS_FUZZ_FORMAT names (jpeg, webp, heif, avif, svg, icc for the colour conversion of an
// embedded profile, or heif-references for the HEIF pre-check that refuses reference cycles alone,
// every input reaching its box walk) and must decode or fail with an ImageFileError, never crash. Tests/Fuzz/run.sh
// runs it once per decoder, each with its own seed corpus.
import Foundation
import LensIO

private let target = ProcessInfo.processInfo.environment["LIQUIDLENS_FUZZ_FORMAT"] ?? ""
private let formats: [String: ImageFileFormat] = [
    "jpeg": .jpeg, "webp": .webp, "heif": .heif, "avif": .avif, "svg": .svg,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let format = formats[target] {
        _ = try? ImageReader.decode(data, as: format, scale: 2)
    } else if target == "heif-references" {
        try? HEIFReferences(data).checkAcyclic()
    } else if target == "icc" {
        var pixels: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        try? ColorConversion.convert(&pixels, fromICC: data)
    } else {
        fatalError("set LIQUIDLENS_FUZZ_FORMAT to jpeg, webp, heif, avif, svg, icc or heif-references")
    }
    return 0
}
