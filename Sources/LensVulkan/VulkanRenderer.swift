internal import CVulkan
import Foundation
import LensCore
import LensShaders

/// How to set up the Vulkan backend.
public struct VulkanOptions: Sendable {
    /// A device index or part of its name; nil picks the best usable device.
    public var device: String?
    /// Enables the Khronos validation layer and records its messages.
    public var validation: Bool
    /// Where the pipeline cache lives; nil keeps it in memory only.
    public var pipelineCacheDirectory: URL?

    public init(
        device: String? = nil, validation: Bool = false,
        pipelineCacheDirectory: URL? = VulkanOptions.defaultCacheDirectory
    ) {
        self.device = device
        self.validation = validation
        self.pipelineCacheDirectory = pipelineCacheDirectory
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

/// A lens pipeline variant: the `SHAPE_KINDS` and `SINGLE_SHAPE` specialisation constants.
struct LensVariant: Hashable {
    /// Bit `1 << kind` for each shape kind in the group.
    var shapeKinds: UInt32
    var singleShape: Bool

    static let singleRoundedBox = LensVariant(shapeKinds: 1, singleShape: true)

    var constants: [UInt32] { [shapeKinds, singleShape ? 1 : 0] }
}

/// GPU time of each stage of the last frame, from timestamp queries, in milliseconds.
public struct GPUStageTimes: Sendable {
    public var compose: Double
    public var frost: Double
    public var lens: Double
    public var total: Double { compose + frost + lens }
}

/// The Vulkan compute backend. Creates instance, device, pipelines and buffers once and reuses
/// them for every frame; buffers grow when a larger frame arrives. Not thread-safe: use one
/// renderer per thread.
public final class VulkanRenderer {
    private let device: Device
    private let layout: PipelineLayout
    private let cache: PipelineCache
    private let composePipeline: ComputePipeline
    private let frostPipeline: ComputePipeline
    private let lensShader: ShaderModule
    /// Lens pipelines by variant, created on first use and kept for the renderer's life.
    private var lensPipelines: [LensVariant: ComputePipeline] = [:]
    private let descriptorSet: DescriptorSet
    private let commandBuffer: CommandBuffer
    private let fence: Fence
    private var buffers: [Buffer] = []
    private var queries: TimestampQueryPool?

    /// The device in use.
    public let deviceDescription: DeviceDescription
    /// Whether the validation layer is on.
    public var validationEnabled: Bool { device.instance.validationEnabled }
    /// Everything the validation layer reported so far (warnings and errors).
    public var validationMessages: [String] { device.instance.validationLog.messages }
    /// Stage times of the last frame; nil when the queue has no timestamps.
    public private(set) var lastStageTimes: GPUStageTimes?

    /// Buffer bindings, in the order of `Shaders/lens_common.glsl`.
    private enum Binding: Int, CaseIterable {
        case params, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes
    }

    public init(options: VulkanOptions = VulkanOptions()) throws {
        let instance = try Instance(validation: options.validation)
        let choice = try DeviceSelector.choose(instance, preference: options.device)
        device = try Device(instance: instance, physical: choice)
        deviceDescription = choice.description
        let setLayout = try DescriptorSetLayout(device: device, storageBufferCount: Binding.allCases.count)
        layout = try PipelineLayout(setLayout: setLayout, pushConstantSize: DispatchConstants.pushSize)
        cache = try PipelineCache(device: device, directory: options.pipelineCacheDirectory)
        composePipeline = try ComputePipeline(
            layout: layout, shader: ShaderModule(device: device, name: .compose), cache: cache)
        frostPipeline = try ComputePipeline(
            layout: layout, shader: ShaderModule(device: device, name: .frost), cache: cache)
        lensShader = try ShaderModule(device: device, name: .lens)
        lensPipelines[LensVariant.singleRoundedBox] = try ComputePipeline(
            layout: layout, shader: lensShader, cache: cache, specialization: LensVariant.singleRoundedBox.constants)
        cache.save()
        descriptorSet = try DescriptorSet(layout: setLayout, storageBufferCount: Binding.allCases.count)
        commandBuffer = try CommandBuffer(device: device)
        fence = try Fence(device: device)
    }

    /// Every physical device Vulkan reports, with why each is or is not usable.
    public static func listDevices() throws -> [DeviceDescription] {
        try DeviceSelector.survey(Instance(validation: false)).map(\.description)
    }

    /// Renders one resolved frame to 8-bit sRGB pixels.
    public func render(_ parameters: FrameParameters) throws -> RGBA8Image {
        let pixelCount = parameters.width * parameters.height
        let params = ParamsBufferLayout.bytes(frame: parameters.frame, lenses: parameters.lenses)
        try ensureBuffers(sizes: [
            .params: params.count,
            .tables: parameters.tables.count * 4,
            .backdrop: pixelCount * 4,
            .label: parameters.labelWords.count * 4,
            .scratch: pixelCount * 16,
            .frosted: pixelCount * 16,
            .output: pixelCount * 4,
            .shapes: parameters.shapes.count * MemoryLayout<ShapeParams>.stride,
            .tiles: parameters.tiles.count * MemoryLayout<SIMD4<UInt32>>.stride,
            .tileShapes: parameters.tileShapes.count * 4,
        ])
        try Self.injectedFault()
        let timestampCount = UInt32(2 + 2 * parameters.lenses.count)
        if device.physical.timestampValidBits > 0, (queries?.capacity ?? 0) < timestampCount {
            queries = try TimestampQueryPool(device: device, capacity: timestampCount)
        }
        buffer(.params).upload(params)
        buffer(.tables).upload(parameters.tables)
        buffer(.backdrop).upload(parameters.backdrop)
        buffer(.label).upload(parameters.labelWords)
        buffer(.shapes).upload(parameters.shapes)
        buffer(.tiles).upload(parameters.tiles)
        buffer(.tileShapes).upload(parameters.tileShapes)

        let variants = try lensPipelines(for: parameters)
        try commandBuffer.record { commands in record(commands, parameters, lensPipelines: variants) }
        try commandBuffer.submitAndWait(fence: fence)

        let output = buffer(.output)
        let packed = [UInt32](
            UnsafeBufferPointer(start: output.mapped.assumingMemoryBound(to: UInt32.self), count: pixelCount))
        try readStageTimes(count: timestampCount, lensCount: parameters.lenses.count)
        return RGBA8Image(width: parameters.width, height: parameters.height, packed: packed)
    }

    private func buffer(_ binding: Binding) -> Buffer { buffers[binding.rawValue] }

    /// Fault injection for reliability tests: `LIQUIDLENS_INJECT_DEVICE_LOST=N` makes the N-th
    /// frame of the process (1-based) fail as a lost device would; `LIQUIDLENS_INJECT_OUT_OF_MEMORY=1`
    /// makes buffer allocation fail.
    nonisolated(unsafe) private static var framesRendered = 0
    private static let framesLock = NSLock()
    private static func injectedFault() throws {
        let frame = framesLock.withLock {
            framesRendered += 1
            return framesRendered
        }
        if let text = ProcessInfo.processInfo.environment["LIQUIDLENS_INJECT_DEVICE_LOST"], Int(text) == frame {
            throw VulkanError("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (injected by LIQUIDLENS_INJECT_DEVICE_LOST)")
        }
    }

    /// Reallocates any buffer smaller than needed, then rebinds the descriptor set. A frame the
    /// device has no memory for fails with the size it needed.
    private func ensureBuffers(sizes: [Binding: Int]) throws {
        do {
            try allocateBuffers(sizes: sizes)
        } catch let error as VulkanError where error.description.contains("OUT_OF_") {
            let total = sizes.values.reduce(0, +) >> 20
            throw VulkanError(
                "\(deviceDescription.name) has no memory for this frame (about \(total) MiB of buffers): \(error); use --backend cpu or a smaller --scale"
            )
        }
    }

    private func allocateBuffers(sizes: [Binding: Int]) throws {
        // Fault injection for reliability tests: allocation fails as on a device too small for the frame.
        if ProcessInfo.processInfo.environment["LIQUIDLENS_INJECT_OUT_OF_MEMORY"] == "1" {
            throw VulkanError(call: "vkAllocateMemory", result: VK_ERROR_OUT_OF_DEVICE_MEMORY)
        }
        var changed = buffers.isEmpty
        var updated = buffers
        for binding in Binding.allCases {
            let needed = max(16, sizes[binding] ?? 16)
            if updated.count <= binding.rawValue {
                updated.append(try Buffer(device: device, size: needed))
                changed = true
            } else if updated[binding.rawValue].size < needed {
                updated[binding.rawValue] = try Buffer(device: device, size: needed)
                changed = true
            }
        }
        buffers = updated
        if changed { descriptorSet.bind(buffers) }
    }

    /// The specialised lens pipeline of each lens, creating the variants not seen before.
    private func lensPipelines(for parameters: FrameParameters) throws -> [ComputePipeline] {
        var created = false
        let pipelines = try parameters.lenses.map { lens -> ComputePipeline in
            let group = parameters.shapes[Int(lens.shapeOffset)..<Int(lens.shapeOffset + lens.shapeCount)]
            let variant = LensVariant(
                shapeKinds: group.reduce(0) { $0 | 1 << $1.kind }, singleShape: lens.shapeCount == 1)
            if let pipeline = lensPipelines[variant] { return pipeline }
            let pipeline = try ComputePipeline(
                layout: layout, shader: lensShader, cache: cache, specialization: variant.constants)
            lensPipelines[variant] = pipeline
            created = true
            return pipeline
        }
        if created { cache.save() }
        return pipelines
    }

    private func record(_ commands: VkCommandBuffer, _ parameters: FrameParameters, lensPipelines: [ComputePipeline]) {
        var query: UInt32 = 0
        func timestamp() {
            guard let queries else { return }
            vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queries.handle, query)
            query += 1
        }
        if let queries { vkCmdResetQueryPool(commands, queries.handle, 0, queries.capacity) }
        var set: VkDescriptorSet? = descriptorSet.handle
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout.handle, 0, 1, &set, 0, nil)

        timestamp()
        dispatch(commands, composePipeline, DispatchConstants(region: parameters.fullFrame))
        timestamp()
        for (index, regions) in parameters.regions.enumerated() {
            // Earlier passes wrote scratch/frosted/output → this lens's frost overwrites scratch/frosted.
            computeBarrier(commands)
            let lens = parameters.lenses[index]
            dispatch(
                commands, frostPipeline, DispatchConstants(region: parameters.fullFrame, lensIndex: index, axis: 0),
                workgroups: (lens.rowTileCount, 1))
            // Horizontal frost wrote scratch → vertical frost reads it.
            computeBarrier(commands)
            dispatch(
                commands, frostPipeline, DispatchConstants(region: parameters.fullFrame, lensIndex: index, axis: 1),
                workgroups: (lens.frostTileCount, 1))
            timestamp()
            // Vertical frost wrote frosted, compose/earlier lenses wrote output → this lens reads both, writes output.
            computeBarrier(commands)
            dispatch(
                commands, lensPipelines[index], DispatchConstants(region: regions.lens, lensIndex: index),
                workgroups: (lens.tileCount, 1))
            timestamp()
        }
        // The last compute pass wrote output → the host reads it after the fence.
        var toHost = VkMemoryBarrier()
        toHost.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT.rawValue
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT.rawValue
        vkCmdPipelineBarrier(
            commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, VK_PIPELINE_STAGE_HOST_BIT.rawValue, 0, 1, &toHost,
            0, nil, 0, nil)
    }

