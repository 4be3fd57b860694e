// Shared declarations and functions of the LiquidLens compute shaders.
// Every function here has a twin of the same name in Sources/LensReference/ShaderFunctions.swift;
// both use the same fp32 operation order so the two backends agree to 1/255.
// One file on purpose (over 400 lines): it is the whole lens model, read side by side with its
// Swift twin, and every shader includes it.
// Capture names (`union-resting`, `cn-tab-bar`, …) are explained in Fidelity.md, "Against iOS".

// ---- Parameter block: twin of Sources/LensResolve/ParameterBlock.swift (a test compares offsets). ----
struct FrameParams {
    uint width;
    uint height;
    uint lensCount;
    uint labelWordsPerRow;
    uint liftedLabelWordOffset;  // where the lifted (selected-appearance) label starts in labelBytes
    uint foregroundTileOffset;   // the foreground's tiles in `tiles`
    uint foregroundTileCount;    // 0: no foreground
    uint linearBlending;         // 1: layers blend in linear light; 0: on sRGB values (Core Animation)
    vec4 restingColor;           // label resting colour, premultiplied in the blend space
    vec4 accentColor;            // label accent colour, premultiplied in the blend space
    vec4 liftedLabelColor;       // lifted label colour, premultiplied in the blend space
};

struct ShapeParams {
    vec4 centerHalfSize;         // centre x, y and half width, half height, in pixels
    vec4 cornerRadii;            // top-left, top-right, bottom-right, bottom-left, in pixels
    uint kind;                   // 0 rounded box (circle, capsule, rounded rectangle), 1 ellipse, 2 squircle
    float exponent;              // squircle superellipse exponent
    float padding0;
    float padding1;
    vec4 tint;                   // this shape's tint, premultiplied in the blend space (lens.shapeTints)
};

struct LensParams {
    vec4 tint;                   // rgb and alpha, premultiplied in the blend space
    vec4 keyLight;               // direction x, y; amount; unused
    vec4 fillLight;              // direction x, y; amount; unused
    vec4 shadow;                 // offset x, y; radius; opacity
    vec4 innerShadow;            // offset x, y; radius; opacity
    vec4 restingFill;            // resting background, premultiplied in the blend space, alpha faded by lift
    uvec4 sourceRegion;          // x0, y0, x1, y1: where the frosted backdrop is valid
    uint shapeOffset;            // first shape of the group in `shapes`
    uint shapeCount;
    float blend;                 // smooth-minimum radius k
    uint profileOffset;          // physical model: displacement table in `tables`; 0 = bevel model
    float bevelWidth;            // H: depth of the refracting band
    float bevelAmount;           // A: inward displacement at the silhouette (bevel model)
    float inverseMagnification;
    float dispersion;            // spread k (0 when under 1/4 px)
    uint spectralTaps;           // 0: per-channel dispersion; otherwise spectral taps
    float saturation;
    float brightness;
    float contrast;
    float softness;              // tint-mask feather, inside the rim only
    float rimWidth;
    uint rimFalloff;             // integer exponent of the rim lobes
    float fresnel;               // ambient (1 - n_z)^3 amount
    float contourWidth;
    float contourOpacity;
    uint kernelOffset;           // frost weights in `tables`
    uint kernelRadius;
    float normalSmoothing;       // width over which edge normals blend across the medial axis
    float ovalization;           // share of the ellipse normal in the refraction direction
    float liftedContentAlpha;    // the lifted label replaces the regular one under the glass
    uint warpsContentBelow;      // 0: the glass shows what is below it without refraction
    float darkening;             // dark appearance: share of the content dimmed
    uint tileOffset;             // first of this group's lens tiles in `tiles`
    uint tileCount;
    uint frostTileOffset;        // tiles the vertical frost writes: every tile a sample can land in
    uint frostTileCount;
    uint rowTileOffset;          // tiles the horizontal frost writes: those grown by the kernel radius
    uint rowTileCount;
    float accentStrength;        // 1: the label turns accent under this glass (LensTint); 0: it stays resting
    vec4 edgeHighlight;          // stroke width; alpha at top-leading corner, middle, bottom-trailing corner
    vec4 highlightAxis;          // origin x, y; axis x, y: u = (p - origin) . axis runs 0..1 along the diagonal
    vec4 gradientAxis;           // origin and axis of the gradient tint, as highlightAxis
    vec4 shimmer;                // band centre u, half width in u, alpha (0: off), unused
    uint gradientOffset;         // gradient tint stops in `tables`, rgba premultiplied in the blend space
    uint gradientCount;          // 0: the flat tint
    float opacity;               // share of the glass laid over what is below it
    uint labelTileCount;         // the first tiles of the group reach a label glyph; 0: none does
    uvec4 compositeRegion;       // x0, y0, x1, y1: where the lens pass also writes the composite (glass above reads it)
    uint readsComposite;         // 1: glass lies below; the frost blurs the composite, not the backdrop
    uint labelOnFace;            // 1: the label lies on this glass's face (a platter's content view), not under it
    uint frostLevel;             // the frost works on the canvas at 1/2^level (a pyramid level)
    uint padding2;               // to a whole vec4, as Swift lays it out
    vec4 backdropStages;         // stage model: amount (+ samples outward), height of stage 1, then of stage 2
    vec4 labelStages;            // stage model: the label row's stages, as backdropStages
    vec4 stageBox;               // stage model: x0, y0, x1, y1 of the group's box, the stages' texture
    vec4 aberration;             // stage model: spread at the silhouette; cos, sin of its turn; fade depth
    vec4 faceLevels;             // face YCbCr composite: white, black, saturation; 1 when on
    vec4 rimRecolor;             // rim vibrant recolour: white, black, saturation; 1 when on
    uint stageModel;             // 1: the stage model; 0: bevel or physical
    float labelInverseMagnification; // stage model: 1 / magnification of the label row
    float rimCurvature;          // share of the rim light lost from the silhouette to the band's inner edge
    uint shapeTints;             // 1: each shape has its own tint, blended across the group's bridges
    vec4 touchGlow;              // centre x, y; radius where it has faded out; white added at the centre (0: off)
    vec4 coverageRamp;           // blur band: origin x, y; axis x, y: coverage clamp(u, 0, 1) (axis 0: off)
};

layout(push_constant) uniform DispatchConstants {
    uvec4 region;                // x0, y0, x1, y1 of the pixels this dispatch covers
    uint firstTile;              // lens: the first tile of workgroup 0
    uint tileCount;              // lens: the tiles from firstTile on
} dispatchInfo;

