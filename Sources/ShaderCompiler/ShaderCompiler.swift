// Compiles the GLSL compute shaders in Shaders/ to SPIR-V with libglslang and writes a Swift file
// that embeds each module as base64, so the running program never compiles a shader.
// Usage: ShaderCompiler OUTPUT.swift SHADER.comp...
// A compile error prints glslang's log and exits 1, which fails the build.
import CGlslang
import Foundation

struct ShaderCompileError: Error, CustomStringConvertible {
    let description: String
}

/// Inlines `#include "name"` lines (resolved next to the including file), with `#line` markers so
/// glslang's log names the real file and line.
func expandIncludes(of url: URL, depth: Int = 0) throws -> String {
    guard depth < 8 else { throw ShaderCompileError(description: "\(url.path): includes nest too deeply") }
    let text = try String(contentsOf: url, encoding: .utf8)
    var out: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#include") {
            let parts = trimmed.split(separator: "\"")
            guard parts.count >= 2 else {
                throw ShaderCompileError(description: "\(url.path):\(index + 1): malformed #include")
            }
            let included = url.deletingLastPathComponent().appendingPathComponent(String(parts[1]))
            out.append("#line 1 \"\(included.lastPathComponent)\"")
            out.append(try expandIncludes(of: included, depth: depth + 1))
            out.append("#line \(index + 2) \"\(url.lastPathComponent)\"")
        } else {
            out.append(String(line))
        }
    }
    return out.joined(separator: "\n")
}

/// Splices the line-directive extension in after `#version`, which must stay first.
func withLineDirectives(_ source: String) -> String {
    guard let versionEnd = source.range(of: "\n") else { return source }
    return String(source[..<versionEnd.upperBound])
        + "#extension GL_GOOGLE_cpp_style_line_directive : require\n"
        + String(source[versionEnd.upperBound...])
}

func compile(_ url: URL) throws -> [UInt32] {
    let source = withLineDirectives(try expandIncludes(of: url))
    return try source.withCString { code -> [UInt32] in
        var input = glslang_input_t()
        input.language = GLSLANG_SOURCE_GLSL
        input.stage = GLSLANG_STAGE_COMPUTE
        input.client = GLSLANG_CLIENT_VULKAN
        input.client_version = GLSLANG_TARGET_VULKAN_1_1
        input.target_language = GLSLANG_TARGET_SPV
        input.target_language_version = GLSLANG_TARGET_SPV_1_3
        input.code = code
        input.default_version = 450
        input.default_profile = GLSLANG_NO_PROFILE
        input.force_default_version_and_profile = 0
        input.forward_compatible = 0
        input.messages = glslang_messages_t(
            GLSLANG_MSG_SPV_RULES_BIT.rawValue | GLSLANG_MSG_VULKAN_RULES_BIT.rawValue)
        input.resource = glslang_default_resource()

        guard let shader = glslang_shader_create(&input) else {
            throw ShaderCompileError(description: "\(url.path): glslang could not create a shader")
        }
        defer { glslang_shader_delete(shader) }
        func log(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "" }
        guard glslang_shader_preprocess(shader, &input) != 0, glslang_shader_parse(shader, &input) != 0 else {
            throw ShaderCompileError(
                description:
                    "\(url.path): \(log(glslang_shader_get_info_log(shader)))\(log(glslang_shader_get_info_debug_log(shader)))"
            )
        }
        guard let program = glslang_program_create() else {
            throw ShaderCompileError(description: "\(url.path): glslang could not create a program")
        }
        defer { glslang_program_delete(program) }
        glslang_program_add_shader(program, shader)
        guard glslang_program_link(program, Int32(input.messages.rawValue)) != 0 else {
            throw ShaderCompileError(
                description: "\(url.path): link failed: \(log(glslang_program_get_info_log(program)))")
        }
        glslang_program_SPIRV_generate(program, GLSLANG_STAGE_COMPUTE)
        if let messages = glslang_program_SPIRV_get_messages(program) {
            let text = String(cString: messages)
            if !text.isEmpty { FileHandle.standardError.write(Data("\(url.path): \(text)\n".utf8)) }
        }
        let count = glslang_program_SPIRV_get_size(program)
        var words = [UInt32](repeating: 0, count: count)
        words.withUnsafeMutableBufferPointer { glslang_program_SPIRV_get(program, $0.baseAddress) }
        return words
    }
}

/// Decorates every floating-point arithmetic result `NoContraction`, so no driver fuses a
/// multiply and an add into one FMA (one rounding where the CPU twin rounds twice): the bit-exact
/// parity of the backends depends on each `+`, `-`, `*` and `/` rounding on its own. The
/// decorations go after the module's other annotations, where SPIR-V's layout wants them.
func forbiddingContraction(_ words: [UInt32]) -> [UInt32] {
    // FNegate, FAdd, FSub, FMul, FDiv, VectorTimesScalar, Dot: each has (type, result) first.
    let arithmetic: Set<UInt32> = [127, 129, 131, 133, 136, 142, 148]
    // Decorate, MemberDecorate, DecorationGroup, GroupDecorate, GroupMemberDecorate, DecorateId, DecorateString, MemberDecorateString.
    let annotations: Set<UInt32> = [71, 72, 73, 74, 75, 332, 5632, 5633]
    let opDecorate: UInt32 = 71
    let noContraction: UInt32 = 42
    var results: [UInt32] = []
    var annotationsEnd: Int?
    var index = 5
    while index < words.count {
        let count = Int(words[index] >> 16)
        let opcode = words[index] & 0xFFFF
        if annotations.contains(opcode) { annotationsEnd = index + count }
        if arithmetic.contains(opcode) { results.append(words[index + 2]) }
        index += max(count, 1)
    }
    // Every module has annotations (its descriptor bindings at least).
    guard let insertAt = annotationsEnd else { return words }
    let decorations = results.flatMap { [3 << 16 | opDecorate, $0, noContraction] }
    return Array(words[..<insertAt]) + decorations + Array(words[insertAt...])
}

/// The entry point, `@main` rather than top-level code so the tool also builds when SwiftPM
/// parses every executable as a library (as `--sanitize=fuzzer` builds do).
@main
enum ShaderCompiler {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first, arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: ShaderCompiler OUTPUT.swift SHADER.comp...\n".utf8))
            exit(64)
        }
        glslang_initialize_process()
        var entries: [String] = []
        do {
            for path in arguments.dropFirst().sorted() {
                let url = URL(fileURLWithPath: path)
                let words = forbiddingContraction(try compile(url))
                let bytes = words.withUnsafeBufferPointer { Data(buffer: $0) }
                let name = url.deletingPathExtension().lastPathComponent
                entries.append("        \"\(name)\": \"\(bytes.base64EncodedString())\",")
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
        glslang_finalize_process()
        let swift = """
            // Generated at build time by ShaderCompiler from Shaders/*.comp. Do not edit.
            extension ShaderModuleName {
                static let embeddedBase64: [String: String] = [
            \(entries.joined(separator: "\n"))
                ]
            }

            """
        try swift.write(toFile: output, atomically: true, encoding: .utf8)
    }
}
