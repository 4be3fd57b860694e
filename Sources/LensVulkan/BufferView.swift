internal import CVulkan

/// Owns a `VkBufferView`: a buffer read by the shaders as a uniform texel buffer of `format`.
/// Keeps its buffer alive: a view must not outlive what it shows.
final class BufferView {
    let buffer: Buffer
    let handle: VkBufferView

    /// A view of the first `texelCount` texels (of `texelSize` bytes each) of `buffer`.
    init(buffer: Buffer, format: VkFormat, texelSize: Int, texelCount: Int) throws {
        self.buffer = buffer
        var info = VkBufferViewCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO
        info.buffer = buffer.handle
        info.format = format
        info.offset = 0
        info.range = VkDeviceSize(texelSize * texelCount)
        handle = try vkCreate("vkCreateBufferView") { vkCreateBufferView(buffer.device.handle, &info, nil, &$0) }
    }

    deinit { vkDestroyBufferView(buffer.device.handle, handle, nil) }
}
