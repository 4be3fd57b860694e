#version 450
// One axis of the separable Gaussian frost over a tile list, one workgroup per tile: axis 0
// reads the sRGB backdrop (or, under glass lying on glass, the composite) into `scratch` over
// the row tiles, axis 1 reads `scratch` into `frosted` over the frost tiles. Radius 0 is a plain
// decode copy.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

void main() {
    uint tileIndex = (dispatchInfo.axis == 0u ? lens.rowTileOffset : lens.frostTileOffset) + gl_WorkGroupID.x;
    uvec2 pixel = tileAt(tileIndex).xy * TILE_SIZE + gl_LocalInvocationID.xy;
    if (pixel.x >= dispatchInfo.region.z || pixel.y >= dispatchInfo.region.w) { return; }
    int w = int(frame.width);
    int h = int(frame.height);
    int radius = int(lens.kernelRadius);
    vec3 sum = vec3(0.0);
    for (int i = -radius; i <= radius; i++) {
        float weight = tableAt(lens.kernelOffset + uint(abs(i)));
        if (dispatchInfo.axis == 0u) {
            int x = mirrorIndex(int(pixel.x) + i, w);
            sum = sum + sourceColor(uint(int(pixel.y) * w + x), lens) * weight;
        } else {
            int y = mirrorIndex(int(pixel.y) + i, h);
            sum = sum + scratchAt(y * w + int(pixel.x)) * weight;
        }
    }
    uint index = pixel.y * frame.width + pixel.x;
    if (dispatchInfo.axis == 0u) {
        imageStore(scratchImage, int(index), floatBitsToUint(vec4(sum, 1.0)));
    } else {
        imageStore(frostedImage, int(index), floatBitsToUint(vec4(sum, 1.0)));
    }
}
