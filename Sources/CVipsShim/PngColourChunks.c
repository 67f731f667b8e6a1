/* The colour a PNG without an ICC profile describes with its sRGB, cHRM and gAMA chunks, as an
 * ICC profile the pipeline converts to sRGB like an embedded one.
 *
 * libvips reads a PNG's iCCP chunk and nothing else of its colour. Browsers follow the PNG
 * specification's order: an ICC profile, else the sRGB chunk, else the primaries and white point
 * of cHRM with the gamma of gAMA (sRGB's primaries for gAMA alone, sRGB's curve for cHRM alone),
 * else sRGB. The chunks are read here from the open file, header by header up to the first
 * PLTE or IDAT (the specification places them before both; decoders ignore them after), and a
 * chunk whose length, CRC or values are wrong is ignored, as libpng ignores it. */

#include "CVipsShim.h"

#include <errno.h>
#include <lcms2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Chunks looked at before giving up: the colour chunks come right after IHDR in practice, and a
 * file of millions of empty chunks must not cost a read for each. */
#define THUMBS_PNG_MOST_CHUNKS 256
/* gAMA's value is the file's gamma times 100000: an exponent from 1/10 to 10 (decoders refuse
 * far less; beyond these no picture was meant to be seen). */
#define THUMBS_PNG_LEAST_GAMMA 10000
#define THUMBS_PNG_MOST_GAMMA 1000000

typedef struct {
    int srgb;
    int has_chromaticities;
    cmsCIExyY white;
    cmsCIExyYTRIPLE primaries;
    /* The file's gamma: a sample is the linear value to this power. 0 when there is none. */
    double gamma;
} thumbs_png_colour;

static uint32_t thumbs_png_u32(const unsigned char *p) {
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

/* The CRC of the PNG specification (ISO 3309), bit by bit: only a few dozen bytes go through it. */
static uint32_t thumbs_png_crc(const unsigned char *bytes, size_t length) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < length; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++)
            crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return crc ^ 0xFFFFFFFFu;
}

/* Reads exactly `length` bytes at `offset`; 0, or -1 when the file ends first or fails. */
static int thumbs_png_read(int descriptor, unsigned char *bytes, size_t length, off_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(descriptor, bytes + done, length - done, offset + (off_t) done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        done += (size_t) got;
    }
    return 0;
}

/* A chromaticity coordinate of cHRM (times 100000); -1 when out of 0...1. */
static double thumbs_png_coordinate(const unsigned char *p) {
    uint32_t value = thumbs_png_u32(p);
    return value <= 100000 ? value / 100000.0 : -1;
}

/* cHRM's white point and primaries, when each is a colour (x and y in 0...1, y above 0, x + y at
 * most 1) and the primaries span a triangle. */
static int thumbs_png_chromaticities(const unsigned char *data, thumbs_png_colour *colour) {
    double xy[8];
    for (int i = 0; i < 8; i++) {
        xy[i] = thumbs_png_coordinate(data + 4 * i);
        if (xy[i] < 0)
            return 0;
    }
    for (int i = 0; i < 8; i += 2)
        if (xy[i + 1] <= 0 || xy[i] + xy[i + 1] > 1)
            return 0;
    double area = (xy[4] - xy[2]) * (xy[7] - xy[3]) - (xy[6] - xy[2]) * (xy[5] - xy[3]);
    if (area > -1e-4 && area < 1e-4)
        return 0;
    colour->white = (cmsCIExyY) { xy[0], xy[1], 1.0 };
    colour->primaries = (cmsCIExyYTRIPLE) {
        { xy[2], xy[3], 1.0 }, { xy[4], xy[5], 1.0 }, { xy[6], xy[7], 1.0 } };
    colour->has_chromaticities = 1;
    return 1;
}

/* The chunk `type` of `length` bytes at `offset` taken into `colour` when it is one of the three
 * colour chunks, whole, of its size, with its CRC right and values that make sense. */
