#include "CHeifShim.h"

#include "HeifFile.h"
#include "HeifHdrPicture.h"
#include "HeifOrientation.h"

#include <stdlib.h>
#include <string.h>

static const char apple_gain_map_type[] = "urn:com:apple:photo:2020:aux:hdrgainmap";

int thumbs_heif_hdr_light(int descriptor, const char *decoder, int shrink, thumbs_light_plane *light) {
    memset(light, 0, sizeof *light);
    int status = THUMBS_HEIF_NOT_HANDLED;
    opened_heif opened;
    struct heif_decoding_options *options = NULL;
    thumbs_tone_map hdr;
    if (!open_heif(descriptor, &opened) || !heif_hdr_tone_map(opened.primary, &hdr))
        goto finish;
    light->orientation = thumbs_heif_orientation(opened.file, opened.length);
    if (light->orientation == THUMBS_HEIF_ORIENTATION_UNKNOWN || !(options = heif_decoding_options_alloc()))
        goto finish;
    /* As stored, as thumbs_heif_decode decodes the picture: turned once small. */
    options->ignore_transformations = 1;
    options->decoder_id = decoder;
    if (heif_hdr_decode(opened.primary, options, &hdr, shrink > 0 ? shrink : 1, NULL, light))
        status = THUMBS_HEIF_DECODED;
finish:
    heif_decoding_options_free(options);
    close_heif(&opened);
    return status;
}

/* The primary image's auxiliary image of Apple's HDR gain map type, or NULL. */
static struct heif_image_handle *apple_gain_map(struct heif_image_handle *primary) {
    int count = heif_image_handle_get_number_of_auxiliary_images(
        primary, LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH);
    if (count <= 0 || count > 64)
        return NULL;
    heif_item_id ids[64];
    count = heif_image_handle_get_list_of_auxiliary_image_IDs(
        primary, LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH, ids, count);
    for (int i = 0; i < count; i++) {
        struct heif_image_handle *auxiliary = NULL;
        if (heif_image_handle_get_auxiliary_image_handle(primary, ids[i], &auxiliary).code != heif_error_Ok)
            continue;
        const char *type = NULL;
        int matches = heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok && type &&
            strcmp(type, apple_gain_map_type) == 0;
        heif_image_handle_free_auxiliary_types(auxiliary, &type);
        if (matches)
            return auxiliary;
        heif_image_handle_release(auxiliary);
    }
    return NULL;
}

int thumbs_heif_apple_gain_map(int descriptor, const char *decoder, long long pixel_limit, thumbs_heif_gain_map *map) {
    memset(map, 0, sizeof *map);
    int status = THUMBS_HEIF_NOT_HANDLED;
    opened_heif opened;
    struct heif_image_handle *gain_map = NULL;
    struct heif_decoding_options *options = NULL;
    struct heif_image *image = NULL;
    if (!open_heif(descriptor, &opened) || !(gain_map = apple_gain_map(opened.primary)))
        goto finish;
    map->orientation = thumbs_heif_orientation(opened.file, opened.length);
    long long pixels = (long long) heif_image_handle_get_width(gain_map) * heif_image_handle_get_height(gain_map);
    if (map->orientation == THUMBS_HEIF_ORIENTATION_UNKNOWN || pixels <= 0 || pixels > pixel_limit ||
        !(options = heif_decoding_options_alloc()))
        goto finish;
    /* Stored as the primary picture is: the primary's rotation and mirroring turn it upright. */
    options->ignore_transformations = 1;
    options->decoder_id = decoder;
    if (heif_decode_image(gain_map, &image, heif_colorspace_monochrome, heif_chroma_monochrome, options).code !=
        heif_error_Ok)
        goto finish;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride);
    int width = heif_image_get_width(image, heif_channel_Y), height = heif_image_get_height(image, heif_channel_Y);
    if (!plane || width <= 0 || height <= 0 || stride < width ||
        heif_image_get_bits_per_pixel_range(image, heif_channel_Y) != 8 ||
        !(map->pixels = malloc((size_t) width * (size_t) height)))
        goto finish;
    for (int row = 0; row < height; row++)
        memcpy(map->pixels + (size_t) row * (size_t) width, plane + (size_t) row * (size_t) stride, (size_t) width);
    map->width = width;
    map->height = height;
    status = THUMBS_HEIF_DECODED;
finish:
    heif_image_release(image);
    heif_decoding_options_free(options);
    heif_image_handle_release(gain_map);
    close_heif(&opened);
    return status;
}
