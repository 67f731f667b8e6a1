#include "CVipsShim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
/* vips_vector_set_enabled() is not included by vips.h in 8.14. */
#include <vips/vector.h>
#include <gmodule.h>

int thumbs_vips_start(const char *program_name, int concurrency) {
    if (VIPS_INIT(program_name))
        return -1;
    vips_concurrency_set(concurrency);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(TRUE);
    /* No liborc: libvips 8.14 compiles and frees ORC programs per operation, and liborc 0.4.33's
     * code allocator is not safe for that from several threads at once; a warm of 100,000 photos
     * on two render threads died in liborc (SIGSEGV). The C paths cost 12-28 % of throughput
     * (docs/BENCHMARKS.md); libvips 8.15 replaces ORC with Highway. */
    vips_vector_set_enabled(FALSE);
    return 0;
}

int thumbs_vips_has_loader(const char *nickname) {
    /* Loaders are operations found by nickname; modules register theirs in VIPS_INIT. */
    return vips_type_find("VipsForeignLoad", nickname) != 0;
}

int thumbs_vips_load_module(const char *folder, const char *name) {
    char *path = g_strdup_printf("%s/vips-modules-%d.%d/vips-%s.so", folder, VIPS_MAJOR_VERSION,
        VIPS_MINOR_VERSION, name);
    /* As libvips' own module loading: resident from then on (the module makes itself so). */
    GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
    if (!module)
        vips_error("thumbs", "%s", g_module_error());
    g_free(path);
    return module ? 0 : -1;
}

/* A pthread mutex rather than a GMutex: GLib's is a futex on Linux, which ThreadSanitizer
 * cannot see, and it would report every access to the warnings as a race. */
static pthread_mutex_t thumbs_warning_lock = PTHREAD_MUTEX_INITIALIZER;
static GString *thumbs_warnings = NULL;
static gboolean thumbs_capturing = FALSE;

/* Bound the kept text: a broken file can warn once per scanline. */
#define THUMBS_WARNINGS_MAX 2048

static void thumbs_keep_log(const gchar *domain, GLogLevelFlags level,
    const gchar *message, gpointer user_data) {
    (void) domain; (void) user_data;
    pthread_mutex_lock(&thumbs_warning_lock);
    if (thumbs_capturing && (level & G_LOG_LEVEL_WARNING) &&
        thumbs_warnings->len < THUMBS_WARNINGS_MAX)
        g_string_append_printf(thumbs_warnings, "%s\n", message);
    pthread_mutex_unlock(&thumbs_warning_lock);
}

void thumbs_vips_route_warnings(void) {
    pthread_mutex_lock(&thumbs_warning_lock);
    if (!thumbs_warnings)
        thumbs_warnings = g_string_new(NULL);
    pthread_mutex_unlock(&thumbs_warning_lock);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO,
        thumbs_keep_log, NULL);
}

void thumbs_vips_capture_warnings(int on) {
    pthread_mutex_lock(&thumbs_warning_lock);
    thumbs_capturing = on ? TRUE : FALSE;
    if (on && thumbs_warnings)
        g_string_truncate(thumbs_warnings, 0);
    pthread_mutex_unlock(&thumbs_warning_lock);
}

char *thumbs_vips_take_warnings(void) {
    char *text = NULL;
    pthread_mutex_lock(&thumbs_warning_lock);
    if (thumbs_warnings && thumbs_warnings->len > 0) {
        text = g_strdup(thumbs_warnings->str);
        g_string_truncate(thumbs_warnings, 0);
    }
    pthread_mutex_unlock(&thumbs_warning_lock);
    return text;
}

/* A source of its own for `descriptor`'s file. Every load gets one, reading with pread() at an
 * offset of its own, so two sources on one file never move each other's offset (a descriptor
 * source reads with read() and lseek() on the descriptor it is given), and no path is opened: a
 * render worker, which may open nothing, reads through it the same. It keeps a duplicate of the
 * descriptor, so the caller may close its own while images made from the source are read. */
typedef struct {
    int descriptor;
    gint64 position;
} thumbs_file_reader;

static gint64 thumbs_file_read(VipsSourceCustom *source, void *buffer, gint64 length, void *data) {
    (void) source;
    thumbs_file_reader *reader = data;
    ssize_t got;
    do
        got = pread(reader->descriptor, buffer, (size_t) length, (off_t) reader->position);
    while (got < 0 && errno == EINTR);
    if (got > 0)
        reader->position += got;
    return got;
}

static gint64 thumbs_file_seek(VipsSourceCustom *source, gint64 offset, int whence, void *data) {
    (void) source;
    thumbs_file_reader *reader = data;
    gint64 base = reader->position;
    if (whence == SEEK_SET)
        base = 0;
    else if (whence == SEEK_END) {
        struct stat status;
        if (fstat(reader->descriptor, &status) != 0)
            return -1;
        base = status.st_size;
    }
    if (offset < -base || (offset > 0 && offset > G_MAXINT64 - base))
        return -1;
    reader->position = base + offset;
    return reader->position;
}

