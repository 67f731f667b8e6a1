#include "CResample.h"
#include "ThumbnailPlan.h"

#include <stdlib.h>
#include <string.h>

/* libvips 8.14's thumbnail resize of a picture with alpha, when both of its shrinks differ from 1
 * (vips_thumbnail_build): vips_premultiply to floats, vips_resize on them (shrinkv, reducev,
 * shrinkh and reduceh in their float branches: sums in doubles, each step's result a float),
 * vips_unpremultiply, and vips_cast back to 8 bits. Every operation and conversion is the one its
 * C code makes, in its order, so that the bytes are its own. */

#pragma STDC FP_CONTRACT OFF

/* The most alpha of an 8-bit picture (vips_premultiply's and vips_unpremultiply's max_alpha). */
#define MAX_ALPHA 255.0

/* vips_premultiply of a line of `width` pixels of `bands` samples, the last alpha (PRE_MANY and
 * PRE_RGBA, which compute alike). */
static void premultiply(const unsigned char *in, int width, int bands, float *out) {
    for (int x = 0; x < width; x++, in += bands, out += bands) {
        unsigned char alpha = in[bands - 1];
        float factor = (float) alpha / MAX_ALPHA;
        for (int b = 0; b < bands - 1; b++)
            out[b] = in[b] * factor;
        out[bands - 1] = alpha;
    }
}

/* vips_unpremultiply (FUNPRE) then vips_cast to uchar (CAST_FLOAT_INT: clipped, truncated) of a
 * line of `width` pixels. */
static void unpremultiply(const float *in, int width, int bands, unsigned char *out) {
    for (int x = 0; x < width; x++, in += bands, out += bands) {
        float alpha = in[bands - 1];
        float factor = (alpha >= 0 ? alpha : -alpha) < 0.01 ? 0 : MAX_ALPHA / alpha;
        for (int b = 0; b < bands - 1; b++) {
            double value = factor * in[b];
            out[b] = (unsigned char) (value > 0 ? (value < 255 ? value : 255) : 0);
        }
        float clipped = alpha > 0 ? (MAX_ALPHA < alpha ? MAX_ALPHA : alpha) : 0;
        out[bands - 1] = (unsigned char) (clipped > 0 ? (clipped < 255 ? clipped : 255) : 0);
    }
}

/* The premultiplied picture down `plan`: its lines premultiplied as shrinkv reads them (block
 * means in doubles), then reducev (double sums of the double masks). Returns `plan->out` lines of
 * `width` pixels from malloc, or NULL without memory. */
static float *resize_down(const thumbs_pixels *source, const axis_plan *plan) {
    int width = source->width, bands = source->bands;
    size_t length = (size_t) width * (size_t) bands;
    float *shrunk = malloc(sizeof(float) * length * (size_t) plan->shrunk);
    float *line = malloc(sizeof(float) * length);
    double *sums = malloc(sizeof(double) * length);
    float *out = plan->shrink == 1.0 ? shrunk : malloc(sizeof(float) * length * (size_t) plan->out);
    if (!shrunk || !line || !sums || !out) {
        if (out != shrunk)
            free(out);
        free(shrunk);
        free(line);
        free(sums);
        return NULL;
    }
    for (int y = 0; y < plan->shrunk; y++) {
        float *into = shrunk + (size_t) y * length;
        if (plan->block == 1) {
            premultiply(source->pixels + (size_t) y * source->stride, width, bands, into);
            continue;
        }
        memset(sums, 0, sizeof(double) * length);
        for (int k = 0; k < plan->block; k++) {
            int at = clamp_index(y * plan->block + k, plan->in);
            premultiply(source->pixels + (size_t) at * source->stride, width, bands, line);
            for (size_t x = 0; x < length; x++)
                sums[x] += line[x];
        }
        for (size_t x = 0; x < length; x++)
            into[x] = (float) (sums[x] / plan->block);
    }
    if (out != shrunk) {
        for (int top = 0; top < plan->out; top += REDUCEV_STRIP) {
            double at = (top + 0.5) * plan->shrink - 0.5 - plan->offset;
            for (int y = top; y < plan->out && y < top + REDUCEV_STRIP; y++, at += plan->shrink) {
                int first;
                const double *mask = plan->exact + mask_index(plan, at, &first) * plan->points;
                memset(sums, 0, sizeof(double) * length);
                for (int i = 0; i < plan->points; i++) {
                    const float *tap = shrunk + (size_t) clamp_index(first + i, plan->shrunk) * length;
                    double weight = mask[i];
                    for (size_t x = 0; x < length; x++)
                        sums[x] += weight * tap[x];
                }
                float *into = out + (size_t) y * length;
                for (size_t x = 0; x < length; x++)
                    into[x] = (float) sums[x];
            }
        }
        free(shrunk);
    }
    free(line);
    free(sums);
    return out;
}

/* shrinkh then reduceh, float branches, of one line of `plan->in` pixels of `bands` samples. */
static void resize_across(const float *in, int bands, const axis_plan *plan, float *scratch, float *out) {
    const float *source = in;
    if (plan->block > 1) {
        for (int x = 0; x < plan->shrunk; x++)
            for (int b = 0; b < bands; b++) {
                double sum = 0;
                for (int k = 0; k < plan->block; k++)
                    sum += in[clamp_index(x * plan->block + k, plan->in) * bands + b];
                scratch[x * bands + b] = (float) (sum / plan->block);
            }
        source = scratch;
    }
    if (plan->shrink == 1.0) {
        memcpy(out, source, sizeof(float) * (size_t) plan->out * (size_t) bands);
        return;
    }
    double at = 0.5 * plan->shrink - 0.5 - plan->offset;
    for (int x = 0; x < plan->out; x++, at += plan->shrink) {
        int first;
        const double *mask = plan->exact + mask_index(plan, at, &first) * plan->points;
        for (int b = 0; b < bands; b++) {
            double sum = 0;
            for (int i = 0; i < plan->points; i++)
                sum += mask[i] * source[clamp_index(first + i, plan->shrunk) * bands + b];
            out[x * bands + b] = (float) sum;
        }
    }
}

int thumbs_thumbnail_resize_alpha(const thumbs_pixels *source, thumbs_pixels *target, int target_width,
    int target_height, int fill) {
    int bands = source->bands, premultiplied = 0;
    axis_plan across, down;
    if (!source->pixels || !target->pixels || bands < 2 || bands > 4 || target->bands != bands
        || source->stride < (size_t) source->width * bands
        || thumbs_thumbnail_plans(source->width, source->height, target_width, target_height, fill, &across,
            &down, &premultiplied))
        return -1;
    if (!premultiplied) {
        thumbs_thumbnail_plan_free(&across);
        thumbs_thumbnail_plan_free(&down);
        return thumbs_thumbnail_resize(source, target, target_width, target_height, fill);
    }
    thumbnail_crop crop = thumbnail_crop_of(&across, &down, target_width, target_height, fill);
    size_t line = (size_t) source->width * bands;
    float *lines = NULL, *scratch = NULL, *across_line = NULL;
    int result = -1;
    if (target->width == crop.width && target->height == crop.height
        && target->stride >= (size_t) crop.width * bands && (scratch = malloc(sizeof(float) * line))
        && (across_line = malloc(sizeof(float) * (size_t) across.out * bands))
        && (lines = resize_down(source, &down))) {
        for (int y = 0; y < crop.height; y++) {
            resize_across(lines + (size_t) (crop.top + y) * line, bands, &across, scratch, across_line);
            unpremultiply(across_line + (size_t) crop.left * bands, crop.width, bands,
                target->pixels + (size_t) y * target->stride);
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
