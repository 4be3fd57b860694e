import Foundation
import LensResolve
import LensShaders
import LensVulkan
import LiquidLens
import Testing

/// Reads struct member names, offsets and array strides out of a SPIR-V module.
struct SPIRVLayout {
    var names: [UInt32: String] = [:]
    var memberNames: [UInt32: [UInt32: String]] = [:]
    var memberOffsets: [UInt32: [UInt32: Int]] = [:]
    var arrayStrides: [UInt32: Int] = [:]
    var memberTypes: [UInt32: [UInt32]] = [:]

    init(_ words: [UInt32]) {
        precondition(words.first == 0x0723_0203, "not SPIR-V")
        var index = 5
        while index < words.count {
            let count = Int(words[index] >> 16)
            let opcode = words[index] & 0xFFFF
            let operands = Array(words[(index + 1)..<(index + max(count, 1))])
            switch opcode {
            case 5: names[operands[0]] = Self.string(operands.dropFirst())
            case 6: memberNames[operands[0], default: [:]][operands[1]] = Self.string(operands.dropFirst(2))
            case 71 where operands[1] == 6: arrayStrides[operands[0]] = Int(operands[2])
            case 72 where operands[2] == 35: memberOffsets[operands[0], default: [:]][operands[1]] = Int(operands[3])
            case 30: memberTypes[operands[0]] = Array(operands.dropFirst())
            default: break
            }
            index += max(count, 1)
        }
    }

