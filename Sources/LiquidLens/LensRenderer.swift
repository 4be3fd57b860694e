import Foundation
@_exported import LensCatalog
@_exported import LensControls
@_exported import LensIO
@_exported import LensModel
import LensReference
@_exported import LensResolve
import LensText
import LensVulkan

/// How to set up the Vulkan backend (`LensVulkan.VulkanOptions`); the aliases spare callers importing LensVulkan.
public typealias VulkanOptions = LensVulkan.VulkanOptions
/// One physical device Vulkan reported and whether it is usable (`LensVulkan.DeviceDescription`).
public typealias DeviceDescription = LensVulkan.DeviceDescription
/// GPU milliseconds per stage of a Vulkan frame (`LensVulkan.GPUStageTimes`).
public typealias GPUStageTimes = LensVulkan.GPUStageTimes
/// A Vulkan failure: the call and its result, or a setup problem (`LensVulkan.VulkanError`).
public typealias VulkanError = LensVulkan.VulkanError
/// A `VkResult` code as a Swift value (`LensVulkan.VulkanResult`).
public typealias VulkanResult = LensVulkan.VulkanResult
/// Failures the Vulkan backend fakes on purpose, for tests (`LensVulkan.FaultInjection`).
public typealias FaultInjection = LensVulkan.FaultInjection

/// Where the Vulkan backend keeps its buffers: by the device, or forced (`LensVulkan.MemoryPath`).
public typealias MemoryPath = LensVulkan.MemoryPath
/// A device's memory heaps, unified or discrete, and its transfer queue (`LensVulkan.DeviceMemoryLayout`).
public typealias DeviceMemoryLayout = LensVulkan.DeviceMemoryLayout
/// What crossed between host and device for one Vulkan frame (`LensVulkan.FrameTransfers`).
public typealias FrameTransfers = LensVulkan.FrameTransfers

/// Which backend renders.
public enum Backend: String, Sendable, CaseIterable {
    /// Vulkan when a usable device exists, else the CPU reference.
    case automatic = "auto"
    case vulkan
    case cpu
}

/// Turns scenes into images with the chosen backend. Both backends consume the same resolved
/// `FrameParameters` and agree to 1/255 per channel.
///
/// ```swift
/// import LiquidLens
/// let renderer = try LensRenderer(backend: .automatic)
/// let image = try renderer.render(BuiltInScene.segmented.scene)
/// try PNGCodec.write(image, to: URL(fileURLWithPath: "segmented.png"))
/// ```
public final class LensRenderer {
    private let vulkan: VulkanRenderer?
    private let reference = ReferenceRenderer()

    /// The backend that renders: `.vulkan` or `.cpu`, never `.automatic`.
    public let activeBackend: Backend
    /// Why `.automatic` fell back to the CPU, if it did.
    public let fallbackReason: String?

    /// A renderer on `backend`; `.automatic` takes Vulkan when a device works, else the CPU reference.
    ///
    /// - Throws: ``VulkanError`` when `.vulkan` was asked for and no device works.
    public init(backend: Backend = .automatic, vulkanOptions: VulkanOptions = VulkanOptions()) throws {
        switch backend {
        case .cpu:
            vulkan = nil
            fallbackReason = nil
        case .vulkan:
            vulkan = try VulkanRenderer(options: vulkanOptions)
            fallbackReason = nil
        case .automatic:
            do {
                vulkan = try VulkanRenderer(options: vulkanOptions)
                fallbackReason = nil
            } catch {
                vulkan = nil
                fallbackReason = "\(error)"
            }
        }
        activeBackend = vulkan == nil ? .cpu : .vulkan
    }

    /// The Vulkan device in use, if any.
    public var device: DeviceDescription? { vulkan?.deviceDescription }
    /// Validation-layer messages so far (Vulkan with validation on only).
    public var validationMessages: [String] { vulkan?.validationMessages ?? [] }
    /// GPU stage times of the last frame (Vulkan only).
    public var lastStageTimes: GPUStageTimes? { vulkan?.lastStageTimes }
    /// The Vulkan backend's memory path, `.unified` or `.discrete` (Vulkan only).
    public var memoryPath: MemoryPath? { vulkan?.memoryPath }
    /// What crossed between host and device for the last frame submitted (Vulkan only).
    public var lastTransfers: FrameTransfers? { vulkan?.lastTransfers }

