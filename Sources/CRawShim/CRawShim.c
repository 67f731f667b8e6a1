/* POSIX.1-2008 (O_CLOEXEC, strerror_r, strnlen) even under a strict -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include "CRawShim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libraw/libraw.h>

static void thumbs_say(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void thumbs_say(char *message, size_t size, const char *format, ...) {
    if (!message || size == 0)
        return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

/* strerror() is not thread-safe, and strerror_r() has two signatures, GNU's and POSIX's. */
static const char *thumbs_strerror(int error, char *buffer, size_t size) {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    return strerror_r(error, buffer, size);
#else
    return strerror_r(error, buffer, size) == 0 ? buffer : "unknown error";
#endif
}

/* LibRaw's error codes, sorted into what the caller can act on. */
static thumbs_raw_status thumbs_status(int code) {
    switch (code) {
    case LIBRAW_SUCCESS:
        return THUMBS_RAW_OK;
    case LIBRAW_FILE_UNSUPPORTED:
    case LIBRAW_NOT_IMPLEMENTED:
    case LIBRAW_TOO_BIG: /* beyond LibRaw's size limits: a real, if huge, file */
        return THUMBS_RAW_UNSUPPORTED;
    case LIBRAW_NO_THUMBNAIL:
    case LIBRAW_UNSUPPORTED_THUMBNAIL:
        return THUMBS_RAW_NO_PREVIEW;
    case LIBRAW_UNSUFFICIENT_MEMORY:
        return THUMBS_RAW_NO_MEMORY;
    case LIBRAW_CANCELLED_BY_CALLBACK:
        return THUMBS_RAW_TIMED_OUT;
    default:
        /* LIBRAW_DATA_ERROR, LIBRAW_IO_ERROR (LibRaw's name for running off the end of the
         * data), LIBRAW_MEMPOOL_OVERFLOW (a file that makes it allocate without end), and the
         * codes for calls out of order, which only damaged data leads to here. */
        return THUMBS_RAW_CORRUPT;
    }
}

static thumbs_raw_status thumbs_failure(int code, const char *step,
    char *message, size_t size) {
    thumbs_say(message, size, "LibRaw %s: %s", step, libraw_strerror(code));
    return thumbs_status(code);
}

/* EXIF orientation from LibRaw's flip, the inverse of dcraw's "50132467"[orientation & 7]
 * (flip's bit 4 transposes, 2 turns upside down, 1 mirrors left to right). */
static int32_t thumbs_orientation(int flip) {
    static const int32_t orientations[8] = {1, 2, 4, 3, 5, 8, 6, 7};
    return flip >= 0 && flip < 8 ? orientations[flip] : 1;
}

/* A LibRaw instance of its own for one call, over the file mapped into memory. Its default error
 * callbacks print to stderr, so it is made without them; errors still come back as codes.
 * LibRaw reads the mapping (libraw_open_buffer), never a path: the file is the one the caller
 * opened beneath its root, and a render worker, which may open nothing, reads it all the same.
 * Mapped rather than read, so that a probe reads only the pages of the header it looks at. A
 * file cut short while it is mapped faults the reader (SIGBUS): in a render worker that costs
 * the worker, and the file, whose fingerprint has changed, is read again. */
typedef struct {
    libraw_data_t *raw;
    void *mapping;
    size_t size;
} thumbs_raw_handle;

static void thumbs_close(thumbs_raw_handle *handle) {
    if (handle->raw)
        libraw_close(handle->raw);
    if (handle->mapping)
        munmap(handle->mapping, handle->size);
}

/* Opens the file at `descriptor` with a LibRaw instance of its own; `message` is cleared, then
 * says why not. */
