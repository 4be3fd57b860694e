// Shared declarations and functions of the LiquidLens compute shaders.
// Every function here has a twin of the same name in Sources/LensReference/ShaderFunctions.swift;
// both use the same fp32 operation order so the two backends agree to 1/255.

// ---- Parameter block: twin of Sources/LensCore/ParameterBlock.swift (a test compares offsets). ----
struct FrameParams {
    uint width;
    uint height;
    uint lensCount;
    uint labelWordsPerRow;
    vec4 restingColor;          // label resting colour, linear premultiplied
    vec4 accentColor;           // label accent colour, linear premultiplied
};

struct LensParams {
    vec4 centerHalfSize;        // centre x, y and half width, half height, in pixels
    vec4 cornerRadii;           // top-left, top-right, bottom-right, bottom-left, in pixels
    vec4 tint;                  // linear premultiplied rgb and alpha
    vec4 keyLight;              // direction x, y; amount; unused
    vec4 fillLight;             // direction x, y; amount; unused
    vec4 shadow;                // offset x, y; radius; opacity
    uvec4 sourceRegion;         // x0, y0, x1, y1: where the frosted backdrop is valid
    float bevelWidth;           // H: depth of the bevel band
    float bevelAmount;          // A: inward displacement at the silhouette
    float inverseMagnification;
    float dispersion;           // per-channel spread k (0 when under 1/4 px)
    float saturation;
    float softness;             // tint-mask feather, inside the rim only
    float rimWidth;
    uint rimFalloff;            // integer exponent of the rim lobes
    uint kernelOffset;          // frost weights in `tables`
    uint kernelRadius;
    float normalSmoothing;      // width over which edge normals blend across the medial axis
    float ovalization;          // share of the ellipse normal in the refraction direction
};

layout(push_constant) uniform DispatchConstants {
    uvec4 region;               // x0, y0, x1, y1 of the pixels this dispatch covers
    uint lensIndex;
    uint axis;                  // frost: 0 horizontal, 1 vertical
} dispatchInfo;

const uint SRGB_DECODE_OFFSET = 0u;     // 256 linear values of the 8-bit sRGB codes
const uint SRGB_ENCODE_OFFSET = 256u;   // 255 linear thresholds where the rounded code steps up

layout(std430, set = 0, binding = 0) readonly buffer ParamsBuffer {
    FrameParams frame;
    LensParams lenses[];
};
layout(std430, set = 0, binding = 1) readonly buffer TablesBuffer { float tables[]; };
layout(std430, set = 0, binding = 2) readonly buffer BackdropBuffer { uint backdrop[]; };
layout(std430, set = 0, binding = 3) readonly buffer LabelBuffer { uint labelBytes[]; };
layout(std430, set = 0, binding = 4) buffer ScratchBuffer { vec4 scratch[]; };
layout(std430, set = 0, binding = 5) buffer FrostedBuffer { vec4 frosted[]; };
layout(std430, set = 0, binding = 6) buffer OutputBuffer { uint outputPixels[]; };

// ---- Colour ----

float srgbDecode(uint code) {
    return tables[SRGB_DECODE_OFFSET + code];
}

// Binary search over the rounding thresholds: exact, and no pow() whose approximation differs.
uint srgbEncode(float value) {
    uint code = 0u;
    for (uint step = 128u; step > 0u; step = step >> 1u) {
        if (value >= tables[SRGB_ENCODE_OFFSET + code + step - 1u]) {
            code = code + step;
        }
    }
    return code;
}

vec3 unpackColor(uint packed) {
    return vec3(srgbDecode(packed & 255u), srgbDecode((packed >> 8u) & 255u), srgbDecode((packed >> 16u) & 255u));
}

uint packColor(vec3 color) {
    return srgbEncode(color.r) | (srgbEncode(color.g) << 8u) | (srgbEncode(color.b) << 16u) | (255u << 24u);
}

vec3 composeLabel(vec3 background, float glyph, vec4 labelColor) {
    return background * (1.0 - glyph * labelColor.a) + labelColor.rgb * glyph;
}

vec3 applySaturation(vec3 color, float saturation) {
    float luma = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
    return max(vec3(luma) + (color - vec3(luma)) * saturation, vec3(0.0));
}

vec3 applyTint(vec3 color, vec4 tint) {
    return color * (1.0 - tint.a) + tint.rgb;
}

