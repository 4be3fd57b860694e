#include <lcms2.h>

/* lcms2's pixel formats are composite macros, which Swift does not import. */
static inline cmsUInt32Number liquidlens_lcms_rgba8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number liquidlens_lcms_gray8(void) { return TYPE_GRAY_8; }
static inline cmsUInt32Number liquidlens_lcms_rgb8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number liquidlens_lcms_cmyk8(void) { return TYPE_CMYK_8; }
static inline cmsUInt32Number liquidlens_lcms_cmyk8_inverted(void) { return TYPE_CMYK_8_REV; }