// Pipeline variants: which shape kinds a group holds (bit 1 << kind) and whether it holds one
// shape, so llvmpipe compiles out the code a group does not use. The results do not change.
layout(constant_id = 0) const uint SHAPE_KINDS = 7u;
layout(constant_id = 1) const bool SINGLE_SHAPE = false;
// Whether the dispatched tiles can reach a label glyph; the variant without skips the label
// sampling (its tiles would read zero coverage). It runs every tile of a group none of whose
// tiles reach a glyph; in a group with both, it runs the others once it has compiled (it is
// optional), and until then the label variant runs them too, reading zero there.
layout(constant_id = 2) const bool REACHES_LABEL = true;
// Whether the spectral dispersion is compiled in: its seven taps are seven inlined content
// samples, code every other group carries for nothing.
layout(constant_id = 3) const bool SPECTRAL = true;
// Whether the lens pass writes the composite (glass above looks through this group).
layout(constant_id = 4) const bool WRITES_COMPOSITE = true;
// A specialised lens pipeline knows which optional stages its lens uses: FEATURES has a stage's
// bit exactly when the stage's runtime condition holds. llvmpipe runs both sides of every branch
// under a lane mask, so a stage compiled out is the only stage it skips. Unspecialised pipelines
// (the other passes) test the parameters. Twin: LensFeatures in Sources/LensVulkan.
layout(constant_id = 5) const bool SPECIALIZED = false;
layout(constant_id = 6) const uint FEATURES = 0u;
const uint F_LINEAR_BLENDING = 1u;     // frame.linearBlending != 0
const uint F_STAGE_MODEL = 2u;         // lens.stageModel != 0
const uint F_ABERRATION = 4u;          // lens.aberration.x > 0
const uint F_DISPERSION = 8u;          // lens.dispersion > 0
const uint F_WARPS = 16u;              // lens.warpsContentBelow != 0
const uint F_PROFILE = 32u;            // lens.profileOffset != 0 (the physical model's table)
const uint F_LABEL_ON_FACE = 64u;      // lens.labelOnFace != 0
const uint F_LIFTED_LABEL = 128u;      // lens.liftedContentAlpha > 0
const uint F_FACE_LEVELS = 256u;       // lens.faceLevels.w != 0
const uint F_TINT = 512u;              // lens.tint.a > 0 or lens.gradientCount != 0
const uint F_GRADIENT = 1024u;         // lens.gradientCount != 0
const uint F_RESTING_FILL = 2048u;     // lens.restingFill.a > 0
const uint F_RIM = 4096u;              // lens.rimWidth > 0
const uint F_RIM_RECOLOR = 8192u;      // lens.rimRecolor.w != 0
const uint F_EDGE_HIGHLIGHT = 16384u;  // lens.edgeHighlight.x > 0
const uint F_SHIMMER = 32768u;         // lens.shimmer.z > 0
const uint F_FRESNEL = 65536u;         // lens.fresnel > 0
const uint F_CONTOUR = 131072u;        // lens.contourOpacity > 0 and lens.contourWidth > 0
const uint F_INNER_SHADOW = 262144u;   // lens.innerShadow.w > 0
const uint F_DROP_SHADOW = 524288u;    // lens.shadow.w > 0
const uint F_TOUCH_GLOW = 1048576u;    // lens.touchGlow.w > 0
const uint F_SHAPE_TINTS = 2097152u;   // lens.shapeTints != 0
const uint F_COVERAGE_RAMP = 4194304u; // lens.coverageRamp.z != 0 or lens.coverageRamp.w != 0

// The frost pipelines are specialised by axis, pyramid level (the lens's frostLevel) and source
// (the lens's readsComposite): llvmpipe would otherwise run both axes' code, and read both
// sources, at every tap. Twin: FrostVariant in Sources/LensVulkan.
layout(constant_id = 7) const uint FROST_AXIS = 0u;
layout(constant_id = 8) const uint FROST_LEVEL = 0u;
layout(constant_id = 9) const bool FROST_READS_COMPOSITE = false;
// Levels from here on store the texels a frost's row tiles read once (FROST_AXIS 2) for the
// horizontal pass: each texel averages 4^level pixels, too many to average again at every tap.
// Twin: FrostPyramid.firstStoredLevel in Sources/LensResolve.
const uint FIRST_STORED_LEVEL = 1u;

// Whether an optional stage runs: known to a specialised pipeline, tested otherwise.
bool uses(uint feature, bool condition) {
    return SPECIALIZED ? (FEATURES & feature) != 0u : condition;
}

const uint SRGB_DECODE_OFFSET = 0u;     // 256 linear values of the 8-bit sRGB codes
const uint SPECTRAL_OFFSET = 256u;      // 7 taps x (scale, r, g, b) of the spectral dispersion
const uint SPECTRAL_TAPS = 7u;
const uint SRGB_BUCKET_OFFSET = 284u;   // encode word of each float bucket (bits >> 16) of [0, 1)
const uint PROFILE_SAMPLES = 256u;      // samples of a physical displacement profile

// Descriptors, chosen for how llvmpipe (and GPUs) load: the frame and the dispatched lens are
// uniform blocks (one scalar load per field, not a per-lane loop as for storage buffers); inputs
// read at varying positions are uniform texel buffers of 32-bit (or 8-bit) words, which load as
// one gather, bit-exact (floats travel as their bits, so no denormal flushing can touch them).
// Passes write storage texel buffers.
layout(std140, set = 0, binding = 0) uniform FrameBlock { FrameParams frame; };
// The lens a frost or lens dispatch works on: one LensParams at a dynamic offset into the params
// buffer, read through `lens` (see loadDispatchedLens).
layout(std140, set = 0, binding = 12) uniform LensBlock { LensParams dispatchedLens[1]; };
LensParams lens;

layout(set = 0, binding = 1) uniform usamplerBuffer tableWords;      // R32_UINT: float bits
layout(set = 0, binding = 2) uniform usamplerBuffer backdropWords;   // R32_UINT: sRGB packed
layout(set = 0, binding = 3) uniform usamplerBuffer labelBytes;      // R8_UINT: coverage
// What the passes write: storage texel buffers (a store is one scatter, not a loop over lanes).
layout(set = 0, binding = 4, rgba32ui) uniform writeonly uimageBuffer scratchImage;   // float bits
layout(set = 0, binding = 5, rgba32ui) uniform writeonly uimageBuffer frostedImage;   // float bits
layout(set = 0, binding = 6, r32ui) uniform uimageBuffer outputImage;                // sRGB packed
// Four R32G32B32A32_UINT texels per ShapeParams, in Swift's field order (see shapeAt).
layout(set = 0, binding = 7) uniform usamplerBuffer shapeTexels;
// A tile: tile x, tile y (16 px units); for lens tiles also the first candidate in `tileShapes`
// and the candidate count.
layout(set = 0, binding = 8) uniform usamplerBuffer tileTexels;      // R32G32B32A32_UINT
// Per tile, the shapes near enough to matter (indices into the shapes), in group order.
layout(set = 0, binding = 9) uniform usamplerBuffer tileShapeWords;  // R32_UINT
// Layers over everything, straight-alpha sRGB packed r | g << 8 | b << 16 | a << 24.
layout(set = 0, binding = 10) uniform usamplerBuffer foregroundWords; // R32_UINT
// What glass above sees: the backdrop with the glass below drawn over it, without the label row
// (each glass draws the label itself), sRGB packed like the backdrop. Used only where glass lies
// on glass.
layout(set = 0, binding = 11, r32ui) uniform uimageBuffer compositeImage;
// The frost passes' outputs read back as texels (R32G32B32A32_UINT: float bits).
layout(set = 0, binding = 13) uniform usamplerBuffer scratchTexels;
layout(set = 0, binding = 14) uniform usamplerBuffer frostedTexels;

// ---- Loads: how the GPU reads its inputs (the Swift twin subscripts its arrays and is handed
// its lens). ----

