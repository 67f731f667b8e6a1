/* 8-bit pictures converted to sRGB from their embedded ICC profile by lcms directly, with one
 * transform kept per profile.
 *
 * libvips' icc_transform builds a new lcms transform for every image, which for a Display P3 or
 * Adobe RGB photo costs more than converting its thumbnail's pixels (lcms reverses the output's
 * tone curves and optimises the pipeline each time), and it converts through a sink. A library
 * from one phone or camera has one profile: its transform is built once here and shared by the
 * render threads. It is the transform libvips would build (the same intent, pixel formats and
 * flags) but for the sRGB profile: lcms' own, so that converting a photo never needs libvips.
 * Its pixels differ from libvips' sRGB profile's by at most 2 levels, in about 1 % of the
 * values of a Display P3 photo (the two profiles' tone curves round differently). */

#include "CVipsShim.h"

#include <lcms2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Profiles whose transforms are kept; a library rarely has more than a few. When full, the
 * oldest is replaced (a transform in use elsewhere is kept alive by its reference count). */
#define THUMBS_KEPT_TRANSFORMS 8

struct thumbs_srgb_transform {
    cmsHTRANSFORM transform;
    int references;
};

typedef struct {
    unsigned char *profile;
    size_t length;
    int bands;
    thumbs_srgb_transform *shared;
} thumbs_kept_transform;

static pthread_mutex_t thumbs_transforms_lock = PTHREAD_MUTEX_INITIALIZER;
static thumbs_kept_transform thumbs_transforms[THUMBS_KEPT_TRANSFORMS];
static int thumbs_transforms_next;

void thumbs_srgb_transform_release(thumbs_srgb_transform *shared) {
    pthread_mutex_lock(&thumbs_transforms_lock);
    int last = --shared->references == 0;
    pthread_mutex_unlock(&thumbs_transforms_lock);
    if (last) {
        cmsDeleteTransform(shared->transform);
        free(shared);
    }
}

/* The kept transform of this profile and band count; NULL if none. Called with the lock held. */
static thumbs_srgb_transform *thumbs_kept(const unsigned char *icc, size_t length, int bands) {
    for (int i = 0; i < THUMBS_KEPT_TRANSFORMS; i++) {
        thumbs_kept_transform *kept = &thumbs_transforms[i];
        if (kept->shared && kept->bands == bands && kept->length == length
            && memcmp(kept->profile, icc, length) == 0)
            return kept->shared;
    }
    return NULL;
}

/* Keeps `shared` for this profile (taking a reference for the table) in place of the oldest,
 * unless another thread kept one for it meanwhile. */
static void thumbs_keep(const unsigned char *icc, size_t length, int bands, thumbs_srgb_transform *shared) {
    unsigned char *profile = malloc(length);
    if (!profile)
        return;
    memcpy(profile, icc, length);
    thumbs_srgb_transform *replaced = NULL;
    pthread_mutex_lock(&thumbs_transforms_lock);
    if (!thumbs_kept(icc, length, bands)) {
        thumbs_kept_transform *slot = &thumbs_transforms[thumbs_transforms_next];
        thumbs_transforms_next = (thumbs_transforms_next + 1) % THUMBS_KEPT_TRANSFORMS;
        replaced = slot->shared;
        unsigned char *replaced_profile = slot->profile;
        shared->references++;
        *slot = (thumbs_kept_transform) { profile, length, bands, shared };
        profile = replaced_profile;
    }
    pthread_mutex_unlock(&thumbs_transforms_lock);
    free(profile);
    if (replaced)
        thumbs_srgb_transform_release(replaced);
}

/* A new transform from `icc` (describing `bands`-band pictures) to sRGB, with one reference;
 * NULL when the profile does not describe such pictures or lcms fails. */
static thumbs_srgb_transform *thumbs_make(const unsigned char *icc, size_t length, int bands) {
    cmsHPROFILE input = cmsOpenProfileFromMem(icc, (cmsUInt32Number) length);
    cmsHPROFILE output = cmsCreate_sRGBProfile();
    thumbs_srgb_transform *shared = NULL;
    cmsColorSpaceSignature space = input ? cmsGetColorSpace(input) : 0;
    if (input && output && ((bands == 3 && space == cmsSigRgbData) || (bands == 1 && space == cmsSigGrayData))) {
        /* What libvips' icc_transform asks of lcms for 8-bit pictures to 8-bit sRGB. */
        cmsHTRANSFORM transform = cmsCreateTransform(input, bands == 3 ? TYPE_RGB_8 : TYPE_GRAY_8, output,
            TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
        if (transform && (shared = malloc(sizeof *shared)))
            *shared = (thumbs_srgb_transform) { transform, 1 };
        else if (transform)
            cmsDeleteTransform(transform);
    }
    if (input)
        cmsCloseProfile(input);
    if (output)
        cmsCloseProfile(output);
    return shared;
}

thumbs_srgb_transform *thumbs_srgb_transform_for(const unsigned char *icc, size_t icc_length, int bands) {
    if (!icc || icc_length == 0 || (bands != 1 && bands != 3))
        return NULL;
    pthread_mutex_lock(&thumbs_transforms_lock);
    thumbs_srgb_transform *shared = thumbs_kept(icc, icc_length, bands);
    if (shared)
        shared->references++;
    pthread_mutex_unlock(&thumbs_transforms_lock);
    if (!shared && (shared = thumbs_make(icc, icc_length, bands)))
        thumbs_keep(icc, icc_length, bands, shared);
    return shared;
}

void thumbs_srgb_transform_apply(thumbs_srgb_transform *shared, const unsigned char *pixels, int width, int height,
    size_t stride, unsigned char *out, size_t out_stride) {
    /* A transform made with cmsFLAGS_NOCACHE may run on several threads at once. */
    cmsDoTransformLineStride(shared->transform, pixels, out, (cmsUInt32Number) width, (cmsUInt32Number) height,
        (cmsUInt32Number) stride, (cmsUInt32Number) out_stride, 0, 0);
}
