#ifndef THUMBS_CRESAMPLE_H
#define THUMBS_CRESAMPLE_H

#include <stddef.h>

/* Lanczos-3 downsizing of 8-bit pictures, the kernel of libvips' own resize, written so that
 * the compiler vectorises it: libvips 8.14 runs its reduce as scalar loops once its ORC code is
 * off (see thumbs_vips_start), and those loops were half of a warm's CPU time. */

/* An 8-bit picture in memory: `height` rows of `width` pixels of `bands` samples each, rows
 * `stride` bytes apart. */
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
    int bands;
    size_t stride;
} thumbs_pixels;

/* Resamples `source` into `target`, whose size is set and whose pixels the caller allocated,
 * with as many bands as `source` (1 to 4, none of them alpha: samples are filtered
 * independently). Along each axis, output pixel i is centred at (i + 0.5) * shrink + margin in
 * the source, whose pixel j covers [j, j + 1), and the margin, (source size - target size *
 * shrink) / 2, centres the output on the source: the shrinks are the sizes' ratios for an
 * exact size (no margin), or one factor for both axes whose rounded result is then cropped
 * (libvips' centre crop). Neither may be under 1, nor the target
 * larger than the source. The kernel is stretched by the shrink, so that it filters out what
 * the smaller picture cannot hold, and the picture's edges are extended by copying. Returns 0,
 * or -1 when the arguments are not those or memory ran out. */
int thumbs_resample(const thumbs_pixels *source, thumbs_pixels *target, double shrink_across, double shrink_down);

/* As thumbs_resample, with the generic code even where the processor has AVX2: the two give
 * the same bytes (integer arithmetic), which the tests check. */
int thumbs_resample_generic(const thumbs_pixels *source, thumbs_pixels *target, double shrink_across,
    double shrink_down);

#endif
