internal import CVulkan
import Foundation

// The Vulkan loader (libvulkan.so.1) is opened at run time, not linked, so a machine without it
// still runs the CPU backend and `--backend vulkan` says what is missing. Each core entry point
// is a global function pointer with the function's own name, so call sites read as plain Vulkan.
nonisolated(unsafe) var vkAllocateCommandBuffers: PFN_vkAllocateCommandBuffers!
nonisolated(unsafe) var vkAllocateDescriptorSets: PFN_vkAllocateDescriptorSets!
nonisolated(unsafe) var vkAllocateMemory: PFN_vkAllocateMemory!
nonisolated(unsafe) var vkBeginCommandBuffer: PFN_vkBeginCommandBuffer!
nonisolated(unsafe) var vkBindBufferMemory: PFN_vkBindBufferMemory!
nonisolated(unsafe) var vkCmdBindDescriptorSets: PFN_vkCmdBindDescriptorSets!
nonisolated(unsafe) var vkCmdBindPipeline: PFN_vkCmdBindPipeline!
nonisolated(unsafe) var vkCmdDispatch: PFN_vkCmdDispatch!
nonisolated(unsafe) var vkCmdCopyBuffer: PFN_vkCmdCopyBuffer!
nonisolated(unsafe) var vkCmdPipelineBarrier: PFN_vkCmdPipelineBarrier!
nonisolated(unsafe) var vkCmdPushConstants: PFN_vkCmdPushConstants!
nonisolated(unsafe) var vkCmdResetQueryPool: PFN_vkCmdResetQueryPool!
nonisolated(unsafe) var vkCmdWriteTimestamp: PFN_vkCmdWriteTimestamp!
nonisolated(unsafe) var vkCreateBuffer: PFN_vkCreateBuffer!
nonisolated(unsafe) var vkCreateCommandPool: PFN_vkCreateCommandPool!
nonisolated(unsafe) var vkCreateComputePipelines: PFN_vkCreateComputePipelines!
nonisolated(unsafe) var vkCreateDescriptorPool: PFN_vkCreateDescriptorPool!
nonisolated(unsafe) var vkCreateDescriptorSetLayout: PFN_vkCreateDescriptorSetLayout!
nonisolated(unsafe) var vkCreateDevice: PFN_vkCreateDevice!
nonisolated(unsafe) var vkCreateFence: PFN_vkCreateFence!
nonisolated(unsafe) var vkCreateInstance: PFN_vkCreateInstance!
nonisolated(unsafe) var vkCreatePipelineCache: PFN_vkCreatePipelineCache!
nonisolated(unsafe) var vkCreatePipelineLayout: PFN_vkCreatePipelineLayout!
nonisolated(unsafe) var vkCreateQueryPool: PFN_vkCreateQueryPool!
nonisolated(unsafe) var vkCreateShaderModule: PFN_vkCreateShaderModule!
nonisolated(unsafe) var vkDestroyBuffer: PFN_vkDestroyBuffer!
nonisolated(unsafe) var vkDestroyCommandPool: PFN_vkDestroyCommandPool!
nonisolated(unsafe) var vkDestroyDescriptorPool: PFN_vkDestroyDescriptorPool!
nonisolated(unsafe) var vkDestroyDescriptorSetLayout: PFN_vkDestroyDescriptorSetLayout!
nonisolated(unsafe) var vkDestroyDevice: PFN_vkDestroyDevice!
nonisolated(unsafe) var vkDestroyFence: PFN_vkDestroyFence!
nonisolated(unsafe) var vkDestroyInstance: PFN_vkDestroyInstance!
nonisolated(unsafe) var vkDestroyPipeline: PFN_vkDestroyPipeline!
nonisolated(unsafe) var vkDestroyPipelineCache: PFN_vkDestroyPipelineCache!
nonisolated(unsafe) var vkDestroyPipelineLayout: PFN_vkDestroyPipelineLayout!
nonisolated(unsafe) var vkDestroyQueryPool: PFN_vkDestroyQueryPool!
nonisolated(unsafe) var vkDestroyShaderModule: PFN_vkDestroyShaderModule!
nonisolated(unsafe) var vkDeviceWaitIdle: PFN_vkDeviceWaitIdle!
nonisolated(unsafe) var vkEndCommandBuffer: PFN_vkEndCommandBuffer!
nonisolated(unsafe) var vkEnumerateInstanceLayerProperties: PFN_vkEnumerateInstanceLayerProperties!
nonisolated(unsafe) var vkEnumeratePhysicalDevices: PFN_vkEnumeratePhysicalDevices!
nonisolated(unsafe) var vkFreeMemory: PFN_vkFreeMemory!
nonisolated(unsafe) var vkGetBufferMemoryRequirements: PFN_vkGetBufferMemoryRequirements!
nonisolated(unsafe) var vkGetDeviceQueue: PFN_vkGetDeviceQueue!
nonisolated(unsafe) var vkGetInstanceProcAddr: PFN_vkGetInstanceProcAddr!
nonisolated(unsafe) var vkGetPhysicalDeviceMemoryProperties: PFN_vkGetPhysicalDeviceMemoryProperties!
nonisolated(unsafe) var vkGetPhysicalDeviceProperties: PFN_vkGetPhysicalDeviceProperties!
nonisolated(unsafe) var vkGetPhysicalDeviceQueueFamilyProperties: PFN_vkGetPhysicalDeviceQueueFamilyProperties!
nonisolated(unsafe) var vkGetPipelineCacheData: PFN_vkGetPipelineCacheData!
nonisolated(unsafe) var vkGetQueryPoolResults: PFN_vkGetQueryPoolResults!
nonisolated(unsafe) var vkMapMemory: PFN_vkMapMemory!
nonisolated(unsafe) var vkQueueSubmit: PFN_vkQueueSubmit!
nonisolated(unsafe) var vkResetCommandBuffer: PFN_vkResetCommandBuffer!
nonisolated(unsafe) var vkResetFences: PFN_vkResetFences!
nonisolated(unsafe) var vkUnmapMemory: PFN_vkUnmapMemory!
nonisolated(unsafe) var vkUpdateDescriptorSets: PFN_vkUpdateDescriptorSets!
nonisolated(unsafe) var vkWaitForFences: PFN_vkWaitForFences!

