import Foundation
import LensVulkan
import LiquidLens

/// The environment variables the command line maps onto the library's options, read here once:
/// nothing below the command line reads the environment.
enum CommandEnvironment {
    /// This process's environment; `LIQUIDLENS_DEVICE`, `_MEMORY` and `_VALIDATION` are read from
    /// it by their option groups, as fallbacks for `--device`, `--memory` and `--validation`.
    static let variables = ProcessInfo.processInfo.environment

    /// `LIQUIDLENS_MAX_PIXELS`: a lower pixel budget for a frame, checked before anything is
    /// allocated; the library's largest frame when unset (``check()`` refuses other values).
    static let pixelBudget: Int =
        variables["LIQUIDLENS_MAX_PIXELS"].flatMap { Int($0) }.flatMap {
            $0 > 0 ? min($0, Limits.maxPixels) : nil
        } ?? Limits.maxPixels

    /// Refuses a variable set to a value it cannot read, naming it: a typo in a budget or a
    /// switch must not quietly fall back to the default.
    static func check() throws {
        if let text = variables["LIQUIDLENS_MAX_PIXELS"], !text.isEmpty, (Int(text) ?? 0) < 1 {
            throw CommandFailure(
                message:
                    "LIQUIDLENS_MAX_PIXELS=\(text): expected a whole number of pixels, 1 or more (frames larger than \(Limits.maxPixels) are refused whatever it says); unset it for the default"
            )
        }
        if let text = variables["LIQUIDLENS_VALIDATION"], !["", "0", "1"].contains(text) {
            throw CommandFailure(message: "LIQUIDLENS_VALIDATION=\(text): expected 1 (on) or 0 (off)")
        }
    }

    /// The `LIQUIDLENS_INJECT_*` faults, for the tests of failure paths.
    static let faults = FaultInjection(environment: variables)

    /// The pipeline cache folder: `LIQUIDLENS_CACHE_DIR`, `$XDG_CACHE_HOME/liquidlens` or
    /// `~/.cache/liquidlens`.
    static let pipelineCache = VulkanOptions.cacheDirectory(environment: variables)

    /// Points the library at `LIQUIDLENS_VULKAN_LIBRARY` (a loader elsewhere, or none, for tests)
    /// before anything opens the Vulkan loader.
    static func chooseVulkanLoader() {
        if let library = variables["LIQUIDLENS_VULKAN_LIBRARY"], !library.isEmpty {
            LensRenderer.vulkanLoaderLibrary = library
        }
    }
}