// Copies the dispatched lens into `lens`, indexed by a zero the compiler cannot fold (whatever
// the dispatch's shape). lavapipe (Mesa 22.3) inlines uniform-buffer values read at constant
// offsets that steer branches and loops, re-specialising the shader at each dispatch: its NIR
// passes cost lens-heavy's lens pass about 3 ms a frame, and 4 ms more for a second dispatch of
// the same pipeline. A runtime index keeps the loads uniform (one scalar load each) but out of
// its reach.
void loadDispatchedLens() {
    lens = dispatchedLens[min(gl_NumWorkGroups.y, 1u) - 1u];
}

uint tableWordAt(uint index) { return texelFetch(tableWords, int(index)).r; }
float tableAt(uint index) { return uintBitsToFloat(tableWordAt(index)); }
uint backdropAt(uint index) { return texelFetch(backdropWords, int(index)).r; }
uint foregroundAt(uint index) { return texelFetch(foregroundWords, int(index)).r; }
uvec4 tileAt(uint index) { return texelFetch(tileTexels, int(index)); }
uint tileShapeAt(uint index) { return texelFetch(tileShapeWords, int(index)).r; }
vec3 scratchAt(int index) { return uintBitsToFloat(texelFetch(scratchTexels, index).rgb); }
vec3 frostedAt(int index) { return uintBitsToFloat(texelFetch(frostedTexels, index).rgb); }
uint outputAt(uint index) { return imageLoad(outputImage, int(index)).r; }
void storeOutput(uint index, uint packed) { imageStore(outputImage, int(index), uvec4(packed)); }
uint compositeAt(uint index) { return imageLoad(compositeImage, int(index)).r; }
void storeComposite(uint index, uint packed) { imageStore(compositeImage, int(index), uvec4(packed)); }

ShapeParams shapeAt(uint index) {
    uvec4 a = texelFetch(shapeTexels, int(index * 4u));
    uvec4 b = texelFetch(shapeTexels, int(index * 4u + 1u));
    uvec4 c = texelFetch(shapeTexels, int(index * 4u + 2u));
    ShapeParams shape;
    shape.centerHalfSize = uintBitsToFloat(a);
    shape.cornerRadii = uintBitsToFloat(b);
    shape.kind = c.x;
    shape.exponent = uintBitsToFloat(c.y);
    shape.padding0 = 0.0;
    shape.padding1 = 0.0;
    // Read only where the group's shapes carry tints (a load nothing uses is compiled out).
    shape.tint = uintBitsToFloat(texelFetch(shapeTexels, int(index * 4u + 3u)));
    return shape;
}

const uint TILE_SIZE = 16u;
// Tiles one workgroup of a tile pass shades, one after another (twin:
// TableLayout.tilesPerWorkgroup): lavapipe spends about 10 µs on each workgroup before its first
// pixel, more than most tiles' work.
const uint TILES_PER_WORKGROUP = 8u;

// The candidate shapes of the tile this invocation shades: offset and count in `tileShapes`.
uvec2 tileCandidates = uvec2(0u);
// Set in a lens tile's candidate count where no pixel of the tile shows glass (twin:
// TableLayout.glassFreeTileBit): the tile draws only the drop shadow.
const uint GLASS_FREE_TILE_BIT = 31u;


// ---- Polynomial log2/exp2: identical on both backends (no driver approximations). ----

float log2Polynomial(float value) {
    int bits = floatBitsToInt(value);
    float exponent = float(((bits >> 23) & 255) - 127);
    float mantissa = intBitsToFloat((bits & 8388607) | 1065353216);
    float t = (mantissa - 1.0) / (mantissa + 1.0);
    float t2 = t * t;
    float series = t * (2.0 + t2 * (0.6666667 + t2 * (0.4 + t2 * (0.2857143 + t2 * (0.2222222 + t2 * 0.1818182)))));
    return exponent + series * 1.442695;
}

float exp2Polynomial(float value) {
    float clamped = clamp(value, -126.0, 126.0);
    float whole = floor(clamped);
    float f = (clamped - whole) * 0.6931472;
    float fraction = 1.0 + f * (1.0 + f * (0.5 + f * (0.1666667 + f * (0.04166667 + f * (0.008333333 + f * (0.001388889 + f * 0.0001984127))))));
    return fraction * intBitsToFloat((int(whole) + 127) << 23);
}

// base^exponent for base >= 0.
float powerPolynomial(float base, float exponent) {
    if (base <= 0.0) { return 0.0; }
    return exp2Polynomial(exponent * log2Polynomial(base));
}

// ---- Colour ----

float srgbDecode(uint code) {
    return tableAt(SRGB_DECODE_OFFSET + code);
}

// The count of rounding thresholds at or below the value: exact, and no pow() whose
// approximation differs. The value's float bucket (its bits >> 16) holds the code at the bucket's
// start and the low bits of the one threshold inside it, if any: one read and one comparison.
uint srgbEncode(float value) {
    if (!(value > 0.0)) { return 0u; }
    if (value >= 1.0) { return 255u; }
    uint bits = floatBitsToUint(value);
    uint word = tableWordAt(SRGB_BUCKET_OFFSET + (bits >> 16u));
    return (word & 255u) + ((bits & 65535u) >= (word >> 8u) ? 1u : 0u);
}

// A linear colour's 8-bit sRGB codes, as floats, and codes (whole numbers 0…255) back to linear.
vec3 encodeCodes(vec3 color) {
    return vec3(float(srgbEncode(color.r)), float(srgbEncode(color.g)), float(srgbEncode(color.b)));
}

vec3 decodeCodes(vec3 codes) {
    return vec3(srgbDecode(uint(codes.r)), srgbDecode(uint(codes.g)), srgbDecode(uint(codes.b)));
}

vec3 unpackColor(uint packed) {
    return vec3(srgbDecode(packed & 255u), srgbDecode((packed >> 8u) & 255u), srgbDecode((packed >> 16u) & 255u));
}

uint packColor(vec3 color) {
    return srgbEncode(color.r) | (srgbEncode(color.g) << 8u) | (srgbEncode(color.b) << 16u) | (255u << 24u);
}

// One channel of a layer over 8-bit sRGB code `code`, as Core Animation blends 8-bit layers: the
// layer (premultiplied, in codes 0…255) laid over it, the result rounded to a code and decoded.
// Exact on both backends: a table lookup, one multiply-add, floor.
float blendCode(float code, float layerCode, float alpha) {
    float blended = clamp(floor(code * (1.0 - alpha) + layerCode + 0.5), 0.0, 255.0);
    return srgbDecode(uint(blended));
}

// A layer over linear `below`, each channel taken to its code and blended (blendCode), in the
// channels whose `channels` entry is non-zero; the others pass through: a dispersion tap keeps
// one channel of what it samples, so it pays for one channel's table reads.
vec3 blendCodes(vec3 below, vec3 layerCodes, float alpha, vec3 channels) {
    return vec3(
        channels.r != 0.0 ? blendCode(float(srgbEncode(below.r)), layerCodes.r, alpha) : below.r,
        channels.g != 0.0 ? blendCode(float(srgbEncode(below.g)), layerCodes.g, alpha) : below.g,
        channels.b != 0.0 ? blendCode(float(srgbEncode(below.b)), layerCodes.b, alpha) : below.b);
}

