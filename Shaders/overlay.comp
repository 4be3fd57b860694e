#version 450
// The foreground (labels on glass, focus rings) over the finished frame, each workgroup over
// TILES_PER_WORKGROUP foreground tiles in turn.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

void overlayPixel(uvec2 pixel) {
    if (pixel.x >= frame.width || pixel.y >= frame.height) { return; }
    uint index = pixel.y * frame.width + pixel.x;
    uint foreground = foregroundAt(index);
    if ((foreground >> 24u) == 0u) { return; }
    storeOutput(index, packColor(composeForeground(unpackColor(outputAt(index)), foreground)));
}

void main() {
    for (uint i = 0u; i < TILES_PER_WORKGROUP; i++) {
        uint listed = gl_WorkGroupID.x * TILES_PER_WORKGROUP + i;
        if (listed >= frame.foregroundTileCount) { return; }
        uvec2 tile = tileAt(frame.foregroundTileOffset + listed).xy;
        overlayPixel(tile * TILE_SIZE + gl_LocalInvocationID.xy);
    }
}
