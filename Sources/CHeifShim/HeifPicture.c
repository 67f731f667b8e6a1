#include "CHeifShim.h"

#include "HeifFile.h"
#include "HeifHdrPicture.h"
#include "HeifOrientation.h"

#include <libheif/heif.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether a picture of width x height has the primary picture's shape, as libvips' loader
 * checks a thumbnail's: some files store one of another shape (a square of a 3:2 photo). */
static int same_shape(struct heif_image_handle *primary, double width, double height) {
    double primary_aspect =
        (double) heif_image_handle_get_width(primary) / (double) heif_image_handle_get_height(primary);
    return height > 0 && fabs(primary_aspect - width / height) <= 0.1;
}

/* The first stored thumbnail, when it is at least THUMBS_HEIF_THUMBNAIL_RESIZE times the thumbnail
 * of target_width x target_height (upright) across and down, and of the primary picture's
 * shape; else NULL. The thumbnail's own size is libheif's, upright as the primary's is. */
static struct heif_image_handle *serving_thumbnail(
    struct heif_image_handle *primary, int target_width, int target_height) {
    heif_item_id first;
    struct heif_image_handle *thumbnail = NULL;
    if (heif_image_handle_get_list_of_thumbnail_IDs(primary, &first, 1) < 1 ||
        heif_image_handle_get_thumbnail(primary, first, &thumbnail).code != heif_error_Ok)
        return NULL;
    double width = heif_image_handle_get_width(thumbnail), height = heif_image_handle_get_height(thumbnail);
    double across = width / target_width, down = height / target_height;
    if (fmin(across, down) < THUMBS_HEIF_THUMBNAIL_RESIZE || !same_shape(primary, width, height) ||
        heif_image_handle_get_luma_bits_per_pixel(thumbnail) != 8 ||
        heif_image_handle_get_chroma_bits_per_pixel(thumbnail) != 8) {
        heif_image_handle_release(thumbnail);
        return NULL;
    }
    return thumbnail;
}

/* A stored thumbnail decoded as libvips' loader decodes one: turned upright by libheif, to
 * interleaved 8-bit RGB, here packed; 0 when libheif fails on it or decodes another shape. */
static int decode_thumbnail(struct heif_image_handle *thumbnail, struct heif_image_handle *primary,
    const char *decoder, thumbs_heif_picture *picture) {
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options)
        return 0;
    options->decoder_id = decoder;
    struct heif_image *image = NULL;
    struct heif_error error =
        heif_decode_image(thumbnail, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok)
        return 0;
    int stride = 0;
    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    uint8_t *pixels = NULL;
    if (plane && width > 0 && height > 0 && stride >= width * 3 && same_shape(primary, width, height) &&
        (pixels = malloc((size_t) width * (size_t) height * 3))) {
        for (int row = 0; row < height; row++)
            memcpy(pixels + (size_t) row * (size_t) width * 3, plane + (size_t) row * (size_t) stride,
                (size_t) width * 3);
        picture->pixels = pixels;
        picture->width = width;
        picture->height = height;
        picture->bands = 3;
        picture->orientation = 1;
    }
    heif_image_release(image);
    return pixels != NULL;
}

/* The mean of a plane's samples over columns [x0, x1) of rows [y0, y1). */
static uint8_t block_mean(const uint8_t *plane, int stride, int x0, int x1, int y0, int y1) {
    uint32_t sum = 0;
    for (int y = y0; y < y1; y++) {
        const uint8_t *row = plane + (size_t) y * (size_t) stride;
        for (int x = x0; x < x1; x++)
            sum += row[x];
    }
    uint32_t count = (uint32_t) ((x1 - x0) * (y1 - y0));
    return (uint8_t) ((sum + count / 2) / count);
}

/* The 8-bit planar RGB picture libheif decodes to, averaged over blocks of `shrink`² pixels
 * (the last row and column of blocks partial) into packed RGB. */
static int shrink_planes(const struct heif_image *image, int shrink, thumbs_heif_picture *picture) {
    if (heif_image_get_colorspace(image) != heif_colorspace_RGB || heif_image_get_chroma_format(image) != heif_chroma_444)
        return 0;
    static const enum heif_channel channels[3] = { heif_channel_R, heif_channel_G, heif_channel_B };
    const uint8_t *planes[3];
    int strides[3];
    int width = heif_image_get_width(image, heif_channel_R), height = heif_image_get_height(image, heif_channel_R);
    for (int plane = 0; plane < 3; plane++) {
        if (!heif_image_has_channel(image, channels[plane]) ||
            heif_image_get_bits_per_pixel_range(image, channels[plane]) != 8 ||
            heif_image_get_width(image, channels[plane]) != width ||
            heif_image_get_height(image, channels[plane]) != height)
            return 0;
        planes[plane] = heif_image_get_plane_readonly(image, channels[plane], &strides[plane]);
        if (!planes[plane])
            return 0;
    }
    if (width <= 0 || height <= 0)
        return 0;
    int out_width = (width + shrink - 1) / shrink, out_height = (height + shrink - 1) / shrink;
    uint8_t *pixels = malloc((size_t) out_width * (size_t) out_height * 3);
    if (!pixels)
        return 0;
    for (int row = 0; row < out_height; row++) {
        int y0 = row * shrink, y1 = y0 + shrink < height ? y0 + shrink : height;
        uint8_t *out = pixels + (size_t) row * (size_t) out_width * 3;
        for (int column = 0; column < out_width; column++) {
            int x0 = column * shrink, x1 = x0 + shrink < width ? x0 + shrink : width;
            for (int plane = 0; plane < 3; plane++)
                *out++ = block_mean(planes[plane], strides[plane], x0, x1, y0, y1);
        }
    }
    picture->pixels = pixels;
    picture->width = out_width;
    picture->height = out_height;
    picture->bands = 3;
    return 1;
}

