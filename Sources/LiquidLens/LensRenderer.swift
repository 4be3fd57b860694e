import Foundation
import LensCatalog
import LensIO
import LensModel
import LensReference
import LensResolve
import LensText
import LensVulkan

/// Which backend renders.
public enum Backend: String, Sendable, CaseIterable {
    /// The backend that finishes the job first (``BackendChoice/automatic(for:device:)``):
    /// the CPU reference for a small still, Vulkan for batches and large frames when a usable
    /// device exists. Without a ``RenderJob``, Vulkan when a usable device exists, else the CPU.
    case automatic = "auto"
    case vulkan
    case cpu
}

/// What renders a Vulkan frame whose pipelines are still compiling. Pipelines are specialised
/// per lens and compiled on first use, a noticeable part of a second of a core per lens on
/// lavapipe (see the WhatIsMeasured article).
public enum WhileCompiling: String, Sendable, CaseIterable {
    /// The CPU reference renders a frame whose pipelines have not started compiling (the same
    /// pixels); they then compile in the background once the frames that needed them would have
    /// paid for the compile, and the GPU takes over from there. On
    /// lavapipe, where a lens variant is slow to compile, many distinct small frames
    /// stay on the CPU, which renders them as fast. A run's frames then come from both
    /// backends: byte for byte the same output where the two are bit-exact (as on lavapipe,
    /// every test scene and benchmark workload at 0/255); `.wait` for frames from the GPU alone.
    case cpu
    /// The frame waits for its pipelines: the GPU renders every frame.
    case wait
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
    private let reference: ReferenceRenderer

    /// The backend that renders: `.vulkan` or `.cpu`, never `.automatic`.
    public let activeBackend: Backend
    /// Why `.automatic` fell back to the CPU, if it did.
    public let fallbackReason: String?
    /// What `.automatic` chose for the job, and why; nil when a backend was named or no job given.
    public let automaticChoice: BackendChoice?

    /// A renderer on `backend`. `.automatic` with a `job` takes the backend that finishes it
    /// first, and without one Vulkan; either falls back to the CPU reference when no device works.
    /// `whileCompiling` says what renders a Vulkan frame whose pipelines are still compiling;
    /// by default the CPU reference for `.automatic` and the GPU (waiting) for `.vulkan`.
    ///
    /// - Throws: `VulkanError` when `.vulkan` was asked for and no device works.
    public init(
        backend: Backend = .automatic, job: RenderJob? = nil, vulkanOptions: VulkanOptions = VulkanOptions(),
        whileCompiling: WhileCompiling? = nil
    ) throws {
        let reference = ReferenceRenderer()
        self.reference = reference
        var vulkanOptions = vulkanOptions
        if (whileCompiling ?? (backend == .vulkan ? .wait : .cpu)) == .cpu {
            vulkanOptions.standIn = { reference.render($0) }
        }
        var fallbackReason: String?
        var choice: BackendChoice?
        switch backend {
        case .cpu:
            vulkan = nil
        case .vulkan:
            vulkan = try VulkanRenderer(options: vulkanOptions)
        case .automatic:
            // The rule depends on the device Vulkan would use, found without setting it up.
            let probe = job.map { _ in Result { try VulkanRenderer.DeviceProbe(options: vulkanOptions) } }
            choice = job.map { BackendChoice.automatic(for: $0, device: try? probe?.get().device.kind) }
            if choice?.backend == .cpu {
                vulkan = nil
                if case .failure(let error) = probe { fallbackReason = "\(error)" }
            } else {
                do {
                    vulkan = try VulkanRenderer(options: vulkanOptions, probe: try probe?.get())
                } catch {
                    vulkan = nil
                    fallbackReason = "\(error)"
                    choice = job.map { BackendChoice.automatic(for: $0, device: nil) }
                }
            }
        }
        self.fallbackReason = fallbackReason
        automaticChoice = choice
        activeBackend = vulkan == nil ? .cpu : .vulkan
    }

    /// The Vulkan loader library this process opens, `libvulkan.so.1` by default. Set it before
    /// the first Vulkan renderer or device listing: the loader, once opened, stays open.
    public static var vulkanLoaderLibrary: String {
        get { VulkanRenderer.loaderLibrary }
        set { VulkanRenderer.loaderLibrary = newValue }
    }

    /// The Vulkan device in use, if any.
    public var device: DeviceDescription? { vulkan?.deviceDescription }
    /// Validation-layer messages so far (Vulkan with validation on only).
    public var validationMessages: [String] { vulkan?.validationMessages ?? [] }
    /// GPU stage times of the last frame (Vulkan only, with ``measuresStages`` on).
    package var lastStageTimes: GPUStageTimes? { vulkan?.lastStageTimes }
    /// Whether Vulkan frames from now on split their GPU time by stage (``lastStageTimes``); off
    /// by default, since the timestamps cost lavapipe about 0.2 ms a lens.
    package var measuresStages: Bool {
        get { vulkan?.measuresStages ?? false }
        set { vulkan?.measuresStages = newValue }
    }
    /// The Vulkan backend's memory path, `.unified` or `.discrete` (Vulkan only).
    public var memoryPath: MemoryPath? { vulkan?.memoryPath }
    /// Frames the CPU reference rendered because their Vulkan pipelines were not compiled (``WhileCompiling/cpu``).
    public var standInFrames: Int { vulkan?.standInFrames ?? 0 }
    /// How long Vulkan frames have waited for their pipelines to compile, milliseconds: under
    /// ``WhileCompiling/wait``, and under ``WhileCompiling/cpu`` where a frame's pipelines were
    /// already compiling.
    package var compileWaitMs: Double { vulkan?.compileWaitMs ?? 0 }
    /// What crossed between host and device for the last frame submitted (Vulkan only).
    package var lastTransfers: FrameTransfers? { vulkan?.lastTransfers }

