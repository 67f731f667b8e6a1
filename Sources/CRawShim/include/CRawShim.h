// A small C API over LibRaw (0.20, the thread-safe libraw_r) for camera raw files that libvips
// cannot read: what the header says, the embedded preview, and a half-size decode.
//
// Every call opens the file afresh with a LibRaw instance of its own and frees it before
// returning, so calls on different threads never share state. LibRaw prints nothing: its
// default error callbacks (which write to stderr) are turned off, and what went wrong is
// written to `message` (always NUL-terminated when message_size > 0; may be NULL).
//
// The file is read through `descriptor`, mapped into memory: no path is opened.
#ifndef THUMBS_CRAWSHIM_H
#define THUMBS_CRAWSHIM_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    THUMBS_RAW_OK = 0,
    /// The file could not be opened or read (message says why).
    THUMBS_RAW_UNREADABLE,
    /// LibRaw does not know this file, camera or compression (a GoPro GPR, a JPEG XL DNG in
    /// LibRaw 0.20, or not a raw file at all), or refuses its size.
    THUMBS_RAW_UNSUPPORTED,
    /// The data is damaged or truncated.
    THUMBS_RAW_CORRUPT,
    /// The file has no embedded preview LibRaw can extract, or it is unusable (not a whole
    /// JPEG, a bitmap too short); the raw data may still decode.
    THUMBS_RAW_NO_PREVIEW,
    /// The time limit passed during a decode.
    THUMBS_RAW_TIMED_OUT,
    THUMBS_RAW_NO_MEMORY,
} thumbs_raw_status;

typedef struct {
    /// The size of a full decode before the orientation is applied: sensor area, with LibRaw's
    /// stretch for non-square pixels already counted (a Kodak DC120's 848×976 is 1301×976).
    int32_t width, height;
    /// The photo's EXIF orientation (1...8), from LibRaw's flip. The embedded preview still
    /// needs it; thumbs_raw_half_decode applies it itself.
    int32_t exif_orientation;
    /// As LibRaw normalises them ("Canon", "PowerShot G2"); NUL-terminated.
    char make[64], model[64];
    /// When the photo was taken, in seconds since 1970, from a camera clock that knows no time
    /// zone (LibRaw ran mktime on it: the local time of this process); 0 when there is none.
    int64_t timestamp;
    /// The largest embedded preview (LibRaw 0.20 exposes no other): 0 none, 1 JPEG, 2 bitmap,
    /// 3 present but of a kind LibRaw learns only by extracting it, which the probe does not do.
    /// LibRaw 0.20 says 3 for every preview here; thumbs_raw_preview tells (is_jpeg).
    int32_t preview_format;
    /// Its size as stored (not rotated) and as the file's header says; 0 when unknown.
    int32_t preview_width, preview_height;
    /// Pixel width over height of the sensor (1 almost always; width/height above include it).
    double pixel_aspect;
    /// 1 when LibRaw has a decoder for the raw data (thumbs_raw_half_decode can work), else 0.
    int32_t decodable;
    /// 1 for a DNG.
    int32_t is_dng;
} thumbs_raw_info;

typedef struct {
    /// JPEG bytes as stored in the file (is_jpeg), or RGB 8-bit pixels, rows tightly packed
    /// (width * 3 bytes each). Allocated with malloc; release with thumbs_raw_image_free.
    uint8_t *bytes;
    size_t size;
    int32_t is_jpeg;
    /// Of the pixels; for a JPEG, the size the raw file's header gives it (decode it to be sure).
    int32_t width, height;
    /// The orientation still to apply to these pixels (1 when already upright). A JPEG preview
    /// must be decoded without honouring any orientation tag of its own, then turned by this.
    int32_t exif_orientation;
} thumbs_raw_image;

/// Opens the file and reads what its header says, decoding nothing (a millisecond or so).
thumbs_raw_status thumbs_raw_probe(int descriptor, thumbs_raw_info *info,
    char *message, size_t message_size);

/// The largest embedded preview, as the JPEG bytes stored in the file (not re-encoded; only
/// padding after the end marker is dropped) or as an RGB bitmap; no raw data is decoded.
/// A JPEG is checked to be whole (markers from start to end): LibRaw reads a preview cut off by
/// a truncated file without noticing. A bitmap cannot be checked so.
thumbs_raw_status thumbs_raw_preview(int descriptor, thumbs_raw_image *image,
    char *message, size_t message_size);

/// Decodes the raw data at half size (each 2×2 block of the sensor one pixel, no demosaicing),
/// with the camera's white balance, to 8-bit sRGB, upright (exif_orientation 1) and with
/// non-square pixels stretched to square: the pixels dcraw_emu -h -w writes. For when no
/// preview is large enough. The whole raw is read and decoded, so the cost grows with the
/// sensor: on one core, about 15 ms for 0.8 MP (Kodak KDC), 100 ms for 4 MP (Canon CRW),
/// 260 ms for an uncompressed 24 MP DNG.
///
/// `time_limit_seconds` (<= 0 for none) is checked between LibRaw's processing stages, so a
/// decode stops with THUMBS_RAW_TIMED_OUT at the first stage boundary past the limit; a single
/// stage (reading the raw data is one) is not interrupted and can overrun it.
thumbs_raw_status thumbs_raw_half_decode(int descriptor, double time_limit_seconds,
    thumbs_raw_image *image, char *message, size_t message_size);

/// Frees image->bytes and zeroes the struct; safe on a zeroed or already freed image.
void thumbs_raw_image_free(thumbs_raw_image *image);

/// The LibRaw version linked at run time, e.g. "0.20.2-Release"; a static string.
const char *thumbs_raw_library_version(void);

#endif
