#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <malloc.h>

/* A pipeline compile on lavapipe runs LLVM in this process: about 100 MB of short-lived
   allocations, which glibc keeps for reuse once they are freed, so the resident size would step
   up by that much at each compile long after the compile is done. This hands the free pages
   back to the system. */
static inline void liquidlens_release_free_memory(void) {
    malloc_trim(0);
}
