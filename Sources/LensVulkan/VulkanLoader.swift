internal import CVulkan
import Foundation

// The Vulkan loader (libvulkan.so.1) is opened at run time, not linked, so a machine without it
// still runs the CPU backend and `--backend vulkan` says what is missing. Each core entry point
// is a global constant with the function's own name, so call sites read as plain Vulkan; Swift
// initialises a global on first use, which comes after `VulkanLoader.load()` opened the loader
// (every Vulkan object starts from an `Instance`, which loads it first).
let vkAllocateCommandBuffers: PFN_vkAllocateCommandBuffers = VulkanLoader.entryPoint("vkAllocateCommandBuffers")
let vkAllocateDescriptorSets: PFN_vkAllocateDescriptorSets = VulkanLoader.entryPoint("vkAllocateDescriptorSets")
let vkAllocateMemory: PFN_vkAllocateMemory = VulkanLoader.entryPoint("vkAllocateMemory")
let vkBeginCommandBuffer: PFN_vkBeginCommandBuffer = VulkanLoader.entryPoint("vkBeginCommandBuffer")
let vkBindBufferMemory: PFN_vkBindBufferMemory = VulkanLoader.entryPoint("vkBindBufferMemory")
let vkCmdBindDescriptorSets: PFN_vkCmdBindDescriptorSets = VulkanLoader.entryPoint("vkCmdBindDescriptorSets")
let vkCmdBindPipeline: PFN_vkCmdBindPipeline = VulkanLoader.entryPoint("vkCmdBindPipeline")
let vkCmdDispatch: PFN_vkCmdDispatch = VulkanLoader.entryPoint("vkCmdDispatch")
let vkCmdCopyBuffer: PFN_vkCmdCopyBuffer = VulkanLoader.entryPoint("vkCmdCopyBuffer")
let vkCmdPipelineBarrier: PFN_vkCmdPipelineBarrier = VulkanLoader.entryPoint("vkCmdPipelineBarrier")
let vkCmdPushConstants: PFN_vkCmdPushConstants = VulkanLoader.entryPoint("vkCmdPushConstants")
let vkCmdResetQueryPool: PFN_vkCmdResetQueryPool = VulkanLoader.entryPoint("vkCmdResetQueryPool")
let vkCmdWriteTimestamp: PFN_vkCmdWriteTimestamp = VulkanLoader.entryPoint("vkCmdWriteTimestamp")
let vkCreateBuffer: PFN_vkCreateBuffer = VulkanLoader.entryPoint("vkCreateBuffer")
let vkCreateBufferView: PFN_vkCreateBufferView = VulkanLoader.entryPoint("vkCreateBufferView")
let vkCreateCommandPool: PFN_vkCreateCommandPool = VulkanLoader.entryPoint("vkCreateCommandPool")
let vkCreateComputePipelines: PFN_vkCreateComputePipelines = VulkanLoader.entryPoint("vkCreateComputePipelines")
let vkCreateDescriptorPool: PFN_vkCreateDescriptorPool = VulkanLoader.entryPoint("vkCreateDescriptorPool")
let vkCreateDescriptorSetLayout: PFN_vkCreateDescriptorSetLayout = VulkanLoader.entryPoint(
    "vkCreateDescriptorSetLayout")
