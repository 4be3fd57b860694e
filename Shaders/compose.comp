#version 450
// Base layer over the whole frame: the backdrop with the label row in its resting colour.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy + dispatchInfo.region.xy;
    if (pixel.x >= dispatchInfo.region.z || pixel.y >= dispatchInfo.region.w) { return; }
    uint index = pixel.y * frame.width + pixel.x;
    float glyph = labelCoverage(int(pixel.x), int(pixel.y), 0u);
    // Off the label the result is the backdrop itself: sRGB decode then encode is exact.
    if (glyph == 0.0) {
        storeOutput(index, backdropAt(index));
        return;
    }
    vec3 background = unpackColor(backdropAt(index));
    storeOutput(index, packColor(composeLabel(background, glyph, frame.restingColor, vec3(1.0))));
}