// ---- Sampling ----

int mirrorIndex(int index, int count) {
    int mirrored = index;
    if (mirrored < 0) { mirrored = -mirrored - 1; }
    if (mirrored >= count) { mirrored = 2 * count - 1 - mirrored; }
    return clamp(mirrored, 0, count - 1);
}

float labelCoverage(int x, int y) {
    uint byteIndex = uint(y) * frame.labelWordsPerRow * 4u + uint(x);
    return float((labelBytes[byteIndex >> 2u] >> ((byteIndex & 3u) * 8u)) & 255u) / 255.0;
}

float sampleLabel(vec2 position) {
    vec2 texel = position - vec2(0.5);
    vec2 base = floor(texel);
    vec2 t = texel - base;
    int w = int(frame.width);
    int h = int(frame.height);
    int x0 = mirrorIndex(int(base.x), w);
    int x1 = mirrorIndex(int(base.x) + 1, w);
    int y0 = mirrorIndex(int(base.y), h);
    int y1 = mirrorIndex(int(base.y) + 1, h);
    float top = labelCoverage(x0, y0) + (labelCoverage(x1, y0) - labelCoverage(x0, y0)) * t.x;
    float bottom = labelCoverage(x0, y1) + (labelCoverage(x1, y1) - labelCoverage(x0, y1)) * t.x;
    return top + (bottom - top) * t.y;
}

// Bilinear on the frosted backdrop: mirrored at the canvas edge, then held inside the region the
// frost pass wrote, so no sample ever reads stale memory.
vec3 sampleFrosted(vec2 position, LensParams lens) {
    vec2 texel = position - vec2(0.5);
    vec2 base = floor(texel);
    vec2 t = texel - base;
    int w = int(frame.width);
    int h = int(frame.height);
    ivec4 region = ivec4(lens.sourceRegion);
    int x0 = clamp(mirrorIndex(int(base.x), w), region.x, region.z - 1);
    int x1 = clamp(mirrorIndex(int(base.x) + 1, w), region.x, region.z - 1);
    int y0 = clamp(mirrorIndex(int(base.y), h), region.y, region.w - 1);
    int y1 = clamp(mirrorIndex(int(base.y) + 1, h), region.y, region.w - 1);
    vec3 a = frosted[y0 * w + x0].rgb;
    vec3 b = frosted[y0 * w + x1].rgb;
    vec3 c = frosted[y1 * w + x0].rgb;
    vec3 d = frosted[y1 * w + x1].rgb;
    vec3 top = a + (b - a) * t.x;
    vec3 bottom = c + (d - c) * t.x;
    return top + (bottom - top) * t.y;
}

// ---- Geometry ----

float vectorLength(vec2 v) {
    return sqrt(v.x * v.x + v.y * v.y);
}

vec2 safeNormalize(vec2 v) {
    float len = vectorLength(v);
    return len > 1e-6 ? v / len : vec2(0.0);
}

float cornerRadius(vec2 local, LensParams lens) {
    if (local.x < 0.0) {
        return local.y < 0.0 ? lens.cornerRadii.x : lens.cornerRadii.w;
    }
    return local.y < 0.0 ? lens.cornerRadii.y : lens.cornerRadii.z;
}

// Rounded box with per-corner radii; circles and capsules are rounded boxes too.
float shapeDistance(vec2 local, LensParams lens) {
    float radius = cornerRadius(local, lens);
    vec2 q = abs(local) - lens.centerHalfSize.zw + vec2(radius);
    vec2 outside = max(q, vec2(0.0));
    return min(max(q.x, q.y), 0.0) + vectorLength(outside) - radius;
}

float coverage(float distance) {
    return clamp(0.5 - distance, 0.0, 1.0);
}

// Outward SDF gradient, with edge normals blended across the medial axis (no diagonal creases).
vec2 lightingNormal(vec2 local, LensParams lens) {
    float radius = cornerRadius(local, lens);
    vec2 q = abs(local) - lens.centerHalfSize.zw + vec2(radius);
    vec2 outside = max(q, vec2(0.0));
    float smoothing = lens.normalSmoothing;
    float h = clamp(0.5 + (q.x - q.y) / (2.0 * smoothing), 0.0, 1.0);
    float interiorWeight = smoothing * clamp(1.0 - vectorLength(outside) / smoothing, 0.0, 1.0);
    vec2 n = safeNormalize(outside + vec2(h, 1.0 - h) * interiorWeight);
    return vec2(local.x < 0.0 ? -n.x : n.x, local.y < 0.0 ? -n.y : n.y);
}

