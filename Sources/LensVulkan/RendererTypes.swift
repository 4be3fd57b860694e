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
    /// Failures to fake, for tests; by default what the `LIQUIDLENS_INJECT_*` variables ask for.
    public var faultInjection: FaultInjection
    /// Where buffers live: chosen by the device's heaps, or one path forced.
    public var memoryPath: MemoryPath

    /// Options with the given settings; each defaults to the usual choice.
    public init(
        device: String? = nil, validation: Bool = false,
        pipelineCacheDirectory: URL? = VulkanOptions.defaultCacheDirectory,
        faultInjection: FaultInjection = .fromEnvironment, memoryPath: MemoryPath = .automatic
    ) {
        self.device = device
        self.validation = validation
        self.pipelineCacheDirectory = pipelineCacheDirectory
        self.faultInjection = faultInjection
        self.memoryPath = memoryPath
    }

    /// `$LIQUIDLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/liquidlens`, else `~/.cache/liquidlens`.
    public static var defaultCacheDirectory: URL? {
        let environment = ProcessInfo.processInfo.environment
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

/// What crossed between host and device for one frame.
public struct FrameTransfers: Sendable, Equatable {
    /// The inputs the host wrote, by buffer (`params`, `tables`, `backdrop`, `label`, `shapes`,
    /// `tiles`, `tileShapes`, `foreground`), in the order written. An input that holds the same
    /// bytes as the frame slot's previous frame is not written again.
    public var inputs: [String] = []
    /// Bytes the host wrote: into the buffers the shaders read (unified path) or into the
    /// staging buffer (discrete path).
    public var uploadedBytes = 0
    /// Bytes copied from the staging buffer into device-local buffers: all of ``uploadedBytes``
    /// on the discrete path, none on the unified one.
    public var copiedBytes = 0
    /// Bytes of the finished frame copied into the host-cached readback buffer: the frame on the
    /// discrete path, none on the unified one (the host reads the output buffer in place).
    public var readbackBytes = 0

    /// Nothing transferred.
    public init() {}
}

/// A lens pipeline variant: the `SHAPE_KINDS`, `SINGLE_SHAPE` and `REACHES_LABEL`
/// specialisation constants.
struct LensVariant: Hashable {
    /// Bit `1 << kind` for each shape kind in the group.
    var shapeKinds: UInt32
    var singleShape: Bool
    var reachesLabel: Bool
    /// Whether the group disperses by spectral taps (GLSL: `SPECTRAL`).
    var spectral: Bool
    var writesComposite: Bool

    /// The variant of `lens`, a group of `shapes`, for its tiles that reach a label or the others.
    init(lens: LensParams, shapes: ArraySlice<ShapeParams>, reachesLabel: Bool) {
        shapeKinds = shapes.reduce(0) { $0 | 1 << $1.kind }
        singleShape = lens.shapeCount == 1
        self.reachesLabel = reachesLabel
        spectral = lens.dispersion > 0 && lens.spectralTaps > 0
        writesComposite = !PixelRegion(bounds: lens.compositeRegion).isEmpty
    }

    /// The common lens: one rounded box, no spectral taps, not under other glass, over a label and not.
    static let preloaded = [true, false].map {
        LensVariant(shapeKinds: 1, singleShape: true, reachesLabel: $0, spectral: false, writesComposite: false)
    }

    private init(
        shapeKinds: UInt32, singleShape: Bool, reachesLabel: Bool, spectral: Bool, writesComposite: Bool
    ) {
        self.shapeKinds = shapeKinds
        self.singleShape = singleShape
        self.reachesLabel = reachesLabel
        self.spectral = spectral
        self.writesComposite = writesComposite
    }

    var constants: [UInt32] {
        [shapeKinds, singleShape ? 1 : 0, reachesLabel ? 1 : 0, spectral ? 1 : 0, writesComposite ? 1 : 0]
    }
}

/// GPU time of each stage of a frame, from timestamp queries, plus the host's readback, in
/// milliseconds.
public struct GPUStageTimes: Sendable {
    /// The base layer: backdrop and resting label (0 when the previous frame's base was reused).
    public var compose: Double
    /// Copying the base layer into the output (and, after composing, into the kept base).
    public var copy: Double
    /// Both frost passes (rows, then columns) of every lens, summed.
    public var frost: Double
    /// The lens pass of every lens, summed, plus the foreground overlay.
    public var lens: Double
    /// The host copying the finished frame out of the mapped output buffer.
    public var readback: Double
    /// Time on the GPU: every stage but the readback.
    public var total: Double { compose + copy + frost + lens }
}
