#include "CPNGDecoder.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* libvips' limits on a PNG's text chunks and on the size of its ancillary chunks (pngload). */
enum { TEXT_CHUNKS_KEPT = 50, CHUNK_BYTES_MOST = 50 * 1024 * 1024, CHUNKS_CACHED_MOST = 100 };
/* VIPS_MAX_COORD: the widest and tallest picture libvips opens. */
enum { SIDE_MOST = 10000000 };

/* What one decode keeps, reached by libpng's callbacks through the pointers it is handed. The
 * fields that change between setjmp and a jump back are read only through this struct's
 * address, which libpng holds: they are in memory, not in registers the jump restores. */
typedef struct {
    int descriptor;
    off_t offset;
    png_bytep *rows;
    thumbs_png_picture *picture;
} decoder;

static void fail(png_structp png, png_const_charp message) {
    decoder *d = png_get_error_ptr(png);
    snprintf(d->picture->message, sizeof d->picture->message, "%s", message);
    png_longjmp(png, 1);
}

/* libvips only logs libpng's warnings (a damaged ancillary chunk, colour chunks that disagree)
 * and reads on: so does this decoder, with the same chunks and rows, silently. */
static void warn(png_structp png, png_const_charp message) {
    (void) png;
    (void) message;
}

static void read_bytes(png_structp png, png_bytep into, size_t count) {
    decoder *d = png_get_io_ptr(png);
    while (count > 0) {
        ssize_t got = pread(d->descriptor, into, count, d->offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            png_error(png, strerror(errno));
        if (got == 0)
            png_error(png, "unexpected end of file");
        d->offset += got;
        into += got;
        count -= (size_t) got;
    }
}

/* The header and the chunks before the first IDAT, with libvips' transformations set; returns
 * THUMBS_PNG_DECODED or why the picture is not this decoder's. */
static int read_header(png_structp png, png_infop info, decoder *d, size_t pixel_limit) {
    thumbs_png_picture *picture = d->picture;
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    png_textp texts = NULL;
    int text_count = png_get_text(png, info, &texts, NULL);
    int transparent = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int grey = (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) && depth <= 8;
    int rgb = ((colour == PNG_COLOR_TYPE_RGB || colour == PNG_COLOR_TYPE_RGB_ALPHA) && (depth == 8 || depth == 16))
        || colour == PNG_COLOR_TYPE_PALETTE;
    if ((!grey && !rgb) || png_get_eXIf_1(png, info, &exif_length, &exif) || text_count > TEXT_CHUNKS_KEPT) {
        snprintf(picture->message, sizeof picture->message,
            "colour type %d, %d bits, %s, %d text chunks: libvips' to read", colour, depth,
            exif ? "eXIf" : "no eXIf", text_count);
        return THUMBS_PNG_NOT_HANDLED;
    }
    if ((uint64_t) width * height > pixel_limit) {
        snprintf(picture->message, sizeof picture->message, "%ux%u pixels is over the limit of %zu", width,
            height, pixel_limit);
        return THUMBS_PNG_TOO_LARGE;
    }
    /* libvips' own calls (read_new_header): a tRNS chunk libpng found valid becomes an alpha
     * band; colour types with alpha keep theirs. */
    int alpha = transparent || colour == PNG_COLOR_TYPE_GRAY_ALPHA || colour == PNG_COLOR_TYPE_RGB_ALPHA;
    if (colour == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (transparent)
        png_set_tRNS_to_alpha(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    /* The high byte of every band, alpha's too: vips_cast with shift, libvips' RGB16 to sRGB. */
    if (depth == 16)
        png_set_strip_16(png);
    (void) png_set_interlace_handling(png);
    png_read_update_info(png, info);
    picture->width = (int) width;
    picture->height = (int) height;
    picture->bands = (grey ? 1 : 3) + alpha;
    picture->interlaced = interlace != PNG_INTERLACE_NONE;
    if (png_get_rowbytes(png, info) != (size_t) width * (size_t) picture->bands) {
        snprintf(picture->message, sizeof picture->message, "unable to read PNG header");
        return THUMBS_PNG_FAILED;
    }
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) && profile_length > 0) {
        if (!(picture->icc = malloc(profile_length)))
            png_error(png, "out of memory");
        memcpy(picture->icc, profile, profile_length);
        picture->icc_length = profile_length;
    }
    /* libvips keeps the last XMP packet of its text chunks. */
    for (int i = 0; i < text_count; i++) {
        if (strcmp(texts[i].key, "XML:com.adobe.xmp") != 0)
            continue;
        size_t length = strlen(texts[i].text);
        free(picture->xmp);
        picture->xmp = NULL;
        if (!(picture->xmp = malloc(length + 1)))
            png_error(png, "out of memory");
        memcpy(picture->xmp, texts[i].text, length + 1);
        picture->xmp_length = length;
    }
    return THUMBS_PNG_DECODED;
}

static int decode(png_structp png, png_infop info, decoder *d, size_t pixel_limit, int header_only) {
    if (setjmp(png_jmpbuf(png)))
        return THUMBS_PNG_FAILED;
    /* libvips' settings (pngload): profiles libpng thinks are wrong sRGB ones are kept, zlib's
     * checksums are not checked, and its limits on sides and chunks. */
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    png_set_user_limits(png, SIDE_MOST, SIDE_MOST);
    png_set_chunk_malloc_max(png, CHUNK_BYTES_MOST);
    png_set_chunk_cache_max(png, CHUNKS_CACHED_MOST);
    png_set_read_fn(png, d, read_bytes);
    int status = read_header(png, info, d, pixel_limit);
    if (status != THUMBS_PNG_DECODED || header_only)
        return status;
    thumbs_png_picture *picture = d->picture;
    size_t stride = (size_t) picture->width * (size_t) picture->bands;
    if (!(picture->pixels = malloc(stride * (size_t) picture->height))
        || !(d->rows = malloc(sizeof(png_bytep) * (size_t) picture->height)))
        png_error(png, "out of memory");
    for (int y = 0; y < picture->height; y++)
        d->rows[y] = picture->pixels + (size_t) y * stride;
    /* Every row (every pass of an interlaced file); the chunks after them are never read, as
     * libvips never reads them. */
    png_read_image(png, d->rows);
    return THUMBS_PNG_DECODED;
}

/* Frees what `picture` holds and empties it, keeping its message. */
static void release(thumbs_png_picture *picture) {
    free(picture->pixels);
    free(picture->icc);
    free(picture->xmp);
    picture->pixels = picture->icc = NULL;
    picture->xmp = NULL;
    picture->icc_length = picture->xmp_length = 0;
    picture->width = picture->height = picture->bands = picture->interlaced = 0;
}

int thumbs_png_decode(int descriptor, size_t pixel_limit, int header_only, thumbs_png_picture *picture) {
    memset(picture, 0, sizeof *picture);
    decoder d = { .descriptor = descriptor, .picture = picture };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d, fail, warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int status = THUMBS_PNG_FAILED;
    if (!info)
        snprintf(picture->message, sizeof picture->message, "out of memory");
    else
        status = decode(png, info, &d, pixel_limit, header_only);
    png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
    free(d.rows);
    if (status != THUMBS_PNG_DECODED)
        release(picture);
    return status;
}

void thumbs_png_free(thumbs_png_picture *picture) {
    release(picture);
    picture->message[0] = 0;
}

unsigned char *thumbs_png_iccp_profile(int descriptor, long long offset, size_t length, size_t limit,
    size_t *profile_length) {
    if (length < 3 || length > limit || offset < 0)
        return NULL;
    unsigned char *data = malloc(length), *profile = NULL;
    size_t got = 0;
    while (data && got < length) {
        ssize_t count = pread(descriptor, data + got, length - got, (off_t) offset + (off_t) got);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            break;
        got += (size_t) count;
    }
    /* A name of 1 to 79 bytes, its terminating zero, then compression method 0 (deflate). */
    size_t name = data && got == length ? strnlen((const char *) data, length) : length;
    if (name < 1 || name > 79 || name + 2 > length || data[name + 1] != 0) {
        free(data);
        return NULL;
    }
    z_stream stream = { .next_in = data + name + 2, .avail_in = (uInt) (length - name - 2) };
    size_t capacity = 0, size = 0;
    int started = inflateInit(&stream) == Z_OK;
    int status = started ? Z_OK : Z_STREAM_ERROR;
    while (status == Z_OK) {
        if (size == capacity) {
            size_t larger = capacity ? capacity * 2 : 4096;
            unsigned char *grown = larger <= limit ? realloc(profile, larger) : NULL;
            if (!grown) {
                status = Z_MEM_ERROR;
                break;
            }
            profile = grown;
            capacity = larger;
        }
        stream.next_out = profile + size;
        stream.avail_out = (uInt) (capacity - size);
        status = inflate(&stream, Z_NO_FLUSH);
        size = capacity - stream.avail_out;
        /* Out of room, not of input: grow and go on. */
        if (status == Z_BUF_ERROR && size == capacity)
            status = Z_OK;
    }
    if (started)
        inflateEnd(&stream);
    free(data);
    if (status != Z_STREAM_END) {
        free(profile);
        return NULL;
    }
    *profile_length = size;
    return profile;
}
