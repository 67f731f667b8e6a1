#include "CResample.h"
#include "ThumbnailPlan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* libvips 8.14's thumbnail resize (vips_thumbnail on a picture its loader decodes whole, then
 * vips_resize with the Lanczos-3 kernel and its reduce gap of 2), in the order and arithmetic of
 * its C paths (ORC off), so the bytes are its own: down, a block mean of whole lines
 * (shrinkv, rounded up), then Lanczos-3 by the rest (reducev, 64 subpixel positions, weights in
 * 12-bit integers); then across the same way (shrinkh, reduceh). */

/* calculate_coefficients_lanczos, with a = 3. */
static void lanczos_mask(double *c, int points, double shrink, double x) {
    const double half = x + points / 2.0 - 1;
    double sum = 0;
    for (int i = 0; i < points; i++) {
        const double xp = (i - half) / shrink;
        double l;
        if (xp == 0.0)
            l = 1.0;
        else if (xp < -3 || xp > 3)
            l = 0.0;
        else
            l = 3.0 * sin(PI * xp) * sin(PI * xp / 3.0) / (PI * PI * xp * xp);
        c[i] = l;
        sum += l;
    }
    for (int i = 0; i < points; i++)
        c[i] /= sum;
}

/* The plan of reducev (reduceh) by `factor`, from vips_reducev_build; 0, or -1 without memory. */
static int axis_plan_make(axis_plan *plan, int in, double factor) {
    memset(plan, 0, sizeof *plan);
    plan->in = plan->shrunk = plan->out = in;
    plan->block = 1;
    plan->shrink = 1.0;
    if (!(factor > 1.0))
        return 0;
    double shrink = factor;
    int out = (int) (unsigned int) ((double) in / shrink + 0.5);
    double extra = out * shrink - in;
    int block = (int) floor((double) in / out / GAP);
    block = block > 1 ? block : 1;
    plan->out = out;
    if (block > 1) {
        plan->block = block;
        plan->shrunk = (int) ceil((double) in / block);
        shrink /= block;
        extra /= block;
    }
    plan->shrink = shrink;
    if (shrink == 1.0)
        return 0;
    plan->points = 2 * (int) rint(3 * shrink) + 1;
    plan->offset = (1 + extra) / 2.0 - 1;
    size_t count = (size_t) plan->points * (TRANSFORM_SCALE + 1);
    plan->weights = malloc(sizeof(int) * count);
    plan->exact = malloc(sizeof(double) * count);
    if (!plan->weights || !plan->exact) {
        thumbs_thumbnail_plan_free(plan);
        return -1;
    }
    for (int y = 0; y < TRANSFORM_SCALE + 1; y++) {
        double *exact = plan->exact + y * plan->points;
        lanczos_mask(exact, plan->points, shrink, (float) y / TRANSFORM_SCALE);
        for (int i = 0; i < plan->points; i++)
            plan->weights[y * plan->points + i] = (int) (exact[i] * INTERPOLATE_SCALE);
    }
    return 0;
}

void thumbs_thumbnail_plan_free(axis_plan *plan) {
    free(plan->weights);
    free(plan->exact);
    plan->weights = NULL;
    plan->exact = NULL;
}

static inline unsigned char fixed_round(int sum) {
    int v = (sum + (INTERPOLATE_SCALE >> 1)) >> INTERPOLATE_SHIFT;
    return (unsigned char) (v < 0 ? 0 : v > 255 ? 255 : v);
}

/* shrinkv then reducev: `lines` of `length` samples into `plan->out` lines. */
static int resize_down(const unsigned char *in, size_t in_stride, size_t length, const axis_plan *plan,
    unsigned char *out, size_t out_stride) {
    const unsigned char *source = in;
    size_t stride = in_stride;
    unsigned char *shrunk = NULL;
    if (plan->block > 1) {
        if (!(shrunk = malloc(length * (size_t) plan->shrunk)))
            return -1;
        int *sums = calloc(length, sizeof(int));
        if (!sums) {
            free(shrunk);
            return -1;
        }
        for (int y = 0; y < plan->shrunk; y++) {
            memset(sums, 0, length * sizeof(int));
            for (int k = 0; k < plan->block; k++) {
                const unsigned char *line = in + (size_t) clamp_index(y * plan->block + k, plan->in) * in_stride;
                for (size_t x = 0; x < length; x++)
                    sums[x] += line[x];
            }
            unsigned char *into = shrunk + (size_t) y * length;
            for (size_t x = 0; x < length; x++)
                into[x] = (unsigned char) ((sums[x] + plan->block / 2) / plan->block);
        }
        free(sums);
        source = shrunk;
        stride = length;
    }
    if (plan->shrink == 1.0) {
        for (int y = 0; y < plan->out; y++)
            memcpy(out + (size_t) y * out_stride, source + (size_t) y * stride, length);
        free(shrunk);
        return 0;
    }
    /* Tap by tap along the whole line, so that the loop over the line vectorises: the integer
     * sums are the same in any order. */
    int *sums = malloc(length * sizeof(int));
    if (!sums) {
        free(shrunk);
        return -1;
    }
    for (int top = 0; top < plan->out; top += REDUCEV_STRIP) {
        double at = (top + 0.5) * plan->shrink - 0.5 - plan->offset;
        for (int y = top; y < plan->out && y < top + REDUCEV_STRIP; y++, at += plan->shrink) {
            int first;
            const int *mask = plan->weights + mask_index(plan, at, &first) * plan->points;
            memset(sums, 0, length * sizeof(int));
            for (int i = 0; i < plan->points; i++) {
                const unsigned char *line = source + (size_t) clamp_index(first + i, plan->shrunk) * stride;
                int weight = mask[i];
                for (size_t x = 0; x < length; x++)
                    sums[x] += weight * line[x];
            }
            unsigned char *into = out + (size_t) y * out_stride;
            for (size_t x = 0; x < length; x++)
                into[x] = fixed_round(sums[x]);
        }
    }
    free(sums);
    free(shrunk);
    return 0;
}

