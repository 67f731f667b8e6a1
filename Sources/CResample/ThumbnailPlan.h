#ifndef THUMBS_THUMBNAIL_PLAN_H
#define THUMBS_THUMBNAIL_PLAN_H

/* What the two halves of libvips 8.14's thumbnail resize share (ThumbnailResize.c for 8-bit
 * samples, ThumbnailResizeAlpha.c for the float samples of a premultiplied picture): the plan of
 * each axis, and how reducev and reduceh pick their mask for an output pixel. */

#include <math.h>

#define TRANSFORM_SCALE 64
#define INTERPOLATE_SHIFT 12
#define INTERPOLATE_SCALE (1 << INTERPOLATE_SHIFT)
#define GAP 2.0
/* The lines of a strip of reducev's output libvips computes together (its sequential cache's
 * tile height): the subpixel position is advanced by adding the shrink along a strip. */
#define REDUCEV_STRIP 10
#define PI 3.14159265358979323846

/* One axis of the resize: the block shrink, and the Lanczos reduce after it. */
typedef struct {
    int in;        /* the picture's size along the axis */
    int block;     /* the block shrink (1: none) */
    int shrunk;    /* the size after it */
    int out;       /* the size after the reduce */
    double shrink; /* the reduce's factor (1: none) */
    double offset; /* the reduce's origin, inside the picture */
    int points;    /* the kernel's taps */
    int *weights;  /* TRANSFORM_SCALE + 1 masks of `points` taps, in 12-bit integers */
    double *exact; /* the same masks as doubles, which the float paths use */
} axis_plan;

/* The two axes' plans for `width` x `height` into a `target_width` x `target_height` box, from
 * vips_thumbnail's shrinks (each side's own for an exact size; when `fill`, the smaller of the
 * two for both, the box covered for its centre crop; none larger than its side) and
 * vips_resize's scales (neither under one pixel's worth). `both_shrink`, when not NULL, is set to
 * whether neither of vips_thumbnail's shrinks is 1: it premultiplies alpha only then. -1 when a
 * side would grow, or without memory. */
int thumbs_thumbnail_plans(int width, int height, int target_width, int target_height, int fill,
    axis_plan *across, axis_plan *down, int *both_shrink);

/* Frees what a plan holds. */
void thumbs_thumbnail_plan_free(axis_plan *plan);

/* The centre crop of libvips' smartcrop, of the resized picture: the piece kept for a box of
 * `target_width` x `target_height` (all of it unless `fill`), and where its top-left pixel is. */
typedef struct {
    int width;
    int height;
    int left;
    int top;
} thumbnail_crop;

static inline thumbnail_crop thumbnail_crop_of(const axis_plan *across, const axis_plan *down, int target_width,
    int target_height, int fill) {
    thumbnail_crop crop = { across->out, down->out, 0, 0 };
    if (fill && target_width < crop.width)
        crop.width = target_width;
    if (fill && target_height < crop.height)
        crop.height = target_height;
    crop.left = (across->out - crop.width) / 2;
    crop.top = (down->out - crop.height) / 2;
    return crop;
}

static inline int clamp_index(int i, int size) {
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

/* The mask for position `at` (vips_reducev_gen's subpixel rule), its index among the plan's
 * TRANSFORM_SCALE + 1, and its first tap. */
static inline int mask_index(const axis_plan *plan, double at, int *first) {
    int whole = (int) at;
    int sub = (int) (at * TRANSFORM_SCALE * 2) & (TRANSFORM_SCALE * 2 - 1);
    *first = whole - ((int) ceil(plan->points / 2.0) - 1);
    return (sub + 1) >> 1;
}

#endif