/* The primary image's ICC profile (a prof or rICC colour box), as libvips' loader attaches it. */
static void copy_profile(struct heif_image_handle *primary, thumbs_heif_picture *picture) {
    enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(primary);
    if (type != heif_color_profile_type_prof && type != heif_color_profile_type_rICC)
        return;
    size_t length = heif_image_handle_get_raw_color_profile_size(primary);
    unsigned char *icc = length > 0 ? malloc(length) : NULL;
    if (icc && heif_image_handle_get_raw_color_profile(primary, icc).code == heif_error_Ok) {
        picture->icc = icc;
        picture->icc_length = length;
    } else {
        free(icc);
    }
}

int thumbs_heif_decode(int descriptor, const char *decoder, int shrink, int target_width, int target_height,
    thumbs_heif_picture *picture) {
    memset(picture, 0, sizeof *picture);
    int status = THUMBS_HEIF_NOT_HANDLED;
    opened_heif opened;
    struct heif_decoding_options *options = NULL;
    struct heif_image *image = NULL;
    if (!open_heif(descriptor, &opened))
        goto finish;
    struct heif_image_handle *primary = opened.primary;
    /* Left to libvips' loader: pictures whose orientation cannot be read, and SDR pictures with
     * alpha or more than 8 bits. HDR pictures (PQ, HLG) are tone-mapped here whatever their
     * depth and alpha, from the picture itself: libvips' loader would show their code values
     * as sRGB. */
    picture->orientation = thumbs_heif_orientation(opened.file, opened.length);
    if (picture->orientation == THUMBS_HEIF_ORIENTATION_UNKNOWN)
        goto finish;
    thumbs_tone_map hdr;
    int is_hdr = heif_hdr_tone_map(primary, &hdr);
    if (!is_hdr &&
        (heif_image_handle_has_alpha_channel(primary) || heif_image_handle_get_luma_bits_per_pixel(primary) != 8 ||
            heif_image_handle_get_chroma_bits_per_pixel(primary) != 8))
        goto finish;
    struct heif_image_handle *thumbnail = is_hdr ? NULL : serving_thumbnail(primary, target_width, target_height);
    if (thumbnail) {
        int decoded = decode_thumbnail(thumbnail, primary, decoder, picture);
        heif_image_handle_release(thumbnail);
        if (decoded) {
            copy_profile(primary, picture);
            status = THUMBS_HEIF_DECODED;
            goto finish;
        }
    }
    /* The picture as stored: the orientation is applied to the small image, after the resize,
     * rather than by libheif to the whole picture, a sample at a time. */
    if (!(options = heif_decoding_options_alloc()))
        goto finish;
    options->ignore_transformations = 1;
    options->decoder_id = decoder;
    if (is_hdr) {
        if (heif_hdr_decode(primary, options, &hdr, shrink, picture, NULL))
            status = THUMBS_HEIF_DECODED;
        goto finish;
    }
    /* In no colour space in particular: libheif then converts to planar RGB itself, which is
     * what shrink_planes reads (any other layout is left to libvips' loader). */
    struct heif_error error =
        heif_decode_image(primary, &image, heif_colorspace_undefined, heif_chroma_undefined, options);
    if (error.code != heif_error_Ok) {
        /* libvips' loader reads it once more and reports the damage in its words. */
        goto finish;
    }
    if (!shrink_planes(image, shrink, picture))
        goto finish;
    copy_profile(primary, picture);
    status = THUMBS_HEIF_DECODED;
finish:
    heif_image_release(image);
    heif_decoding_options_free(options);
    close_heif(&opened);
    return status;
}

int thumbs_heif_hdr_thumbnail(int descriptor, const char *decoder, long long pixel_limit, thumbs_heif_picture *picture) {
    memset(picture, 0, sizeof *picture);
    int status = THUMBS_HEIF_NOT_HANDLED;
    opened_heif opened;
    struct heif_image_handle *thumbnail = NULL;
    struct heif_decoding_options *options = NULL;
    heif_item_id first;
    thumbs_tone_map hdr;
    if (!open_heif(descriptor, &opened) ||
        heif_image_handle_get_list_of_thumbnail_IDs(opened.primary, &first, 1) < 1 ||
        heif_image_handle_get_thumbnail(opened.primary, first, &thumbnail).code != heif_error_Ok ||
        !heif_hdr_tone_map(thumbnail, &hdr))
        goto finish;
    /* As libvips' loader's thumbnail is kept as a preview: smaller than the picture, within the
     * pixel limit. */
    long long pixels = (long long) heif_image_handle_get_width(thumbnail) * heif_image_handle_get_height(thumbnail);
    long long primary_pixels =
        (long long) heif_image_handle_get_width(opened.primary) * heif_image_handle_get_height(opened.primary);
    if (pixels <= 0 || pixels >= primary_pixels || pixels > pixel_limit || !(options = heif_decoding_options_alloc()))
        goto finish;
    /* Turned upright by libheif, as libvips' loader's thumbnail is: it is small. */
    options->decoder_id = decoder;
    if (heif_hdr_decode(thumbnail, options, &hdr, 1, picture, NULL)) {
        picture->orientation = 1;
        status = THUMBS_HEIF_DECODED;
    }
finish:
    heif_decoding_options_free(options);
    heif_image_handle_release(thumbnail);
    close_heif(&opened);
    return status;
}