    /// Compiles the Vulkan pipelines the CPU reference's stand-in frames needed
    /// (``WhileCompiling/cpu``) and the label-free variants the GPU's frames could have used, and
    /// waits for them, so frames like those render on the GPU at full speed from here on; nothing
    /// to wait for on the CPU.
    public func waitForPipelines() throws {
        try vulkan?.waitForPipelines()
    }

    /// Starts compiling, on every core at once, the Vulkan pipelines `frames` need, so that
    /// rendering them waits only for what is not compiled by then (a contact sheet's cells each
    /// need their own). Nothing to do on the CPU, nor with ``WhileCompiling/cpu``, where the CPU
    /// reference draws the frames whose pipelines have not paid for their compile.
    public func prepare(_ frames: [FrameParameters]) {
        vulkan?.prepare(frames)
    }

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
    /// `ResolveCache` to ``resolve(_:baseDirectory:scale:cache:pixelBudget:images:annotating:)`` so they see it). Output is
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

    /// Images read once per process (`ImageCache`): what ``resolve(_:baseDirectory:scale:cache:pixelBudget:images:annotating:)``
    /// reads through unless given another cache.
    public static let sharedImages = ImageCache()

    /// Resolves `scene` for the backends, reading its images (PNG, JPEG, WebP, HEIC, AVIF, SVG;
    /// `ImageReader`) through `images`, so each file is decoded once. Frames resolved with one
    /// `cache` paint an unchanged backdrop and label once.
    public static func resolve(
        _ scene: Scene, baseDirectory: URL? = nil, scale: Double? = nil, cache: ResolveCache? = nil,
        pixelBudget: Int = Limits.maxPixels, images: ImageCache = sharedImages, annotating: Bool = false
    ) throws -> FrameParameters {
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var resolver = SceneResolver(
            loadImage: { path, scale in
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
                return try images.image(at: url, scale: scale)
            }, text: scene.needsText ? try sharedText() : nil, cache: cache, pixelBudget: pixelBudget)
        resolver.annotates = annotating
        return try resolver.resolve(scene, scale: scale)
    }

    /// What `scene`'s frame shows, for datasets: every glass element's and control part's box in
    /// pixels, the controls' states, the effective optics and the backdrop's luminance under each
    /// glass (`FrameAnnotations`). The same as a frame resolved with `annotating: true` carries.
    ///
    /// ```swift
    /// let boxes = try LensRenderer.annotations(of: scene).controls[0].parts.map(\.box)
    /// ```
    public static func annotations(of scene: Scene, baseDirectory: URL? = nil, scale: Double? = nil) throws
        -> FrameAnnotations
    {
        let parameters = try resolve(scene, baseDirectory: baseDirectory, scale: scale, annotating: true)
        return parameters.annotations!
    }

    /// Where a resolved frame's glass lies and where its labels take the accent colour, one byte
    /// per pixel (`FrameMasks`): the same for either backend, computed with the CPU reference's
    /// shader functions.
    ///
    /// ```swift
    /// let masks = LensRenderer.masks(of: try LensRenderer.resolve(scene))
    /// try PNGCodec.write(masks.tint, to: URL(fileURLWithPath: "tint.png"))
    /// ```
    public static func masks(of parameters: FrameParameters) -> FrameMasks {
        ReferenceRenderer.masks(parameters)
    }

    private static let textLock = NSLock()
    nonisolated(unsafe) private static var text: TextRenderer?

    /// One FreeType/HarfBuzz renderer per process, made on first use.
    package static func sharedText() throws -> TextRenderer {
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

extension BatchManifest {
    /// The scene of frame `index` and the folder its relative paths are read from, text set with
    /// the shared text renderer.
    public func scene(_ index: Int) throws -> (scene: Scene, baseDirectory: URL?) {
        try scene(index, text: LensRenderer.sharedText())
    }
}

extension BenchmarkWorkload {
    /// Frame `index` of a run of `count` frames, its text set with the shared text renderer.
    package func scene(_ index: Int, of count: Int) throws -> Scene {
        try scene(index, of: count, text: LensRenderer.sharedText())
    }

    /// The lens-heavy frame (see `BenchmarkWorkload.lensHeavy(lensCenterX:width:height:optics:glass:text:)`)
    /// with its text set by the shared text renderer.
    package static func lensHeavy(
        lensCenterX: Double, width: Double = 1920, height: Double = 1080, optics: Optics = lensHeavyOptics,
        glass: [GlassElement]? = nil
    ) throws -> Scene {
        try lensHeavy(
            lensCenterX: lensCenterX, width: width, height: height, optics: optics, glass: glass,
            text: LensRenderer.sharedText())
    }
}
