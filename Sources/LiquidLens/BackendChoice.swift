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
    /// Measured with the release binary on this project's 2-core machine and lavapipe
    /// (`liquidlens render --timing`): Vulkan's setup takes 0.78–0.91 s; the CPU's first frame
    /// takes 15 ms at 780×240 (12.8 MP/s), 48 ms at 1560×480 (15.6 MP/s), 190 ms at 1920×1080
    /// (10.9 MP/s), 492 ms at 2880×1620 (9.5 MP/s), 919 ms at 3840×2160 (9.0 MP/s): about 8 MP
    /// in the 0.8 s of setup. Whole runs (`time liquidlens render --backend cpu|vulkan`, median of
    /// 3): the showcase takes 0.07 s on the CPU and 0.93 s on Vulkan at scale 2 (0.19 MP), 0.22 s
    /// and 1.06 s at scale 4 (0.75 MP); a 1920×1080 scene 0.59 s and 1.42 s, at 3840×2160 1.94 s
    /// and 2.75 s. Past the budget a GPU renders a frame in a fraction of the CPU's time and
    /// wins; on lavapipe, whose lens pass is no faster per frame than the CPU yet, the CPU still
    /// wins single stills up to 5760×3240 (4.4 s against 6.6 s), so the budget is what the setup
    /// costs, not where lavapipe breaks even. Since lens pipelines are specialised per lens and
    /// compiled with the first frame, setup is 10–20 ms and the first frame carries 0.25–0.35 s of
    /// compiles per lens (the showcase: 0.31 s on Vulkan, whole run; 0.10–0.12 s with
    /// ``WhileCompiling/cpu``, whose stand-in renders it), and lavapipe's lens pass is about 2× as
    /// fast as the CPU's; the budget was left as measured above.
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
