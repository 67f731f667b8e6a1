#include "CJpegShim.h"

#include <errno.h>
#include <setjmp.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CFileAccess.h"
#include "JpegErrors.h"

/* The file read with pread from offset 0 in blocks, so the descriptor's own offset (shared with
 * the other reads of the render) is never moved. */
typedef struct {
    struct jpeg_source_mgr manager;
    int descriptor;
    off_t offset;
    /* Whether the end of the file is a warning, the picture ending there, rather than an error. */
    int end_warns;
    JOCTET block[64 * 1024];
} descriptor_source;

typedef struct {
    struct jpeg_decompress_struct info;
    jpeg_errors errors;
    descriptor_source source;
    /* The file without the scans the decode never reads (see needed_scans), or NULL. */
    unsigned char *needed;
    size_t needed_length;
    int created;
} decoder;

static void source_start(j_decompress_ptr info) {
    (void) info;
}

static boolean source_fill(j_decompress_ptr info) {
    descriptor_source *source = (descriptor_source *) info->src;
    ssize_t count;
    do
        count = pread(source->descriptor, source->block, sizeof source->block, source->offset);
    while (count < 0 && errno == EINTR);
    if (count < 0)
        jpeg_errors_fail((j_common_ptr) info, strerror(errno));
    if (count == 0 && source->end_warns) {
        /* As libvips' loader ends a file read past its damage: a warning, and an end marker. */
        static const JOCTET end_marker[2] = { 0xFF, JPEG_EOI };
        WARNMS(info, JWRN_JPEG_EOF);
        source->manager.next_input_byte = end_marker;
        source->manager.bytes_in_buffer = sizeof end_marker;
        return TRUE;
    }
    if (count == 0)
        jpeg_errors_fail((j_common_ptr) info, "premature end of input file");
    source->offset += count;
    source->manager.next_input_byte = source->block;
    source->manager.bytes_in_buffer = (size_t) count;
    return TRUE;
}

static void source_skip(j_decompress_ptr info, long count) {
    descriptor_source *source = (descriptor_source *) info->src;
    if (count <= 0)
        return;
    if ((size_t) count <= source->manager.bytes_in_buffer) {
        source->manager.next_input_byte += count;
        source->manager.bytes_in_buffer -= (size_t) count;
    } else {
        source->offset += (off_t) (count - (long) source->manager.bytes_in_buffer);
        source->manager.bytes_in_buffer = 0;
    }
}

static void source_end(j_decompress_ptr info) {
    (void) info;
}

/* Where the entropy-coded data that starts at `start` ends: at the first marker that is neither
 * a stuffed 0xFF 0x00 nor a restart marker. `length` when there is none. */
static size_t scan_data_end(const unsigned char *bytes, size_t length, size_t start) {
    size_t at = start;
    for (;;) {
        const unsigned char *found = at < length ? memchr(bytes + at, 0xFF, length - at) : NULL;
        if (!found || (size_t) (found - bytes) + 1 >= length)
            return length;
        at = (size_t) (found - bytes);
        unsigned char next = bytes[at + 1];
        if (next == 0x00 || (next >= 0xD0 && next <= 0xD7))
            at += 2;
        else
            return at;
    }
}

/* Removes, in place, the scans of a progressive JPEG that carry AC coefficients of components
 * listed in `dc_only` (by component id) and of no other component; returns the new length, and
 * sets `dropped` when a scan was removed. Returns 0, leaving the bytes unusable, when the file is
 * not a well-formed sequence of segments ending with EOI (a damaged file is decoded whole, so
 * that libjpeg judges the damage). Everything after EOI (an MPF image, a gain map) goes too.
 *
 * A component decoded at 1/8 of its size is made by the 1x1 IDCT, from its DC coefficient alone,
 * and a DC scan carries nothing else; a component that needs any AC coefficient keeps all its
 * scans, so that each refinement scan still follows every scan it refines. */
