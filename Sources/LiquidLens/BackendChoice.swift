import Foundation
import LensModel

/// The work a renderer is made for: how many frames, and how large. ``Backend/automatic`` picks
/// the backend that finishes it first (``BackendChoice/automatic(for:vulkanAvailable:)``).
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
    /// Why, in a few words: `one 780×240 still; the CPU renders it before the GPU is set up`.
    public let reason: String

    /// The most pixels, over all frames of a job, that go to the CPU reference: as many as the
    /// CPU renders while the Vulkan backend is still setting up (instance, device, pipelines;
    /// lavapipe compiles the pipelines on every start), so it has finished first.
    ///
    /// Past the budget a GPU renders a frame in a fraction of the CPU's time and wins. The budget
    /// is what the setup costs, not where a device breaks even; the measurements behind the value
    /// are in <doc:WhatIsMeasured>.
    public static let cpuPixelBudget = 8_000_000

    /// Where `job` renders first: the CPU reference when its pixels, all frames together, are
    /// within ``cpuPixelBudget`` (a small still, a few thumbnails) or when Vulkan is not
    /// available; Vulkan otherwise (batches, animations, large frames), whose setup the job then
    /// pays back. Pure: the same inputs give the same choice.
    public static func automatic(for job: RenderJob, vulkanAvailable: Bool) -> BackendChoice {
        let frames = max(1, job.frames)
        let size = "\(job.width)×\(job.height)"
        let what = frames == 1 ? "one \(size) still" : "\(frames) frames of \(size)"
        guard vulkanAvailable else { return BackendChoice(backend: .cpu, reason: "\(what); Vulkan is unavailable") }
        let (total, overflow) = job.pixelsPerFrame.multipliedReportingOverflow(by: frames)
        if !overflow && total <= cpuPixelBudget {
            let it = frames == 1 ? "it" : "them"
            return BackendChoice(backend: .cpu, reason: "\(what); the CPU renders \(it) before the GPU is set up")
        }
        let over = frames == 1 ? "it" : "the batch"
        return BackendChoice(backend: .vulkan, reason: "\(what); the GPU's setup pays off over \(over)")
    }
}
