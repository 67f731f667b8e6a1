#ifndef THUMBS_CTONEMAP_H
#define THUMBS_CTONEMAP_H

/* HDR pictures (PQ, SMPTE ST 2084; HLG, ARIB STD-B67) turned into SDR sRGB for thumbnails, the
 * same way for HEIF/AVIF stills (CHeifShim) and video posters (CVideoShim):
 *
 *   code values ─► linear light ─► BT.709 primaries ─► tone map ─► sRGB, 8 bits
 *
 * - PQ: the EOTF of BT.2100, to absolute luminance (cd/m², 0...10000).
 * - HLG: the inverse OETF of BT.2100 (scene light, 0...1), then its OOTF for a display of the
 *   nominal peak, 1000 cd/m² (system gamma 1.2, black at 0), with the luminance of the
 *   picture's own primaries.
 * - Primaries: a 3 × 3 matrix in linear light, source RGB → XYZ → BT.709 RGB, derived from the
 *   primaries' chromaticities (ITU-T H.273's table; all have the D65 white point, so no
 *   chromatic adaptation). Colours outside BT.709 are clipped (negative components to 0).
 * - Tone map: BT.2390's EETF (the ITU's mapping of HDR to a display of a lower peak), from a
 *   source of 0...1000 cd/m² to a display whose white is BT.2408's HDR reference white,
 *   203 cd/m², which then is SDR white. Below its knee (about 88 cd/m²) luminance is kept as it
 *   is; above, a Hermite spline in PQ's perceptual scale rolls highlights off so that 1000 cd/m²
 *   lands on white, with no clipping below it (the reference white itself lands at 229 of
 *   255). Chosen over an extended Reinhard curve on luminance, which compresses every tone,
 *   mid-tones and the reference white (near 190 of 255) included: the flat look this is meant
 *   to undo. It is applied to the largest of the three
 *   components, and the pixel scaled by the ratio, which keeps hue and keeps every component
 *   within white. The source peak is HLG's nominal 1000 cd/m²; for PQ, the peak the picture
 *   states, its maximum content light level or else its mastering display's (HEIF `clli` and
 *   `mdcv`, a video's side data; thumbs_tone_map_set_peak), else 1000 cd/m² too, that of most
 *   HDR10 mastering; brighter pixels are white.
 * - sRGB: IEC 61966-2-1's encoding, rounded to 8 bits.
 *
 * SDR pictures never come here: thumbs_tone_map_init refuses every other transfer. */

/* ITU-T H.273 transfer characteristics this file maps. */
enum {
    THUMBS_TRANSFER_PQ = 16,
    THUMBS_TRANSFER_HLG = 18,
};

typedef struct {
    /* THUMBS_TRANSFER_PQ or THUMBS_TRANSFER_HLG. */
    int transfer;
    /* Linear RGB in the picture's primaries to linear BT.709 RGB, row-major. */
    float to_bt709[9];
    /* The luminance (Y) of linear RGB in the picture's primaries: the HLG OOTF's weights. */
    float luminance[3];
    /* The EETF's ends in PQ code values: the source's peak, and SDR white over it; and its
     * knee in cd/m², below which it leaves luminance as it is. */
    float source_peak_code;
    float target_peak;
    float knee_luminance;
} thumbs_tone_map;

/* Sets up `map` for a picture with these ITU-T H.273 transfer characteristics and colour
 * primaries, and returns 1; returns 0 (and leaves `map` alone) for a transfer other than PQ
 * and HLG. Primaries this file does not know (unspecified among them) are taken as BT.2020,
 * BT.2100's own. */
int thumbs_tone_map_init(thumbs_tone_map *map, int transfer_characteristics, int colour_primaries);

/* Maps a PQ picture from `peak` cd/m² (the peak it states), kept within [203, 10000], instead of
 * 1000; 0 (no peak stated) keeps 1000. An HLG picture's map stays for a 1000 cd/m² display, as
 * BT.2100 defines its OOTF, whatever `peak` says. */
void thumbs_tone_map_set_peak(thumbs_tone_map *map, float peak);

/* A code value (0...1, full range) as linear light, per component: PQ in cd/m², HLG as scene
 * light (0...1). Pixels may be averaged in this form before thumbs_tone_map_pixel. */
float thumbs_tone_map_linear(const thumbs_tone_map *map, float code);

/* Fills `table` with thumbs_tone_map_linear of every `bits`-bit code value (2^bits entries). */
void thumbs_tone_map_linear_table(const thumbs_tone_map *map, int bits, float *table);

/* One pixel from thumbs_tone_map_linear's values (in the picture's primaries) to 8-bit sRGB. */
void thumbs_tone_map_pixel(const thumbs_tone_map *map, const float linear[3], unsigned char srgb[3]);

/* One pixel's light, from thumbs_tone_map_linear's values, as the BT.709 luminance of its
 * display light relative to SDR white (203 cd/m² is 1), before the tone map: the HDR picture a
 * gain map restores from the SDR one. */
float thumbs_tone_map_relative_luminance(const thumbs_tone_map *map, const float linear[3]);

/* A picture's light as thumbs_tone_map_relative_luminance gives it, one value per pixel. */
typedef struct {
    /* `width` × `height` values, rows packed, as stored (not yet turned upright); from malloc,
     * the caller's. */
    float *luminance;
    int width;
    int height;
    /* The EXIF orientation (1...8) that turns it upright. */
    int orientation;
} thumbs_light_plane;

#endif