static size_t drop_ac_scans(unsigned char *bytes, size_t length, const unsigned char dc_only[256], int *dropped) {
    if (length < 4 || bytes[0] != 0xFF || bytes[1] != 0xD8)
        return 0;
    size_t read = 2, write = 2;
    for (;;) {
        if (read + 2 > length || bytes[read] != 0xFF)
            return 0;
        unsigned char marker = bytes[read + 1];
        if (marker == 0xFF) {  // a fill byte before a marker
            read++;
            continue;
        }
        if (marker == 0xD9) {
            bytes[write++] = 0xFF;
            bytes[write++] = 0xD9;
            return write;
        }
        size_t end = read + 2;
        if (marker != 0x01 && !(marker >= 0xD0 && marker <= 0xD7)) {  // not a marker standing alone
            if (read + 4 > length)
                return 0;
            end += ((size_t) bytes[read + 2] << 8) | bytes[read + 3];
            if (end - read < 4 || end > length)
                return 0;
        }
        int keep = 1;
        if (marker == 0xDA) {
            /* SOS: Ns, Ns × (Cs, Td|Ta), Ss, Se, Ah|Al; the entropy-coded data follows. */
            if (end - read < 2 + 6 + 2)
                return 0;
            size_t components = bytes[read + 4];
            if (end - read != 2 + 6 + 2 * components)
                return 0;
            if (bytes[read + 5 + 2 * components] > 0) {  // Ss > 0: AC coefficients
                keep = 0;
                for (size_t index = 0; index < components; index++)
                    if (!dc_only[bytes[read + 5 + 2 * index]])
                        keep = 1;
            }
            end = scan_data_end(bytes, length, end);
            if (end == length)
                return 0;
            if (!keep)
                *dropped = 1;
        }
        if (keep) {
            memmove(bytes + write, bytes + read, end - read);
            write += end - read;
        }
        read = end;
    }
}

/* The file without the scans a decode at the scale set in `info` never reads, or NULL when it
 * would lose none (or is not well formed). For a progressive JPEG at 1/8, that is every AC scan
 * of the luma (and of the chroma too when it is not subsampled): most of the file, and most of
 * the Huffman decoding, while the picture stays the same as the full decode's. */
static unsigned char *needed_scans(j_decompress_ptr info, int descriptor, size_t *length) {
    jpeg_calc_output_dimensions(info);
    unsigned char dc_only[256] = {0};
    int any = 0;
    for (int index = 0; index < info->num_components; index++)
        if (info->comp_info[index].DCT_scaled_size == 1) {
            dc_only[info->comp_info[index].component_id & 0xFF] = 1;
            any = 1;
        }
    if (!any)
        return NULL;
    /* A file that cannot be read whole is decoded from the descriptor as usual, and meets the same
     * error there. */
    unsigned char *bytes = thumbs_read_whole_file(descriptor, SIZE_MAX, length);
    if (!bytes)
        return NULL;
    int dropped = 0;
    *length = drop_ac_scans(bytes, *length, dc_only, &dropped);
    if (*length == 0 || !dropped) {
        free(bytes);
        return NULL;
    }
    return bytes;
}

/* The output settings of a decode at 1/`scale_denominator`: RGB or grey, 8 bits. */
static void set_output(j_decompress_ptr info, int scale_denominator) {
    info->out_color_space = info->jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
    info->scale_num = 1;
    info->scale_denom = (unsigned int) scale_denominator;
}

/* A decode from `descriptor`, or from `bytes` in memory when they are given (the descriptor is
 * then unused, and no scan is skipped). */