// The refraction direction mixes the box normal with the ellipse normal (Apple's ovalization).
vec2 refractionNormal(vec2 local, vec2 boxNormal, LensParams lens) {
    vec2 halfSize = lens.centerHalfSize.zw;
    vec2 ellipseNormal = safeNormalize(vec2(local.x / (halfSize.x * halfSize.x), local.y / (halfSize.y * halfSize.y)));
    return safeNormalize(boxNormal + (ellipseNormal - boxNormal) * lens.ovalization);
}

// Apple-fit bevel: x = 1 at the silhouette, 0 at depth H; inward shift A * (1 - sqrt(1 - x^2)).
float bevelDisplacement(float distance, LensParams lens) {
    if (lens.bevelWidth <= 0.0) { return 0.0; }
    float x = clamp(1.0 + distance / lens.bevelWidth, 0.0, 1.0);
    return lens.bevelAmount * (1.0 - sqrt(1.0 - x * x));
}

float smoothStep01(float edge0, float edge1, float x) {
    float t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

float dropShadow(vec2 local, LensParams lens) {
    float opacity = lens.shadow.w;
    if (opacity <= 0.0) { return 0.0; }
    float distance = shapeDistance(local - lens.shadow.xy, lens);
    float radius = lens.shadow.z;
    if (radius < 0.5) { return opacity * coverage(distance); }
    return opacity * (1.0 - smoothStep01(-radius, radius, distance));
}

// Accent share of the label: 1 deeper than `softness` inside the rim, a linear ramp to 0 at the rim.
float featherMask(float distance, LensParams lens) {
    if (lens.softness < 0.5) { return coverage(distance); }
    return clamp(-distance / lens.softness, 0.0, 1.0);
}

// What the glass sees at a source position: frosted backdrop plus the label row, whose colour
// turns from resting to accent under the feathered lens mask (the LensTint accent copy).
vec3 sampleContent(vec2 position, LensParams lens) {
    vec3 background = sampleFrosted(position, lens);
    float glyph = sampleLabel(position);
    float accentShare = featherMask(shapeDistance(position - lens.centerHalfSize.xy, lens), lens);
    vec4 labelColor = frame.restingColor + (frame.accentColor - frame.restingColor) * accentShare;
    return composeLabel(background, glyph, labelColor);
}

float integerPower(float base, uint exponent) {
    float result = 1.0;
    for (uint i = 0u; i < exponent; i++) { result = result * base; }
    return result;
}

vec3 rimLight(vec3 color, vec2 normal, float distance, LensParams lens) {
    if (lens.rimWidth <= 0.0) { return color; }
    float band = clamp(1.0 + distance / lens.rimWidth, 0.0, 1.0);
    float key = integerPower(max(normal.x * lens.keyLight.x + normal.y * lens.keyLight.y, 0.0), lens.rimFalloff) * lens.keyLight.z;
    float fill = integerPower(max(normal.x * lens.fillLight.x + normal.y * lens.fillLight.y, 0.0), lens.rimFalloff) * lens.fillLight.z;
    float light = min((key + fill) * band, 1.0);
    return color + (vec3(1.0) - color) * light;
}

// The lens colour at pixel centre p (before coverage): refract, magnify, fringe, colour, light.
vec3 glassColor(vec2 p, vec2 local, float distance, LensParams lens) {
    vec2 boxNormal = lightingNormal(local, lens);
    vec2 normal = refractionNormal(local, boxNormal, lens);
    vec2 displaced = p - normal * bevelDisplacement(distance, lens);
    vec2 center = lens.centerHalfSize.xy;
    vec2 source = center + (displaced - center) * lens.inverseMagnification;
    vec3 color;
    if (lens.dispersion > 0.0) {
        vec2 offset = source - p;
        color.r = sampleContent(p + offset * (1.0 - lens.dispersion), lens).r;
        color.g = sampleContent(source, lens).g;
        color.b = sampleContent(p + offset * (1.0 + lens.dispersion), lens).b;
    } else {
        color = sampleContent(source, lens);
    }
    color = applySaturation(color, lens.saturation);
    color = applyTint(color, lens.tint);
    return rimLight(color, boxNormal, distance, lens);
}
