#ifndef THUMBS_CPNGDECODER_H
#define THUMBS_CPNGDECODER_H

#include <stddef.h>

/* PNGs decoded by libpng directly, with the transformations and limits libvips' pngload (libpng
 * build) sets, for the pictures whose pixels are then the loader's: 8-bit grey (1, 2 and 4 bits
 * widened to 8), 8- or 16-bit RGB and palette colour, each with or without alpha (its own band,
 * or a tRNS chunk's, made a band as libvips makes it). 16-bit RGB keeps each sample's high byte,
 * as libvips' conversion of RGB16 to sRGB does before its thumbnail's resize. */
typedef struct {
    /* 8-bit samples, rows packed, `bands` (1: grey, 2: grey and alpha, 3: RGB, 4: RGB and alpha)
     * per pixel; NULL after a header read.
     * Free with thumbs_png_free. */
    unsigned char *pixels;
    int width;
    int height;
    int bands;
    /* 1 for an Adam7-interlaced file. */
    int interlaced;
    /* The iCCP chunk's profile, inflated, or NULL. */
    unsigned char *icc;
    size_t icc_length;
    /* The text of the text chunk keyed "XML:com.adobe.xmp" (the last such), or NULL. */
    char *xmp;
    size_t xmp_length;
    /* libpng's words when the decode failed (its warnings, which libvips only logs, are
     * ignored), or why it was not taken. */
    char message[200];
} thumbs_png_picture;

enum {
    THUMBS_PNG_DECODED = 0,
    /* Not for this decoder: 16-bit grey, with alpha or without, an eXIf chunk (an orientation and
     * EXIF fields, libvips' to parse), or more text chunks than libvips keeps. */
    THUMBS_PNG_NOT_HANDLED = 1,
    /* More pixels than the caller's limit. */
    THUMBS_PNG_TOO_LARGE = 2,
    THUMBS_PNG_FAILED = -1,
};

/* Reads the PNG open as `descriptor` from its start with pread (the descriptor's offset is left
 * alone): its header and the chunks before its first IDAT, as libvips' loader reads them, and,
 * unless `header_only`, its whole picture into memory from malloc. A picture of more than
 * `pixel_limit` pixels is refused before any is decoded. libpng's errors come back as
 * THUMBS_PNG_FAILED with its message; no jump leaves this function. */
int thumbs_png_decode(int descriptor, size_t pixel_limit, int header_only, thumbs_png_picture *picture);

/* The ICC profile of the iCCP chunk whose data (its name, a compression method, the profile
 * deflated) is `length` bytes at `offset` in the file open as `descriptor`, inflated by zlib and
 * read with pread: what a process may read of a PNG before it confines itself, to tell whether
 * lcms converts from that profile. NULL when the chunk is not one, its data is over `limit`
 * bytes, or its profile would be; else a buffer from malloc of `*profile_length` bytes. */
unsigned char *thumbs_png_iccp_profile(int descriptor, long long offset, size_t length, size_t limit,
    size_t *profile_length);

/* Frees what a decode left in `picture` (safe on a failed or empty one). */
void thumbs_png_free(thumbs_png_picture *picture);

#endif