    static func string(_ words: ArraySlice<UInt32>) -> String {
        var bytes: [UInt8] = []
        for word in words {
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8((word >> UInt32(shift)) & 0xFF)
                if byte == 0 { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The explicitly laid-out struct of that name (the buffer's, not a function-local copy).
    func laidOutStruct(named name: String) -> UInt32? {
        names.first { $0.value == name && memberOffsets[$0.key] != nil }?.key
    }

    /// (member name, offset) in member order.
    func members(of id: UInt32) -> [(String, Int)] {
        let offsets = memberOffsets[id] ?? [:]
        return offsets.keys.sorted().map { (memberNames[id]?[$0] ?? "?", offsets[$0]!) }
    }
}

@Suite("Parameter block layout")
struct LayoutTests {
    static func swiftLayout(_ name: String) -> [(String, Int)] {
        switch name {
        case "FrameParams": FrameParams.fieldOffsets.map { ($0.name, $0.offset) }
        case "LensParams": LensParams.fieldOffsets.map { ($0.name, $0.offset) }
        case "ShapeParams": ShapeParams.fieldOffsets.map { ($0.name, $0.offset) }
        default: DispatchConstants.fieldOffsets.map { ($0.name, $0.offset) }
        }
    }

    @Test("Swift and GLSL structs have the same members at the same offsets", arguments: ShaderModuleName.allCases)
    func structsAgree(module: ShaderModuleName) throws {
        let layout = SPIRVLayout(module.spirv)
        for name in ["FrameParams", "LensParams", "DispatchConstants"] {
            let id = try #require(layout.laidOutStruct(named: name), "\(name) missing from \(module.rawValue).spv")
            let glsl = layout.members(of: id)
            let swift = Self.swiftLayout(name)
            #expect(glsl.map(\.0) == swift.map(\.0), "\(name) member names differ in \(module.rawValue)")
            #expect(glsl.map(\.1) == swift.map(\.1), "\(name) member offsets differ in \(module.rawValue)")
        }
    }

    @Test("The frame and lens blocks hold one struct each, at offset 0", arguments: ShaderModuleName.allCases)
    func uniformBlocksAgree(module: ShaderModuleName) throws {
        let layout = SPIRVLayout(module.spirv)
        for name in ["FrameBlock", "LensBlock"] {
            let block = try #require(layout.laidOutStruct(named: name), "\(name) missing from \(module.rawValue).spv")
            #expect(layout.memberOffsets[block] == [0: 0], "\(name) in \(module.rawValue)")
        }
        #expect(MemoryLayout<LensParams>.stride == MemoryLayout<LensParams>.size, "LensParams has trailing padding")
    }

    @Test("Each lens sits at an aligned offset, after the frame, without overlap", arguments: [16, 64, 256])
    func paramsBufferLayout(alignment: Int) {
        let layout = ParamsBufferLayout(alignment: alignment)
        #expect(layout.lensArrayOffset >= MemoryLayout<FrameParams>.size)
        #expect(layout.lensStride >= MemoryLayout<LensParams>.size)
        for index in 0..<3 { #expect(layout.lensOffset(index) % alignment == 0) }
        let frame = FrameParams(
            width: 7, height: 9, lensCount: 2, labelWordsPerRow: 3, restingColor: .one, accentColor: .zero)
        var lens = LensParams()
        lens.opacity = 0.5
        let bytes = layout.bytes(frame: frame, lenses: [lens, lens])
        #expect(bytes.count == layout.lensOffset(2))
        let stored = bytes.withUnsafeBytes {
            $0.loadUnaligned(fromByteOffset: layout.lensOffset(1), as: LensParams.self)
        }
        #expect(stored == lens)
        #expect(bytes.withUnsafeBytes { $0.loadUnaligned(as: FrameParams.self) } == frame)
    }

    @Test("A shape is four 16-byte texels in Swift's field order")
    func shapesTexelsAgree() throws {
        #expect(MemoryLayout<ShapeParams>.stride == 64)
        #expect(MemoryLayout<ShapeParams>.size == 64)
        let offsets = Dictionary(uniqueKeysWithValues: ShapeParams.fieldOffsets.map { ($0.name, $0.offset) })
        #expect(offsets["centerHalfSize"] == 0)
        #expect(offsets["cornerRadii"] == 16)
        #expect(offsets["kind"] == 32)
        #expect(offsets["exponent"] == 36)
        #expect(offsets["tint"] == 48)
    }

    @Test(
        "Every float add, subtract, multiply, divide, negate and dot is NoContraction",
        arguments: ShaderModuleName.allCases)
    func arithmeticIsNotContracted(module: ShaderModuleName) {
        let words = module.spirv
        var arithmetic: [UInt32] = []
        var exact = Set<UInt32>()
        var index = 5
        while index < words.count {
            let count = Int(words[index] >> 16)
            let opcode = words[index] & 0xFFFF
            if [127, 129, 131, 133, 136, 142, 148].contains(opcode) { arithmetic.append(words[index + 2]) }
            if opcode == 71, count == 3, words[index + 2] == 42 { exact.insert(words[index + 1]) }
            index += max(count, 1)
        }
        #expect(!arithmetic.isEmpty)
        #expect(arithmetic.filter { !exact.contains($0) }.isEmpty, "contractible arithmetic in \(module.rawValue)")
    }

    @Test("The table offsets and tile size in the GLSL match TableLayout")
    func tableConstantsAgree() throws {
        let constant = try LensCommonGLSL().constant
        #expect(constant("SRGB_DECODE_OFFSET") == TableLayout.srgbDecodeOffset)
        #expect(constant("SPECTRAL_OFFSET") == TableLayout.spectralOffset)
        #expect(constant("SPECTRAL_TAPS") == TableLayout.spectralTaps)
        #expect(constant("SRGB_BUCKET_OFFSET") == TableLayout.srgbEncodeBucketOffset)
        #expect(constant("PROFILE_SAMPLES") == TableLayout.profileSamples)
        #expect(constant("TILE_SIZE") == TableLayout.tileSize)
        #expect(constant("TILES_PER_WORKGROUP") == TableLayout.tilesPerWorkgroup)
        #expect(constant("GLASS_FREE_TILE_BIT") == TableLayout.glassFreeTileBit)
        #expect(OpticsTables.fixedTables.count == TableLayout.perLensOffset)
    }
}
