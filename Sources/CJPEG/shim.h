#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/* A decoded JPEG: 4 bytes a pixel, RGBA, or CMYK when `cmyk` is set (inverted, as Adobe writes
   it, when `inverted` is set); the ICC profile and the EXIF block when the file has them. Free with
   liquidlens_jpeg_free. */
typedef struct {
    unsigned char *pixels;
    unsigned width, height;
    int cmyk, inverted;
    unsigned char *icc;
    unsigned icc_size;
    unsigned char *exif;
    unsigned exif_size;
    char message[JMSG_LENGTH_MAX];
} liquidlens_jpeg_image;

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *warning; /* where the first warning's text goes */
    int warned;
} liquidlens_jpeg_error;

static void liquidlens_jpeg_error_exit(j_common_ptr info) {
    longjmp(((liquidlens_jpeg_error *)info->err)->jump, 1);
}

/* A warning (level -1: corrupt or truncated data, which libjpeg would draw as grey) is kept, to
   fail the read once decoding ends; trace messages (level >= 0) are dropped. */
static void liquidlens_jpeg_warn(j_common_ptr info, int level) {
    liquidlens_jpeg_error *error = (liquidlens_jpeg_error *)info->err;
    if (level >= 0 || error->warned) return;
    error->manager.format_message(info, error->warning);
    error->warned = 1;
}

static inline void liquidlens_jpeg_free(liquidlens_jpeg_image *image) {
    free(image->pixels);
    free(image->icc);
    free(image->exif);
    image->pixels = image->icc = image->exif = NULL;
}

/* Decodes `size` bytes. Returns 1 on success; 2 when the header gives a size over `max_side` per
   side or `max_pixels` in all (width and height set, nothing allocated); 0 on an error or on
   corrupt or truncated data, with `message`. libjpeg reports errors by longjmp, which Swift cannot catch, hence C. */
static inline int liquidlens_jpeg_decode(
    const unsigned char *data, unsigned long size, unsigned max_side, unsigned long long max_pixels,
    liquidlens_jpeg_image *out) {
    struct jpeg_decompress_struct info;
    liquidlens_jpeg_error error;
    memset(out, 0, sizeof(*out));
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = liquidlens_jpeg_error_exit;
    error.manager.emit_message = liquidlens_jpeg_warn;
    error.warning = out->message;
    error.warned = 0;
    if (setjmp(error.jump)) {
        error.manager.format_message((j_common_ptr)&info, out->message);
        jpeg_destroy_decompress(&info);
        liquidlens_jpeg_free(out);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&info, TRUE);
    out->width = info.image_width;
    out->height = info.image_height;
    if (info.image_width == 0 || info.image_height == 0 || info.image_width > max_side ||
        info.image_height > max_side || (unsigned long long)info.image_width * info.image_height > max_pixels) {
        jpeg_destroy_decompress(&info);
        return 2;
    }
    for (jpeg_saved_marker_ptr marker = info.marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 && memcmp(marker->data, "Exif\0\0", 6) == 0 &&
            !out->exif) {
            out->exif = (unsigned char *)malloc(marker->data_length - 6);
            if (!out->exif) continue;
            memcpy(out->exif, marker->data + 6, marker->data_length - 6);
            out->exif_size = marker->data_length - 6;
        }
    }
    JOCTET *icc = NULL;
    unsigned int icc_size = 0;
    if (jpeg_read_icc_profile(&info, &icc, &icc_size)) {
        out->icc = icc;
        out->icc_size = icc_size;
    }
    out->cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    out->inverted = out->cmyk && info.saw_Adobe_marker;
    info.out_color_space = out->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    out->pixels = (unsigned char *)malloc(stride * info.output_height);
    if (!out->pixels) {
        strcpy(out->message, "out of memory");
        jpeg_destroy_decompress(&info);
        liquidlens_jpeg_free(out);
        return 0;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = out->pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (error.warned) {
        liquidlens_jpeg_free(out);
        return 0;
    }
    return 1;
}

/* Where the encoder writes: a buffer this shim owns, doubled with realloc as it fills, so that an
   error at any point frees exactly what was allocated (libjpeg's jpeg_mem_dest keeps a grown buffer
   where the caller cannot reach it). */
typedef struct {
    struct jpeg_destination_mgr manager;
    unsigned char *buffer;
    size_t capacity;
} liquidlens_jpeg_destination;

static void liquidlens_jpeg_destination_init(j_compress_ptr info) {
    liquidlens_jpeg_destination *destination = (liquidlens_jpeg_destination *)info->dest;
    destination->manager.next_output_byte = destination->buffer;
    destination->manager.free_in_buffer = destination->capacity;
}

static boolean liquidlens_jpeg_destination_grow(j_compress_ptr info) {
    liquidlens_jpeg_destination *destination = (liquidlens_jpeg_destination *)info->dest;
    size_t used = destination->capacity;
    unsigned char *grown = (unsigned char *)realloc(destination->buffer, used * 2);
    if (!grown) {
        info->err->msg_code = JERR_OUT_OF_MEMORY;
        info->err->error_exit((j_common_ptr)info);
    }
    destination->buffer = grown;
    destination->capacity = used * 2;
    destination->manager.next_output_byte = grown + used;
    destination->manager.free_in_buffer = used;
    return TRUE;
}

static void liquidlens_jpeg_destination_term(j_compress_ptr info) { (void)info; }

/* Encodes `width` × `height` RGBA pixels (alpha ignored: JPEG has none) at `quality` (1…100),
   4:2:0 chroma, into a buffer this function allocates (free it with free()). Returns 1 on success
   with `*out` and `*size` set, 0 on an error with `message` set and nothing allocated. */
static inline int liquidlens_jpeg_encode(
    const unsigned char *pixels, unsigned width, unsigned height, int quality, unsigned char **out,
    unsigned long *size, char *message) {
    struct jpeg_compress_struct info;
    liquidlens_jpeg_error error;
    liquidlens_jpeg_destination destination;
    *out = NULL;
    *size = 0;
    destination.capacity = 1 << 16;
    destination.buffer = (unsigned char *)malloc(destination.capacity);
    if (!destination.buffer) {
        strcpy(message, "out of memory");
        return 0;
    }
    destination.manager.init_destination = liquidlens_jpeg_destination_init;
    destination.manager.empty_output_buffer = liquidlens_jpeg_destination_grow;
    destination.manager.term_destination = liquidlens_jpeg_destination_term;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = liquidlens_jpeg_error_exit;
    if (setjmp(error.jump)) {
        error.manager.format_message((j_common_ptr)&info, message);
        jpeg_destroy_compress(&info);
        free(destination.buffer);
        return 0;
    }
    jpeg_create_compress(&info);
    info.dest = &destination.manager;
    info.image_width = width;
    info.image_height = height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * 4;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + stride * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = destination.buffer;
    *size = destination.capacity - destination.manager.free_in_buffer;
    return 1;
}
