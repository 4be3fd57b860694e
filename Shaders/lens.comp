#version 450
// One glass group over its tiles, clipped to where its glass and shadow can show: drop shadow outside the shape,
// then the glass composited over the frame with analytic coverage. Where glass above will look
// through this group, the same is written into the composite without the label row.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

// One pixel of a tile: the CPU reference's `lens(x, y, lens)`.
void shadeLensPixel(uvec2 pixel, bool glassFree) {
    if (pixel.x < dispatchInfo.region.x || pixel.y < dispatchInfo.region.y) { return; }
    if (pixel.x >= dispatchInfo.region.z || pixel.y >= dispatchInfo.region.w) { return; }
    vec2 p = vec2(pixel) + vec2(0.5);
    // A glass-free tile skips the group's shape and normals: the whole workgroup takes one branch.
    GroupSample group;
    float glassCoverage = 0.0;
    if (!glassFree) {
        group = groupSample(p, lens, true);
        glassCoverage = coverage(group.distance) * rampCoverage(p, lens);
    }
    float shadow = glassCoverage < 1.0 ? dropShadow(p, lens) * (1.0 - glassCoverage) : 0.0;
    if (glassCoverage <= 0.0 && shadow <= 0.0) { return; }
    uint index = pixel.y * frame.width + pixel.x;
    vec3 glass = glassCoverage > 0.0 ? glassColor(p, group, lens, true) : vec3(0.0);
    storeOutput(index, packColor(layOver(unpackColor(outputAt(index)), shadow, glass, glassCoverage, lens)));
    if (!WRITES_COMPOSITE) { return; }
    uvec4 region = lens.compositeRegion;
    if (pixel.x < region.x || pixel.y < region.y || pixel.x >= region.z || pixel.y >= region.w) { return; }
    // Off the label the glass looks the same without it; on it, glass above redraws the label itself.
    vec3 unlabeled = glassCoverage > 0.0 && REACHES_LABEL ? glassColor(p, group, lens, false) : glass;
    storeComposite(index, packColor(layOver(unpackColor(compositeAt(index)), shadow, unlabeled, glassCoverage, lens)));
}

// Each workgroup shades TILES_PER_WORKGROUP tiles of the group's tile list in turn (tiles far from
// every shape are not listed).
void main() {
    loadDispatchedLens();
    for (uint i = 0u; i < TILES_PER_WORKGROUP; i++) {
        uint listed = gl_WorkGroupID.x * TILES_PER_WORKGROUP + i;
        if (listed >= dispatchInfo.tileCount) { return; }
        uvec4 tile = tileAt(dispatchInfo.firstTile + listed);
        tileCandidates = uvec2(tile.z, tile.w & ~(1u << GLASS_FREE_TILE_BIT));
        bool glassFree = (tile.w >> GLASS_FREE_TILE_BIT) != 0u;
        shadeLensPixel(tile.xy * TILE_SIZE + gl_LocalInvocationID.xy, glassFree);
    }
}