enum VulkanLoader {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var outcome: Result<Void, VulkanError>?

    /// The loader's file name; `LIQUIDLENS_VULKAN_LIBRARY` overrides it (tests point it at nothing).
    static var libraryName: String {
        ProcessInfo.processInfo.environment["LIQUIDLENS_VULKAN_LIBRARY"] ?? "libvulkan.so.1"
    }

    /// Opens the loader and resolves every entry point once per process.
    static func load() throws {
        try lock.withLock {
            if outcome == nil { outcome = Result { try resolve() }.mapError { $0 as! VulkanError } }
            try outcome!.get()
        }
    }

    private static func resolve() throws {
        guard let library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL) else {
            throw VulkanError(
                "no Vulkan loader: \(libraryName) cannot be opened (apt-get install libvulkan1 mesa-vulkan-drivers)")
        }
        func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
            guard let address = dlsym(library, name) else {
                throw VulkanError("the Vulkan loader \(libraryName) has no \(name)")
            }
            return address
        }
        vkAllocateCommandBuffers = unsafeBitCast(
            try symbol("vkAllocateCommandBuffers"), to: PFN_vkAllocateCommandBuffers.self)
        vkAllocateDescriptorSets = unsafeBitCast(
            try symbol("vkAllocateDescriptorSets"), to: PFN_vkAllocateDescriptorSets.self)
        vkAllocateMemory = unsafeBitCast(try symbol("vkAllocateMemory"), to: PFN_vkAllocateMemory.self)
        vkBeginCommandBuffer = unsafeBitCast(try symbol("vkBeginCommandBuffer"), to: PFN_vkBeginCommandBuffer.self)
        vkBindBufferMemory = unsafeBitCast(try symbol("vkBindBufferMemory"), to: PFN_vkBindBufferMemory.self)
        vkCmdBindDescriptorSets = unsafeBitCast(
            try symbol("vkCmdBindDescriptorSets"), to: PFN_vkCmdBindDescriptorSets.self)
        vkCmdBindPipeline = unsafeBitCast(try symbol("vkCmdBindPipeline"), to: PFN_vkCmdBindPipeline.self)
        vkCmdDispatch = unsafeBitCast(try symbol("vkCmdDispatch"), to: PFN_vkCmdDispatch.self)
        vkCmdCopyBuffer = unsafeBitCast(try symbol("vkCmdCopyBuffer"), to: PFN_vkCmdCopyBuffer.self)
        vkCmdPipelineBarrier = unsafeBitCast(try symbol("vkCmdPipelineBarrier"), to: PFN_vkCmdPipelineBarrier.self)
        vkCmdPushConstants = unsafeBitCast(try symbol("vkCmdPushConstants"), to: PFN_vkCmdPushConstants.self)
        vkCmdResetQueryPool = unsafeBitCast(try symbol("vkCmdResetQueryPool"), to: PFN_vkCmdResetQueryPool.self)
        vkCmdWriteTimestamp = unsafeBitCast(try symbol("vkCmdWriteTimestamp"), to: PFN_vkCmdWriteTimestamp.self)
        vkCreateBuffer = unsafeBitCast(try symbol("vkCreateBuffer"), to: PFN_vkCreateBuffer.self)
        vkCreateCommandPool = unsafeBitCast(try symbol("vkCreateCommandPool"), to: PFN_vkCreateCommandPool.self)
        vkCreateComputePipelines = unsafeBitCast(
            try symbol("vkCreateComputePipelines"), to: PFN_vkCreateComputePipelines.self)
        vkCreateDescriptorPool = unsafeBitCast(
            try symbol("vkCreateDescriptorPool"), to: PFN_vkCreateDescriptorPool.self)
        vkCreateDescriptorSetLayout = unsafeBitCast(
            try symbol("vkCreateDescriptorSetLayout"), to: PFN_vkCreateDescriptorSetLayout.self)
        vkCreateDevice = unsafeBitCast(try symbol("vkCreateDevice"), to: PFN_vkCreateDevice.self)
        vkCreateFence = unsafeBitCast(try symbol("vkCreateFence"), to: PFN_vkCreateFence.self)
        vkCreateInstance = unsafeBitCast(try symbol("vkCreateInstance"), to: PFN_vkCreateInstance.self)
        vkCreatePipelineCache = unsafeBitCast(try symbol("vkCreatePipelineCache"), to: PFN_vkCreatePipelineCache.self)
        vkCreatePipelineLayout = unsafeBitCast(
            try symbol("vkCreatePipelineLayout"), to: PFN_vkCreatePipelineLayout.self)
        vkCreateQueryPool = unsafeBitCast(try symbol("vkCreateQueryPool"), to: PFN_vkCreateQueryPool.self)
        vkCreateShaderModule = unsafeBitCast(try symbol("vkCreateShaderModule"), to: PFN_vkCreateShaderModule.self)
        vkDestroyBuffer = unsafeBitCast(try symbol("vkDestroyBuffer"), to: PFN_vkDestroyBuffer.self)
        vkDestroyCommandPool = unsafeBitCast(try symbol("vkDestroyCommandPool"), to: PFN_vkDestroyCommandPool.self)
        vkDestroyDescriptorPool = unsafeBitCast(
            try symbol("vkDestroyDescriptorPool"), to: PFN_vkDestroyDescriptorPool.self)
        vkDestroyDescriptorSetLayout = unsafeBitCast(
            try symbol("vkDestroyDescriptorSetLayout"), to: PFN_vkDestroyDescriptorSetLayout.self)
        vkDestroyDevice = unsafeBitCast(try symbol("vkDestroyDevice"), to: PFN_vkDestroyDevice.self)
        vkDestroyFence = unsafeBitCast(try symbol("vkDestroyFence"), to: PFN_vkDestroyFence.self)
        vkDestroyInstance = unsafeBitCast(try symbol("vkDestroyInstance"), to: PFN_vkDestroyInstance.self)
        vkDestroyPipeline = unsafeBitCast(try symbol("vkDestroyPipeline"), to: PFN_vkDestroyPipeline.self)
        vkDestroyPipelineCache = unsafeBitCast(
            try symbol("vkDestroyPipelineCache"), to: PFN_vkDestroyPipelineCache.self)
        vkDestroyPipelineLayout = unsafeBitCast(
            try symbol("vkDestroyPipelineLayout"), to: PFN_vkDestroyPipelineLayout.self)
        vkDestroyQueryPool = unsafeBitCast(try symbol("vkDestroyQueryPool"), to: PFN_vkDestroyQueryPool.self)
        vkDestroyShaderModule = unsafeBitCast(try symbol("vkDestroyShaderModule"), to: PFN_vkDestroyShaderModule.self)
        vkDeviceWaitIdle = unsafeBitCast(try symbol("vkDeviceWaitIdle"), to: PFN_vkDeviceWaitIdle.self)
        vkEndCommandBuffer = unsafeBitCast(try symbol("vkEndCommandBuffer"), to: PFN_vkEndCommandBuffer.self)
        vkEnumerateInstanceLayerProperties = unsafeBitCast(
            try symbol("vkEnumerateInstanceLayerProperties"), to: PFN_vkEnumerateInstanceLayerProperties.self)
        vkEnumeratePhysicalDevices = unsafeBitCast(
            try symbol("vkEnumeratePhysicalDevices"), to: PFN_vkEnumeratePhysicalDevices.self)
        vkFreeMemory = unsafeBitCast(try symbol("vkFreeMemory"), to: PFN_vkFreeMemory.self)
        vkGetBufferMemoryRequirements = unsafeBitCast(
            try symbol("vkGetBufferMemoryRequirements"), to: PFN_vkGetBufferMemoryRequirements.self)
        vkGetDeviceQueue = unsafeBitCast(try symbol("vkGetDeviceQueue"), to: PFN_vkGetDeviceQueue.self)
        vkGetInstanceProcAddr = unsafeBitCast(try symbol("vkGetInstanceProcAddr"), to: PFN_vkGetInstanceProcAddr.self)
        vkGetPhysicalDeviceMemoryProperties = unsafeBitCast(
            try symbol("vkGetPhysicalDeviceMemoryProperties"), to: PFN_vkGetPhysicalDeviceMemoryProperties.self)
        vkGetPhysicalDeviceProperties = unsafeBitCast(
            try symbol("vkGetPhysicalDeviceProperties"), to: PFN_vkGetPhysicalDeviceProperties.self)
        vkGetPhysicalDeviceQueueFamilyProperties = unsafeBitCast(
            try symbol("vkGetPhysicalDeviceQueueFamilyProperties"),
            to: PFN_vkGetPhysicalDeviceQueueFamilyProperties.self)
        vkGetPipelineCacheData = unsafeBitCast(
            try symbol("vkGetPipelineCacheData"), to: PFN_vkGetPipelineCacheData.self)
        vkGetQueryPoolResults = unsafeBitCast(try symbol("vkGetQueryPoolResults"), to: PFN_vkGetQueryPoolResults.self)
        vkMapMemory = unsafeBitCast(try symbol("vkMapMemory"), to: PFN_vkMapMemory.self)
        vkQueueSubmit = unsafeBitCast(try symbol("vkQueueSubmit"), to: PFN_vkQueueSubmit.self)
        vkResetCommandBuffer = unsafeBitCast(try symbol("vkResetCommandBuffer"), to: PFN_vkResetCommandBuffer.self)
        vkResetFences = unsafeBitCast(try symbol("vkResetFences"), to: PFN_vkResetFences.self)
        vkUnmapMemory = unsafeBitCast(try symbol("vkUnmapMemory"), to: PFN_vkUnmapMemory.self)
        vkUpdateDescriptorSets = unsafeBitCast(
            try symbol("vkUpdateDescriptorSets"), to: PFN_vkUpdateDescriptorSets.self)
        vkWaitForFences = unsafeBitCast(try symbol("vkWaitForFences"), to: PFN_vkWaitForFences.self)
    }
}
