#include "CResample.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Weights are integers scaled by 2^14: a sample times the largest weight, summed over the
 * taps, stays far inside 32 bits, and the result is the same on every processor. */
#define WEIGHT_BITS 14
#define WEIGHT_ONE (1 << WEIGHT_BITS)
#define LOBES 3
/* Output samples computed together: their 32-bit sums stay in the first level of cache. */
#define CHUNK 1024
/* Output lines made at a time. */
#define STRIP 32

/* The input lines one output line is made of, and where their weights start. */
typedef struct {
    int first;
    int count;
    int weights;
} taps;

typedef struct {
    taps *lines;
    int32_t *weights;
} filter;

/* Lanczos-3 at x, given sin(πx) and sin(πx/3): LOBES · sin(πx) · sin(πx/3) / (πx)². */
static double lanczos(double x, double sine, double third_sine) {
    if (x == 0.0)
        return 1.0;
    if (x <= -LOBES || x >= LOBES)
        return 0.0;
    double px = M_PI * x;
    return LOBES * sine * third_sine / (px * px);
}

/* sin and cos of an angle, turned by a fixed step: the taps of a line are evenly spaced, so
 * their sines come from two calls of sin and cos per line rather than two per tap. Over the
 * few dozen taps of a line the error stays near 1e-15, far below the weights' rounding. */
typedef struct {
    double sine, cosine;
} turning;

static turning turning_at(double angle) {
    return (turning) { sin(angle), cos(angle) };
}

static turning turned(turning angle, turning step) {
    return (turning) { angle.sine * step.cosine + angle.cosine * step.sine,
        angle.cosine * step.cosine - angle.sine * step.sine };
}

static void filter_free(filter *f) {
    free(f->lines);
    free(f->weights);
}

/* The taps that shrink `in` lines to `out` by `scale`. Output line i is centred at
 * (i + 0.5) * scale + margin in the input, whose line j covers [j, j + 1): the margin,
 * (in - out * scale) / 2, centres the output on the input when `out` was rounded (libvips'
 * rule). The kernel spans three lobes of the output's spacing on each side. Taps beyond the
 * edges weigh on the edge line (the picture extended by copying), and each line's weights are
 * rounded so that they sum to exactly one: a flat picture stays flat. */
static int filter_make(filter *f, int in, int out, double scale) {
    double support = LOBES * scale, margin = (in - out * scale) / 2;
    int most = (int) ceil(2 * support) + 2;
    f->lines = malloc(sizeof(taps) * (size_t) out);
    f->weights = malloc(sizeof(int32_t) * (size_t) out * (size_t) most);
    double *exact = malloc(sizeof(double) * (size_t) most);
    if (!f->lines || !f->weights || !exact) {
        free(exact);
        filter_free(f);
        return -1;
    }
    turning step = turning_at(M_PI / scale), third_step = turning_at(M_PI / scale / LOBES);
    int32_t *next = f->weights;
    for (int i = 0; i < out; i++) {
        double centre = (i + 0.5) * scale + margin;
        int low = (int) floor(centre - support), high = (int) ceil(centre + support);
        int first = low < 0 ? 0 : low, last = high > in - 1 ? in - 1 : high;
        int count = last - first + 1;
        double sum = 0;
        memset(exact, 0, sizeof(double) * (size_t) count);
        double x = (low + 0.5 - centre) / scale;
        turning a = turning_at(M_PI * x), b = turning_at(M_PI * x / LOBES);
        for (int j = low; j <= high; j++, a = turned(a, step), b = turned(b, third_step)) {
            double w = lanczos((j + 0.5 - centre) / scale, a.sine, b.sine);
            int at = j < first ? first : j > last ? last : j;
            exact[at - first] += w;
            sum += w;
        }
        int total = 0, largest = 0;
        for (int k = 0; k < count; k++) {
            next[k] = (int32_t) lrint(exact[k] / sum * WEIGHT_ONE);
            total += next[k];
            if (next[k] > next[largest])
                largest = k;
        }
        next[largest] += WEIGHT_ONE - total;
        /* Taps of no weight (the kernel's zeros at its ends) cost as much as any other. */
        int skip = 0;
        while (skip < count - 1 && next[skip] == 0)
            skip++;
        while (count > skip + 1 && next[count - 1] == 0)
            count--;
        f->lines[i] = (taps) { first + skip, count - skip, (int) (next - f->weights) + skip };
        next += count;
    }
    free(exact);
    return 0;
}