// A layer (rgb premultiplied in the blend space, alpha) over linear `below`, in the channels
// `channels` keeps: on sRGB codes as Core Animation does, or in linear light when the scene asks.
vec3 blendChannelsOver(vec3 below, vec4 layer, vec3 channels) {
    if (!(layer.a > 0.0)) { return below; }
    if (uses(F_LINEAR_BLENDING, frame.linearBlending != 0u)) { return below * (1.0 - layer.a) + layer.rgb; }
    return blendCodes(below, layer.rgb * 255.0, layer.a, channels);
}

vec3 blendOver(vec3 below, vec4 layer) {
    return blendChannelsOver(below, layer, vec3(1.0));
}

vec3 composeLabel(vec3 background, float glyph, vec4 labelColor, vec3 channels) {
    return blendChannelsOver(background, vec4(labelColor.rgb * glyph, glyph * labelColor.a), channels);
}

// The foreground (straight-alpha sRGB) over the finished frame.
vec3 composeForeground(vec3 color, uint foreground) {
    float alpha = float(foreground >> 24u) / 255.0;
    if (uses(F_LINEAR_BLENDING, frame.linearBlending != 0u)) {
        return blendOver(color, vec4(unpackColor(foreground) * alpha, alpha));
    }
    vec3 codes = vec3(float(foreground & 255u), float((foreground >> 8u) & 255u), float((foreground >> 16u) & 255u));
    return blendCodes(color, codes * alpha, alpha, vec3(1.0));
}

vec3 applySaturation(vec3 color, float saturation) {
    float luma = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
    return max(vec3(luma) + (color - vec3(luma)) * saturation, vec3(0.0));
}

vec3 applyBrightnessContrast(vec3 color, float brightness, float contrast) {
    return max((color - vec3(0.5)) * contrast + vec3(0.5 + brightness), vec3(0.0));
}

vec3 applyTint(vec3 color, vec4 tint) {
    return blendOver(color, tint);
}

// QuartzCore's YCbCr composite (levels: white, black, saturation): Rec. 709 luma to
// black + (white - black) * Y, chroma scaled by the saturation.
vec3 yccLevels(vec3 color, vec4 levels) {
    float luma = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
    float mapped = luma * (levels.x - levels.y) + levels.y;
    return vec3(mapped) + (color - vec3(luma)) * levels.z;
}

// Core Animation's vibrant colour matrix, source over: the colour recoloured by the levels (clamped
// to 0..1) laid over itself with `alpha`, on 8-bit sRGB codes as Core Animation filters its
// layers (in linear light when the scene blends there). Alpha 1 is the face's full replacement.
vec3 recolorOver(vec3 color, vec4 levels, float alpha) {
    if (uses(F_LINEAR_BLENDING, frame.linearBlending != 0u)) {
        return color + (clamp(yccLevels(color, levels), vec3(0.0), vec3(1.0)) - color) * alpha;
    }
    vec3 codes = encodeCodes(color);
    vec3 layerCodes = clamp(yccLevels(codes / 255.0, levels), vec3(0.0), vec3(1.0)) * 255.0 * alpha;
    // Over the codes already taken, not blendCodes, which would encode the colour again.
    return vec3(
        blendCode(codes.r, layerCodes.r, alpha), blendCode(codes.g, layerCodes.g, alpha),
        blendCode(codes.b, layerCodes.b, alpha));
}

// Position along an axis: 0 at the origin, 1 at the far corner.
float axisPosition(vec2 p, vec4 axis) {
    return (p.x - axis.x) * axis.z + (p.y - axis.y) * axis.w;
}

// ---- Sampling ----

int mirrorIndex(int index, int count) {
    int mirrored = index;
    if (mirrored < 0) { mirrored = -mirrored - 1; }
    if (mirrored >= count) { mirrored = 2 * count - 1 - mirrored; }
    return clamp(mirrored, 0, count - 1);
}

float labelCoverage(int x, int y, uint wordOffset) {
    uint byteIndex = uint(y) * frame.labelWordsPerRow * 4u + uint(x);
    return float(texelFetch(labelBytes, int(wordOffset * 4u + byteIndex)).r) / 255.0;
}

float sampleLabel(vec2 position, uint wordOffset) {
    vec2 texel = position - vec2(0.5);
    vec2 base = floor(texel);
    vec2 t = texel - base;
    int w = int(frame.width);
    int h = int(frame.height);
    int x0 = mirrorIndex(int(base.x), w);
    int x1 = mirrorIndex(int(base.x) + 1, w);
    int y0 = mirrorIndex(int(base.y), h);
    int y1 = mirrorIndex(int(base.y) + 1, h);
    float top = labelCoverage(x0, y0, wordOffset) + (labelCoverage(x1, y0, wordOffset) - labelCoverage(x0, y0, wordOffset)) * t.x;
    float bottom = labelCoverage(x0, y1, wordOffset) + (labelCoverage(x1, y1, wordOffset) - labelCoverage(x0, y1, wordOffset)) * t.x;
    return top + (bottom - top) * t.y;
}

// The content a frost pass blurs: the backdrop, or, under glass lying on glass, the composite of
// the backdrop and the glass below (FROST_READS_COMPOSITE is the lens's readsComposite).
vec3 sourceColor(uint index, LensParams lens) {
    return unpackColor(FROST_READS_COMPOSITE ? compositeAt(index) : backdropAt(index));
}

// Texels across `extent` pixels at pyramid `level` (the last may cover fewer pixels).
int levelSize(uint extent, uint level) {
    return int((extent + (1u << level) - 1u) >> level);
}

// A stored level's texel in `scratch`: past the canvas-sized part the horizontal pass writes, at
// the first stored level's row stride (the widest). Twin: FrostPyramid.scratchCount.
int levelTexelIndex(int x, int y) {
    return int(frame.width * frame.height) + y * levelSize(frame.width, FIRST_STORED_LEVEL) + x;
}

// One texel of the frost's pyramid level: the box average of its 2^level x 2^level pixels of the
// content (the last row and column repeat the canvas edge). Level 0 is the pixel itself.
// FROST_LEVEL is the lens's frostLevel.
vec3 levelTexel(int x, int y, LensParams lens) {
    int size = 1 << FROST_LEVEL;
    int w = int(frame.width);
    int h = int(frame.height);
    vec3 sum = vec3(0.0);
    for (int dy = 0; dy < size; dy++) {
        int sy = min(y * size + dy, h - 1);
        for (int dx = 0; dx < size; dx++) {
            int sx = min(x * size + dx, w - 1);
            sum = sum + sourceColor(uint(sy * w + sx), lens);
        }
    }
    return sum * (1.0 / float(size * size));
}