static int decode(int descriptor, const unsigned char *bytes, size_t length, int scale_denominator,
    int skip_unneeded_scans, int past_damage, thumbs_jpeg_picture *picture) {
    memset(picture, 0, sizeof *picture);
    decoder *state = calloc(1, sizeof *state);
    if (!state) {
        snprintf(picture->message, sizeof picture->message, "out of memory");
        return THUMBS_JPEG_FAILED;
    }
    struct jpeg_decompress_struct *info = &state->info;
    /* libvips' loader's rule for damage (jpeg2vips.c, fail_on=truncated): a warning (libjpeg
     * says "corrupt data" with one, and fills the gap with grey) lets the decode go on, the
     * 100th fails it; the end of the file before the end of the picture fails it too
     * (source_fill). The pixels are then the loader's. The 100th warning hands the file to
     * libvips' loader, which fails it and reads it again past its damage, as a partial
     * thumbnail of a settled file. A progressive file decoded at 1/8 without the AC scans
     * never meets their damage: that is counted in none of its warnings. An unreadable ICC
     * profile is a warning too: the photo is then taken as sRGB. `past_damage` is the rule of
     * its fail_on=none and unlimited: no number of warnings, nor the end of the file, stops it. */
    jpeg_errors_install(&state->errors, (j_common_ptr) info, picture->message, sizeof picture->message);
    state->errors.warnings_limit = past_damage ? 0 : 100;
    state->source.end_warns = past_damage;
    volatile int result = THUMBS_JPEG_FAILED;
    if (setjmp(state->errors.jump)) {
        if (state->errors.stopped_by_warning)
            result = THUMBS_JPEG_NOT_HANDLED;
        goto finish;
    }

    jpeg_create_decompress(info);
    state->created = 1;
    if (bytes) {
        jpeg_mem_src(info, bytes, (unsigned long) length);
        skip_unneeded_scans = 0;
    } else {
        state->source.descriptor = descriptor;
        state->source.manager.init_source = source_start;
        state->source.manager.fill_input_buffer = source_fill;
        state->source.manager.skip_input_data = source_skip;
        state->source.manager.resync_to_restart = jpeg_resync_to_restart;
        state->source.manager.term_source = source_end;
        info->src = &state->source.manager;
    }
    jpeg_save_markers(info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(info, TRUE);

    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        result = THUMBS_JPEG_NOT_HANDLED;
        goto finish;
    }
    set_output(info, scale_denominator);
    if (skip_unneeded_scans && info->progressive_mode && scale_denominator == 8) {
        state->needed = needed_scans(info, descriptor, &state->needed_length);
        if (state->needed) {
            /* The header again, from the bytes kept. Smoothing guesses missing coefficients from
             * the neighbouring blocks: the full decode has them all and does not smooth. */
            jpeg_abort_decompress(info);
            info->src = NULL;
            jpeg_mem_src(info, state->needed, (unsigned long) state->needed_length);
            jpeg_read_header(info, TRUE);
            set_output(info, scale_denominator);
            info->do_block_smoothing = FALSE;
            picture->scans_skipped = 1;
        }
    }
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    boolean has_icc = jpeg_read_icc_profile(info, &icc, &icc_length);
    if (has_icc) {
        picture->icc = icc;
        picture->icc_length = icc_length;
    }

    jpeg_start_decompress(info);
    size_t stride = (size_t) info->output_width * (size_t) info->output_components;
    if (info->output_height == 0 || stride / info->output_components != info->output_width ||
        stride > SIZE_MAX / info->output_height) {
        snprintf(picture->message, sizeof picture->message, "invalid image size");
        goto finish;
    }
    picture->pixels = malloc(stride * info->output_height);
    if (!picture->pixels) {
        snprintf(picture->message, sizeof picture->message, "out of memory");
        goto finish;
    }
    picture->bands = info->output_components;
    while (info->output_scanline < info->output_height) {
        JSAMPROW rows[16];
        JDIMENSION wanted = info->output_height - info->output_scanline;
        if (wanted > 16)
            wanted = 16;
        for (JDIMENSION row = 0; row < wanted; row++)
            rows[row] = picture->pixels + stride * (info->output_scanline + row);
        jpeg_read_scanlines(info, rows, wanted);
    }
    jpeg_finish_decompress(info);
    picture->warnings = info->err->num_warnings;
    /* libjpeg rounds a scaled size up, making a last column and row from partial blocks;
     * libvips' loader rounds down. Rounding down here too keeps thumbnails the same, whichever
     * decoder made them. */
    JDIMENSION width = info->image_width / (JDIMENSION) scale_denominator;
    JDIMENSION height = info->image_height / (JDIMENSION) scale_denominator;
    picture->width = (int) (width > 0 ? width : 1);
    picture->height = (int) (height > 0 ? height : 1);
    size_t row_length = (size_t) picture->width * (size_t) picture->bands;
    if (row_length < stride)
        for (int row = 1; row < picture->height; row++)
            memmove(picture->pixels + row_length * row, picture->pixels + stride * row, row_length);
    result = THUMBS_JPEG_DECODED;

finish:
    if (state->created)
        jpeg_destroy_decompress(info);
    free(state->needed);
    free(state);
    if (result != THUMBS_JPEG_DECODED) {
        char message[sizeof picture->message];
        memcpy(message, picture->message, sizeof message);
        thumbs_jpeg_free(picture);
        memcpy(picture->message, message, sizeof message);
    }
    return result;
}

int thumbs_jpeg_decode(int descriptor, int scale_denominator, int skip_unneeded_scans, int past_damage,
    thumbs_jpeg_picture *picture) {
    return decode(descriptor, NULL, 0, scale_denominator, skip_unneeded_scans, past_damage, picture);
}

int thumbs_jpeg_decode_bytes(const unsigned char *bytes, size_t length, int scale_denominator,
    thumbs_jpeg_picture *picture) {
    if (!bytes || length == 0 || length > ULONG_MAX) {
        memset(picture, 0, sizeof *picture);
        snprintf(picture->message, sizeof picture->message, "no JPEG bytes");
        return THUMBS_JPEG_FAILED;
    }
    return decode(-1, bytes, length, scale_denominator, 0, 0, picture);
}

void thumbs_jpeg_free(thumbs_jpeg_picture *picture) {
    free(picture->pixels);
    free(picture->icc);
    memset(picture, 0, sizeof *picture);
}
