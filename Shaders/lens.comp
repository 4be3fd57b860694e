#version 450
// One glass group over its tiles, clipped to its bounding box plus shadow margin: drop shadow outside the shape,
// then the glass composited over the frame with analytic coverage. Where glass above will look
// through this group, the same is written into the composite without the label row.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

// One workgroup per tile of the group's tile list (tiles far from every shape are not listed).
void main() {
    loadDispatchedLens();
    uvec4 tile = tileAt(dispatchInfo.firstTile + gl_WorkGroupID.x);
    tileCandidates = tile.zw;
    uvec2 pixel = tile.xy * TILE_SIZE + gl_LocalInvocationID.xy;
    if (pixel.x < dispatchInfo.region.x || pixel.y < dispatchInfo.region.y) { return; }
    if (pixel.x >= dispatchInfo.region.z || pixel.y >= dispatchInfo.region.w) { return; }
    vec2 p = vec2(pixel) + vec2(0.5);
    GroupSample group = groupSample(p, lens, true);
    float glassCoverage = coverage(group.distance) * rampCoverage(p, lens);
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