// Bilinear on the frosted pyramid level (texel k centred on pixel (k + 0.5) * 2^level; the level
// is stored with the canvas's row stride): mirrored at the level's edge, then held inside the
// texels the frost pass wrote, so no sample ever reads stale memory.
vec3 sampleFrosted(vec2 position, LensParams lens) {
    uint level = lens.frostLevel;
    // 1 / 2^level is exact, so level 0 reads exactly as the canvas.
    vec2 texel = position * (1.0 / float(1u << level)) - vec2(0.5);
    vec2 base = floor(texel);
    vec2 t = texel - base;
    int stride = int(frame.width);
    int w = levelSize(frame.width, level);
    int h = levelSize(frame.height, level);
    uint roundUp = (1u << level) - 1u;
    ivec4 region = ivec4(
        lens.sourceRegion.x >> level, lens.sourceRegion.y >> level, (lens.sourceRegion.z + roundUp) >> level,
        (lens.sourceRegion.w + roundUp) >> level);
    int x0 = clamp(mirrorIndex(int(base.x), w), region.x, region.z - 1);
    int x1 = clamp(mirrorIndex(int(base.x) + 1, w), region.x, region.z - 1);
    int y0 = clamp(mirrorIndex(int(base.y), h), region.y, region.w - 1);
    int y1 = clamp(mirrorIndex(int(base.y) + 1, h), region.y, region.w - 1);
    vec3 a = frostedAt(y0 * stride + x0);
    vec3 b = frostedAt(y0 * stride + x1);
    vec3 c = frostedAt(y1 * stride + x0);
    vec3 d = frostedAt(y1 * stride + x1);
    vec3 top = a + (b - a) * t.x;
    vec3 bottom = c + (d - c) * t.x;
    return top + (bottom - top) * t.y;
}

// ---- Geometry of one shape ----

float vectorLength(vec2 v) {
    return sqrt(v.x * v.x + v.y * v.y);
}

vec2 safeNormalize(vec2 v) {
    float len = vectorLength(v);
    return len > 1e-6 ? v / len : vec2(0.0);
}

float cornerRadius(vec2 local, ShapeParams shape) {
    if (local.x < 0.0) {
        return local.y < 0.0 ? shape.cornerRadii.x : shape.cornerRadii.w;
    }
    return local.y < 0.0 ? shape.cornerRadii.y : shape.cornerRadii.z;
}

// The corner vector of a rounded box (kind 0) or of a squircle (kind 2), whose corner follows
// the superellipse |x|^n + |y|^n = r^n: for kind 2 its length is the superellipse norm.
vec2 cornerVector(vec2 q, ShapeParams shape) {
    vec2 outside = max(q, vec2(0.0));
    if ((SHAPE_KINDS & 4u) == 0u || shape.kind != 2u) { return outside; }
    float n = shape.exponent;
    float px = powerPolynomial(outside.x, n);
    float py = powerPolynomial(outside.y, n);
    float norm = powerPolynomial(px + py, 1.0 / n);
    vec2 direction = safeNormalize(vec2(powerPolynomial(outside.x, n - 1.0), powerPolynomial(outside.y, n - 1.0)));
    return direction * norm;
}

// IQ's ellipse approximation: exact for circles, first-order accurate at the silhouette.
float ellipseDistance(vec2 local, vec2 halfSize) {
    float k0 = vectorLength(vec2(local.x / halfSize.x, local.y / halfSize.y));
    float k1 = vectorLength(vec2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)));
    return k1 > 1e-6 ? k0 * (k0 - 1.0) / k1 : -min(halfSize.x, halfSize.y);
}

float shapeDistance(vec2 local, ShapeParams shape) {
    vec2 halfSize = shape.centerHalfSize.zw;
    if ((SHAPE_KINDS & 2u) != 0u && shape.kind == 1u) { return ellipseDistance(local, halfSize); }
    float radius = cornerRadius(local, shape);
    vec2 q = abs(local) - halfSize + vec2(radius);
    return min(max(q.x, q.y), 0.0) + vectorLength(cornerVector(q, shape)) - radius;
}

vec2 ellipseNormal(vec2 local, ShapeParams shape) {
    vec2 halfSize = shape.centerHalfSize.zw;
    return safeNormalize(vec2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)));
}

// Outward SDF gradient, with edge normals blended across the medial axis (no diagonal creases).
vec2 lightingNormal(vec2 local, ShapeParams shape, float smoothing) {
    if ((SHAPE_KINDS & 2u) != 0u && shape.kind == 1u) { return ellipseNormal(local, shape); }
    float radius = cornerRadius(local, shape);
    vec2 q = abs(local) - shape.centerHalfSize.zw + vec2(radius);
    vec2 outside = cornerVector(q, shape);
    float h = clamp(0.5 + (q.x - q.y) / (2.0 * smoothing), 0.0, 1.0);
    float interiorWeight = smoothing * clamp(1.0 - vectorLength(outside) / smoothing, 0.0, 1.0);
    vec2 n = safeNormalize(outside + vec2(h, 1.0 - h) * interiorWeight);
    return vec2(local.x < 0.0 ? -n.x : n.x, local.y < 0.0 ? -n.y : n.y);
}

// A lower bound of the shape's distance. Outside its bounding box: the distance to the box, divided
// where the shape's distance falls short of it (the ellipse's estimate by up to √2 · long / short
// half, the squircle's corner norm by up to √2; 1.5 for √2 covers fp32 and the polynomial powers).
// Inside: minus the longer half, the deepest any kind's distance goes (an ellipse's estimate
// along its long axis), so a shape overlapping the group is never skipped.
float boundsDistance(vec2 local, ShapeParams shape) {
    vec2 halfSize = shape.centerHalfSize.zw;
    vec2 beyond = abs(local) - halfSize;
    if (beyond.x <= 0.0 && beyond.y <= 0.0) { return -max(halfSize.x, halfSize.y); }
    float box = vectorLength(max(beyond, vec2(0.0)));
    if (shape.kind == 0u) { return box; }
    float longShort = max(halfSize.x, halfSize.y) / min(halfSize.x, halfSize.y);
    float shortfall = shape.kind == 1u ? 1.5 * longShort : 1.5;
    return box / shortfall;
}

// ---- Geometry of a glass group: shapes merged with a smooth minimum ----

struct GroupSample {
    float distance;
    vec2 lightNormal;
    vec2 ellipseNormal;
    vec2 center;
    vec4 tint;                   // the shapes' tints blended across bridges (lens.shapeTints)
};

// How strongly a tint of opacity a claims a bridge: a², so an opaque tint holds more of the neck
// than a light one (`fabbar-lifted`: the "+"'s blue holds the whole neck against the bar's white
// 0.4; a² brings the neck's centre row to MAD 11 from 39 with the plain weight, a⁴ to 10 but as
// a step where the capture ramps over 7 pt).
float tintDensity(float a) {
    return a * a;
}