let vkCreateDevice: PFN_vkCreateDevice = VulkanLoader.entryPoint("vkCreateDevice")
let vkCreateFence: PFN_vkCreateFence = VulkanLoader.entryPoint("vkCreateFence")
let vkCreateInstance: PFN_vkCreateInstance = VulkanLoader.entryPoint("vkCreateInstance")
let vkCreatePipelineCache: PFN_vkCreatePipelineCache = VulkanLoader.entryPoint("vkCreatePipelineCache")
let vkCreatePipelineLayout: PFN_vkCreatePipelineLayout = VulkanLoader.entryPoint("vkCreatePipelineLayout")
let vkCreateQueryPool: PFN_vkCreateQueryPool = VulkanLoader.entryPoint("vkCreateQueryPool")
let vkCreateSemaphore: PFN_vkCreateSemaphore = VulkanLoader.entryPoint("vkCreateSemaphore")
let vkCreateShaderModule: PFN_vkCreateShaderModule = VulkanLoader.entryPoint("vkCreateShaderModule")
let vkDestroyBuffer: PFN_vkDestroyBuffer = VulkanLoader.entryPoint("vkDestroyBuffer")
let vkDestroyBufferView: PFN_vkDestroyBufferView = VulkanLoader.entryPoint("vkDestroyBufferView")
let vkDestroyCommandPool: PFN_vkDestroyCommandPool = VulkanLoader.entryPoint("vkDestroyCommandPool")
let vkDestroyDescriptorPool: PFN_vkDestroyDescriptorPool = VulkanLoader.entryPoint("vkDestroyDescriptorPool")
let vkDestroyDescriptorSetLayout: PFN_vkDestroyDescriptorSetLayout = VulkanLoader.entryPoint(
    "vkDestroyDescriptorSetLayout")
let vkDestroyDevice: PFN_vkDestroyDevice = VulkanLoader.entryPoint("vkDestroyDevice")
let vkDestroyFence: PFN_vkDestroyFence = VulkanLoader.entryPoint("vkDestroyFence")
let vkDestroyInstance: PFN_vkDestroyInstance = VulkanLoader.entryPoint("vkDestroyInstance")
let vkDestroyPipeline: PFN_vkDestroyPipeline = VulkanLoader.entryPoint("vkDestroyPipeline")
let vkDestroyPipelineCache: PFN_vkDestroyPipelineCache = VulkanLoader.entryPoint("vkDestroyPipelineCache")
let vkDestroyPipelineLayout: PFN_vkDestroyPipelineLayout = VulkanLoader.entryPoint("vkDestroyPipelineLayout")
let vkDestroyQueryPool: PFN_vkDestroyQueryPool = VulkanLoader.entryPoint("vkDestroyQueryPool")
let vkDestroySemaphore: PFN_vkDestroySemaphore = VulkanLoader.entryPoint("vkDestroySemaphore")
let vkDestroyShaderModule: PFN_vkDestroyShaderModule = VulkanLoader.entryPoint("vkDestroyShaderModule")
let vkDeviceWaitIdle: PFN_vkDeviceWaitIdle = VulkanLoader.entryPoint("vkDeviceWaitIdle")
let vkEndCommandBuffer: PFN_vkEndCommandBuffer = VulkanLoader.entryPoint("vkEndCommandBuffer")
let vkEnumerateInstanceLayerProperties: PFN_vkEnumerateInstanceLayerProperties = VulkanLoader.entryPoint(
    "vkEnumerateInstanceLayerProperties")
let vkEnumeratePhysicalDevices: PFN_vkEnumeratePhysicalDevices = VulkanLoader.entryPoint("vkEnumeratePhysicalDevices")
let vkFreeMemory: PFN_vkFreeMemory = VulkanLoader.entryPoint("vkFreeMemory")
let vkGetBufferMemoryRequirements: PFN_vkGetBufferMemoryRequirements = VulkanLoader.entryPoint(
    "vkGetBufferMemoryRequirements")
let vkGetDeviceQueue: PFN_vkGetDeviceQueue = VulkanLoader.entryPoint("vkGetDeviceQueue")
let vkGetInstanceProcAddr: PFN_vkGetInstanceProcAddr = VulkanLoader.entryPoint("vkGetInstanceProcAddr")
let vkGetPhysicalDeviceMemoryProperties: PFN_vkGetPhysicalDeviceMemoryProperties = VulkanLoader.entryPoint(
    "vkGetPhysicalDeviceMemoryProperties")
let vkGetPhysicalDeviceProperties: PFN_vkGetPhysicalDeviceProperties = VulkanLoader.entryPoint(
    "vkGetPhysicalDeviceProperties")
let vkGetPhysicalDeviceQueueFamilyProperties: PFN_vkGetPhysicalDeviceQueueFamilyProperties = VulkanLoader.entryPoint(
    "vkGetPhysicalDeviceQueueFamilyProperties")
