#ifndef THUMBS_CJPEGSHIM_H
#define THUMBS_CJPEGSHIM_H

#include <stddef.h>

/* JPEGs decoded and encoded with libjpeg-turbo directly.
 *
 * A JPEG decoded straight with libjpeg-turbo, at a DCT scale: what libvips' jpegload does for a
 * thumbnail, without its per-image machinery (regions, a thread hand-off per strip). */
typedef struct {
    /* 8-bit samples, rows packed, `bands` per pixel (3: RGB, 1: grey); free with thumbs_jpeg_free. */
    unsigned char *pixels;
    int width;
    int height;
    int bands;
    /* The embedded ICC profile (APP2 chunks joined), or NULL; free with thumbs_jpeg_free. */
    unsigned char *icc;
    unsigned int icc_length;
    /* 1 when scans of a progressive JPEG were left unread (see thumbs_jpeg_decode). */
    int scans_skipped;
    /* How many warnings libjpeg gave (corrupt data, the end of the file reached early). */
    long warnings;
    /* Why the decode failed, libjpeg's own words. */
    char message[200];
} thumbs_jpeg_picture;

enum {
    THUMBS_JPEG_DECODED = 0,
    THUMBS_JPEG_ENCODED = 0,
    /* Not for this decoder: CMYK and YCCK (libvips' loader knows Adobe's inverted CMYK), and
     * files libjpeg warns about (libvips' rule decides whether their damage is too much). */
    THUMBS_JPEG_NOT_HANDLED = 1,
    THUMBS_JPEG_FAILED = -1,
};

/* Decodes the JPEG read from `descriptor` (from its start, with pread: the descriptor's offset
 * is left alone) at 1/`scale_denominator` (1, 2, 4 or 8), its size rounded down as libvips'
 * loader rounds it. A file that ends before its last scan fails as truncated, and its 100th
 * warning hands it back (THUMBS_JPEG_NOT_HANDLED), like libvips' fail_on=truncated; when
 * `past_damage`, neither stops the decode, like libvips' fail_on=none with `unlimited`: the
 * picture is what decoded, the rest filled as libjpeg fills it. When `skip_unneeded_scans`, a progressive JPEG decoded at 1/8 is read whole
 * and handed to libjpeg without the AC scans of the components its 1x1 IDCT makes from the DC
 * alone (the luma; the chroma too when it is not subsampled): most of the file, never
 * Huffman-decoded. The picture is the same as the full decode's. */
int thumbs_jpeg_decode(int descriptor, int scale_denominator, int skip_unneeded_scans, int past_damage,
    thumbs_jpeg_picture *picture);

/* Decodes the JPEG of `length` bytes at `bytes` (a thumbnail, a gain map) as thumbs_jpeg_decode
 * does a file, at 1/`scale_denominator`; a warning's damage is let through as there. */
int thumbs_jpeg_decode_bytes(const unsigned char *bytes, size_t length, int scale_denominator,
    thumbs_jpeg_picture *picture);

/* Frees what a decode left in `picture` (safe on a failed or empty one). */
void thumbs_jpeg_free(thumbs_jpeg_picture *picture);

/* A JPEG encoded straight from pixels in memory: what libvips' jpegsave does, without its sink
 * (a thread hand-off per strip) or a copy to strip the metadata: nothing but the pixels is
 * written. */
typedef struct {
    /* The JPEG file; free with thumbs_jpeg_encoded_free. */
    unsigned char *bytes;
    size_t length;
    /* Why the encode failed, libjpeg's own words. */
    char message[200];
} thumbs_jpeg_encoded;

/* Encodes `height` rows of `width` 8-bit pixels, `bands` (3: RGB, 1: grey) per pixel, row r at
 * `pixels` + r × `stride`, at `quality` (1–100) with libvips' jpegsave settings: optimised
 * Huffman tables, 4:2:0 chroma below quality 90. Returns THUMBS_JPEG_ENCODED or THUMBS_JPEG_FAILED. */
int thumbs_jpeg_encode(const unsigned char *pixels, int width, int height, int bands, size_t stride,
    int quality, thumbs_jpeg_encoded *encoded);

/* Frees what an encode left in `encoded` (safe on a failed or empty one). */
void thumbs_jpeg_encoded_free(thumbs_jpeg_encoded *encoded);

#endif
