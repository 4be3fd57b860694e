import Foundation
import LensModel

/// Failures a `VulkanRenderer` fakes on purpose, so tests can see how failures are reported and
/// survived without a broken device. Fixed when the renderer is made, from
/// ``VulkanOptions/faultInjection``: none by default; the command line maps its
/// `LIQUIDLENS_INJECT_*` environment variables onto it (which is how the CLI tests reach it).
package struct FaultInjection: Sendable, Equatable {
    /// Flips the low bits of red in every 7th pixel of every frame read back, as a broken shader
    /// would; the parity check of `liquidlens bench` must notice. `LIQUIDLENS_INJECT_WRONG_PIXELS=1`.
    package var wrongPixels: Bool
    /// The frame (1-based, counted per renderer) whose submit fails with `VK_ERROR_DEVICE_LOST`,
    /// as on a device that went away mid-run. `LIQUIDLENS_INJECT_DEVICE_LOST=N`.
    package var deviceLostAtFrame: Int?
    /// Every frame's buffer allocation fails with `VK_ERROR_OUT_OF_DEVICE_MEMORY`, as on a device
    /// too small for the frame. `LIQUIDLENS_INJECT_OUT_OF_MEMORY=1`.
    package var outOfMemory: Bool
    /// Every compile of a lens variant without the label sampling fails with
    /// `VK_ERROR_OUT_OF_HOST_MEMORY`, as on a driver that runs out while compiling: a lens that
    /// also reaches the label must render with its label variant alone.
    /// `LIQUIDLENS_INJECT_LABEL_FREE_COMPILE_FAILURE=1`.
    package var labelFreeCompileFails: Bool

    /// The faults given; none by default.
    package init(
        wrongPixels: Bool = false, deviceLostAtFrame: Int? = nil, outOfMemory: Bool = false,
        labelFreeCompileFails: Bool = false
    ) {
        self.wrongPixels = wrongPixels
        self.deviceLostAtFrame = deviceLostAtFrame
        self.outOfMemory = outOfMemory
        self.labelFreeCompileFails = labelFreeCompileFails
    }

    /// The faults the `LIQUIDLENS_INJECT_*` variables of `environment` ask for.
    package init(environment: [String: String]) {
        self.init(
            wrongPixels: environment["LIQUIDLENS_INJECT_WRONG_PIXELS"] == "1",
            deviceLostAtFrame: environment["LIQUIDLENS_INJECT_DEVICE_LOST"].flatMap { Int($0) },
            outOfMemory: environment["LIQUIDLENS_INJECT_OUT_OF_MEMORY"] == "1",
            labelFreeCompileFails: environment["LIQUIDLENS_INJECT_LABEL_FREE_COMPILE_FAILURE"] == "1")
    }

    /// Throws where a real allocation would, before the frame's buffers are grown.
    func failAllocationIfInjected() throws {
        guard outOfMemory else { return }
        throw VulkanError(call: "vkAllocateMemory", result: .outOfDeviceMemory)
    }

    /// Throws where a real submit would, for the renderer's `frameNumber`-th frame (1-based).
    func failSubmitIfInjected(frameNumber: Int) throws {
        guard frameNumber == deviceLostAtFrame else { return }
        throw VulkanError(
            call: "vkQueueSubmit", result: .deviceLost, note: "injected by LIQUIDLENS_INJECT_DEVICE_LOST")
    }

    /// The error a compile of `variant` that succeeded fails with instead, if injected.
    func compileFailure(of variant: PipelineVariant) -> VulkanError? {
        guard labelFreeCompileFails, case .lens(let lens) = variant, !lens.reachesLabel else { return nil }
        return VulkanError(
            call: "vkCreateComputePipelines", result: .outOfHostMemory,
            note: "injected by LIQUIDLENS_INJECT_LABEL_FREE_COMPILE_FAILURE")
    }

    /// Damages a frame read back from the device.
    func corruptIfInjected(_ image: inout RGBA8Image) {
        guard wrongPixels else { return }
        for pixel in stride(from: 0, to: image.width * image.height, by: 7) { image.pixels[pixel * 4] ^= 0x0F }
    }
}
