internal import CVulkan
import Foundation

/// A Vulkan failure: the call that failed and its result, or a setup problem in words.
public struct VulkanError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    init(call: String, result: VkResult) {
        self.description = "\(call) failed: \(Self.name(of: result))"
    }

    static func name(of result: VkResult) -> String {
        switch result {
        case VK_ERROR_OUT_OF_HOST_MEMORY: "VK_ERROR_OUT_OF_HOST_MEMORY"
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: "VK_ERROR_OUT_OF_DEVICE_MEMORY"
        case VK_ERROR_INITIALIZATION_FAILED: "VK_ERROR_INITIALIZATION_FAILED"
        case VK_ERROR_DEVICE_LOST: "VK_ERROR_DEVICE_LOST"
        case VK_ERROR_MEMORY_MAP_FAILED: "VK_ERROR_MEMORY_MAP_FAILED"
        case VK_ERROR_LAYER_NOT_PRESENT: "VK_ERROR_LAYER_NOT_PRESENT"
        case VK_ERROR_EXTENSION_NOT_PRESENT: "VK_ERROR_EXTENSION_NOT_PRESENT"
        case VK_ERROR_FEATURE_NOT_PRESENT: "VK_ERROR_FEATURE_NOT_PRESENT"
        case VK_ERROR_INCOMPATIBLE_DRIVER: "VK_ERROR_INCOMPATIBLE_DRIVER (no usable Vulkan driver)"
        case VK_ERROR_TOO_MANY_OBJECTS: "VK_ERROR_TOO_MANY_OBJECTS"
        case VK_ERROR_FORMAT_NOT_SUPPORTED: "VK_ERROR_FORMAT_NOT_SUPPORTED"
        case VK_ERROR_FRAGMENTED_POOL: "VK_ERROR_FRAGMENTED_POOL"
        case VK_ERROR_OUT_OF_POOL_MEMORY: "VK_ERROR_OUT_OF_POOL_MEMORY"
        case VK_ERROR_INVALID_SHADER_NV: "VK_ERROR_INVALID_SHADER_NV"
        default: "VkResult \(result.rawValue)"
        }
    }
}

/// Throws unless `result` is `VK_SUCCESS`. Calls whose `VK_TIMEOUT`/`VK_NOT_READY` are answers
/// (fences, queries) check those before calling this.
func vkCheck(_ result: VkResult, _ call: @autoclosure () -> String) throws {
    guard result == VK_SUCCESS else { throw VulkanError(call: call(), result: result) }
}

/// Runs `body` with the strings as a C array of C strings.
func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> Result)
    rethrows -> Result
{
    let copies = strings.map { UnsafePointer<CChar>(strdup($0)) }
    defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return try copies.withUnsafeBufferPointer { try body($0.baseAddress) }
}

/// A fixed-size C `char[]` (imported as a tuple) as a Swift string.
func string<T>(fromCArray tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
}
