#define _GNU_SOURCE
#include "CLibraryLoader.h"
#include "LibrarySymbols.h"

#include <avif/avif.h>
#include <dlfcn.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libheif/heif_version.h>
#include <libraw/libraw_version.h>
#include <libswscale/version.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/version.h>

#define THUMBS_HIDDEN __attribute__((visibility("hidden")))

/* ---- Slots: where each trampoline jumps, the library's function once it is open -------------- */

static void unopened(const char *library) {
    fprintf(stderr, "thumbs: a function of %s was called before %s was opened\n", library, library);
    abort();
}

static void unopened_vips(void) { unopened("libvips"); }
static void unopened_ffmpeg(void) { unopened("FFmpeg"); }
static void unopened_heif(void) { unopened("libheif"); }
static void unopened_libraw(void) { unopened("LibRaw"); }
static void unopened_avif(void) { unopened("libavif"); }

#define VIPS_SLOT(name) THUMBS_HIDDEN void (*thumbs_slot_##name)(void) = unopened_vips;
#define FFMPEG_SLOT(name) THUMBS_HIDDEN void (*thumbs_slot_##name)(void) = unopened_ffmpeg;
#define HEIF_SLOT(name) THUMBS_HIDDEN void (*thumbs_slot_##name)(void) = unopened_heif;
#define LIBRAW_SLOT(name) THUMBS_HIDDEN void (*thumbs_slot_##name)(void) = unopened_libraw;
#define AVIF_SLOT(name) THUMBS_HIDDEN void (*thumbs_slot_##name)(void) = unopened_avif;
THUMBS_VIPS_SYMBOLS(VIPS_SLOT)
THUMBS_FFMPEG_SYMBOLS(FFMPEG_SLOT)
THUMBS_HEIF_SYMBOLS(HEIF_SLOT)
THUMBS_LIBRAW_SYMBOLS(LIBRAW_SLOT)
THUMBS_AVIF_SYMBOLS(AVIF_SLOT)

struct symbol {
    const char *name;
    void (**slot)(void);
};

#define SYMBOL(name) { #name, &thumbs_slot_##name },
static const struct symbol vips_symbols[] = { THUMBS_VIPS_SYMBOLS(SYMBOL) };
static const struct symbol ffmpeg_symbols[] = { THUMBS_FFMPEG_SYMBOLS(SYMBOL) };
static const struct symbol heif_symbols[] = { THUMBS_HEIF_SYMBOLS(SYMBOL) };
static const struct symbol libraw_symbols[] = { THUMBS_LIBRAW_SYMBOLS(SYMBOL) };
static const struct symbol avif_symbols[] = { THUMBS_AVIF_SYMBOLS(SYMBOL) };

/* ---- The libraries ------------------------------------------------------------------------- */

/* A shared object by the name its soname has (e.g. "avcodec" and 59 for libavcodec.so.59), with
 * the Debian package that provides it ("libavcodec59"; LibRaw's thread-safe build is in libraw20). */
struct shared_object {
    const char *name;
    int major;
    const char *package_stem;
};

#define THUMBS_MAX_OBJECTS 4

struct library {
    const char *title;
    const char *header_version;
    struct shared_object objects[THUMBS_MAX_OBJECTS];
    const struct symbol *symbols;
    size_t symbol_count;
    /* Set once, under `lock`; `state` is read without it. */
    void *handles[THUMBS_MAX_OBJECTS];
    char failure[512];
    char folder[256];
    _Atomic int state; /* 0 not tried, 1 open, -1 failed */
};

