import Foundation
import LensIO
import LiquidLens
import Testing

/// Every number literal in JSON `text` (outside strings).
private func numberLiterals(_ text: String) -> [String] {
    var literals: [String] = []
    var current = ""
    var inString = false
    var escaped = false
    for character in text {
        if inString {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inString = false
            }
            continue
        }
        if character.isNumber || "-+.eE".contains(character) {
            current.append(character)
            continue
        }
        if !current.isEmpty { literals.append(current) }
        current = ""
        if character == "\"" { inString = true }
    }
    return literals
}

@Suite("Typed JSON: dataset documents keep each number's type")
struct TypedJSONTests {
    @Test(
        "Annotations and scenes read back equal, every Double with a fraction, every integer without",
        arguments: [BuiltInScene.segmented, .tabBar, .lensMenu, .controls])
    func roundTrip(_ example: BuiltInScene) throws {
        let annotations = try LensRenderer.annotations(of: example.scene)
        for indented in [false, true] {
            let data = try TypedJSONEncoder(indented: indented).encode(annotations)
            // Boxes are written rounded to 0.01 px: compare with what Foundation's JSON reads back.
            let foundationWritten = try JSONEncoder().encode(annotations)
            #expect(
                try JSONDecoder().decode(FrameAnnotations.self, from: data)
                    == JSONDecoder().decode(FrameAnnotations.self, from: foundationWritten))
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("\"height\":\(indented ? " " : "")\(annotations.height)"))
            #expect(text.contains("\"scale\":\(indented ? " " : "")\(annotations.scale)"))
            // Doubles keep a fraction even when whole (the boxes, the frost, the scale); integers have none.
            let boxes = annotations.glass.map(\.box) + annotations.controls.flatMap { $0.parts.map(\.box) }
            for box in boxes {
                let written = String(decoding: try TypedJSONEncoder().encode(box), as: UTF8.self)
                #expect(numberLiterals(written).allSatisfy { $0.contains(".") || $0.contains("e") }, "\(written)")
            }
            let optics = try #require(annotations.glass.first?.optics)
            #expect(text.contains("\"frost\":\(indented ? " " : "")\(optics.frost)"))
            #expect(!text.contains("\"height\":\(indented ? " " : "")\(annotations.height).0"))
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        let readBack = try Scene.decode(try TypedJSONEncoder().encode(example.scene))
        #expect(try foundation.encode(readBack) == foundation.encode(example.scene))
    }

    @Test("Strings are escaped; keys sorted; nil optionals left out; non-finite numbers refused")
    func literals() throws {
        struct Sample: Encodable {
            let text = "a \"quoted\" \\ line\nand\ttab \u{1} é"
            let none: Double? = nil
            let zero = 0.0
            let tiny = 1e-7
            let list: [Double] = [1, 2.5]
        }
        let text = String(decoding: try TypedJSONEncoder().encode(Sample()), as: UTF8.self)
        #expect(text == #"{"list":[1.0,2.5],"text":"a \"quoted\" \\ line\nand\ttab \u0001 é","tiny":1e-07,"zero":0.0}"#)
        #expect(throws: EncodingError.self) { try TypedJSONEncoder().encode([Double.nan]) }
    }
}
