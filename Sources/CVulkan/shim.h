#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
