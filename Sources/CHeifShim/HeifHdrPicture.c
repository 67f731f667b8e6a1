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

/* The planes of a decoded picture: R, G, B and, when it has one, alpha, with their strides. */
typedef struct {
    const uint8_t *planes[4];
    int strides[4];
    int width, height, bits, alpha_bits, has_alpha;
} hdr_planes;

/* Whether `image` is planar RGB of one depth from 8 to 16 bits, with an alpha plane of its own
 * depth (1 to 16 bits) or none, every plane the same size. */
static int read_planes(const struct heif_image *image, hdr_planes *found) {
    static const enum heif_channel channels[4] = { heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha };
    found->width = heif_image_get_width(image, heif_channel_R);
    found->height = heif_image_get_height(image, heif_channel_R);
    found->bits = heif_image_get_bits_per_pixel_range(image, heif_channel_R);
    found->has_alpha = heif_image_has_channel(image, heif_channel_Alpha);
    found->alpha_bits = found->has_alpha ? heif_image_get_bits_per_pixel_range(image, heif_channel_Alpha) : 0;
    if (found->width <= 0 || found->height <= 0 || found->bits < 8 || found->bits > 16 ||
        (found->has_alpha && (found->alpha_bits < 1 || found->alpha_bits > 16)))
        return 0;
    for (int plane = 0; plane < (found->has_alpha ? 4 : 3); plane++) {
        found->planes[plane] = heif_image_get_plane_readonly(image, channels[plane], &found->strides[plane]);
        int bits = plane == 3 ? found->alpha_bits : found->bits;
        if (!found->planes[plane] || heif_image_get_bits_per_pixel_range(image, channels[plane]) != bits ||
            heif_image_get_width(image, channels[plane]) != found->width ||
            heif_image_get_height(image, channels[plane]) != found->height)
            return 0;
    }
    return 1;
}

/* The peak a picture states, in cd/m²: its maximum content light level (`clli`), else its
 * mastering display's peak (`mdcv`, in units of 0.0001 cd/m²); 0 when it states neither. */
static float stated_peak(const struct heif_image *image) {
    if (heif_image_has_content_light_level(image)) {
        struct heif_content_light_level level;
        heif_image_get_content_light_level(image, &level);
        if (level.max_content_light_level > 0)
            return (float) level.max_content_light_level;
    }
    if (heif_image_has_mastering_display_colour_volume(image)) {
        struct heif_mastering_display_colour_volume volume;
        heif_image_get_mastering_display_colour_volume(image, &volume);
        return (float) volume.max_display_mastering_luminance / 10000.0f;
    }
    return 0;
}

int heif_hdr_decode(struct heif_image_handle *handle, const struct heif_decoding_options *options,
    const thumbs_tone_map *map, int shrink, thumbs_heif_picture *picture, thumbs_light_plane *light) {
    struct heif_image *image = NULL;
    if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_444, options).code != heif_error_Ok)
        return 0;
    hdr_planes found;
    int ok = read_planes(image, &found);
    int width = found.width, height = found.height, bands = found.has_alpha ? 4 : 3;
    int out_width = ok ? (width + shrink - 1) / shrink : 0, out_height = ok ? (height + shrink - 1) / shrink : 0;
    size_t count = (size_t) out_width * (size_t) out_height;
    /* Linear light of every code value: the transfer's curve once per value, not per sample. */
    float *linear = ok ? malloc(sizeof(float) << found.bits) : NULL;
    uint8_t *pixels = linear && picture ? malloc(count * (size_t) bands) : NULL;
    float *luminance = linear && light ? malloc(count * sizeof(float)) : NULL;
    if (!linear || (picture && !pixels) || (light && !luminance)) {
        free(linear);
        free(pixels);
        free(luminance);
        heif_image_release(image);
        return 0;
    }
    thumbs_tone_map_linear_table(map, found.bits, linear);
    thumbs_tone_map stated = *map;
    thumbs_tone_map_set_peak(&stated, stated_peak(image));
    int wide = found.bits > 8, largest = (1 << found.bits) - 1;
    int alpha_wide = found.alpha_bits > 8, alpha_largest = (1 << found.alpha_bits) - 1;
    for (int row = 0; row < out_height; row++) {
        int y0 = row * shrink, y1 = y0 + shrink < height ? y0 + shrink : height;
        size_t first = (size_t) row * (size_t) out_width;
        for (int column = 0; column < out_width; column++) {
            int x0 = column * shrink, x1 = x0 + shrink < width ? x0 + shrink : width;
            float sum[3] = { 0, 0, 0 }, coverage = 0;
            for (int y = y0; y < y1; y++) {
                const uint8_t *lines[4];
                for (int plane = 0; plane < bands; plane++)
                    lines[plane] = found.planes[plane] + (size_t) y * (size_t) found.strides[plane];
                for (int x = x0; x < x1; x++) {
                    /* Premultiplied: a transparent sample's colour does not bleed into the block. */
                    float weight = found.has_alpha
                        ? (float) sample(lines[3], x, alpha_wide, alpha_largest) / (float) alpha_largest
                        : 1;
                    coverage += weight;
                    for (int plane = 0; plane < 3; plane++)
                        sum[plane] += weight * linear[sample(lines[plane], x, wide, largest)];
                }
            }
            float mean[3];
            for (int plane = 0; plane < 3; plane++)
                mean[plane] = coverage > 0 ? sum[plane] / coverage : 0;
            if (luminance)
                luminance[first + (size_t) column] = thumbs_tone_map_relative_luminance(&stated, mean);
            if (!pixels)
                continue;
            uint8_t *out = pixels + (first + (size_t) column) * (size_t) bands;
            thumbs_tone_map_pixel(&stated, mean, out);
            if (found.has_alpha) {
                float opacity = coverage / (float) ((x1 - x0) * (y1 - y0));
                out[3] = (uint8_t) (opacity * 255 + 0.5f);
            }
        }
    }
    free(linear);
    heif_image_release(image);
    if (picture) {
        picture->pixels = pixels;
        picture->width = out_width;
        picture->height = out_height;
        picture->bands = bands;
    }
    if (light) {
        light->luminance = luminance;
        light->width = out_width;
        light->height = out_height;
    }
    return 1;
}
