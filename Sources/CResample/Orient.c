#include "CResample.h"

#include <stddef.h>
#include <string.h>

/* Every target pixel is copied from the source pixel an orientation puts there: the walk over
 * the target's rows and columns is a walk over the source that starts at one corner and steps
 * by a pixel or a row, forwards or back. (Target pixel (x, y) is source pixel (x, y) for 1,
 * (w-1-x, y) for 2, (w-1-x, h-1-y) for 3, (x, h-1-y) for 4, (y, x) for 5, (y, h-1-x) for 6,
 * (w-1-y, h-1-x) for 7 and (w-1-y, x) for 8, w and h being the source's size: the turns of
 * libvips' autorot.) */
/* One target row from `from` on, `across` bytes apart; `bands` is a constant where this is
 * inlined, so that each copy is one move. */
static inline __attribute__((always_inline)) void copy_row(const unsigned char *from, ptrdiff_t across,
    unsigned char *to, int width, int bands) {
    for (int x = 0; x < width; x++, from += across, to += bands)
        memcpy(to, from, (size_t) bands);
}

int thumbs_orient(const thumbs_pixels *source, thumbs_pixels *target, int orientation) {
    int bands = source->bands, w = source->width, h = source->height;
    int swaps = orientation >= 5;
    if (!source->pixels || !target->pixels || bands < 1 || bands > 4 || target->bands != bands || w < 1 || h < 1
        || orientation < 1 || orientation > 8 || target->width != (swaps ? h : w)
        || target->height != (swaps ? w : h) || source->stride < (size_t) w * bands
        || target->stride < (size_t) target->width * bands)
        return -1;
    ptrdiff_t pixel = bands, row = (ptrdiff_t) source->stride;
    /* Where target pixel (0, 0) comes from, and the source steps of one target column and of
     * one target row. */
    int right = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    int bottom = orientation == 3 || orientation == 4 || orientation == 6 || orientation == 7;
    ptrdiff_t start = (right ? (ptrdiff_t) (w - 1) * pixel : 0) + (bottom ? (ptrdiff_t) (h - 1) * row : 0);
    ptrdiff_t across = swaps ? (bottom ? -row : row) : (right ? -pixel : pixel);
    ptrdiff_t down = swaps ? (right ? -pixel : pixel) : (bottom ? -row : row);
    for (int y = 0; y < target->height; y++) {
        const unsigned char *from = source->pixels + start + (ptrdiff_t) y * down;
        unsigned char *to = target->pixels + (size_t) y * target->stride;
        switch (bands) {
        case 1: copy_row(from, across, to, target->width, 1); break;
        case 2: copy_row(from, across, to, target->width, 2); break;
        case 3: copy_row(from, across, to, target->width, 3); break;
        default: copy_row(from, across, to, target->width, 4); break;
        }
    }
    return 0;
}
