#version 450
// One axis of the separable Gaussian frost over a tile list of the lens's pyramid level, one
// workgroup per tile: axis 0 reads the level's texels (box averages of the sRGB backdrop or,
// under glass lying on glass, of the composite) into `scratch` over the row tiles, axis 1 reads
// `scratch` into `frosted` over the frost tiles. Both store the level with the canvas's row
// stride. Radius 0 is a plain decode (and box) copy. FROST_AXIS and FROST_LEVEL specialise it.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

void main() {
    loadDispatchedLens();
    uint tileIndex = (FROST_AXIS == 0u ? lens.rowTileOffset : lens.frostTileOffset) + gl_WorkGroupID.x;
    uvec2 texel = tileAt(tileIndex).xy * TILE_SIZE + gl_LocalInvocationID.xy;
    int w = levelSize(frame.width, FROST_LEVEL);
    int h = levelSize(frame.height, FROST_LEVEL);
    if (int(texel.x) >= w || int(texel.y) >= h) { return; }
    int stride = int(frame.width);
    int radius = int(lens.kernelRadius);
    vec3 sum = vec3(0.0);
    // Exit test last, as in lensContent: 2 * radius + 1 taps, the same in every lane.
    for (int i = -radius;;) {
        float weight = tableAt(lens.kernelOffset + uint(abs(i)));
        if (FROST_AXIS == 0u) {
            int x = mirrorIndex(int(texel.x) + i, w);
            sum = sum + levelTexel(x, int(texel.y), lens) * weight;
        } else {
            int y = mirrorIndex(int(texel.y) + i, h);
            sum = sum + scratchAt(y * stride + int(texel.x)) * weight;
        }
        i++;
        if (i > radius) { break; }
    }
    uint index = texel.y * frame.width + texel.x;
    if (FROST_AXIS == 0u) {
        imageStore(scratchImage, int(index), floatBitsToUint(vec4(sum, 1.0)));
    } else {
        imageStore(frostedImage, int(index), floatBitsToUint(vec4(sum, 1.0)));
    }
}
