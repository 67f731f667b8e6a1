#ifndef THUMBS_HEIF_ORIENTATION_H
#define THUMBS_HEIF_ORIENTATION_H

#include <stddef.h>

enum { THUMBS_HEIF_ORIENTATION_UNKNOWN = 0 };

/* The primary image's rotation (irot) and mirroring (imir), read from the HEIF file `file`, as
 * the EXIF orientation (1...8) that turns the stored picture upright: what libheif applies when
 * it decodes with its transformations. THUMBS_HEIF_ORIENTATION_UNKNOWN when the boxes cannot
 * be read, or when the image is also cropped (clap), which no orientation expresses. */
int thumbs_heif_orientation(const void *file, size_t length);

#endif
