import Foundation
import LensModel
import LensVulkan

/// The work a renderer is made for: how many frames, and how large. ``Backend/automatic`` picks
/// the backend that finishes it first (``BackendChoice/automatic(for:device:)``).
public struct RenderJob: Sendable, Equatable {
    /// Frames to render.
    public var frames: Int
    /// Width of a frame in pixels (the first frame's, when they differ).
    public var width: Int
    /// Height of a frame in pixels.
    public var height: Int

    /// `frames` frames of `width` × `height` pixels.
    public init(frames: Int, width: Int, height: Int) {
        self.frames = frames
        self.width = width
        self.height = height
    }

    /// `frames` frames the size of `scene` at `scale` (default: its canvas's), rounded as the
    /// resolver rounds it.
    public init(frames: Int, scene: Scene, scale: Double? = nil) {
        let scale = scale ?? scene.canvas.scale
        self.init(
            frames: frames, width: Int((scene.canvas.width * scale).rounded()),
            height: Int((scene.canvas.height * scale).rounded()))
    }

    /// Pixels in one frame.
    public var pixelsPerFrame: Int { width * height }
}

/// The backend ``Backend/automatic`` takes for a job, and why.
public struct BackendChoice: Sendable, Equatable {
    /// `.cpu` or `.vulkan`.
    public let backend: Backend
    /// Why, in a few words: `one 780×240 still; the CPU renders it before Vulkan is set up (CPU
    /// device, 8 MP budget)`.
    public let reason: String

    /// The most pixels, over all frames of a job, that go to the CPU reference when Vulkan would
    /// run on a device of `kind`: as many as the CPU reference renders while that device is still
    /// setting up (instance, device, the job's pipelines), so the CPU has finished first. Past the
    /// budget the device renders a frame in a fraction of the CPU's time and wins.
    ///
    /// - A CPU device (lavapipe) compiles every pipeline on every start, a large part of a second:
    ///   8 MP, measured (<doc:WhatIsMeasured>). A virtual GPU or a device of another kind is
    ///   treated the same, since nothing says its setup is cheaper.
    /// - An integrated GPU's driver compiles natively and caches: its setup is a tenth of
    ///   lavapipe's or less, while it is slower per frame than a discrete GPU: 2 MP.
    /// - A discrete GPU: 1 MP, about what the CPU reference renders in the setup of a native
    ///   driver.
    ///
    /// The GPU budgets follow from setup times, not from runs on those devices here; the GPU
    /// report (`Tests/Device/report.sh`, its `summary.txt`) measures setup and first frame on one.
    public static func cpuPixelBudget(for kind: DeviceKind) -> Int {
        switch kind {
        case .cpu, .virtualGPU, .other: 8_000_000
        case .integratedGPU: 2_000_000
        case .discreteGPU: 1_000_000
        }
    }

    /// Where `job` renders first when Vulkan would run on a device of kind `device` (nil: no
    /// usable device): the CPU reference when its pixels, all frames together, are within that
    /// kind's ``cpuPixelBudget(for:)`` (a small still, a few thumbnails) or when there is no
    /// device; Vulkan otherwise (batches, animations, large frames), whose setup the job then pays
    /// back. Pure: the same inputs give the same choice.
    public static func automatic(for job: RenderJob, device: DeviceKind?) -> BackendChoice {
        let frames = max(1, job.frames)
        let size = "\(job.width)×\(job.height)"
        let what = frames == 1 ? "one \(size) still" : "\(frames) frames of \(size)"
        guard let device else { return BackendChoice(backend: .cpu, reason: "\(what); Vulkan is unavailable") }
        let budget = cpuPixelBudget(for: device)
        let why = "\(device.rawValue) device, \(budget / 1_000_000) MP budget"
        let (total, overflow) = job.pixelsPerFrame.multipliedReportingOverflow(by: frames)
        if !overflow && total <= budget {
            let it = frames == 1 ? "it" : "them"
            return BackendChoice(
                backend: .cpu, reason: "\(what); the CPU renders \(it) before Vulkan is set up (\(why))")
        }
        let over = frames == 1 ? "it" : "the batch"
        return BackendChoice(backend: .vulkan, reason: "\(what); Vulkan's setup pays off over \(over) (\(why))")
    }
}
