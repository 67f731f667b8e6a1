#ifndef THUMBS_CPNGENCODER_H
#define THUMBS_CPNGENCODER_H

#include <stddef.h>

/* Encodes 8-bit pixels as a PNG, with no metadata: `bands` 1 (grey), 2 (grey and alpha),
 * 3 (RGB) or 4 (RGBA) samples per pixel, rows packed. Every row is Paeth-filtered and the
 * stream compressed with zlib's run-length strategy: on photo thumbnails that is a fifth
 * smaller than libvips' PNG (no filter, zlib level 1) in about half the time (docs/BENCHMARKS.md).
 * On success returns 0 and a buffer to free with free(); -1 on bad arguments or no memory. */
int thumbs_png_encode(const unsigned char *pixels, int width, int height, int bands,
    unsigned char **png, size_t *length);

#endif