/* libavif's headers do not name its soname; its releases set it: 15 for 0.11, 16 from 1.0 on. */
#if AVIF_VERSION_MAJOR >= 1
#define THUMBS_AVIF_SONAME_MAJOR 16
#elif AVIF_VERSION_MINOR == 11
#define THUMBS_AVIF_SONAME_MAJOR 15
#else
#error "Thumbs needs libavif 0.11 or later"
#endif

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static struct library libraries[] = {
    [THUMBS_LIBRARY_VIPS] = {
        .title = "libvips",
        .header_version = VIPS_VERSION,
        .objects = { { "vips", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE, "libvips" } },
        .symbols = vips_symbols, .symbol_count = COUNT(vips_symbols),
    },
    [THUMBS_LIBRARY_FFMPEG] = {
        .title = "FFmpeg",
        .header_version = "libavformat " AV_STRINGIFY(LIBAVFORMAT_VERSION),
        .objects = {
            { "avformat", LIBAVFORMAT_VERSION_MAJOR, "libavformat" },
            { "avcodec", LIBAVCODEC_VERSION_MAJOR, "libavcodec" },
            { "avutil", LIBAVUTIL_VERSION_MAJOR, "libavutil" },
            { "swscale", LIBSWSCALE_VERSION_MAJOR, "libswscale" },
        },
        .symbols = ffmpeg_symbols, .symbol_count = COUNT(ffmpeg_symbols),
    },
    /* libheif has kept soname 1 through its 1.x releases. */
    [THUMBS_LIBRARY_HEIF] = {
        .title = "libheif",
        .header_version = LIBHEIF_VERSION,
        .objects = { { "heif", 1, "libheif" } },
        .symbols = heif_symbols, .symbol_count = COUNT(heif_symbols),
    },
    [THUMBS_LIBRARY_LIBRAW] = {
        .title = "LibRaw",
        .header_version = LIBRAW_VERSION_STR,
        .objects = { { "raw_r", LIBRAW_SHLIB_CURRENT, "libraw" } },
        .symbols = libraw_symbols, .symbol_count = COUNT(libraw_symbols),
    },
    [THUMBS_LIBRARY_AVIF] = {
        .title = "libavif",
        .header_version = AV_STRINGIFY(AVIF_VERSION_MAJOR) "." AV_STRINGIFY(AVIF_VERSION_MINOR) "."
            AV_STRINGIFY(AVIF_VERSION_PATCH),
        .objects = { { "avif", THUMBS_AVIF_SONAME_MAJOR, "libavif" } },
        .symbols = avif_symbols, .symbol_count = COUNT(avif_symbols),
    },
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Under `lock`. */
static int sealed = 0;

static struct library *library_for(thumbs_library which) {
    return (unsigned) which < COUNT(libraries) ? &libraries[which] : NULL;
}

static void folder_of(void *handle, char *folder, size_t size) {
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
        return;
    const char *slash = strrchr(map->l_name, '/');
    if (slash && (size_t) (slash - map->l_name) < size)
        snprintf(folder, size, "%.*s", (int) (slash - map->l_name), map->l_name);
}

/* Opens every shared object and fills every slot, or fills none and says why. */
static int open_library(struct library *library) {
    size_t opened = 0;
    for (; opened < THUMBS_MAX_OBJECTS && library->objects[opened].name; opened++) {
        const struct shared_object *object = &library->objects[opened];
        char soname[64];
        snprintf(soname, sizeof soname, "lib%s.so.%d", object->name, object->major);
        /* Local: the library's symbols stay out of the program's namespace, where they could
         * take the place of another library's. */
        library->handles[opened] = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (!library->handles[opened]) {
            const char *reason = dlerror();
            snprintf(library->failure, sizeof library->failure,
                "%s cannot be loaded (%s): install Debian's package %s%d", library->title,
                reason ? reason : soname, object->package_stem, object->major);
            goto fail;
        }
    }
    void *resolved[COUNT(vips_symbols) + COUNT(ffmpeg_symbols) + COUNT(heif_symbols) + COUNT(libraw_symbols) +
        COUNT(avif_symbols)];
    for (size_t index = 0; index < library->symbol_count; index++) {
        resolved[index] = NULL;
        for (size_t object = 0; object < opened && !resolved[index]; object++)
            resolved[index] = dlsym(library->handles[object], library->symbols[index].name);
        if (!resolved[index]) {
            snprintf(library->failure, sizeof library->failure,
                "%s has no %s, which Thumbs calls: install the version of Debian's package %s%d it was "
                "built with", library->title, library->symbols[index].name, library->objects[0].package_stem,
                library->objects[0].major);
            goto fail;
        }
    }
    for (size_t index = 0; index < library->symbol_count; index++)
        *library->symbols[index].slot = (void (*)(void)) resolved[index];
    folder_of(library->handles[0], library->folder, sizeof library->folder);
    return 0;
fail:
    while (opened > 0)
        if (library->handles[--opened])
            dlclose(library->handles[opened]);
    return -1;
}

int thumbs_library_open(thumbs_library which) {
    struct library *library = library_for(which);
    if (!library)
        return -1;
    int state = atomic_load_explicit(&library->state, memory_order_acquire);
    if (state != 0)
        return state > 0 ? 0 : -1;
    pthread_mutex_lock(&lock);
    state = atomic_load_explicit(&library->state, memory_order_relaxed);
    if (state == 0 && sealed) {
        snprintf(library->failure, sizeof library->failure,
            "%s was not opened before this process confined itself, and cannot be now", library->title);
        state = -1;
        atomic_store_explicit(&library->state, state, memory_order_release);
    } else if (state == 0) {
        state = open_library(library) == 0 ? 1 : -1;
        atomic_store_explicit(&library->state, state, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return state > 0 ? 0 : -1;
}

void thumbs_library_seal(void) {
    pthread_mutex_lock(&lock);
    sealed = 1;
    pthread_mutex_unlock(&lock);
}

const char *thumbs_library_failure(thumbs_library which) {
    struct library *library = library_for(which);
    if (!library)
        return "no such library";
    return atomic_load_explicit(&library->state, memory_order_acquire) < 0 ? library->failure : "";
}

int thumbs_library_is_open(thumbs_library which) {
    struct library *library = library_for(which);
    return library && atomic_load_explicit(&library->state, memory_order_acquire) > 0;
}

const char *thumbs_library_folder(thumbs_library which) {
    struct library *library = library_for(which);
    return library && atomic_load_explicit(&library->state, memory_order_acquire) > 0 ? library->folder : "";
}

const char *thumbs_library_header_version(thumbs_library which) {
    struct library *library = library_for(which);
    return library ? library->header_version : "";
}
