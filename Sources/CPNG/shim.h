#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* Growable output of liquidlens_png_encode; the caller frees `data`. */
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
} liquidlens_png_buffer;

static void liquidlens_png_append(png_structp png, png_bytep bytes, png_size_t length) {
    liquidlens_png_buffer *out = (liquidlens_png_buffer *)png_get_io_ptr(png);
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static void liquidlens_png_flush(png_structp png) { (void)png; }

/* Encodes 8-bit rows of `channels` bytes a pixel (4: RGBA, an sRGB image; 1: grey, a mask of
   plain values, no colour space) as a PNG with zlib `level` (0-9) and `strategy` (Z_*) and the
   row filters `filters` (a PNG_FILTER_* mask). libpng reports errors by longjmp, which Swift cannot catch, hence C.
   Returns 1 on success, 0 on failure (out->data freed). */
static inline int liquidlens_png_encode(
    const unsigned char *pixels, unsigned width, unsigned height, int channels, int level, int strategy,
    int filters, liquidlens_png_buffer *out) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return 0;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(out->data);
        out->data = NULL;
        out->size = out->capacity = 0;
        return 0;
    }
    png_set_write_fn(png, out, liquidlens_png_append, liquidlens_png_flush);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (channels != 1) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    for (unsigned y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * width * channels);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 1;
}