    /// A compute → compute memory dependency; each call site names producer and consumer.
    private func computeBarrier(_ commands: VkCommandBuffer) {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT.rawValue | VK_ACCESS_SHADER_READ_BIT.rawValue
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
        vkCmdPipelineBarrier(
            commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue, 0,
            1,
            &barrier, 0, nil, 0, nil)
    }

    /// Dispatches over the region in 16×16 workgroups, or over `workgroups` when given (a tile list).
    private func dispatch(
        _ commands: VkCommandBuffer, _ pipeline: ComputePipeline, _ constants: DispatchConstants,
        workgroups: (UInt32, UInt32)? = nil
    ) {
        let width = constants.region.z - constants.region.x
        let height = constants.region.w - constants.region.y
        let groups = workgroups ?? ((width + 15) / 16, (height + 15) / 16)
        guard width > 0, height > 0, groups.0 > 0, groups.1 > 0 else { return }
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle)
        var pushed = constants
        vkCmdPushConstants(
            commands, layout.handle, VK_SHADER_STAGE_COMPUTE_BIT.rawValue, 0, layout.pushConstantSize, &pushed)
        vkCmdDispatch(commands, groups.0, groups.1, 1)
    }

    private func readStageTimes(count: UInt32, lensCount: Int) throws {
        guard let queries, let stamps = try queries.results(count: count) else {
            lastStageTimes = nil
            return
        }
        var times = GPUStageTimes(compose: (stamps[1] - stamps[0]) / 1e6, frost: 0, lens: 0)
        for lens in 0..<lensCount {
            let before = stamps[1 + 2 * lens]
            let afterFrost = stamps[2 + 2 * lens]
            let afterLens = stamps[3 + 2 * lens]
            times.frost += (afterFrost - before) / 1e6
            times.lens += (afterLens - afterFrost) / 1e6
        }
        lastStageTimes = times
    }
}