static void thumbs_png_take(int descriptor, const unsigned char *type, uint32_t length, off_t offset,
    thumbs_png_colour *colour) {
    uint32_t expected = memcmp(type, "sRGB", 4) == 0 ? 1
        : memcmp(type, "gAMA", 4) == 0             ? 4
        : memcmp(type, "cHRM", 4) == 0             ? 32
                                                   : 0;
    if (expected == 0 || length != expected)
        return;
    /* Type, data and CRC. */
    unsigned char chunk[4 + 32 + 4];
    if (thumbs_png_read(descriptor, chunk, 4 + length + 4, offset + 4))
        return;
    if (thumbs_png_crc(chunk, 4 + length) != thumbs_png_u32(chunk + 4 + length))
        return;
    const unsigned char *data = chunk + 4;
    if (expected == 1 && data[0] <= 3) {
        colour->srgb = 1;
    } else if (expected == 4 && colour->gamma == 0) {
        uint32_t gamma = thumbs_png_u32(data);
        if (gamma >= THUMBS_PNG_LEAST_GAMMA && gamma <= THUMBS_PNG_MOST_GAMMA)
            colour->gamma = gamma / 100000.0;
    } else if (expected == 32 && !colour->has_chromaticities) {
        thumbs_png_chromaticities(data, colour);
    }
}

/* The colour chunks of the PNG open at `descriptor`; -1 when it is no PNG. */
static int thumbs_png_read_colour(int descriptor, thumbs_png_colour *colour) {
    static const unsigned char signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    unsigned char head[8];
    if (thumbs_png_read(descriptor, head, 8, 0) || memcmp(head, signature, 8) != 0)
        return -1;
    memset(colour, 0, sizeof *colour);
    off_t offset = 8;
    for (int i = 0; i < THUMBS_PNG_MOST_CHUNKS; i++) {
        if (thumbs_png_read(descriptor, head, 8, offset))
            break;
        uint32_t length = thumbs_png_u32(head);
        /* The specification's limit; what is beyond it is no chunk. */
        if (length > 0x7FFFFFFFu || memcmp(head + 4, "IDAT", 4) == 0 || memcmp(head + 4, "PLTE", 4) == 0
            || memcmp(head + 4, "IEND", 4) == 0)
            break;
        thumbs_png_take(descriptor, head + 4, length, offset, colour);
        offset += 12 + (off_t) length;
    }
    return 0;
}

/* `profile` saved to memory from malloc, without its creation time: the same chunks then make
 * the same bytes, and the conversion kept for them (SrgbTransform.c) is found again. */
static unsigned char *thumbs_png_profile_bytes(cmsHPROFILE profile, size_t *length) {
    cmsUInt32Number size = 0;
    if (!cmsSaveProfileToMem(profile, NULL, &size) || size < 128)
        return NULL;
    unsigned char *bytes = malloc(size);
    if (!bytes)
        return NULL;
    if (!cmsSaveProfileToMem(profile, bytes, &size)) {
        free(bytes);
        return NULL;
    }
    memset(bytes + 24, 0, 12);
    *length = size;
    return bytes;
}

unsigned char *thumbs_png_colour_profile(int descriptor, int grey, size_t *length) {
    thumbs_png_colour colour;
    if (thumbs_png_read_colour(descriptor, &colour) || colour.srgb)
        return NULL;
    /* A grey picture's white point does not change it (the relative intent maps white to white),
     * so only its gamma counts. */
    if (colour.gamma == 0 && (grey || !colour.has_chromaticities))
        return NULL;
    static const cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    static const cmsCIExyYTRIPLE srgb_primaries = {
        { 0.64, 0.33, 1.0 }, { 0.30, 0.60, 1.0 }, { 0.15, 0.06, 1.0 } };
    /* sRGB's curve (IEC 61966-2-1) where gAMA does not give one. */
    static const cmsFloat64Number srgb_curve[5] = { 2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045 };
    cmsToneCurve *curve = colour.gamma > 0 ? cmsBuildGamma(NULL, 1 / colour.gamma)
                                           : cmsBuildParametricToneCurve(NULL, 4, srgb_curve);
    if (!curve)
        return NULL;
    cmsHPROFILE profile;
    if (grey) {
        profile = cmsCreateGrayProfile(&d65, curve);
    } else {
        cmsToneCurve *curves[3] = { curve, curve, curve };
        profile = colour.has_chromaticities ? cmsCreateRGBProfile(&colour.white, &colour.primaries, curves)
                                            : cmsCreateRGBProfile(&d65, &srgb_primaries, curves);
    }
    cmsFreeToneCurve(curve);
    if (!profile)
        return NULL;
    unsigned char *bytes = thumbs_png_profile_bytes(profile, length);
    cmsCloseProfile(profile);
    /* cHRM giving sRGB's own primaries, without gAMA, is sRGB. */
    if (bytes && thumbs_icc_is_srgb(bytes, *length)) {
        free(bytes);
        return NULL;
    }
    return bytes;
}
