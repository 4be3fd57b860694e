internal import CVulkan
import Foundation

/// A `VkResult` as a Swift value: the raw code, so the public API carries no C types.
public struct VulkanResult: Hashable, Sendable, CustomStringConvertible {
    /// The `VkResult` value; errors are negative.
    public let code: Int32

    /// The result with this `VkResult` value.
    public init(code: Int32) {
        self.code = code
    }

    init(_ result: VkResult) {
        code = result.rawValue
    }

    /// `VK_ERROR_OUT_OF_HOST_MEMORY`.
    public static let outOfHostMemory = VulkanResult(VK_ERROR_OUT_OF_HOST_MEMORY)
    /// `VK_ERROR_OUT_OF_DEVICE_MEMORY`.
    public static let outOfDeviceMemory = VulkanResult(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    /// `VK_ERROR_DEVICE_LOST`.
    public static let deviceLost = VulkanResult(VK_ERROR_DEVICE_LOST)
    /// `VK_ERROR_INCOMPATIBLE_DRIVER`.
    public static let incompatibleDriver = VulkanResult(VK_ERROR_INCOMPATIBLE_DRIVER)

    /// The Vulkan name, such as `VK_ERROR_DEVICE_LOST`, or `VkResult <code>` for a code not listed.
    public var name: String {
        switch VkResult(rawValue: code) {
        case VK_ERROR_OUT_OF_HOST_MEMORY: "VK_ERROR_OUT_OF_HOST_MEMORY"
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: "VK_ERROR_OUT_OF_DEVICE_MEMORY"
        case VK_ERROR_INITIALIZATION_FAILED: "VK_ERROR_INITIALIZATION_FAILED"
        case VK_ERROR_DEVICE_LOST: "VK_ERROR_DEVICE_LOST"
        case VK_ERROR_MEMORY_MAP_FAILED: "VK_ERROR_MEMORY_MAP_FAILED"
        case VK_ERROR_LAYER_NOT_PRESENT: "VK_ERROR_LAYER_NOT_PRESENT"
        case VK_ERROR_EXTENSION_NOT_PRESENT: "VK_ERROR_EXTENSION_NOT_PRESENT"
        case VK_ERROR_FEATURE_NOT_PRESENT: "VK_ERROR_FEATURE_NOT_PRESENT"
        case VK_ERROR_INCOMPATIBLE_DRIVER: "VK_ERROR_INCOMPATIBLE_DRIVER"
        case VK_ERROR_TOO_MANY_OBJECTS: "VK_ERROR_TOO_MANY_OBJECTS"
        case VK_ERROR_FORMAT_NOT_SUPPORTED: "VK_ERROR_FORMAT_NOT_SUPPORTED"
        case VK_ERROR_FRAGMENTED_POOL: "VK_ERROR_FRAGMENTED_POOL"
        case VK_ERROR_OUT_OF_POOL_MEMORY: "VK_ERROR_OUT_OF_POOL_MEMORY"
        case VK_ERROR_INVALID_SHADER_NV: "VK_ERROR_INVALID_SHADER_NV"
        default: "VkResult \(code)"
        }
    }

    /// The name, with what it means where the name alone does not say.
    public var description: String {
        self == .incompatibleDriver ? "\(name) (no usable Vulkan driver)" : name
    }
}

/// A Vulkan failure: the call that failed and its result, or a setup problem in words.
public struct VulkanError: Error, CustomStringConvertible, Sendable {
    /// The Vulkan function that failed; nil for a setup problem no call reported (no loader, no device).
    public let call: String?
    /// What `call` returned; nil when `call` is.
    public let result: VulkanResult?
    public let description: String

    /// The device or host ran out of memory: a smaller frame or the CPU backend may still work.
    public var isOutOfMemory: Bool { result == .outOfDeviceMemory || result == .outOfHostMemory }
    /// The device is gone: nothing more can run on it; a new renderer or the CPU backend can go on.
    public var isDeviceLost: Bool { result == .deviceLost }

    /// A setup problem no Vulkan call reported.
    init(_ description: String) {
        call = nil
        result = nil
        self.description = description
    }

    /// `call` returned `result`; `note` says more, in parentheses, after the usual text.
    init(call: String, result: VulkanResult, note: String? = nil) {
        self.call = call
        self.result = result
        description = "\(call) failed: \(result)" + (note.map { " (\($0))" } ?? "")
    }

    /// The same failure told in other words, for the person who has to act on it.
    func explained(_ description: String) -> VulkanError {
        VulkanError(call: call, result: result, description: description)
    }

    private init(call: String?, result: VulkanResult?, description: String) {
        self.call = call
        self.result = result
        self.description = description
    }
}

/// Throws unless `result` is `VK_SUCCESS`: the one place a `VkResult` becomes a ``VulkanError``.
/// Calls whose `VK_TIMEOUT`/`VK_NOT_READY` are answers (fences, queries) check those before calling this.
func vkCheck(_ result: VkResult, _ call: @autoclosure () -> String) throws {
    guard result == VK_SUCCESS else { throw VulkanError(call: call(), result: VulkanResult(result)) }
}

/// Runs a Vulkan call that hands back what it made (a handle, a mapping) through its last
/// parameter, and returns that; throws when the call fails.
func vkCreate<Made>(_ call: @autoclosure () -> String, _ make: (inout Made?) -> VkResult) throws -> Made {
    var made: Made?
    try vkCheck(make(&made), call())
    guard let made else { throw VulkanError("\(call()) returned VK_SUCCESS but nothing") }
    return made
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
