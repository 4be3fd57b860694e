#version 450
// The foreground (labels on glass, focus rings) over the finished frame, one workgroup per
// foreground tile.
layout(local_size_x = 16, local_size_y = 16) in;
#include "lens_common.glsl"

void main() {
    uvec2 pixel = tileAt(frame.foregroundTileOffset + gl_WorkGroupID.x).xy * TILE_SIZE + gl_LocalInvocationID.xy;
    if (pixel.x >= frame.width || pixel.y >= frame.height) { return; }
    uint index = pixel.y * frame.width + pixel.x;
    uint foreground = foregroundAt(index);
    if ((foreground >> 24u) == 0u) { return; }
    storeOutput(index, packColor(composeForeground(unpackColor(outputAt(index)), foreground)));
}
