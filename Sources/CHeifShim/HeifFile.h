/* A HEIF file opened for a decode: read whole into memory, libheif's context over it and its
 * primary image (HeifFile.c). */
#ifndef THUMBS_HEIF_FILE_H
#define THUMBS_HEIF_FILE_H

#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *file;
    size_t length;
    struct heif_context *context;
    struct heif_image_handle *primary;
} opened_heif;

/* Opens the file of `descriptor` (with pread); 0 when it is too large or libheif cannot read it,
 * what was opened then released by close_heif all the same. Files over 256 MB are left to
 * libvips' loader, which reads them through libheif's reader rather than whole into memory: a
 * photo's HEIF is a few megabytes. */
int open_heif(int descriptor, opened_heif *opened);

void close_heif(opened_heif *opened);

#endif
