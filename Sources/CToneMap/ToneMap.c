#include "CToneMap.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Transfer functions (ITU-R BT.2100) --------------------------------------------------- */

/* PQ's constants. */
static const double pq_m1 = 2610.0 / 16384.0;
static const double pq_m2 = 2523.0 / 4096.0 * 128.0;
static const double pq_c1 = 3424.0 / 4096.0;
static const double pq_c2 = 2413.0 / 4096.0 * 32.0;
static const double pq_c3 = 2392.0 / 4096.0 * 32.0;

/* HLG's constants. */
static const double hlg_a = 0.17883277;
static const double hlg_b = 0.28466892;
static const double hlg_c = 0.55991073;

/* HLG's nominal display peak, which is also the peak a PQ picture is taken to have when it
 * states none, and the luminance SDR white stands for (BT.2408's HDR reference white), in cd/m². */
static const float nominal_peak = 1000.0f;
static const float sdr_white = 203.0f;

/* PQ's EOTF: a code value to cd/m². */
static float pq_to_luminance(float code) {
    float power = powf(fmaxf(code, 0.0f), (float) (1.0 / pq_m2));
    float ratio = fmaxf(power - (float) pq_c1, 0.0f) / ((float) pq_c2 - (float) pq_c3 * power);
    return 10000.0f * powf(ratio, (float) (1.0 / pq_m1));
}

/* PQ's inverse EOTF: cd/m² to a code value. */
static float luminance_to_pq(float luminance) {
    float power = powf(fmaxf(luminance, 0.0f) / 10000.0f, (float) pq_m1);
    return powf(((float) pq_c1 + (float) pq_c2 * power) / (1.0f + (float) pq_c3 * power), (float) pq_m2);
}

/* HLG's inverse OETF: a code value to scene light (0...1). */
static float hlg_to_scene(float code) {
    code = fmaxf(code, 0.0f);
    if (code <= 0.5f)
        return code * code / 3.0f;
    return (expf((code - (float) hlg_c) / (float) hlg_a) + (float) hlg_b) / 12.0f;
}

/* sRGB's encoding of linear light (0...1). */
static float srgb_encode(float linear) {
    if (linear <= 0.0031308f)
        return 12.92f * linear;
    return 1.055f * powf(linear, 1.0f / 2.4f) - 0.055f;
}

/* The 8-bit code of the encoding, rounded to nearest. */
static int srgb_code_by_power(float linear) {
    return (int) lrintf(srgb_encode(linear) * 255.0f);
}

/* srgb_boundaries[k]: the least float whose code is above k (the last, past every code, is
 * infinite); srgb_first_code[i]: the code of i / SRGB_BINS. A pixel's codes are found from them
 * without the encoding's three powers, the most of a tone map's cost: a bin is narrower than a
 * code, so a code is its bin's first or the next. They give exactly the codes srgb_code_by_power
 * gives, the encoding being monotonic. */
#define SRGB_BINS 4096
static float srgb_boundaries[256];
static uint8_t srgb_first_code[SRGB_BINS];
static pthread_once_t srgb_tables_made = PTHREAD_ONCE_INIT;

static void make_srgb_tables(void) {
    for (int k = 0; k < 255; k++) {
        /* Where the encoding is k + 1/2, by its inverse, then moved to the float that is exactly
         * the boundary of the rounded encoding. */
        double encoded = (k + 0.5) / 255.0;
        double linear = encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4);
        float boundary = (float) linear;
        while (boundary > 0 && srgb_code_by_power(nextafterf(boundary, 0)) > k)
            boundary = nextafterf(boundary, 0);
        while (srgb_code_by_power(boundary) <= k)
            boundary = nextafterf(boundary, 2);
        srgb_boundaries[k] = boundary;
    }
    srgb_boundaries[255] = INFINITY;
    for (int i = 0, code = 0; i < SRGB_BINS; i++) {
        while ((float) i / SRGB_BINS >= srgb_boundaries[code])
            code++;
        srgb_first_code[i] = (uint8_t) code;
    }
}

/* The 8-bit sRGB code of linear light (0...1). */
static uint8_t srgb_code(float linear) {
    int bin = (int) (linear * SRGB_BINS);
    int code = srgb_first_code[bin < SRGB_BINS ? bin : SRGB_BINS - 1];
    return (uint8_t) (code + (linear >= srgb_boundaries[code]));
}