/* shrinkh then reduceh of one line of `plan->in` pixels of `bands` samples. */
static void resize_across(const unsigned char *in, int bands, const axis_plan *plan, unsigned char *scratch,
    unsigned char *out) {
    const unsigned char *source = in;
    if (plan->block > 1) {
        for (int x = 0; x < plan->shrunk; x++)
            for (int b = 0; b < bands; b++) {
                int sum = 0;
                for (int k = 0; k < plan->block; k++)
                    sum += in[clamp_index(x * plan->block + k, plan->in) * bands + b];
                scratch[x * bands + b] = (unsigned char) ((sum + plan->block / 2) / plan->block);
            }
        source = scratch;
    }
    if (plan->shrink == 1.0) {
        memcpy(out, source, (size_t) plan->out * (size_t) bands);
        return;
    }
    double at = 0.5 * plan->shrink - 0.5 - plan->offset;
    for (int x = 0; x < plan->out; x++, at += plan->shrink) {
        int first;
        const int *mask = plan->weights + mask_index(plan, at, &first) * plan->points;
        for (int b = 0; b < bands; b++) {
            int sum = 0;
            for (int i = 0; i < plan->points; i++)
                sum += mask[i] * source[clamp_index(first + i, plan->shrunk) * bands + b];
            out[x * bands + b] = fixed_round(sum);
        }
    }
}

int thumbs_thumbnail_plans(int width, int height, int target_width, int target_height, int fill,
    axis_plan *across, axis_plan *down, int *both_shrink) {
    if (width < 1 || height < 1 || target_width < 1 || target_height < 1)
        return -1;
    double h = (double) width / target_width, v = (double) height / target_height;
    if (fill) {
        if (h < v)
            v = h;
        else
            h = v;
    }
    h = h < width ? h : width;
    v = v < height ? v : height;
    if (both_shrink)
        *both_shrink = h != 1.0 && v != 1.0;
    double hscale = 1.0 / h, vscale = 1.0 / v;
    hscale = hscale > 1.0 / width ? hscale : 1.0 / width;
    vscale = vscale > 1.0 / height ? vscale : 1.0 / height;
    if (hscale > 1.0 || vscale > 1.0 || axis_plan_make(across, width, 1.0 / hscale))
        return -1;
    if (axis_plan_make(down, height, 1.0 / vscale)) {
        thumbs_thumbnail_plan_free(across);
        return -1;
    }
    return 0;
}

int thumbs_thumbnail_resize_size(int width, int height, int target_width, int target_height, int fill,
    int *resized_width, int *resized_height) {
    axis_plan across, down;
    if (thumbs_thumbnail_plans(width, height, target_width, target_height, fill, &across, &down, NULL))
        return -1;
    thumbnail_crop crop = thumbnail_crop_of(&across, &down, target_width, target_height, fill);
    *resized_width = crop.width;
    *resized_height = crop.height;
    thumbs_thumbnail_plan_free(&across);
    thumbs_thumbnail_plan_free(&down);
    return 0;
}

int thumbs_thumbnail_resize(const thumbs_pixels *source, thumbs_pixels *target, int target_width,
    int target_height, int fill) {
    int bands = source->bands;
    axis_plan across, down;
    if (!source->pixels || !target->pixels || bands < 1 || bands > 4 || target->bands != bands
        || source->stride < (size_t) source->width * bands
        || thumbs_thumbnail_plans(
            source->width, source->height, target_width, target_height, fill, &across, &down, NULL))
        return -1;
    thumbnail_crop crop = thumbnail_crop_of(&across, &down, target_width, target_height, fill);
    size_t line = (size_t) source->width * bands;
    unsigned char *lines = NULL, *scratch = NULL, *across_line = NULL;
    int result = -1;
    if (target->width == crop.width && target->height == crop.height
        && target->stride >= (size_t) crop.width * bands && (lines = malloc(line * (size_t) down.out))
        && (scratch = malloc(line)) && (across_line = malloc((size_t) across.out * bands))
        && !resize_down(source->pixels, source->stride, line, &down, lines, line)) {
        for (int y = 0; y < crop.height; y++) {
            resize_across(lines + (size_t) (crop.top + y) * line, bands, &across, scratch, across_line);
            memcpy(target->pixels + (size_t) y * target->stride, across_line + (size_t) crop.left * bands,
                (size_t) crop.width * bands);
        }
        result = 0;
    }
    free(lines);
    free(scratch);
    free(across_line);
    thumbs_thumbnail_plan_free(&across);
    thumbs_thumbnail_plan_free(&down);
    return result;
}
