/* Whether an embedded ICC profile is sRGB already, so that converting to sRGB can be skipped, and
 * whether its header is one lcms converts pictures of so many bands from. */

#include "CVipsShim.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* sRGB's primaries adapted to the D50 of the profile connection space (as every ICC profile
 * stores its colorants), and the most a profile's may differ and still count as sRGB: profiles
 * from cameras, phones, GIMP and libvips round them differently, by up to 0.0003 here, while
 * Display P3 differs by 0.09. */
static const double thumbs_srgb_colorants[3][3] = {
    { 0.4360747, 0.2225045, 0.0139322 },
    { 0.3850649, 0.7168786, 0.0971045 },
    { 0.1430804, 0.0606169, 0.7141733 },
};
#define THUMBS_COLORANT_TOLERANCE 0.002
/* The most a tone curve may differ from sRGB's, on a 0...1 scale: under half a step of 255.
 * (Rec. 709's curve, on the same primaries, differs by 0.047.) */
#define THUMBS_CURVE_TOLERANCE 0.0015
#define THUMBS_CURVE_SAMPLES 33

static uint32_t thumbs_u32(const unsigned char *p) {
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

static double thumbs_s15f16(const unsigned char *p) {
    return (int32_t) thumbs_u32(p) / 65536.0;
}

static double thumbs_srgb_decode(double x) {
    return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

/* The tag `signature`'s data, at least `minimum` bytes of it inside the profile; NULL if the
 * profile has no such tag or it does not fit. */
static const unsigned char *thumbs_tag(const unsigned char *data, size_t length,
    const char *signature, size_t minimum, size_t *tag_size) {
    uint32_t count = thumbs_u32(data + 128);
    if (count > (length - 132) / 12)
        return NULL;
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *entry = data + 132 + 12 * (size_t) i;
        if (memcmp(entry, signature, 4) != 0)
            continue;
        uint32_t offset = thumbs_u32(entry + 4), size = thumbs_u32(entry + 8);
        if (size < minimum || offset > length || size > length - offset)
            return NULL;
        *tag_size = size;
        return data + offset;
    }
    return NULL;
}

/* The tone curve at x (0...1), from a 'curv' or 'para' tag; -1 for a kind not handled. */
static double thumbs_curve(const unsigned char *tag, size_t size, double x) {
    if (memcmp(tag, "curv", 4) == 0) {
        uint32_t n = thumbs_u32(tag + 8);
        if (n > (size - 12) / 2)
            return -1;
        if (n == 0)
            return x;
        if (n == 1)
            return pow(x, ((unsigned) tag[12] << 8 | tag[13]) / 256.0);
        double position = x * (n - 1);
        uint32_t i = (uint32_t) position;
        if (i >= n - 1)
            i = n - 2;
        double fraction = position - i;
        const unsigned char *entry = tag + 12 + 2 * (size_t) i;
        double low = (entry[0] << 8 | entry[1]) / 65535.0, high = (entry[2] << 8 | entry[3]) / 65535.0;
        return low + (high - low) * fraction;
    }
    if (memcmp(tag, "para", 4) == 0) {
        static const int parameters[] = { 1, 3, 4, 5, 7 };
        unsigned function = (unsigned) tag[8] << 8 | tag[9];
        if (function > 4 || 12 + 4 * (size_t) parameters[function] > size)
            return -1;
        double p[7] = { 0 };
        for (int i = 0; i < parameters[function]; i++)
            p[i] = thumbs_s15f16(tag + 12 + 4 * i);
        switch (function) {
        case 0: return pow(x, p[0]);
        case 3: return x >= p[4] ? pow(p[1] * x + p[2], p[0]) : p[3] * x;
        case 4: return x >= p[4] ? pow(p[1] * x + p[2], p[0]) + p[5] : p[3] * x + p[6];
        default: return -1; /* sRGB is written as type 3 or 4 */
        }
    }
    return -1;
}

int thumbs_icc_is_srgb(const unsigned char *data, size_t length) {
    if (!data || length < 132 || thumbs_u32(data) > length)
        return 0;
    if (memcmp(data + 16, "RGB ", 4) != 0 || memcmp(data + 20, "XYZ ", 4) != 0)
        return 0;
    static const char *colorants[3] = { "rXYZ", "gXYZ", "bXYZ" };
    static const char *curves[3] = { "rTRC", "gTRC", "bTRC" };
    for (int c = 0; c < 3; c++) {
        size_t size;
        const unsigned char *xyz = thumbs_tag(data, length, colorants[c], 20, &size);
        if (!xyz || memcmp(xyz, "XYZ ", 4) != 0)
            return 0;
        for (int k = 0; k < 3; k++)
            if (fabs(thumbs_s15f16(xyz + 8 + 4 * k) - thumbs_srgb_colorants[c][k]) >
                THUMBS_COLORANT_TOLERANCE)
                return 0;
        const unsigned char *curve = thumbs_tag(data, length, curves[c], 12, &size);
        if (!curve)
            return 0;
        for (int s = 0; s < THUMBS_CURVE_SAMPLES; s++) {
            double x = (double) s / (THUMBS_CURVE_SAMPLES - 1);
            double y = thumbs_curve(curve, size, x);
            if (!(y >= -1e-9) || fabs(y - thumbs_srgb_decode(x)) > THUMBS_CURVE_TOLERANCE)
                return 0;
        }
    }
    return 1;
}

int thumbs_icc_describes(const unsigned char *data, size_t length, int bands) {
    if (!data || length < 132 || thumbs_u32(data) > length || thumbs_u32(data) < 132)
        return 0;
    const char *space = bands == 3 ? "RGB " : bands == 1 ? "GRAY" : NULL;
    if (!space || memcmp(data + 16, space, 4) != 0)
        return 0;
    if (memcmp(data + 20, "XYZ ", 4) != 0 && memcmp(data + 20, "Lab ", 4) != 0)
        return 0;
    /* The tag table, 12 bytes a tag, fits in the profile. */
    uint32_t count = thumbs_u32(data + 128);
    return count > 0 && count <= (thumbs_u32(data) - 132) / 12;
}

int thumbs_vips_profile_is_srgb(VipsImage *image) {
    const void *data;
    size_t length;
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME) ||
        vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, &length))
        return 0;
    return thumbs_icc_is_srgb(data, length);
}