/* ---- Tone map (ITU-R BT.2390's EETF) ------------------------------------------------------ */

/* `luminance` (cd/m²) of a source of 0...its peak on a display of 0...sdr_white, in cd/m²:
 * BT.2390's EETF with both blacks at 0 (so its black lift is nothing). */
static float eetf(const thumbs_tone_map *map, float luminance) {
    /* Below the knee the EETF is the identity: most of a picture's pixels skip its four powers. */
    if (luminance <= map->knee_luminance)
        return luminance;
    float source_white = map->source_peak_code, target = map->target_peak;
    float knee = 1.5f * target - 0.5f;
    float code = fminf(luminance_to_pq(luminance) / source_white, 1.0f);
    if (code > knee) {
        float t = (code - knee) / (1.0f - knee), t2 = t * t, t3 = t2 * t;
        code = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * target;
    }
    return pq_to_luminance(code * source_white);
}

/* ---- Primaries (ITU-T H.273) -------------------------------------------------------------- */

typedef struct {
    int code;
    double red[2], green[2], blue[2];
} primaries;

/* Every H.273 entry whose white point is D65. */
static const primaries known_primaries[] = {
    { 1, { 0.640, 0.330 }, { 0.300, 0.600 }, { 0.150, 0.060 } },     /* BT.709, sRGB */
    { 5, { 0.640, 0.330 }, { 0.290, 0.600 }, { 0.150, 0.060 } },     /* BT.470 B/G, BT.601 625 */
    { 6, { 0.630, 0.340 }, { 0.310, 0.595 }, { 0.155, 0.070 } },     /* BT.601 525, SMPTE 170M */
    { 7, { 0.630, 0.340 }, { 0.310, 0.595 }, { 0.155, 0.070 } },     /* SMPTE 240M */
    { 9, { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 } },     /* BT.2020, BT.2100 */
    { 12, { 0.680, 0.320 }, { 0.265, 0.690 }, { 0.150, 0.060 } },    /* SMPTE EG 432-1 (P3 D65) */
    { 22, { 0.630, 0.340 }, { 0.295, 0.605 }, { 0.155, 0.077 } },    /* EBU Tech. 3213-E */
};
static const double d65[2] = { 0.3127, 0.3290 };

static void invert(const double m[9], double out[9]) {
    double a = m[4] * m[8] - m[5] * m[7], b = m[5] * m[6] - m[3] * m[8], c = m[3] * m[7] - m[4] * m[6];
    double determinant = m[0] * a + m[1] * b + m[2] * c;
    out[0] = a / determinant;
    out[1] = (m[2] * m[7] - m[1] * m[8]) / determinant;
    out[2] = (m[1] * m[5] - m[2] * m[4]) / determinant;
    out[3] = b / determinant;
    out[4] = (m[0] * m[8] - m[2] * m[6]) / determinant;
    out[5] = (m[2] * m[3] - m[0] * m[5]) / determinant;
    out[6] = c / determinant;
    out[7] = (m[1] * m[6] - m[0] * m[7]) / determinant;
    out[8] = (m[0] * m[4] - m[1] * m[3]) / determinant;
}

/* Linear RGB in these primaries to XYZ (SMPTE RP 177's normalised primary matrix): the
 * primaries' XYZ at Y = 1, each scaled so that R = G = B = 1 is the white point at Y = 1. */
static void rgb_to_xyz(const primaries *p, double out[9]) {
    const double *xy[3] = { p->red, p->green, p->blue };
    double columns[9];
    for (int i = 0; i < 3; i++) {
        columns[0 + i] = xy[i][0] / xy[i][1];
        columns[3 + i] = 1.0;
        columns[6 + i] = (1.0 - xy[i][0] - xy[i][1]) / xy[i][1];
    }
    double white[3] = { d65[0] / d65[1], 1.0, (1.0 - d65[0] - d65[1]) / d65[1] };
    double inverse[9];
    invert(columns, inverse);
    for (int i = 0; i < 3; i++) {
        double scale = inverse[3 * i] * white[0] + inverse[3 * i + 1] * white[1] + inverse[3 * i + 2] * white[2];
        for (int row = 0; row < 3; row++)
            out[3 * row + i] = columns[3 * row + i] * scale;
    }
}

/* The primaries of an H.273 code; BT.2020's for a code not in the table. */
static const primaries *primaries_for(int code) {
    for (size_t i = 0; i < sizeof known_primaries / sizeof known_primaries[0]; i++) {
        if (known_primaries[i].code == code)
            return &known_primaries[i];
    }
    return primaries_for(9);
}