// Folds the tile's candidate shapes in order with the polynomial smooth minimum; its gradient is
// the same blend of the shapes' gradients, so normals and the magnification centre blend with the
// same weight; the shapes' own tints, where they have them, blend by that weight times their
// density (a bridge takes both colours, the denser more).
// A shape whose distance is surely farther than the current distance plus the blend radius
// (`boundsDistance`) cannot change the result and is skipped.
GroupSample groupSample(vec2 p, LensParams lens, bool withNormals) {
    GroupSample group;
    group.distance = 0.0;
    group.lightNormal = vec2(0.0);
    group.ellipseNormal = vec2(0.0);
    group.center = vec2(0.0);
    group.tint = vec4(0.0);
    uint count = SINGLE_SHAPE ? 1u : tileCandidates.y;
    // Exit test last (see lensContent); the trips are the tile's, the same for every lane.
    for (uint i = 0u;;) {
        ShapeParams shape = shapeAt(tileShapeAt(tileCandidates.x + i));
        vec2 local = p - shape.centerHalfSize.xy;
        if (i < count && (i == 0u || boundsDistance(local, shape) <= group.distance + lens.blend)) {
            float distance = shapeDistance(local, shape);
            vec2 lightNormal = vec2(0.0);
            vec2 ellipse = vec2(0.0);
            if (withNormals) {
                lightNormal = lightingNormal(local, shape, lens.normalSmoothing);
                ellipse = ellipseNormal(local, shape);
            }
            float h = 1.0;
            if (i > 0u) {
                if (lens.blend > 0.0) {
                    h = clamp(0.5 + 0.5 * (group.distance - distance) / lens.blend, 0.0, 1.0);
                } else {
                    h = distance < group.distance ? 1.0 : 0.0;
                }
            }
            group.distance = group.distance + (distance - group.distance) * h - lens.blend * h * (1.0 - h);
            group.lightNormal = group.lightNormal + (lightNormal - group.lightNormal) * h;
            group.ellipseNormal = group.ellipseNormal + (ellipse - group.ellipseNormal) * h;
            group.center = group.center + (shape.centerHalfSize.xy - group.center) * h;
            if (uses(F_SHAPE_TINTS, lens.shapeTints != 0u)) {
                // Each side claims the bridge by its weight times its tint's density, so a dense
                // tint (a tinted button) holds more of the neck and fades into the plain glass.
                float claim = h * tintDensity(shape.tint.a);
                float total = claim + (1.0 - h) * tintDensity(group.tint.a);
                float share = total > 0.0 ? claim / total : h;
                group.tint = group.tint + (shape.tint - group.tint) * share;
            }
        }
        i++;
        if (i >= count) { break; }
    }
    group.lightNormal = safeNormalize(group.lightNormal);
    group.ellipseNormal = safeNormalize(group.ellipseNormal);
    return group;
}

float groupDistance(vec2 p, LensParams lens) {
    return groupSample(p, lens, false).distance;
}

// A blur band's share of its rectangle: 0 where the band starts, 1 from the ramp's end on (a
// progressive blur is a stack of bands, each over the one below); 1 for glass.
float rampCoverage(vec2 p, LensParams lens) {
    if (!uses(F_COVERAGE_RAMP, lens.coverageRamp.z != 0.0 || lens.coverageRamp.w != 0.0)) { return 1.0; }
    return clamp(axisPosition(p, lens.coverageRamp), 0.0, 1.0);
}

float coverage(float distance) {
    return clamp(0.5 - distance, 0.0, 1.0);
}

// The refraction direction mixes the box normal with the ellipse normal (Apple's ovalization).
vec2 refractionNormal(GroupSample group, LensParams lens) {
    return safeNormalize(group.lightNormal + (group.ellipseNormal - group.lightNormal) * lens.ovalization);
}

// Position in the refracting band: 1 at the silhouette, 0 at depth H and deeper.
float bandPosition(float distance, LensParams lens) {
    if (lens.bevelWidth <= 0.0) { return 0.0; }
    return clamp(1.0 + distance / lens.bevelWidth, 0.0, 1.0);
}

// Apple-fit bevel: inward shift A * (1 - sqrt(1 - x^2)); the physical model reads its table.
float surfaceDisplacement(float distance, LensParams lens) {
    float x = bandPosition(distance, lens);
    if (!uses(F_PROFILE, lens.profileOffset != 0u)) {
        return lens.bevelAmount * (1.0 - sqrt(1.0 - x * x));
    }
    float t = x * float(PROFILE_SAMPLES - 1u);
    uint index = min(uint(floor(t)), PROFILE_SAMPLES - 2u);
    float f = t - float(index);
    float a = tableAt(lens.profileOffset + index);
    float b = tableAt(lens.profileOffset + index + 1u);
    return a + (b - a) * f;
}

