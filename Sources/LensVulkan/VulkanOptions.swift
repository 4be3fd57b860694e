import Foundation
import LensModel
import LensResolve

/// How to set up the Vulkan backend.
public struct VulkanOptions: Sendable {
    /// A device index or part of its name; nil picks the best usable device.
    public var device: String?
    /// Enables the Khronos validation layer and records its messages.
    public var validation: Bool
    /// Where the pipeline cache lives; nil keeps it in memory only.
    public var pipelineCacheDirectory: URL?
    /// Failures to fake, for the package's tests and the command line's `LIQUIDLENS_INJECT_*`
    /// variables; none unless set.
    package var faultInjection = FaultInjection()
    /// Where buffers live: chosen by the device's heaps, or one path forced.
    public var memoryPath: MemoryPath
    /// Renders a frame on the host (the CPU reference, whose pixels are the same) when a
    /// pipeline it needs is neither compiled nor compiling; the compiles start after it, as far
    /// as they pay for themselves (`CompilePayback`). A frame whose missing pipelines are all
    /// compiling waits for them. nil waits always, so the device renders every frame.
    public var standIn: (@Sendable (FrameParameters) -> RGBA8Image)?

    /// Options with the given settings; each defaults to the usual choice.
    public init(
        device: String? = nil, validation: Bool = false,
        pipelineCacheDirectory: URL? = nil, memoryPath: MemoryPath = .automatic,
        standIn: (@Sendable (FrameParameters) -> RGBA8Image)? = nil
    ) {
        self.device = device
        self.validation = validation
        self.pipelineCacheDirectory = pipelineCacheDirectory
        self.memoryPath = memoryPath
        self.standIn = standIn
    }

    /// The pipeline cache folder the conventions of `environment` name: `LIQUIDLENS_CACHE_DIR`,
    /// else `$XDG_CACHE_HOME/liquidlens`, else `$HOME/.cache/liquidlens` (the command line passes
    /// its own environment; a library caller decides).
    public static func cacheDirectory(environment: [String: String]) -> URL? {
        if let explicit = environment["LIQUIDLENS_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("liquidlens")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/liquidlens")
    }
}

/// Where the Vulkan backend keeps its buffers and how frames cross between host and device.
public enum MemoryPath: String, Sendable, CaseIterable {
    /// Unified on a device whose memory the host shares (lavapipe, integrated GPUs), discrete on
    /// one with memory of its own across a bus (see ``DeviceMemoryLayout/isUnified``).
    case automatic = "auto"
    /// Inputs and intermediates in device-local memory; uploads through a host-visible staging
    /// buffer per frame slot and `vkCmdCopyBuffer` (on a dedicated transfer queue when the device
    /// has one); the finished frame copied into host-cached memory for the host to read.
    case discrete
    /// Every buffer host-visible and mapped: the host writes inputs where the shaders read them
    /// and reads the output in place, with no copies.
    case unified
}