static void thumbs_file_reader_free(void *data, GClosure *closure) {
    (void) closure;
    thumbs_file_reader *reader = data;
    close(reader->descriptor);
    g_free(reader);
}

static VipsSource *thumbs_source(int descriptor) {
    int own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0);
    if (own < 0) {
        vips_error("thumbs", "cannot read the file: %s", g_strerror(errno));
        return NULL;
    }
    thumbs_file_reader *reader = g_new0(thumbs_file_reader, 1);
    reader->descriptor = own;
    VipsSourceCustom *source = vips_source_custom_new();
    g_signal_connect_data(source, "read", G_CALLBACK(thumbs_file_read), reader, thumbs_file_reader_free, 0);
    g_signal_connect(source, "seek", G_CALLBACK(thumbs_file_seek), reader);
    return VIPS_SOURCE(source);
}

VipsImage *thumbs_vips_open_descriptor(int descriptor, int partial) {
    VipsSource *source = thumbs_source(descriptor);
    if (!source)
        return NULL;
    VipsImage *image = vips_image_new_from_source(source, "",
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", partial ? VIPS_FAIL_ON_NONE : VIPS_FAIL_ON_TRUNCATED,
        NULL);
    g_object_unref(source);
    return image;
}

static void thumbs_free_copy(VipsImage *image, gpointer copy) {
    (void) image;
    g_free(copy);
}

VipsImage *thumbs_vips_open_buffer(const void *data, size_t length) {
    void *copy = g_memdup2(data, length);
    VipsImage *image = vips_image_new_from_buffer(copy, length, "",
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        NULL);
    if (!image) {
        g_free(copy);
        return NULL;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(thumbs_free_copy), copy);
    return image;
}

VipsImage *thumbs_vips_open_jpeg_buffer(const void *data, size_t length, int shrink) {
    void *copy = g_memdup2(data, length);
    VipsImage *image = NULL;
    if (vips_jpegload_buffer(copy, length, &image,
            "shrink", shrink,
            "autorotate", FALSE,
            "fail_on", VIPS_FAIL_ON_TRUNCATED,
            NULL)) {
        g_free(copy);
        return NULL;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(thumbs_free_copy), copy);
    return image;
}

VipsImage *thumbs_vips_image_from_rgb(const unsigned char *pixels, int width, int height) {
    VipsImage *image = vips_image_new_from_memory_copy(pixels, (size_t) width * height * 3,
        width, height, 3, VIPS_FORMAT_UCHAR);
    if (image)
        image->Type = VIPS_INTERPRETATION_sRGB;
    return image;
}

static void thumbs_free_pixels(VipsImage *image, gpointer pixels) {
    (void) image;
    free(pixels);
}

VipsImage *thumbs_vips_image_adopting(unsigned char *pixels, int width, int height, int bands,
    const unsigned char *icc, size_t icc_length) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t) width * height * bands,
        width, height, bands, VIPS_FORMAT_UCHAR);
    if (!image) {
        free(pixels);
        return NULL;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(thumbs_free_pixels), pixels);
    image->Type = bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    if (icc && icc_length > 0)
        vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, icc, icc_length);
    return image;
}

int thumbs_vips_with_profile(VipsImage *in, VipsImage **out, const unsigned char *icc, size_t icc_length) {
    if (vips_copy(in, out, NULL))
        return -1;
    vips_image_set_blob_copy(*out, VIPS_META_ICC_NAME, icc, icc_length);
    return 0;
}

const unsigned char *thumbs_vips_memory_pixels(VipsImage *image, size_t *stride) {
    if (vips_image_wio_input(image))
        return NULL;
    *stride = VIPS_IMAGE_SIZEOF_LINE(image);
    return VIPS_IMAGE_ADDR(image, 0, 0);
}

int thumbs_vips_heif_thumbnail(int descriptor, VipsImage **out) {
    VipsSource *source = thumbs_source(descriptor);
    if (!source)
        return -1;
    int result = vips_heifload_source(source, out,
        "thumbnail", TRUE,
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        NULL);
    g_object_unref(source);
    return result;
}

int thumbs_vips_thumbnail_descriptor(int descriptor, VipsImage **out,
    int width, int height, int crop, int size, int partial) {
    VipsSource *source = thumbs_source(descriptor);
    if (!source)
        return -1;
    /* 8.14's thumbnail_source does not pass its fail_on to the loader, so a truncated PNG
     * would render as a partial picture: the option string reaches the loader. */
    int result = vips_thumbnail_source(source, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        "fail_on", partial ? VIPS_FAIL_ON_NONE : VIPS_FAIL_ON_TRUNCATED,
        "option_string", partial ? "fail_on=none" : "fail_on=truncated",
        NULL);
    g_object_unref(source);
    return result;
}

/* vips_thumbnail_image() of what a loader gave (`failed` its result), which it releases. */
static int thumbnail_of_loaded(int failed, VipsImage *loaded, VipsImage **out,
    int width, int height, int crop, int size) {
    if (failed)
        return -1;
    int result = vips_thumbnail_image(loaded, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        NULL);
    g_object_unref(loaded);
    return result;
}