/* ---- The map ------------------------------------------------------------------------------ */

int thumbs_tone_map_init(thumbs_tone_map *map, int transfer_characteristics, int colour_primaries) {
    if (transfer_characteristics != THUMBS_TRANSFER_PQ && transfer_characteristics != THUMBS_TRANSFER_HLG)
        return 0;
    /* The tables every map's pixels are encoded with. */
    pthread_once(&srgb_tables_made, make_srgb_tables);
    double source[9], bt709[9], from_xyz[9];
    rgb_to_xyz(primaries_for(colour_primaries), source);
    rgb_to_xyz(primaries_for(1), bt709);
    invert(bt709, from_xyz);
    for (int row = 0; row < 3; row++) {
        for (int column = 0; column < 3; column++) {
            double sum = 0;
            for (int k = 0; k < 3; k++)
                sum += from_xyz[3 * row + k] * source[3 * k + column];
            map->to_bt709[3 * row + column] = (float) sum;
        }
        map->luminance[row] = (float) source[3 + row];
    }
    map->transfer = transfer_characteristics;
    thumbs_tone_map_set_peak(map, nominal_peak);
    return 1;
}

void thumbs_tone_map_set_peak(thumbs_tone_map *map, float peak) {
    /* HLG's map stays for its nominal display; a peak not stated (0, or not a number) leaves the
     * nominal one. */
    if (map->transfer != THUMBS_TRANSFER_PQ || !(peak > 0))
        peak = nominal_peak;
    /* Not below SDR white, where the EETF has nothing to roll off (it is then the identity up to
     * the peak), nor above PQ's 10000 cd/m². */
    peak = fminf(fmaxf(peak, sdr_white), 10000.0f);
    map->source_peak_code = luminance_to_pq(peak);
    map->target_peak = luminance_to_pq(sdr_white) / map->source_peak_code;
    map->knee_luminance = pq_to_luminance((1.5f * map->target_peak - 0.5f) * map->source_peak_code);
}

float thumbs_tone_map_linear(const thumbs_tone_map *map, float code) {
    return map->transfer == THUMBS_TRANSFER_PQ ? pq_to_luminance(code) : hlg_to_scene(code);
}

void thumbs_tone_map_linear_table(const thumbs_tone_map *map, int bits, float *table) {
    int count = 1 << bits;
    for (int i = 0; i < count; i++)
        table[i] = thumbs_tone_map_linear(map, (float) i / (float) (count - 1));
}

/* A pixel's display light in BT.709 primaries, in cd/m², negative components clipped. */
static void display_bt709(const thumbs_tone_map *map, const float linear[3], float rgb[3]) {
    float display[3] = { linear[0], linear[1], linear[2] };
    if (map->transfer == THUMBS_TRANSFER_HLG) {
        /* BT.2100's OOTF for a 1000 cd/m² display: Fd = Lw · Ys^(γ − 1) · E, γ = 1.2. */
        float scene = map->luminance[0] * linear[0] + map->luminance[1] * linear[1] + map->luminance[2] * linear[2];
        float gain = scene > 0 ? nominal_peak * powf(scene, 0.2f) : 0.0f;
        for (int c = 0; c < 3; c++)
            display[c] = gain * linear[c];
    }
    for (int row = 0; row < 3; row++) {
        const float *m = map->to_bt709 + 3 * row;
        rgb[row] = fmaxf(m[0] * display[0] + m[1] * display[1] + m[2] * display[2], 0.0f);
    }
}

void thumbs_tone_map_pixel(const thumbs_tone_map *map, const float linear[3], unsigned char srgb[3]) {
    float rgb[3];
    display_bt709(map, linear, rgb);
    float largest = fmaxf(rgb[0], fmaxf(rgb[1], rgb[2]));
    float scale = largest > 0 ? eetf(map, largest) / (largest * sdr_white) : 0.0f;
    for (int c = 0; c < 3; c++)
        srgb[c] = srgb_code(fminf(rgb[c] * scale, 1.0f));
}

float thumbs_tone_map_relative_luminance(const thumbs_tone_map *map, const float linear[3]) {
    float rgb[3];
    display_bt709(map, linear, rgb);
    return (0.2126f * rgb[0] + 0.7152f * rgb[1] + 0.0722f * rgb[2]) / sdr_white;
}