float smoothStep01(float edge0, float edge1, float x) {
    float t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

float dropShadow(vec2 p, LensParams lens) {
    float opacity = lens.shadow.w;
    if (!uses(F_DROP_SHADOW, opacity > 0.0)) { return 0.0; }
    float distance = groupDistance(p - lens.shadow.xy, lens);
    float radius = lens.shadow.z;
    if (radius < 0.5) { return opacity * coverage(distance); }
    return opacity * (1.0 - smoothStep01(-radius, radius, distance));
}

// Dark where the glass is inside its own shape but outside the shape shifted by the offset.
float innerShadow(vec2 p, LensParams lens) {
    float opacity = lens.innerShadow.w;
    if (!uses(F_INNER_SHADOW, opacity > 0.0)) { return 0.0; }
    float distance = groupDistance(p - lens.innerShadow.xy, lens);
    float radius = max(lens.innerShadow.z, 0.5);
    return opacity * smoothStep01(-radius, radius, distance);
}

// Accent share of the label: 1 deeper than `softness` inside the rim, a linear ramp to 0 at the rim.
float featherMask(float distance, LensParams lens) {
    if (lens.softness < 0.5) { return coverage(distance); }
    return clamp(-distance / lens.softness, 0.0, 1.0);
}

// The label row at `position` over `below`: resting, turning accent under the feathered lens mask,
// punched out by the lifted label where the scene has one; in the channels `channels` keeps.
vec3 labelOver(vec3 below, vec2 position, LensParams lens, vec3 channels) {
    vec3 color = below;
    if (!REACHES_LABEL) { return color; }
    float glyph = sampleLabel(position, 0u);
    // Off the glyphs the label adds nothing, so the feather (a group distance) is not needed.
    if (glyph > 0.0) {
        float accentShare = featherMask(groupDistance(position, lens), lens) * lens.accentStrength;
        vec4 labelColor = frame.restingColor + (frame.accentColor - frame.restingColor) * accentShare;
        color = composeLabel(color, glyph * (1.0 - lens.liftedContentAlpha), labelColor, channels);
    }
    if (uses(F_LIFTED_LABEL, lens.liftedContentAlpha > 0.0)) {
        float lifted = sampleLabel(position, frame.liftedLabelWordOffset);
        color = composeLabel(color, lifted * lens.liftedContentAlpha, frame.liftedLabelColor, channels);
    }
    return color;
}

// What the glass sees: the frosted backdrop (or composite) read at `backdrop` and, unless the label
// lies on this glass's face, the label row (the LensTint accent copy, refracted with it) read at
// `label` (the same position but in the stage model). Only the channels `channels` keeps are
// exact; the caller weighs the others by 0.
vec3 sampleContent(vec2 backdrop, vec2 label, LensParams lens, bool withLabel, vec3 channels) {
    vec3 color = sampleFrosted(backdrop, lens);
    if (!withLabel || uses(F_LABEL_ON_FACE, lens.labelOnFace != 0u)) { return color; }
    return labelOver(color, label, lens, channels);
}

// ---- Apple's lens, stage by stage (the stage model) ----

// One displacement stage at a point whose group sample is `group`: `amount` px (positive samples
// outward) along the refraction direction times 1 - P, P Apple's quarter circle rising from 0 at
// the silhouette to 1 at depth `height`; past the silhouette the coverage fades it out.
vec2 stageOffset(GroupSample group, float amount, float height, LensParams lens) {
    float t = clamp(-group.distance / height, 0.0, 1.0);
    float rise = sqrt(1.0 - (1.0 - t) * (1.0 - t));
    return refractionNormal(group, lens) * (amount * (1.0 - rise) * coverage(group.distance));
}

// Each stage samples its own texture, the group's box: positions are held half a pixel inside it.
vec2 clampToStageBox(vec2 q, LensParams lens) {
    return clamp(q, lens.stageBox.xy + vec2(0.5), lens.stageBox.zw - vec2(0.5));
}

// Where the stage model's chains read from q: xy the backdrop through its stages, zw the label row
// through its own (before its magnification), each chain in sampling order, u = D1(q) + D2(q + D1).
// `known` is the group sample at q when `knownAtQ`. One loop over the stages around one group
// sample, so llvmpipe compiles it once; the label's stages run only where the label is read.
vec4 stagedPositions(vec2 q, GroupSample known, bool knownAtQ, LensParams lens, bool withLabel) {
    vec4 landed = vec4(q, q);
    GroupSample atQ = known;
    bool haveAtQ = knownAtQ;
    uint count = withLabel && !uses(F_LABEL_ON_FACE, lens.labelOnFace != 0u) ? 4u : 2u;
    // Exit test last (see lensContent); the trips are the lens's, the same for every lane.
    for (uint stage = 0u;;) {
        vec4 chain = stage < 2u ? lens.backdropStages : lens.labelStages;
        bool first = (stage & 1u) == 0u;
        float amount = first ? chain.x : chain.z;
        if (amount != 0.0) {
            vec2 r = stage < 2u ? landed.xy : landed.zw;
            // A chain's first stage starts at q, whose group sample is taken once.
            GroupSample at = atQ;
            if (!first || !haveAtQ) {
                at = groupSample(r, lens, true);
                if (first) {
                    atQ = at;
                    haveAtQ = true;
                }
            }
            r = clampToStageBox(r + stageOffset(at, amount, first ? chain.y : chain.w, lens), lens);
            if (stage < 2u) { landed.xy = r; } else { landed.zw = r; }
        }
        stage++;
        if (stage == count) { break; }
    }
    return landed;
}

float integerPower(float base, uint exponent) {
    float result = 1.0;
    for (uint i = 0u; i < exponent; i++) { result = result * base; }
    return result;
}

// The rim band fades by its curvature from the silhouette to its inner edge, where it ends over
// one pixel (Apple's CASDFKeyFillHighlightEffect); the lit band lightens to white or is recoloured.
vec3 rimLight(vec3 color, vec2 normal, float distance, LensParams lens) {
    if (!uses(F_RIM, lens.rimWidth > 0.0)) { return color; }
    float fade = 1.0 - lens.rimCurvature * clamp(-distance / lens.rimWidth, 0.0, 1.0);
    float band = fade * clamp(lens.rimWidth + distance + 0.5, 0.0, 1.0);
    float key = integerPower(max(normal.x * lens.keyLight.x + normal.y * lens.keyLight.y, 0.0), lens.rimFalloff) * lens.keyLight.z;
    float fill = integerPower(max(normal.x * lens.fillLight.x + normal.y * lens.fillLight.y, 0.0), lens.rimFalloff) * lens.fillLight.z;
    float light = min((key + fill) * band, 1.0);
    if (!uses(F_RIM_RECOLOR, lens.rimRecolor.w != 0.0)) { return color + (vec3(1.0) - color) * light; }
    return recolorOver(color, lens.rimRecolor, light);
}

// Fresnel-like ambient (1 - n_z)^3 of the quarter-circle surface, then the thin dark contour.
vec3 edgeShading(vec3 color, float distance, LensParams lens) {
    vec3 result = color;
    if (uses(F_FRESNEL, lens.fresnel > 0.0)) {
        float x = bandPosition(distance, lens);
        float tilt = 1.0 - sqrt(1.0 - x * x);
        result = result + (vec3(1.0) - result) * min(lens.fresnel * tilt * tilt * tilt, 1.0);
    }
    if (uses(F_CONTOUR, lens.contourOpacity > 0.0 && lens.contourWidth > 0.0)) {
        result = result * (1.0 - lens.contourOpacity * clamp(1.0 + distance / lens.contourWidth, 0.0, 1.0));
    }
    return result;
}

// The flat tint, or the gradient tint's stops (evenly spaced along its axis) blended at p.
vec4 tintAt(vec2 p, LensParams lens) {
    if (!uses(F_GRADIENT, lens.gradientCount != 0u)) { return lens.tint; }
    float u = clamp(axisPosition(p, lens.gradientAxis), 0.0, 1.0);
    float f = u * float(lens.gradientCount - 1u);
    uint index = min(uint(floor(f)), lens.gradientCount - 2u);
    float t = f - float(index);
    uint base = lens.gradientOffset + index * 4u;
    vec4 a = vec4(tableAt(base), tableAt(base + 1u), tableAt(base + 2u), tableAt(base + 3u));
    vec4 b = vec4(tableAt(base + 4u), tableAt(base + 5u), tableAt(base + 6u), tableAt(base + 7u));
    return a + (b - a) * t;
}

// The fallback path's edge highlight: a white stroke `width` deep inside the silhouette whose
// alpha runs through three stops from the top-leading to the bottom-trailing corner.
vec3 edgeHighlightStroke(vec3 color, vec2 p, float distance, LensParams lens) {
    float width = lens.edgeHighlight.x;
    if (!uses(F_EDGE_HIGHLIGHT, width > 0.0)) { return color; }
    float stroke = clamp(distance + width + 0.5, 0.0, 1.0);
    float u = clamp(axisPosition(p, lens.highlightAxis), 0.0, 1.0);
    float alpha = u < 0.5
        ? lens.edgeHighlight.y + (lens.edgeHighlight.z - lens.edgeHighlight.y) * (u * 2.0)
        : lens.edgeHighlight.z + (lens.edgeHighlight.w - lens.edgeHighlight.z) * (u * 2.0 - 1.0);
    // A white stroke layer, blended as the scene's layers are.
    float amount = alpha * stroke;
    return blendOver(color, vec4(vec3(amount), amount));
}

// The light under a finger: white added, fading smoothly to nothing at the radius.
vec3 touchGlowLight(vec3 color, vec2 p, LensParams lens) {
    if (!uses(F_TOUCH_GLOW, lens.touchGlow.w > 0.0)) { return color; }
    float fade = 1.0 - smoothStep01(0.0, lens.touchGlow.z, vectorLength(p - lens.touchGlow.xy));
    return color + (vec3(1.0) - color) * (lens.touchGlow.w * fade);
}

// The shimmer highlight: a soft white band across the diagonal, centred at shimmer.x.
vec3 shimmerBand(vec3 color, vec2 p, LensParams lens) {
    if (!uses(F_SHIMMER, lens.shimmer.z > 0.0)) { return color; }
    float x = abs(axisPosition(p, lens.highlightAxis) - lens.shimmer.x) / lens.shimmer.y;
    float band = 1.0 - smoothStep01(0.0, 1.0, x);
    return color + (vec3(1.0) - color) * (lens.shimmer.z * band);
}

// Where the glass at pixel centre p looks: refracted along the normal, then magnified.
vec2 samplePosition(vec2 p, GroupSample group, LensParams lens) {
    if (!uses(F_WARPS, lens.warpsContentBelow != 0u)) { return p; }
    vec2 normal = refractionNormal(group, lens);
    vec2 displaced = p - normal * surfaceDisplacement(group.distance, lens);
    return group.center + (displaced - group.center) * lens.inverseMagnification;
}

// ---- What the glass shows ----

// The content at pixel p before the glass's own colour, read where the model sends each tap. Bevel
// or physical: the sample, dispersed per channel (red at 1 - k, blue at 1 + k of the offset) or over
// the spectral taps. Stage model: the chains, with Apple's glassForeground fringe: seven taps at
// p + k * spread along the normal turned by the aberration angle, k = 1, 2/3 ... -1, red gathering
// the outward taps (k / 2), blue the inward (-k / 2), green all ((1 - |k|) / 3), the spread fading
// from the silhouette to 0 at the band's depth; the label row is then scaled about the centre.
// One loop over the taps, so the content sampling (with its label) is compiled once: a weight of
// 1 or 0 per channel picks a channel exactly (x * 1 + y * 0 + z * 0 is x).
vec3 lensContent(vec2 p, GroupSample group, LensParams lens, bool withLabel) {
    bool staged = uses(F_STAGE_MODEL, lens.stageModel != 0u);
    vec2 source = staged ? p : samplePosition(p, group, lens);
    vec2 offset = source - p;
    float spread = staged && uses(F_ABERRATION, lens.aberration.x > 0.0)
        ? lens.aberration.x * clamp(1.0 + group.distance / lens.aberration.w, 0.0, 1.0) : 0.0;
    bool dispersed = uses(F_DISPERSION, lens.dispersion > 0.0);
    bool spectral = SPECTRAL && !staged && dispersed && lens.spectralTaps != 0u;
    uint taps = staged ? (spread > 0.0 ? 7u : 1u) : !dispersed ? 1u : spectral ? SPECTRAL_TAPS : 3u;
    vec2 n = staged ? refractionNormal(group, lens) : vec2(0.0);
    vec2 turned = vec2(n.x * lens.aberration.y - n.y * lens.aberration.z, n.x * lens.aberration.z + n.y * lens.aberration.y);
    // Every lane makes the same trips (one with fewer taps idles through the rest) and the exit
    // test comes last: llvmpipe leaves a loop only at its back edge, so a test at the top would
    // run the body once more for no lane, and lanes that leave early kept adding on lavapipe.
    uint trips = staged ? (uses(F_ABERRATION, lens.aberration.x > 0.0) ? 7u : 1u) : taps;
    vec3 sum = vec3(0.0);
    for (uint tap = 0u;;) {
        if (tap < taps) {
            vec2 backdrop = source;
            vec2 label = source;
            vec3 weight = vec3(1.0);
            if (staged) {
                float k = taps == 1u ? 0.0 : float(3 - int(tap)) / 3.0;
                if (taps != 1u) { weight = vec3(max(k, 0.0) * 0.5, (1.0 - abs(k)) / 3.0, max(-k, 0.0) * 0.5); }
                // The middle tap is the pixel itself, whose group sample is known.
                vec2 q = k == 0.0 ? p : p + turned * (spread * k);
                vec4 landed = stagedPositions(q, group, k == 0.0, lens, withLabel);
                backdrop = landed.xy;
                label = group.center + (landed.zw - group.center) * lens.labelInverseMagnification;
            } else if (spectral) {
                uint base = SPECTRAL_OFFSET + tap * 4u;
                backdrop = p + offset * (1.0 + lens.dispersion * tableAt(base));
                label = backdrop;
                weight = vec3(tableAt(base + 1u), tableAt(base + 2u), tableAt(base + 3u));
            } else if (taps == 3u) {
                if (tap != 1u) { backdrop = p + offset * (tap == 0u ? 1.0 - lens.dispersion : 1.0 + lens.dispersion); }
                label = backdrop;
                weight = vec3(tap == 0u ? 1.0 : 0.0, tap == 1u ? 1.0 : 0.0, tap == 2u ? 1.0 : 0.0);
            }
            sum = sum + sampleContent(backdrop, label, lens, withLabel, weight) * weight;
        }
        tap++;
        if (tap == trips) { break; }
    }
    return sum;
}

// The label laid over a resting fill already laid over `color` (whose content carries the label,
// dimmed by the fill): what the label adds over the fill's own colour is added back, as much as
// the fill covers, in the blend space (sRGB codes unless the scene blends in linear light).
vec3 labelOverRestingFill(vec3 color, vec2 p, LensParams lens) {
    float alpha = lens.restingFill.a;
    vec3 straight = lens.restingFill.rgb / alpha;
    if (uses(F_LINEAR_BLENDING, frame.linearBlending != 0u)) {
        return color + (labelOver(straight, p, lens, vec3(1.0)) - straight) * alpha;
    }
    vec3 fillCodes = min(floor(straight * 255.0 + 0.5), vec3(255.0));
    vec3 labelled = labelOver(decodeCodes(fillCodes), p, lens, vec3(1.0));
    vec3 codes = encodeCodes(color) + (encodeCodes(labelled) - fillCodes) * alpha;
    return decodeCodes(clamp(floor(codes + 0.5), 0.0, 255.0));
}

// The lens colour at pixel centre p (before coverage): refract, magnify, fringe, colour, light;
// with or without the label row it sees.
vec3 glassColor(vec2 p, GroupSample group, LensParams lens, bool withLabel) {
    vec3 color = lensContent(p, group, lens, withLabel) * (1.0 - lens.darkening);
    color = applySaturation(color, lens.saturation);
    color = applyBrightnessContrast(color, lens.brightness, lens.contrast);
    // Apple's face: its YCbCr composite, then the tint as its fill.
    if (uses(F_FACE_LEVELS, lens.faceLevels.w != 0.0)) { color = recolorOver(color, lens.faceLevels, 1.0); }
    if (uses(F_SHAPE_TINTS, lens.shapeTints != 0u)) {
        color = applyTint(color, group.tint);
    } else if (uses(F_TINT, lens.tint.a > 0.0 || lens.gradientCount != 0u)) {
        color = applyTint(color, tintAt(p, lens));
    }
    color = touchGlowLight(color, p, lens);
    // A resting thumb or pill is a fill under the label row: iOS draws the titles over it, so over
    // a translucent pill they keep their colour (cn-tab-bar: systemBlue to the level).
    if (uses(F_RESTING_FILL, lens.restingFill.a > 0.0)) {
        color = blendOver(color, lens.restingFill);
        if (withLabel && lens.labelOnFace == 0u) { color = labelOverRestingFill(color, p, lens); }
    }
    // A platter's label sits in its content view: over its face, not refracted by it.
    if (withLabel && uses(F_LABEL_ON_FACE, lens.labelOnFace != 0u)) { color = labelOver(color, p, lens, vec3(1.0)); }
    color = rimLight(color, group.lightNormal, group.distance, lens);
    color = edgeHighlightStroke(color, p, group.distance, lens);
    color = shimmerBand(color, p, lens);
    color = edgeShading(color, group.distance, lens);
    return color * (1.0 - innerShadow(p, lens));
}

// The glass over what lies below it at one pixel: the drop shadow darkens what is below, then
// the glass covers it by its coverage and opacity.
vec3 layOver(vec3 below, float shadow, vec3 glass, float glassCoverage, LensParams lens) {
    vec3 color = below * (1.0 - shadow);
    if (glassCoverage > 0.0) {
        color = color + (glass - color) * (glassCoverage * lens.opacity);
    }
    return color;
}