    /// Resolves and renders `scene`; relative image paths are looked up in `baseDirectory`.
    public func render(_ scene: Scene, baseDirectory: URL? = nil, scale: Double? = nil) throws -> RGBA8Image {
        try render(Self.resolve(scene, baseDirectory: baseDirectory, scale: scale))
    }

    /// Renders an already resolved frame.
    public func render(_ parameters: FrameParameters) throws -> RGBA8Image {
        if let vulkan { return try vulkan.render(parameters) }
        return reference.render(parameters)
    }

    /// Renders `count` frames, asking for frame `i` with `frame(i)` while earlier frames are still
    /// on the device, and handing each image to `deliver` in order as soon as it is done. The
    /// Vulkan backend keeps `framesInFlight` frames submitted; both backends skip the uploads,
    /// composing and blurring that frames over an unchanged backdrop share (pass the same
    /// `ResolveCache` to ``resolve(_:baseDirectory:scale:cache:)`` so they see it). Output is
    /// bit-identical to rendering each frame alone. Memory stays bounded however long the batch.
    ///
    /// ```swift
    /// let cache = ResolveCache()
    /// try renderer.renderBatch(count: scenes.count) { index in
    ///     try LensRenderer.resolve(scenes[index], cache: cache)
    /// } deliver: { index, image in
    ///     try PNGCodec.write(image, to: URL(fileURLWithPath: "frame-\(index).png"))
    /// }
    /// ```
    public func renderBatch(
        count: Int, framesInFlight: Int = 2, frame: (Int) throws -> FrameParameters,
        deliver: (Int, RGBA8Image) throws -> Void
    ) throws {
        if let vulkan {
            try vulkan.renderBatch(count: count, framesInFlight: framesInFlight, frame: frame, deliver: deliver)
            return
        }
        for index in 0..<count { try deliver(index, reference.render(try frame(index))) }
    }

    /// Resolves `scene` for the backends, reading its images with `PNGCodec`. Frames resolved
    /// with one `cache` paint an unchanged backdrop and label once.
    public static func resolve(
        _ scene: Scene, baseDirectory: URL? = nil, scale: Double? = nil, cache: ResolveCache? = nil
    ) throws -> FrameParameters {
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let resolver = SceneResolver(
            loadImage: { path in
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
                return try PNGCodec.read(contentsOf: url)
            }, text: scene.needsText ? try sharedText() : nil, cache: cache)
        return try resolver.resolve(scene, scale: scale)
    }

    private static let textLock = NSLock()
    nonisolated(unsafe) private static var text: TextRenderer?

    /// One FreeType/HarfBuzz renderer per process, made on first use.
    static func sharedText() throws -> TextRenderer {
        try textLock.withLock {
            if let text { return text }
            let created = try TextRenderer()
            text = created
            return created
        }
    }

    /// Every Vulkan device with why it is or is not usable.
    public static func listDevices() throws -> [DeviceDescription] {
        try VulkanRenderer.listDevices()
    }
}

extension BenchmarkWorkload {
    /// Frame `index` of a run of `count` frames, its text set with the shared text renderer.
    public func scene(_ index: Int, of count: Int) throws -> Scene {
        try scene(index, of: count, text: LensRenderer.sharedText())
    }

    /// The lens-heavy frame (see ``BenchmarkWorkload/lensHeavy(lensCenterX:width:height:optics:glass:text:)``)
    /// with its text set by the shared text renderer.
    public static func lensHeavy(
        lensCenterX: Double, width: Double = 1920, height: Double = 1080, optics: Optics = lensHeavyOptics,
        glass: [GlassElement]? = nil
    ) throws -> Scene {
        try lensHeavy(
            lensCenterX: lensCenterX, width: width, height: height, optics: optics, glass: glass,
            text: LensRenderer.sharedText())
    }
}
