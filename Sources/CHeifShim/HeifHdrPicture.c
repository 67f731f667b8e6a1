#include "HeifHdrPicture.h"

#include <stdint.h>
#include <stdlib.h>

int heif_hdr_tone_map(const struct heif_image_handle *handle, thumbs_tone_map *map) {
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok || !nclx)
        return 0;
    int hdr = thumbs_tone_map_init(map, (int) nclx->transfer_characteristics, (int) nclx->color_primaries);
    heif_nclx_color_profile_free(nclx);
    return hdr;
}

/* A sample of a plane (one byte up to 8 bits, two in the machine's order above), at most
 * `largest`. */
static inline int sample(const uint8_t *row, int x, int wide, int largest) {
    int value = wide ? ((const uint16_t *) row)[x] : row[x];
    return value < largest ? value : largest;
}

int heif_hdr_decode(struct heif_image_handle *handle, const struct heif_decoding_options *options,
    const thumbs_tone_map *map, int shrink, thumbs_heif_picture *picture) {
    struct heif_image *image = NULL;
    if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_444, options).code != heif_error_Ok)
        return 0;
    static const enum heif_channel channels[3] = { heif_channel_R, heif_channel_G, heif_channel_B };
    const uint8_t *planes[3];
    int strides[3];
    int width = heif_image_get_width(image, heif_channel_R), height = heif_image_get_height(image, heif_channel_R);
    int bits = heif_image_get_bits_per_pixel_range(image, heif_channel_R);
    int ok = width > 0 && height > 0 && bits >= 8 && bits <= 16;
    for (int plane = 0; ok && plane < 3; plane++) {
        planes[plane] = heif_image_get_plane_readonly(image, channels[plane], &strides[plane]);
        ok = planes[plane] && heif_image_get_bits_per_pixel_range(image, channels[plane]) == bits &&
            heif_image_get_width(image, channels[plane]) == width &&
            heif_image_get_height(image, channels[plane]) == height;
    }
    int out_width = ok ? (width + shrink - 1) / shrink : 0, out_height = ok ? (height + shrink - 1) / shrink : 0;
    /* Linear light of every code value: the transfer's curve once per value, not per sample. */
    float *linear = ok ? malloc(sizeof(float) << bits) : NULL;
    uint8_t *pixels = linear ? malloc((size_t) out_width * (size_t) out_height * 3) : NULL;
    if (!pixels) {
        free(linear);
        heif_image_release(image);
        return 0;
    }
    thumbs_tone_map_linear_table(map, bits, linear);
    int wide = bits > 8, largest = (1 << bits) - 1;
    for (int row = 0; row < out_height; row++) {
        int y0 = row * shrink, y1 = y0 + shrink < height ? y0 + shrink : height;
        uint8_t *out = pixels + (size_t) row * (size_t) out_width * 3;
        for (int column = 0; column < out_width; column++, out += 3) {
            int x0 = column * shrink, x1 = x0 + shrink < width ? x0 + shrink : width;
            float mean[3];
            for (int plane = 0; plane < 3; plane++) {
                float sum = 0;
                for (int y = y0; y < y1; y++) {
                    const uint8_t *line = planes[plane] + (size_t) y * (size_t) strides[plane];
                    for (int x = x0; x < x1; x++)
                        sum += linear[sample(line, x, wide, largest)];
                }
                mean[plane] = sum / (float) ((x1 - x0) * (y1 - y0));
            }
            thumbs_tone_map_pixel(map, mean, out);
        }
    }
    free(linear);
    heif_image_release(image);
    picture->pixels = pixels;
    picture->width = out_width;
    picture->height = out_height;
    return 1;
}
