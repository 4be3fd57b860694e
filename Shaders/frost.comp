#version 450
// One axis of the separable Gaussian frost over a tile list of the lens's pyramid level, each
// workgroup over TILES_PER_WORKGROUP tiles in turn: axis 0 reads the level's texels (box averages
// of the sRGB backdrop or, under glass lying on glass, of the composite) into `scratch` over the
// row tiles, axis 1 reads `scratch` into `frosted` over the frost tiles. Both store the level with
// the canvas's row stride. Radius 0 is a plain decode (and box) copy. FROST_AXIS and FROST_LEVEL
// specialise it.
// Axis 2, on the stored levels only, first writes the texels axis 0 reads into `scratch`, past
// the part axis 0 writes.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

// Axis 2: the level texels of a row tile's rows, across the tile widened by the kernel radius
// (mirrored at the level's sides, as axis 0 reads them). Neighbouring tiles write the texels they
// share with the same value.
void storeLevelTexels(uvec2 tile, int w, int h, int radius) {
    int y = int(tile.y * TILE_SIZE + gl_LocalInvocationID.y);
    if (y >= h) { return; }
    int first = int(tile.x * TILE_SIZE) - radius;
    int end = int(tile.x * TILE_SIZE + TILE_SIZE) + radius;
    for (int x = first + int(gl_LocalInvocationID.x); x < end; x += int(TILE_SIZE)) {
        int stored = mirrorIndex(x, w);
        vec3 texel = levelTexel(stored, y, lens);
        imageStore(scratchImage, levelTexelIndex(stored, y), floatBitsToUint(vec4(texel, 1.0)));
    }
}

// One texel of `tile` along FROST_AXIS (0 or 1).
void blurTexel(uvec4 tile) {
    uvec2 texel = tile.xy * TILE_SIZE + gl_LocalInvocationID.xy;
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
            vec3 level = FROST_LEVEL >= FIRST_STORED_LEVEL ? scratchAt(levelTexelIndex(x, int(texel.y)))
                                                            : levelTexel(x, int(texel.y), lens);
            sum = sum + level * weight;
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

// Each workgroup takes TILES_PER_WORKGROUP tiles of the lens's list in turn: row tiles for axes 2
// and 0, frost tiles for axis 1.
void main() {
    loadDispatchedLens();
    uint offset = FROST_AXIS == 1u ? lens.frostTileOffset : lens.rowTileOffset;
    uint count = FROST_AXIS == 1u ? lens.frostTileCount : lens.rowTileCount;
    for (uint i = 0u; i < TILES_PER_WORKGROUP; i++) {
        uint listed = gl_WorkGroupID.x * TILES_PER_WORKGROUP + i;
        if (listed >= count) { return; }
        uvec4 tile = tileAt(offset + listed);
        if (FROST_AXIS == 2u) {
            storeLevelTexels(
                tile.xy, levelSize(frame.width, FROST_LEVEL), levelSize(frame.height, FROST_LEVEL),
                int(lens.kernelRadius));
        } else {
            blurTexel(tile);
        }
    }
}
