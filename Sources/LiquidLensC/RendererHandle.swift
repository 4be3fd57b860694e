import Foundation
import LiquidLens

/// A renderer behind the C ABI: a `LensRenderer` that one call uses at a time, so callers on
/// several threads may share it; batches (`liquidlens_frames_open`) set up a renderer of their own
/// on the same backend and device.
final class RendererHandle: @unchecked Sendable {
    /// The backend that renders (`.vulkan` or `.cpu`).
    let backend: Backend
    /// The backend asked for: a batch's renderer chooses by it, `auto` weighing the batch as
    /// `liquidlens batch` does.
    let requested: Backend
    let options: VulkanOptions
    private let renderer: LensRenderer
    private let lock = NSLock()

    /// A renderer on `backend` (`auto`, `vulkan` or `cpu`) and `device` (an index or a part of
    /// its name; nil: the best usable one).
    init(backend name: String, device: String?) throws {
        guard let backend = Backend(rawValue: name) else {
            throw Failure(kind: "scene", message: "backend \(name) is not one of auto, vulkan, cpu", keyPath: "backend")
        }
        let environment = ProcessInfo.processInfo.environment
        options = VulkanOptions(
            device: device, pipelineCacheDirectory: VulkanOptions.cacheDirectory(environment: environment))
        renderer = try Self.makeRenderer(backend, options: options)
        self.backend = renderer.activeBackend
        requested = backend
    }

    /// A renderer for a batch of `job`'s frames, on the backend asked for and this device.
    func batchRenderer(for job: RenderJob) throws -> LensRenderer {
        try Self.makeRenderer(requested, options: options, job: job)
    }

    /// `scene` rendered, with its annotations and masks as `extras` asks.
    func render(_ scene: Scene, baseDirectory: URL, extras: FrameExtras) throws -> RenderedFrame {
        let parameters = try LensRenderer.resolve(
            scene, baseDirectory: baseDirectory, annotating: extras.contains(.annotations))
        let image = try lock.withLock { try renderer.render(parameters) }
        return try RenderedFrame(index: 0, image: image, extras: extras.of(parameters))
    }

    /// The name of the device in use, nil on the CPU.
    var deviceName: String? { renderer.device?.name }

    /// A `LensRenderer`, its failure worded as the command line's.
    private static func makeRenderer(_ backend: Backend, options: VulkanOptions, job: RenderJob? = nil) throws
        -> LensRenderer
    {
        do {
            return try LensRenderer(backend: backend, job: job, vulkanOptions: options)
        } catch {
            throw Failure(kind: "backend", message: "the Vulkan backend is unavailable: \(error)")
        }
    }
}

/// The renderer `pointer` holds.
func renderer(_ pointer: OpaquePointer) -> RendererHandle {
    Unmanaged<RendererHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// A renderer on `backend` (`"auto"`, `"vulkan"` or `"cpu"`; null: auto) and `device` (a
/// Vulkan device index or a part of its name; null: the best usable one), freed with
/// `liquidlens_renderer_free`; null with `*error` set when no backend can render as asked.
@_cdecl("liquidlens_renderer_create")
public func rendererCreate(_ backend: UnsafePointer<CChar>?, _ device: UnsafePointer<CChar>?, _ error: ErrorOut)
    -> OpaquePointer?
{
    reportingFailure(to: error, fallback: nil) {
        let handle = try RendererHandle(backend: string(backend) ?? "auto", device: string(device))
        return OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
    }
}

/// The backend that renders: `"vulkan"` or `"cpu"` (a static string).
@_cdecl("liquidlens_renderer_backend")
public func rendererBackend(_ pointer: OpaquePointer) -> UnsafePointer<CChar> {
    renderer(pointer).backend == .vulkan ? backendNames.vulkan : backendNames.cpu
}

/// The backends' names as C strings, made once and never freed.
nonisolated(unsafe) private let backendNames = (
    vulkan: UnsafePointer(strdup("vulkan")!), cpu: UnsafePointer(strdup("cpu")!)
)

/// The Vulkan device's name, a string to free with `liquidlens_string_free`; null on the CPU.
@_cdecl("liquidlens_renderer_device")
public func rendererDevice(_ pointer: OpaquePointer) -> UnsafeMutablePointer<CChar>? {
    renderer(pointer).deviceName.map { strdup($0) }
}

/// Renders one scene, given as JSON `text` (relative paths read from `base_directory`, null: the
/// working folder) or as the `path` of a scene file; `extras` is 0, or 1 (the frame carries its
/// annotations) and 2 (its masks, `liquidlens_frame_copy_mask`) ORed. The frame is freed with
/// `liquidlens_frame_free`; null with `*error` set on failure. Calls on one renderer from several threads take turns.
@_cdecl("liquidlens_render")
public func render(
    _ pointer: OpaquePointer, _ text: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
    _ baseDirectory: UnsafePointer<CChar>?, _ extras: Int32, _ error: ErrorOut
) -> OpaquePointer? {
    reportingFailure(to: error, fallback: nil) {
        let source = DocumentSource(text: string(text), path: string(path), baseDirectory: string(baseDirectory))
        let (scene, base) = try source.scene()
        return retained(
            try renderer(pointer).render(scene, baseDirectory: base, extras: FrameExtras(rawValue: extras)))
    }
}

/// Frees a renderer; frame streams opened on it keep what they need.
@_cdecl("liquidlens_renderer_free")
public func rendererFree(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    Unmanaged<RendererHandle>.fromOpaque(UnsafeRawPointer(pointer)).release()
}
