#ifndef THUMBS_CRESAMPLE_H
#define THUMBS_CRESAMPLE_H

#include <stddef.h>

/* Lanczos-3 downsizing of 8-bit pictures, the kernel of libvips' own resize, written so that
 * the compiler vectorises it: libvips 8.14 runs its reduce as scalar loops once its ORC code is
 * off (see thumbs_vips_start), and those loops were half of a warm's CPU time. And the turns of
 * the EXIF orientations, on the resized picture, where they move the fewest pixels. */

/* An 8-bit picture in memory: `height` rows of `width` pixels of `bands` samples each, rows
 * `stride` bytes apart. */
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
    int bands;
    size_t stride;
} thumbs_pixels;

/* Where a target lies in the resampled picture it is part of: the target is the piece of its
 * own size whose top-left pixel is (`left`, `top`) in a picture of `width` x `height`. A target
 * that is the whole picture has the window { its width, its height, 0, 0 }. */
typedef struct {
    int width;
    int height;
    int left;
    int top;
} thumbs_window;

/* Resamples `source` to `window`'s size and writes the target's piece of it into `target`,
 * whose size is set and whose pixels the caller allocated, with as many bands as `source` (1
 * to 4, none of them alpha: samples are filtered independently). Only that piece is computed
 * (a centre crop costs no more than its own pixels), with the bytes the whole picture has
 * there. Along each axis, output pixel i of the window is centred at (i + 0.5) * shrink +
 * margin in the source, whose pixel j covers [j, j + 1), and the margin, (source size - window
 * size * shrink) / 2, centres the window on the source: the shrinks are the sizes' ratios for an
 * exact size (no margin), or one factor for both axes whose rounded result is then cropped
 * (libvips' centre crop). Neither may be under 1, nor the window larger than the source (it is
 * the source's size along an axis of shrink 1), and the window must hold the target. The kernel
 * is stretched by the shrink, so that it filters out what the smaller picture cannot hold, and
 * the picture's edges are extended by copying. Returns 0, or -1 when the arguments are not
 * those or memory ran out. */
int thumbs_resample(const thumbs_pixels *source, thumbs_pixels *target, thumbs_window window,
    double shrink_across, double shrink_down);

/* As thumbs_resample, with the generic code even where the processor has AVX2: the two give
 * the same bytes (integer arithmetic), which the tests check. */
int thumbs_resample_generic(const thumbs_pixels *source, thumbs_pixels *target, thumbs_window window,
    double shrink_across, double shrink_down);

/* `source` turned upright by EXIF `orientation` (1 to 8: 2 mirrors it, 3 turns it half round,
 * 4 flips it, 5 transposes it, 6 turns it a quarter clockwise, 7 transverses it, 8 turns it a
 * quarter anticlockwise) into `target`, which has the upright size (sides swapped for 5 to 8)
 * and as many bands (1 to 4). Returns 0, or -1 when the arguments are not those. */
int thumbs_orient(const thumbs_pixels *source, thumbs_pixels *target, int orientation);

/* The size libvips 8.14's vips_thumbnail makes of a `width` x `height` picture its loader
 * decoded whole, for a box of `target_width` x `target_height`: that box exactly, or, when
 * `fill`, a covering size cropped to the box around its centre (ThumbnailResize.c). Returns 0,
 * or -1 when a side would grow or the arguments are out of range. */
int thumbs_thumbnail_resize_size(int width, int height, int target_width, int target_height, int fill,
    int *resized_width, int *resized_height);

/* `source` resized by thumbs_thumbnail_resize_size's rule into `target`, which has that size, as
 * many bands (1 to 4, each resized alike: alpha only where libvips does not premultiply it, see
 * thumbs_thumbnail_resize_alpha) and pixels the caller allocated: libvips' block shrink and
 * Lanczos-3 reduce, down then across, in its integer arithmetic, so the bytes are the ones
 * vips_thumbnail makes (ORC off). Returns 0, or -1 when the arguments are not those or memory
 * ran out. */
int thumbs_thumbnail_resize(const thumbs_pixels *source, thumbs_pixels *target, int target_width,
    int target_height, int fill);

/* As thumbs_thumbnail_resize, for a picture of 2 or 4 bands whose last is alpha: where both of
 * vips_thumbnail's shrinks differ from 1, libvips premultiplies the picture into floats, resizes
 * it in float arithmetic, unpremultiplies it and casts it back to 8 bits, and so does this
 * (ThumbnailResizeAlpha.c); elsewhere alpha is resized as any band. Returns 0, or -1 when the
 * arguments are not those or memory ran out. */
int thumbs_thumbnail_resize_alpha(const thumbs_pixels *source, thumbs_pixels *target, int target_width,
    int target_height, int fill);

#endif