static inline __attribute__((always_inline)) unsigned char clamped(int32_t sum) {
    int32_t value = sum >> WEIGHT_BITS;
    return (unsigned char) (value < 0 ? 0 : value > 255 ? 255 : value);
}

/* Every output line as the weighted sum of input lines, `length` bytes each: the inner loops
 * run along the line, where consecutive samples are independent, and vectorise. Four taps per
 * pass halve the sums' trips through memory. */
static inline __attribute__((always_inline)) void filter_lines_body(const unsigned char *in, size_t in_stride,
    unsigned char *out, size_t out_stride, size_t length, int first, int lines, const filter *f) {
    int32_t sums[CHUNK];
    for (int i = 0; i < lines; i++) {
        const taps *t = &f->lines[first + i];
        const int32_t *w = f->weights + t->weights;
        for (size_t start = 0; start < length; start += CHUNK) {
            size_t n = length - start < CHUNK ? length - start : CHUNK;
            for (size_t x = 0; x < n; x++)
                sums[x] = WEIGHT_ONE / 2;
            int k = 0;
            for (; k + 4 <= t->count; k += 4) {
                const unsigned char *r0 = in + (size_t) (t->first + k) * in_stride + start;
                const unsigned char *r1 = r0 + in_stride, *r2 = r1 + in_stride, *r3 = r2 + in_stride;
                int32_t w0 = w[k], w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3];
                for (size_t x = 0; x < n; x++)
                    sums[x] += w0 * r0[x] + w1 * r1[x] + w2 * r2[x] + w3 * r3[x];
            }
            for (; k < t->count; k++) {
                const unsigned char *r = in + (size_t) (t->first + k) * in_stride + start;
                int32_t wk = w[k];
                for (size_t x = 0; x < n; x++)
                    sums[x] += wk * r[x];
            }
            unsigned char *o = out + (size_t) i * out_stride + start;
            for (size_t x = 0; x < n; x++)
                o[x] = clamped(sums[x]);
        }
    }
}

