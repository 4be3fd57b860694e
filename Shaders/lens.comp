#version 450
// One glass group over its tiles, clipped to its bounding box plus shadow margin: drop shadow outside the shape,
// then the glass composited over the frame with analytic coverage.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

// One workgroup per tile of the group's tile list (tiles far from every shape are not listed).
void main() {
    LensParams lens = lenses[dispatchInfo.lensIndex];
    uvec4 tile = tiles[dispatchInfo.firstTile + gl_WorkGroupID.x];
    tileCandidates = tile.zw;
    uvec2 pixel = tile.xy * TILE_SIZE + gl_LocalInvocationID.xy;
    if (pixel.x < dispatchInfo.region.x || pixel.y < dispatchInfo.region.y) { return; }
    if (pixel.x >= dispatchInfo.region.z || pixel.y >= dispatchInfo.region.w) { return; }
    vec2 p = vec2(pixel) + vec2(0.5);
    GroupSample group = groupSample(p, lens, true);
    float glassCoverage = coverage(group.distance);
    float shadow = glassCoverage < 1.0 ? dropShadow(p, lens) * (1.0 - glassCoverage) : 0.0;
    if (glassCoverage <= 0.0 && shadow <= 0.0) { return; }
    uint index = pixel.y * frame.width + pixel.x;
    vec3 color = unpackColor(outputPixels[index]) * (1.0 - shadow);
    if (glassCoverage > 0.0) {
        vec3 glass = glassColor(p, group, lens);
        color = color + (glass - color) * (glassCoverage * lens.opacity);
    }
    outputPixels[index] = packColor(color);
}