static thumbs_raw_status thumbs_open(int descriptor, thumbs_raw_handle *handle,
    char *message, size_t size) {
    memset(handle, 0, sizeof *handle);
    thumbs_say(message, size, "%s", "");
    char reason[128];
    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        thumbs_say(message, size, "cannot read the file: %s",
            thumbs_strerror(errno, reason, sizeof reason));
        return THUMBS_RAW_UNREADABLE;
    }
    if (!S_ISREG(status.st_mode)) {
        thumbs_say(message, size, "not a regular file");
        return THUMBS_RAW_UNREADABLE;
    }
    if (status.st_size == 0) {
        thumbs_say(message, size, "the file is empty");
        return THUMBS_RAW_CORRUPT;
    }
    size_t length = (size_t) status.st_size;
    void *mapping = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (mapping == MAP_FAILED) {
        thumbs_say(message, size, "cannot map the file: %s", thumbs_strerror(errno, reason, sizeof reason));
        return THUMBS_RAW_UNREADABLE;
    }
    handle->mapping = mapping;
    handle->size = length;
    handle->raw = libraw_init(LIBRAW_OPIONS_NO_MEMERR_CALLBACK | LIBRAW_OPIONS_NO_DATAERR_CALLBACK);
    if (!handle->raw) {
        thumbs_close(handle);
        thumbs_say(message, size, "LibRaw: out of memory");
        return THUMBS_RAW_NO_MEMORY;
    }
    int code = libraw_open_buffer(handle->raw, handle->mapping, length);
    if (code == LIBRAW_SUCCESS)
        return THUMBS_RAW_OK;
    thumbs_close(handle);
    if (code == LIBRAW_IO_ERROR) {
        /* LibRaw says IO_ERROR when the header runs off the end of the data. */
        thumbs_say(message, size, "LibRaw open: the data ends too soon (%lld bytes)",
            (long long) status.st_size);
        return THUMBS_RAW_CORRUPT;
    }
    return thumbs_failure(code, "open", message, size);
}

/* Copies a LibRaw string (a char[64], NUL-terminated by LibRaw) into one of ours. */
static void thumbs_copy_name(char destination[64], const char *source) {
    size_t length = strnlen(source, 63);
    memcpy(destination, source, length);
    destination[length] = '\0';
}

thumbs_raw_status thumbs_raw_probe(int descriptor, thumbs_raw_info *info,
    char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    thumbs_raw_handle handle;
    thumbs_raw_status status = thumbs_open(descriptor, &handle, message, message_size);
    if (status != THUMBS_RAW_OK)
        return status;
    libraw_data_t *raw = handle.raw;

    thumbs_copy_name(info->make, raw->idata.make);
    thumbs_copy_name(info->model, raw->idata.model);
    info->timestamp = (int64_t) raw->other.timestamp;
    info->exif_orientation = thumbs_orientation(raw->sizes.flip);
    info->pixel_aspect = raw->sizes.pixel_aspect > 0 ? raw->sizes.pixel_aspect : 1;
    info->is_dng = raw->idata.dng_version != 0;

    /* LibRaw 0.20 sets thumbnail.tformat only in libraw_unpack_thumb, which reads the preview
     * (megabytes, for a full-size one); until then a preview is known by its size alone. */
    if (raw->thumbnail.twidth > 0 && raw->thumbnail.theight > 0) {
        switch (raw->thumbnail.tformat) {
        case LIBRAW_THUMBNAIL_JPEG: info->preview_format = 1; break;
        case LIBRAW_THUMBNAIL_UNKNOWN: info->preview_format = 3; break;
        default: info->preview_format = 2; break;
        }
        info->preview_width = raw->thumbnail.twidth;
        info->preview_height = raw->thumbnail.theight;
    }

    libraw_decoder_info_t decoder;
    info->decodable = libraw_get_decoder_info(raw, &decoder) == LIBRAW_SUCCESS &&
        decoder.decoder_name && !(decoder.decoder_flags & LIBRAW_DECODER_NOTSET);

    /* The output size: iwidth × iheight after the stretch for non-square pixels and after the
     * flip (which swaps them for a quarter turn, undone here). */
    int code = libraw_adjust_sizes_info_only(raw);
    if (code != LIBRAW_SUCCESS) {
        status = thumbs_failure(code, "sizes", message, message_size);
        thumbs_close(&handle);
        return status;
    }
    int transposed = raw->sizes.flip & 4;
    info->width = transposed ? raw->sizes.iheight : raw->sizes.iwidth;
    info->height = transposed ? raw->sizes.iwidth : raw->sizes.iheight;
    thumbs_close(&handle);
    return THUMBS_RAW_OK;
}

