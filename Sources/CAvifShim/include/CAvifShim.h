// AVIF image sequences (animated AVIF), whose frames are a track that libheif 1.15 does not
// read: what their header says and their first frame, through libavif.
//
// Each call reads the whole file from `descriptor` (pread; no path is opened) and decodes with a
// libavif decoder of its own, on one thread, freed before it returns. What went wrong is written
// to `message` (always NUL-terminated when message_size > 0).
#ifndef THUMBS_CAVIFSHIM_H
#define THUMBS_CAVIFSHIM_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    THUMBS_AVIF_OK = 0,
    /// The file could not be read, or is larger than an animated picture may be.
    THUMBS_AVIF_UNREADABLE,
    /// libavif does not read this file (a feature or codec it lacks).
    THUMBS_AVIF_UNSUPPORTED,
    /// The file ends before its data does.
    THUMBS_AVIF_TRUNCATED,
    /// The data is damaged.
    THUMBS_AVIF_CORRUPT,
    /// The picture is larger than the caller's pixel limit.
    THUMBS_AVIF_TOO_LARGE,
    THUMBS_AVIF_NO_MEMORY,
} thumbs_avif_status;

typedef struct {
    /// The size of a frame as stored (before its rotation and mirroring).
    int32_t width, height;
    /// The EXIF orientation (1...8) the sequence's rotation (irot) and mirroring (imir) amount to.
    int32_t exif_orientation;
    /// How many frames the sequence has.
    int32_t frame_count;
    /// 1 when the frames have alpha.
    int32_t has_alpha;
    /// Bits per sample (8, 10 or 12).
    int32_t depth;
} thumbs_avif_info;

typedef struct {
    /// The first frame as 8-bit RGB, or RGBA when it has alpha (`bands`), rows tightly packed; to
    /// free with free().
    unsigned char *pixels;
    int32_t width, height, bands;
    /// The frame's ICC profile (NULL when it has none), to free with free().
    unsigned char *icc;
    size_t icc_length;
} thumbs_avif_frame;

/// What the sequence's header says, decoding nothing; refuses frames of more than `pixel_limit`
/// pixels.
thumbs_avif_status thumbs_avif_probe(int descriptor, int64_t pixel_limit, thumbs_avif_info *info, char *message,
    size_t message_size);

/// The sequence's first frame, as stored (its orientation in `info`, not applied).
thumbs_avif_status thumbs_avif_first_frame(int descriptor, int64_t pixel_limit, thumbs_avif_info *info,
    thumbs_avif_frame *frame, char *message, size_t message_size);

/// libavif's version, e.g. "0.11.1"; opens nothing (call once libavif is open).
const char *thumbs_avif_library_version(void);

#endif
