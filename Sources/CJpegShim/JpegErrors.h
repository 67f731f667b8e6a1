#ifndef THUMBS_JPEG_ERRORS_H
#define THUMBS_JPEG_ERRORS_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

/* libjpeg reports errors by calling error_exit, which must not return: it jumps back to the
 * setjmp of the decode or encode with the message kept. Warnings are counted, and stop the
 * work at the `warnings_limit`th (never when it is 0: the decoder's choice, see JpegDecoder.c). */
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t capacity;
    long warnings_limit;
    int stopped_by_warning;
} jpeg_errors;

static void jpeg_errors_fail(j_common_ptr info, const char *message) {
    jpeg_errors *errors = (jpeg_errors *) info->err;
    snprintf(errors->message, errors->capacity, "%s", message);
    longjmp(errors->jump, 1);
}

static void jpeg_errors_on_error(j_common_ptr info) {
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    jpeg_errors_fail(info, text);
}

static void jpeg_errors_on_message(j_common_ptr info, int level) {
    jpeg_errors *errors = (jpeg_errors *) info->err;
    if (level < 0) {
        long count = ++info->err->num_warnings;
        if (errors->warnings_limit > 0 && count >= errors->warnings_limit) {
            errors->stopped_by_warning = 1;
            jpeg_errors_on_error(info);
        }
    }
    /* Trace messages (level >= 0) are never printed. */
}

/* Makes `errors` the error manager of `info` (before jpeg_create_*), messages going into
 * `message`. The caller sets `errors->jump` with setjmp before its first libjpeg call. */
static void jpeg_errors_install(jpeg_errors *errors, j_common_ptr info, char *message, size_t capacity) {
    info->err = jpeg_std_error(&errors->manager);
    errors->manager.error_exit = jpeg_errors_on_error;
    errors->manager.emit_message = jpeg_errors_on_message;
    errors->message = message;
    errors->capacity = capacity;
}

#endif
