/* HDR HEIF pictures (PQ or HLG by their nclx colour description) decoded and tone-mapped to SDR
 * sRGB (HeifHdrPicture.c). */
#ifndef THUMBS_HEIF_HDR_PICTURE_H
#define THUMBS_HEIF_HDR_PICTURE_H

#include "CHeifShim.h"

#include <CToneMap.h>
#include <libheif/heif.h>

/* Whether the image's nclx colour description has PQ or HLG transfer; if so, `map` is set up
 * for it (its primaries) and 1 is returned. 0 for every other picture, which is left as it is. */
int heif_hdr_tone_map(const struct heif_image_handle *handle, thumbs_tone_map *map);

/* Decodes `handle` (to planar RGB of its own depth, libheif converting from YCbCr by the nclx
 * matrix and range) at 1/`shrink`, each pixel the mean of a block in linear light, and fills
 * `picture` (when not NULL) with it tone-mapped to 8-bit sRGB, and `light` (when not NULL) with
 * its luminance relative to SDR white (thumbs_tone_map_relative_luminance): the SDR picture
 * and the HDR one a gain map restores. A picture with alpha gives RGBA: each block's colour
 * weighted by its alpha (the mean of premultiplied samples, unpremultiplied), its alpha the
 * block's mean. Returns 1, or 0 when libheif fails or gives another layout (the caller leaves
 * the file to libvips' loader). */
int heif_hdr_decode(struct heif_image_handle *handle, const struct heif_decoding_options *options,
    const thumbs_tone_map *map, int shrink, thumbs_heif_picture *picture, thumbs_light_plane *light);

#endif