/* `pixels` (one or three 8-bit channels) as tightly packed RGB in a new image. */
static thumbs_raw_status thumbs_rgb(const uint8_t *pixels, int width, int height, int colors,
    thumbs_raw_image *image, char *message, size_t size) {
    size_t count = (size_t) width * (size_t) height;
    uint8_t *rgb = malloc(count * 3);
    if (!rgb) {
        thumbs_say(message, size, "out of memory for a %d×%d image", width, height);
        return THUMBS_RAW_NO_MEMORY;
    }
    if (colors == 3) {
        memcpy(rgb, pixels, count * 3);
    } else {
        for (size_t i = 0; i < count; i++)
            rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = pixels[i];
    }
    image->bytes = rgb;
    image->size = count * 3;
    image->width = width;
    image->height = height;
    return THUMBS_RAW_OK;
}

/* The length of the JPEG at the start of `data`, through its end marker, or 0 when it has none:
 * segments from SOI on, the entropy-coded data after each SOS skipped (a 0xFF in it is followed
 * by 0x00, a restart marker or more 0xFF). LibRaw 0.20 reads a preview that runs up to 16 KB
 * past the end of a truncated file without saying so, and leaves the rest of its buffer
 * uninitialised: that must not be decoded, let alone shown. */
static size_t thumbs_jpeg_length(const uint8_t *data, size_t length) {
    if (length < 4 || data[0] != 0xFF || data[1] != 0xD8)
        return 0;
    size_t at = 2;
    for (;;) {
        /* The next marker; libjpeg skips stray bytes before one, and so does this. */
        const uint8_t *next = memchr(data + at, 0xFF, length - at);
        if (!next)
            return 0;
        at = (size_t) (next - data);
        while (at < length && data[at] == 0xFF)
            at++;
        if (at >= length)
            return 0;
        uint8_t marker = data[at++];
        if (marker == 0xD9)
            return at;
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
            continue; /* no length follows */
        if (length - at < 2)
            return 0;
        size_t segment = (size_t) data[at] << 8 | data[at + 1];
        if (segment < 2 || segment > length - at)
            return 0;
        at += segment;
        if (marker != 0xDA)
            continue;
        for (;;) { /* entropy-coded data, up to the next real marker */
            next = memchr(data + at, 0xFF, length - at);
            if (!next || (size_t) (next - data) + 1 >= length)
                return 0;
            at = (size_t) (next - data) + 1;
            if (data[at] != 0x00 && !(data[at] >= 0xD0 && data[at] <= 0xD7) && data[at] != 0xFF) {
                at--; /* a marker: back to its 0xFF for the loop above */
                break;
            }
        }
    }
}

thumbs_raw_status thumbs_raw_preview(int descriptor, thumbs_raw_image *image,
    char *message, size_t message_size) {
    memset(image, 0, sizeof *image);
    thumbs_raw_handle handle;
    thumbs_raw_status status = thumbs_open(descriptor, &handle, message, message_size);
    if (status != THUMBS_RAW_OK)
        return status;
    libraw_data_t *raw = handle.raw;
    /* Otherwise LibRaw turns upright the thumbnails it decodes from Kodak's raw-format ones,
     * and those alone, so exif_orientation could not say what to do. */
    raw->params.raw_processing_options |= LIBRAW_PROCESSING_NO_ROTATE_FOR_KODAK_THUMBNAILS;

    int code = libraw_unpack_thumb(raw);
    if (code != LIBRAW_SUCCESS) {
        status = thumbs_failure(code, "preview", message, message_size);
        thumbs_close(&handle);
        return status;
    }
    const libraw_thumbnail_t *thumb = &raw->thumbnail;
    const uint8_t *data = (const uint8_t *) thumb->thumb;
    int width = thumb->twidth, height = thumb->theight;
    /* A preview that cannot be used is THUMBS_RAW_NO_PREVIEW, not CORRUPT: the raw data may
     * still decode. */
    if (thumb->tformat == LIBRAW_THUMBNAIL_JPEG) {
        /* LibRaw reads the bytes where the header points without looking at them. The copy
         * ends at the end marker: what follows is padding, or not the file's at all. */
        size_t length = data ? thumbs_jpeg_length(data, thumb->tlength) : 0;
        if (length == 0) {
            thumbs_say(message, message_size, "the embedded preview is not a whole JPEG "
                "(%u bytes)", thumb->tlength);
            status = THUMBS_RAW_NO_PREVIEW;
        } else if (!(image->bytes = malloc(length))) {
            thumbs_say(message, message_size, "out of memory for a %zu-byte preview", length);
            status = THUMBS_RAW_NO_MEMORY;
        } else {
            memcpy(image->bytes, data, length);
            image->size = length;
            image->is_jpeg = 1;
            image->width = width;
            image->height = height;
        }
    } else if (thumb->tformat == LIBRAW_THUMBNAIL_BITMAP) {
        int colors = thumb->tcolors ? thumb->tcolors : 3;
        if (!data || width <= 0 || height <= 0 || (colors != 1 && colors != 3) ||
            thumb->tlength < (size_t) width * (size_t) height * (size_t) colors) {
            thumbs_say(message, message_size, "the embedded bitmap preview is damaged "
                "(%d×%d, %d colours, %u bytes)", width, height, colors, thumb->tlength);
            status = THUMBS_RAW_NO_PREVIEW;
        } else {
            status = thumbs_rgb(data, width, height, colors, image, message, message_size);
        }
    } else {
        thumbs_say(message, message_size, "the embedded preview is in a format not read here "
            "(LibRaw format %d)", (int) thumb->tformat);
        status = THUMBS_RAW_NO_PREVIEW;
    }
    /* Previews are stored as the sensor saw the scene, like the raw data. */
    if (status == THUMBS_RAW_OK)
        image->exif_orientation = thumbs_orientation(raw->sizes.flip);
    thumbs_close(&handle);
    return status;
}

