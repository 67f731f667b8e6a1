#include "CJpegShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "JpegErrors.h"

typedef struct {
    struct jpeg_compress_struct info;
    jpeg_errors errors;
    /* jpeg_mem_dest's buffer: malloc'd by libjpeg, replaced as it grows. */
    unsigned char *buffer;
    unsigned long length;
    int created;
} encoder;

int thumbs_jpeg_encode(const unsigned char *pixels, int width, int height, int bands, size_t stride,
    int quality, thumbs_jpeg_encoded *encoded) {
    memset(encoded, 0, sizeof *encoded);
    if ((bands != 1 && bands != 3) || width <= 0 || height <= 0 || stride < (size_t) width * bands) {
        snprintf(encoded->message, sizeof encoded->message, "cannot encode %dx%d pixels of %d bands as JPEG",
            width, height, bands);
        return THUMBS_JPEG_FAILED;
    }
    encoder *state = calloc(1, sizeof *state);
    if (!state) {
        snprintf(encoded->message, sizeof encoded->message, "out of memory");
        return THUMBS_JPEG_FAILED;
    }
    struct jpeg_compress_struct *info = &state->info;
    jpeg_errors_install(&state->errors, (j_common_ptr) info, encoded->message, sizeof encoded->message);
    volatile int result = THUMBS_JPEG_FAILED;
    if (setjmp(state->errors.jump))
        goto finish;

    jpeg_create_compress(info);
    state->created = 1;
    jpeg_mem_dest(info, &state->buffer, &state->length);
    info->image_width = (JDIMENSION) width;
    info->image_height = (JDIMENSION) height;
    info->input_components = bands;
    info->in_color_space = bands == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(info);
    /* libvips' jpegsave settings, so that a thumbnail is the same whichever encoder made it:
     * the standard tables scaled to `quality`, Huffman tables made for the image, and chroma
     * kept at half resolution both ways below quality 90 (4:2:0, the default here), full
     * resolution from 90. */
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE;
    if (quality >= 90)
        for (int index = 0; index < info->num_components; index++) {
            info->comp_info[index].h_samp_factor = 1;
            info->comp_info[index].v_samp_factor = 1;
        }
    jpeg_start_compress(info, TRUE);
    while (info->next_scanline < info->image_height) {
        JSAMPROW row = (JSAMPROW) (pixels + stride * info->next_scanline);
        jpeg_write_scanlines(info, &row, 1);
    }
    jpeg_finish_compress(info);
    encoded->bytes = state->buffer;
    encoded->length = (size_t) state->length;
    state->buffer = NULL;
    result = THUMBS_JPEG_ENCODED;

finish:
    if (state->created)
        jpeg_destroy_compress(info);
    free(state->buffer);
    free(state);
    return result;
}

void thumbs_jpeg_encoded_free(thumbs_jpeg_encoded *encoded) {
    free(encoded->bytes);
    memset(encoded, 0, sizeof *encoded);
}
