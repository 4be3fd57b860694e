internal import CVulkan
import Foundation
import LensModel
import LensResolve

/// The buffers a frame slot owns (several descriptor bindings may show one buffer).
enum Binding: Int, CaseIterable {
    case params, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite

    /// Written by the host; the others are the passes' intermediates and their output.
    var isInput: Bool {
        switch self {
        case .params, .tables, .backdrop, .label, .shapes, .tiles, .tileShapes, .foreground: true
        case .scratch, .frosted, .output, .composite: false
        }
    }
}

/// The descriptor set's bindings, numbered as in `Shaders/lens_common.glsl`: which buffer each
/// shows and as what. Uniform blocks and texel buffers where the shaders only read (llvmpipe
/// loads those with one scalar load or one gather; a storage-buffer load is a loop over the
/// SIMD lanes), storage texel buffers where they write (a store is one scatter).
enum DescriptorBinding: UInt32, CaseIterable {
    case frame, tables, backdrop, label, scratch, frosted, output, shapes, tiles, tileShapes, foreground, composite
    case lens, scratchTexels, frostedTexels

    enum Kind: Equatable {
        /// A uniform block over the buffer's first `range` bytes.
        case uniformBuffer(range: Int)
        /// A uniform block of `range` bytes at an offset given with each dispatch.
        case dynamicUniformBuffer(range: Int)
        /// A uniform texel buffer of `format`, `texelSize` bytes a texel.
        case texels(format: VkFormat, texelSize: Int)
        /// A storage texel buffer (the shader writes it) of `format`, `texelSize` bytes a texel.
        case storageTexels(format: VkFormat, texelSize: Int)

        /// Format and texel size of a texel-buffer binding; nil for the others.
        var texelFormat: (format: VkFormat, texelSize: Int)? {
            switch self {
            case .texels(let format, let texelSize), .storageTexels(let format, let texelSize): (format, texelSize)
            case .uniformBuffer, .dynamicUniformBuffer: nil
            }
        }
    }

    var kind: Kind {
        switch self {
        case .frame: .uniformBuffer(range: MemoryLayout<FrameParams>.size)
        case .lens: .dynamicUniformBuffer(range: MemoryLayout<LensParams>.size)
        case .tables, .backdrop, .tileShapes, .foreground: .texels(format: VK_FORMAT_R32_UINT, texelSize: 4)
        case .label: .texels(format: VK_FORMAT_R8_UINT, texelSize: 1)
        case .shapes, .tiles, .scratchTexels, .frostedTexels:
            .texels(format: VK_FORMAT_R32G32B32A32_UINT, texelSize: 16)
        case .scratch, .frosted: .storageTexels(format: VK_FORMAT_R32G32B32A32_UINT, texelSize: 16)
        case .output, .composite: .storageTexels(format: VK_FORMAT_R32_UINT, texelSize: 4)
        }
    }

    var descriptorType: VkDescriptorType {
        switch kind {
        case .uniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
        case .dynamicUniformBuffer: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
        case .texels: VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
        case .storageTexels: VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
        }
    }

    /// The buffer this binding shows.
    var buffer: Binding {
        switch self {
        case .frame, .lens: .params
        case .tables: .tables
        case .backdrop: .backdrop
        case .label: .label
        case .scratch, .scratchTexels: .scratch
        case .frosted, .frostedTexels: .frosted
        case .output: .output
        case .shapes: .shapes
        case .tiles: .tiles
        case .tileShapes: .tileShapes
        case .foreground: .foreground
        case .composite: .composite
        }
    }
}
