#include "CJpegShim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>

/* libjpeg reports errors by calling error_exit, which must not return: it jumps back to the
 * decode's setjmp with the message kept. A warning (libjpeg says "corrupt data" with one, and
 * fills the gap with grey) stops the decode too, and hands the file to libvips' loader: which
 * damage a file may have and still make a thumbnail is then libvips' rule, whichever decoder
 * would have read it. Damaged files are rare; reading one twice costs little. An unreadable ICC
 * profile is the exception: the photo is then taken as sRGB. */
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t capacity;
    int warnings_stop;
    int stopped_by_warning;
} decoder_errors;

/* The file read with pread from offset 0 in blocks, so the descriptor's own offset (shared with
 * the other reads of the render) is never moved. */
typedef struct {
    struct jpeg_source_mgr manager;
    int descriptor;
    off_t offset;
    JOCTET block[64 * 1024];
} descriptor_source;

typedef struct {
    struct jpeg_decompress_struct info;
    decoder_errors errors;
    descriptor_source source;
    int created;
} decoder;

static void fail(j_common_ptr info, const char *message) {
    decoder_errors *errors = (decoder_errors *) info->err;
    snprintf(errors->message, errors->capacity, "%s", message);
    longjmp(errors->jump, 1);
}

static void on_error(j_common_ptr info) {
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    fail(info, text);
}

static void on_message(j_common_ptr info, int level) {
    decoder_errors *errors = (decoder_errors *) info->err;
    if (level < 0) {
        info->err->num_warnings++;
        if (errors->warnings_stop) {
            errors->stopped_by_warning = 1;
            on_error(info);
        }
    }
    /* Trace messages (level >= 0) are never printed. */
}

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
        fail((j_common_ptr) info, strerror(errno));
    if (count == 0)
        fail((j_common_ptr) info, "premature end of input file");
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

/* The natural (row-major) position of each coefficient in the order a JPEG stores them: the
 * zigzag of the JPEG standard (ITU T.81, figure 5). */
static const unsigned char natural_of_zigzag[DCTSIZE2] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

/* Whether every coefficient the scaled IDCTs read is complete. A component scaled to k x k
 * samples per block reads the k x k lowest frequencies: the DC alone at k = 1, the luma of a
 * 1/8 decode; but 4:2:0 chroma at 1/8 gets k = 2, so that it needs no upsampling, and reads
 * three AC coefficients too. `precision[c][z]` is the Al of the last scan read that carried
 * coefficient z of component c, -1 before any: complete at 0. */
static int needed_coefficients_complete(j_decompress_ptr info, int precision[][DCTSIZE2]) {
    for (int index = 0; index < info->num_components; index++) {
        int size = info->comp_info[index].DCT_scaled_size;
        for (int zigzag = 0; zigzag < DCTSIZE2; zigzag++) {
            int natural = natural_of_zigzag[zigzag];
            if (natural / DCTSIZE < size && natural % DCTSIZE < size && precision[index][zigzag] != 0)
                return 0;
        }
    }
    return 1;
}

/* Reads scans until the coefficients the output needs are complete; returns the number of the
 * last scan read. The scans left refine frequencies a scaled decode never reads. */
static int read_needed_scans(j_decompress_ptr info) {
    int precision[MAX_COMPONENTS][DCTSIZE2];
    for (int index = 0; index < MAX_COMPONENTS; index++)
        for (int zigzag = 0; zigzag < DCTSIZE2; zigzag++)
            precision[index][zigzag] = -1;
    for (;;) {
        /* The header of scan `input_scan_number` has been read; its data has not. */
        if (needed_coefficients_complete(info, precision))
            return info->input_scan_number - 1;
        for (int index = 0; index < info->comps_in_scan; index++)
            for (int zigzag = info->Ss; zigzag <= info->Se && zigzag < DCTSIZE2; zigzag++)
                precision[info->cur_comp_info[index]->component_index][zigzag] = info->Al;
        int status;
        do
            status = jpeg_consume_input(info);
        while (status != JPEG_REACHED_SOS && status != JPEG_REACHED_EOI);
        if (status == JPEG_REACHED_EOI)
            return info->input_scan_number;
    }
}

int thumbs_jpeg_decode(int descriptor, int scale_denominator, int skip_unneeded_scans,
    thumbs_jpeg_picture *picture) {
    memset(picture, 0, sizeof *picture);
    decoder *state = calloc(1, sizeof *state);
    if (!state) {
        snprintf(picture->message, sizeof picture->message, "out of memory");
        return THUMBS_JPEG_FAILED;
    }
    struct jpeg_decompress_struct *info = &state->info;
    info->err = jpeg_std_error(&state->errors.manager);
    state->errors.manager.error_exit = on_error;
    state->errors.manager.emit_message = on_message;
    state->errors.warnings_stop = 1;
    state->errors.message = picture->message;
    state->errors.capacity = sizeof picture->message;
    volatile int result = THUMBS_JPEG_FAILED;
    if (setjmp(state->errors.jump)) {
        if (state->errors.stopped_by_warning)
            result = THUMBS_JPEG_NOT_HANDLED;
        goto finish;
    }

    jpeg_create_decompress(info);
    state->created = 1;
    state->source.descriptor = descriptor;
    state->source.manager.init_source = source_start;
    state->source.manager.fill_input_buffer = source_fill;
    state->source.manager.skip_input_data = source_skip;
    state->source.manager.resync_to_restart = jpeg_resync_to_restart;
    state->source.manager.term_source = source_end;
    info->src = &state->source.manager;
    jpeg_save_markers(info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(info, TRUE);

    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        result = THUMBS_JPEG_NOT_HANDLED;
        goto finish;
    }
    info->out_color_space = info->jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
    info->scale_num = 1;
    info->scale_denom = (unsigned int) scale_denominator;
    int partial = skip_unneeded_scans && info->progressive_mode && scale_denominator > 1;
    if (partial) {
        info->buffered_image = TRUE;
        /* Smoothing guesses missing coefficients from the neighbouring blocks; the full decode
         * has them all and does not smooth, and the output never reads the ones left out. */
        info->do_block_smoothing = FALSE;
    }
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    state->errors.warnings_stop = 0;
    boolean has_icc = jpeg_read_icc_profile(info, &icc, &icc_length);
    state->errors.warnings_stop = 1;
    if (has_icc) {
        picture->icc = icc;
        picture->icc_length = icc_length;
    }

    jpeg_start_decompress(info);
    if (partial) {
        /* Output from a scan the input has finished: the output never waits for more input. */
        int last_read = read_needed_scans(info);
        if (!jpeg_input_complete(info))
            picture->scans_skipped = 1;
        jpeg_start_output(info, last_read);
    }
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
    if (partial) {
        jpeg_finish_output(info);
        /* The scans left are not needed: stop reading. */
        jpeg_abort_decompress(info);
    } else {
        jpeg_finish_decompress(info);
    }
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
    free(state);
    if (result != THUMBS_JPEG_DECODED) {
        char message[sizeof picture->message];
        memcpy(message, picture->message, sizeof message);
        thumbs_jpeg_free(picture);
        memcpy(picture->message, message, sizeof message);
    }
    return result;
}

void thumbs_jpeg_free(thumbs_jpeg_picture *picture) {
    free(picture->pixels);
    free(picture->icc);
    memset(picture, 0, sizeof *picture);
}