static void filter_lines_generic(const unsigned char *in, size_t in_stride, unsigned char *out,
    size_t out_stride, size_t length, int first, int lines, const filter *f) {
    filter_lines_body(in, in_stride, out, out_stride, length, first, lines, f);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void filter_lines_avx2(const unsigned char *in, size_t in_stride,
    unsigned char *out, size_t out_stride, size_t length, int first, int lines, const filter *f) {
    filter_lines_body(in, in_stride, out, out_stride, length, first, lines, f);
}
#endif

typedef void (*filter_lines_function)(const unsigned char *, size_t, unsigned char *, size_t, size_t, int, int,
    const filter *);

/* Pixel (x, y) of `in` to (y, x) of `out`, in tiles of 16 x 16 pixels, which stay in cache on
 * both sides. A 3-byte pixel is copied as 4 bytes, one load and one store: the extra byte lands
 * on the next pixel of its output line, written after it (y ascends), except on the last input
 * line, whose pixels are copied byte by byte, as is the last pixel of every line (so no byte
 * past the input is read). */
static void transpose(const unsigned char *in, size_t in_stride, int width, int height, int bands,
    unsigned char *out, size_t out_stride) {
    enum { TILE = 16 };
    for (int y0 = 0; y0 < height; y0 += TILE) {
        int y1 = y0 + TILE < height ? y0 + TILE : height;
        for (int x0 = 0; x0 < width; x0 += TILE) {
            int x1 = x0 + TILE < width ? x0 + TILE : width;
            for (int y = y0; y < y1; y++) {
                const unsigned char *from = in + (size_t) y * in_stride + (size_t) x0 * bands;
                unsigned char *to = out + (size_t) x0 * out_stride + (size_t) y * bands;
                int x = x0;
                if (bands == 3 && y < height - 1) {
                    int wide = x1 < width - 1 ? x1 : width - 1;
                    for (; x < wide; x++, from += 3, to += out_stride)
                        memcpy(to, from, 4);
                }
                for (; x < x1; x++, from += bands, to += out_stride)
                    memcpy(to, from, (size_t) bands);
            }
        }
    }
}

static int resample(const thumbs_pixels *source, thumbs_pixels *target, thumbs_window window,
    double shrink_across, double shrink_down, filter_lines_function filter_lines) {
    int bands = source->bands;
    if (!source->pixels || !target->pixels || bands < 1 || bands > 4 || target->bands != bands
        || source->width < 1 || source->height < 1 || target->width < 1 || target->height < 1
        || window.width > source->width || window.height > source->height || window.left < 0 || window.top < 0
        || target->width > window.width - window.left || target->height > window.height - window.top
        || !(shrink_across >= 1) || !(shrink_down >= 1) || source->stride < (size_t) source->width * bands
        || target->stride < (size_t) target->width * bands)
        return -1;
    int shrinks_down = shrink_down > 1, shrinks_across = shrink_across > 1;
    if ((!shrinks_down && window.height != source->height) || (!shrinks_across && window.width != source->width))
        return -1;
    size_t line = (size_t) source->width * bands, column = (size_t) STRIP * bands;
    size_t kept = (size_t) target->width * bands, skipped = (size_t) window.left * bands;
    filter down = { 0 }, across = { 0 };
    /* A strip of output lines at a time, down then across: the scratch stays small enough to be
     * reused from the heap and to stay in cache between the steps. */
    unsigned char *strip = malloc(line * STRIP);
    unsigned char *turned = malloc(column * (size_t) source->width);
    unsigned char *turned_shrunk = malloc(column * (size_t) target->width);
    int result = -1;
    if (!strip || !turned || !turned_shrunk || (shrinks_down && filter_make(&down, source->height, window.height, shrink_down))
        || (shrinks_across && filter_make(&across, source->width, window.width, shrink_across)))
        goto done;
    /* Only the window's lines and columns are filtered: the filters are those of the whole
     * resampled picture, used from the window's first line and column on. */
    for (int y = 0; y < target->height; y += STRIP) {
        int lines = target->height - y < STRIP ? target->height - y : STRIP;
        unsigned char *into = target->pixels + (size_t) y * target->stride;
        const unsigned char *rows = source->pixels + (size_t) (window.top + y) * source->stride;
        size_t rows_stride = source->stride;
        if (shrinks_down) {
            if (shrinks_across) {
                filter_lines(source->pixels, source->stride, strip, line, line, window.top + y, lines, &down);
                rows = strip;
                rows_stride = line;
            } else {
                filter_lines(source->pixels + skipped, source->stride, into, target->stride, kept, window.top + y,
                    lines, &down);
                continue;
            }
        }
        if (shrinks_across) {
            /* Across as down, on the strip turned on its side: the filter's inner loop then
             * runs along contiguous memory again. */
            size_t height = (size_t) lines * bands;
            transpose(rows, rows_stride, source->width, lines, bands, turned, height);
            filter_lines(turned, height, turned_shrunk, height, height, window.left, target->width, &across);
            transpose(turned_shrunk, height, lines, target->width, bands, into, target->stride);
        } else {
            for (int i = 0; i < lines; i++)
                memcpy(into + (size_t) i * target->stride, rows + (size_t) i * rows_stride + skipped, kept);
        }
    }
    result = 0;
done:
    filter_free(&down);
    filter_free(&across);
    free(strip);
    free(turned);
    free(turned_shrunk);
    return result;
}

static filter_lines_function fastest_filter_lines(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
        return filter_lines_avx2;
#endif
    return filter_lines_generic;
}

int thumbs_resample(const thumbs_pixels *source, thumbs_pixels *target, thumbs_window window,
    double shrink_across, double shrink_down) {
    return resample(source, target, window, shrink_across, shrink_down, fastest_filter_lines());
}

int thumbs_resample_generic(const thumbs_pixels *source, thumbs_pixels *target, thumbs_window window,
    double shrink_across, double shrink_down) {
    return resample(source, target, window, shrink_across, shrink_down, filter_lines_generic);
}