static double thumbs_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

/* LibRaw calls this as each processing stage starts; a non-zero answer cancels the decode. */
static int thumbs_progress(void *deadline, enum LibRaw_progress stage, int iteration,
    int expected) {
    (void) stage; (void) iteration; (void) expected;
    return thumbs_now() > *(const double *) deadline;
}

thumbs_raw_status thumbs_raw_half_decode(int descriptor, double time_limit_seconds,
    thumbs_raw_image *image, char *message, size_t message_size) {
    memset(image, 0, sizeof *image);
    double deadline = thumbs_now() + time_limit_seconds;
    thumbs_raw_handle handle;
    thumbs_raw_status status = thumbs_open(descriptor, &handle, message, message_size);
    if (status != THUMBS_RAW_OK)
        return status;
    libraw_data_t *raw = handle.raw;
    if (time_limit_seconds > 0)
        libraw_set_progress_handler(raw, thumbs_progress, &deadline);
    raw->params.half_size = 1;
    raw->params.use_camera_wb = 1;
    raw->params.output_color = 1; /* sRGB */
    raw->params.output_bps = 8;
    /* Defaults kept on purpose: user_flip -1 (the file's orientation, which
     * dcraw_make_mem_image applies) and use_fuji_rotate 1 (which stretches non-square pixels
     * to square ones). */

    libraw_processed_image_t *processed = NULL;
    int code = libraw_unpack(raw);
    const char *step = "unpack";
    if (code == LIBRAW_SUCCESS) {
        code = libraw_dcraw_process(raw);
        step = "process";
    }
    if (code == LIBRAW_SUCCESS) {
        processed = libraw_dcraw_make_mem_image(raw, &code);
        step = "image";
        if (!processed && code == LIBRAW_SUCCESS)
            code = LIBRAW_UNSUFFICIENT_MEMORY;
    }
    if (code != LIBRAW_SUCCESS) {
        status = thumbs_failure(code, step, message, message_size);
        if (status == THUMBS_RAW_TIMED_OUT)
            thumbs_say(message, message_size, "LibRaw %s: stopped after %.3g s", step,
                time_limit_seconds);
    } else if (processed->type != LIBRAW_IMAGE_BITMAP || processed->bits != 8 ||
        (processed->colors != 1 && processed->colors != 3) ||
        processed->data_size < (size_t) processed->width * processed->height *
            processed->colors) {
        thumbs_say(message, message_size, "LibRaw made an unexpected image (type %d, %d bits, "
            "%d colours)", (int) processed->type, processed->bits, processed->colors);
        status = THUMBS_RAW_UNSUPPORTED;
    } else {
        status = thumbs_rgb(processed->data, processed->width, processed->height,
            processed->colors, image, message, message_size);
        if (status == THUMBS_RAW_OK)
            image->exif_orientation = 1;
    }
    if (processed)
        libraw_dcraw_clear_mem(processed);
    thumbs_close(&handle);
    return status;
}

void thumbs_raw_image_free(thumbs_raw_image *image) {
    if (!image)
        return;
    free(image->bytes);
    memset(image, 0, sizeof *image);
}

const char *thumbs_raw_library_version(void) {
    return libraw_version();
}