let vkGetPipelineCacheData: PFN_vkGetPipelineCacheData = VulkanLoader.entryPoint("vkGetPipelineCacheData")
let vkGetQueryPoolResults: PFN_vkGetQueryPoolResults = VulkanLoader.entryPoint("vkGetQueryPoolResults")
let vkInvalidateMappedMemoryRanges: PFN_vkInvalidateMappedMemoryRanges = VulkanLoader.entryPoint(
    "vkInvalidateMappedMemoryRanges")
let vkMapMemory: PFN_vkMapMemory = VulkanLoader.entryPoint("vkMapMemory")
let vkQueueSubmit: PFN_vkQueueSubmit = VulkanLoader.entryPoint("vkQueueSubmit")
let vkResetCommandBuffer: PFN_vkResetCommandBuffer = VulkanLoader.entryPoint("vkResetCommandBuffer")
let vkResetFences: PFN_vkResetFences = VulkanLoader.entryPoint("vkResetFences")
let vkUnmapMemory: PFN_vkUnmapMemory = VulkanLoader.entryPoint("vkUnmapMemory")
let vkUpdateDescriptorSets: PFN_vkUpdateDescriptorSets = VulkanLoader.entryPoint("vkUpdateDescriptorSets")
let vkWaitForFences: PFN_vkWaitForFences = VulkanLoader.entryPoint("vkWaitForFences")

enum VulkanLoader {
    private static let lock = NSLock()
    /// The opened loader, or why it could not be opened; set by the first `load()`.
    nonisolated(unsafe) private static var outcome: Result<UnsafeMutableRawPointer, VulkanError>?

    nonisolated(unsafe) private static var chosenLibrary = "libvulkan.so.1"

    /// The loader's file name, `libvulkan.so.1` unless set before the first `load()` (the
    /// command line's `LIQUIDLENS_VULKAN_LIBRARY`; tests point it at nothing).
    static var libraryName: String {
        get { lock.withLock { chosenLibrary } }
        set { lock.withLock { chosenLibrary = newValue } }
    }

    /// Opens the loader once per process; later calls repeat the first answer.
    static func load() throws {
        try lock.withLock {
            let outcome = self.outcome ?? Result { () throws(VulkanError) in try open() }
            self.outcome = outcome
            _ = try outcome.get()
        }
    }

    /// Opens the library and checks it is a Vulkan loader: every loader exports
    /// `vkGetInstanceProcAddr`, and with it every core entry point. Called with `lock` held.
    private static func open() throws(VulkanError) -> UnsafeMutableRawPointer {
        let libraryName = chosenLibrary
        guard let library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL) else {
            throw VulkanError(
                "no Vulkan loader: \(libraryName) cannot be opened (apt-get install libvulkan1 mesa-vulkan-drivers)")
        }
        guard dlsym(library, "vkGetInstanceProcAddr") != nil else {
            dlclose(library)
            throw VulkanError("the Vulkan loader \(libraryName) has no vkGetInstanceProcAddr")
        }
        return library
    }

    /// The entry point `name`, typed as the global it initialises. A Vulkan loader exports every
    /// core entry point, so a missing one is a broken installation, not a condition to handle.
    static func entryPoint<Function>(_ name: String) -> Function {
        guard let library = lock.withLock({ try? outcome?.get() }) else {
            preconditionFailure("\(name) used before VulkanLoader.load() opened the Vulkan loader")
        }
        guard let address = dlsym(library, name) else {
            preconditionFailure("the Vulkan loader \(libraryName) has no \(name)")
        }
        return unsafeBitCast(address, to: Function.self)
    }
}

extension VulkanRenderer {
    /// The Vulkan loader library this process opens, `libvulkan.so.1` by default. Set it before
    /// the first renderer or device listing: the loader, once opened, stays open.
    package static var loaderLibrary: String {
        get { VulkanLoader.libraryName }
        set { VulkanLoader.libraryName = newValue }
    }
}