int thumbs_vips_thumbnail_jpeg(int descriptor, int shrink, VipsImage **out,
    int width, int height, int crop, int size, int partial) {
    VipsSource *source = thumbs_source(descriptor);
    if (!source)
        return -1;
    VipsImage *loaded = NULL;
    int failed = vips_jpegload_source(source, &loaded,
        "shrink", shrink,
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", partial ? VIPS_FAIL_ON_NONE : VIPS_FAIL_ON_TRUNCATED,
        "unlimited", partial ? TRUE : FALSE,
        NULL);
    g_object_unref(source);
    return thumbnail_of_loaded(failed, loaded, out, width, height, crop, size);
}

int thumbs_vips_thumbnail_webp(int descriptor, double scale, VipsImage **out,
    int width, int height, int crop, int size, int partial) {
    VipsSource *source = thumbs_source(descriptor);
    if (!source)
        return -1;
    VipsImage *loaded = NULL;
    int failed = vips_webpload_source(source, &loaded,
        "scale", scale,
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", partial ? VIPS_FAIL_ON_NONE : VIPS_FAIL_ON_TRUNCATED,
        NULL);
    g_object_unref(source);
    return thumbnail_of_loaded(failed, loaded, out, width, height, crop, size);
}

int thumbs_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out,
    int width, int height) {
    /* libvips takes the buffer as writable but only reads it. As for sources (see
     * thumbs_vips_thumbnail_descriptor), the loader gets fail_on through the option string. */
    return vips_thumbnail_buffer((void *) data, length, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        "option_string", "fail_on=truncated",
        NULL);
}

int thumbs_vips_thumbnail_image(VipsImage *in, VipsImage **out,
    int width, int height, int crop, int size) {
    return vips_thumbnail_image(in, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        "no_rotate", TRUE,
        NULL);
}

int thumbs_vips_orient(VipsImage *in, VipsImage **out, int orientation) {
    VipsImage *tagged;
    if (vips_copy(in, &tagged, NULL))
        return -1;
    vips_image_set_int(tagged, VIPS_META_ORIENTATION, orientation);
    int result = vips_autorot(tagged, out, NULL);
    g_object_unref(tagged);
    return result;
}

int thumbs_vips_icc_transform(VipsImage *in, VipsImage **out, const char *profile) {
    return vips_icc_transform(in, out, profile,
        "embedded", TRUE,
        "input_profile", "srgb",
        "intent", VIPS_INTENT_RELATIVE,
        NULL);
}

int thumbs_vips_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

int thumbs_vips_add_alpha(VipsImage *in, VipsImage **out) {
    return vips_addalpha(in, out, NULL);
}

int thumbs_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = { 255.0, 255.0, 255.0 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

int thumbs_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

int thumbs_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int quality, int strip, int interlace) {
    return vips_jpegsave_buffer(in, buffer, length,
        "Q", quality,
        "strip", strip,
        "optimize_coding", TRUE,
        "interlace", interlace,
        NULL);
}

int thumbs_vips_webpsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int quality, int strip) {
    return vips_webpsave_buffer(in, buffer, length,
        "Q", quality,
        "strip", strip,
        NULL);
}

int thumbs_vips_pngsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int compression, int strip) {
    return vips_pngsave_buffer(in, buffer, length,
        "compression", compression,
        "strip", strip,
        NULL);
}

int thumbs_vips_copy_interpretation(VipsImage *in, VipsImage **out, int interpretation) {
    return vips_copy(in, out, "interpretation", (VipsInterpretation) interpretation, NULL);
}

int thumbs_vips_tiffsave_buffer(VipsImage *in, void **buffer, size_t *length) {
    return vips_tiffsave_buffer(in, buffer, length, NULL);
}

void thumbs_limit_malloc_arenas(int arenas) {
    mallopt(M_ARENA_MAX, arenas);
}

int thumbs_keep_freed_allocations(size_t bytes) {
    if (bytes > INT_MAX / 2)
        return 0;
    return mallopt(M_MMAP_THRESHOLD, (int) bytes) && mallopt(M_TRIM_THRESHOLD, (int) (2 * bytes));
}

int thumbs_vips_text(const char *text, const char *font, int dpi, VipsImage **out) {
    return vips_text(out, text, "font", font, "dpi", dpi, NULL);
}

int thumbs_vips_arrayjoin(VipsImage **images, int count, VipsImage **out, int across,
    int cell_width, int cell_height, int shim) {
    double white[3] = { 255.0, 255.0, 255.0 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_arrayjoin(images, out, count,
        "across", across,
        "hspacing", cell_width + shim,
        "vspacing", cell_height + shim,
        "halign", VIPS_ALIGN_CENTRE,
        "valign", VIPS_ALIGN_CENTRE,
        "background", background,
        NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

int thumbs_vips_without_metadata(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL))
        return -1;
    // vips_image_get_fields lists the built-in header fields too; vips_image_remove only
    // touches the metadata table, so those are left as they are.
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i]; i++)
        vips_image_remove(*out, fields[i]);
    g_strfreev(fields);
    return 0;
}
