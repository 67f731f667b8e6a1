// Fixed-arity wrappers around the variadic parts of libvips.
//
// Swift cannot call C functions that take `...`, and much of libvips' API passes its optional
// arguments that way (`vips_thumbnail(name, &out, width, "height", h, NULL)`). Each function here
// calls exactly one such libvips function with a fixed set of options, so the Swift side stays
// typed. All return 0 on success and -1 on failure, with the reason in libvips' error buffer,
// unless documented otherwise. Images returned through `out` are owned by the caller
// (release them with g_object_unref).
#ifndef THUMBS_CVIPSSHIM_H
#define THUMBS_CVIPSSHIM_H

#include <stddef.h>
#include <vips/vips.h>

/// Runs VIPS_INIT (a macro, so not importable), then sets the process-wide policy:
/// `concurrency` worker threads per image, the operation cache off, untrusted loaders blocked,
/// ORC vectorisation off (see the comment in CVipsShim.c).
int thumbs_vips_start(const char *program_name, int concurrency);

/// 1 when this libvips has the loader operation `nickname` (e.g. "dcrawload", LibRaw's loader
/// from libvips 8.18, built in or as a module), else 0. Call after thumbs_vips_start.
int thumbs_vips_has_loader(const char *nickname);

/// Loads libvips' module vips-NAME.so from FOLDER/vips-modules-MAJOR.MINOR (FOLDER being where
/// libvips is), as libvips loads its modules at start: the module registers its operations.
/// 0, or -1 when it cannot be loaded (the reason goes to libvips' error buffer). Call after
/// thumbs_vips_start.
int thumbs_vips_load_module(const char *folder, const char *name);

/// Routes libvips' g_warning output (e.g. "IHDR: CRC error") away from stderr: a damaged file
/// surfaces as a typed error or not at all, never as noise on a user's terminal. While capture
/// is on (see thumbs_vips_capture_warnings) the warnings are kept instead, for an error message.
void thumbs_vips_route_warnings(void);

/// Turns keeping of warnings on (1) or off (0); turning it on discards what was kept before.
void thumbs_vips_capture_warnings(int on);

/// The warnings kept since capture was turned on, one per line, or NULL when there were none.
/// The caller frees the string with g_free.
char *thumbs_vips_take_warnings(void);

// The functions that read a file take an open descriptor, never a path: the caller opened the
// file beneath its library root without following links, and libvips must read that file and
// no other. Each load reads through a VipsSource of its own on the same file (see
// thumbs_source in CVipsShim.c); the caller keeps the descriptor open until the images made
// from it are closed.

/// vips_image_new_from_source() in sequential mode: reads the header only; pixels are decoded
/// lazily. Fails on truncated data, or, with `partial`, on nothing the loader can go past (a
/// GIF's loader reads the whole file with its header). Returns NULL on failure.
VipsImage *thumbs_vips_open_descriptor(int descriptor, int partial);

/// vips_image_new_from_buffer() on a private copy of `data`, in sequential mode, failing on
/// truncated data. libvips reads the buffer lazily, long after this call returns, so the copy
/// lives until the image (and every image derived from it) is closed: the caller's bytes may go
/// away at once. Returns NULL on failure.
VipsImage *thumbs_vips_open_buffer(const void *data, size_t length);

/// vips_jpegload_buffer() of a JPEG held in another file (a camera RAW's preview) at 1/`shrink`
/// scale (1, 2, 4 or 8, by libjpeg's DCT scaling), on a private copy of `data` as
/// thumbs_vips_open_buffer(), in random access (it is turned after loading, which reads it out
/// of order). Its own orientation tag, if any, is not applied: the file that holds it says how
/// it is turned. Returns NULL on failure.
VipsImage *thumbs_vips_open_jpeg_buffer(const void *data, size_t length, int shrink);

/// A copy of `width` x `height` tightly packed 8-bit RGB pixels (a decoded video frame) as an
/// sRGB image. Returns NULL on failure.
VipsImage *thumbs_vips_image_from_rgb(const unsigned char *pixels, int width, int height);

/// `width` x `height` packed 8-bit pixels of `bands` (1: grey, 3: RGB) decoded outside libvips
/// (a JPEG by libjpeg-turbo), as an image that owns them: `pixels`, from malloc, is freed when
/// the image closes, or at once when it cannot be made. `icc` (NULL for none) is copied in as
/// its profile. Returns NULL on failure.
VipsImage *thumbs_vips_image_adopting(unsigned char *pixels, int width, int height, int bands,
    const unsigned char *icc, size_t icc_length);

/// The first pixel of `image`, its rows `*stride` bytes apart, for reading in place: an image
/// not yet in memory (a pipeline) is computed into memory first. Returns NULL on failure.
const unsigned char *thumbs_vips_memory_pixels(VipsImage *image, size_t *stride);

/// vips_heifload() with thumbnail=TRUE: the HEIF's stored thumbnail (or its primary image when
/// it has none; compare the sizes to tell).
int thumbs_vips_heif_thumbnail(int descriptor, VipsImage **out);

/// As thumbs_vips_thumbnail_descriptor for a JPEG, but decoded at 1/`shrink` scale (1, 2, 4 or 8, by
/// libjpeg's DCT scaling) as the caller chose, and opened once instead of twice. With `partial`,
/// also without jpegload's limit of 100 warnings (a bad restart marker gives one per MCU row).
int thumbs_vips_thumbnail_jpeg(int descriptor, int shrink, VipsImage **out,
    int width, int height, int crop, int size, int partial);

/// As thumbs_vips_thumbnail_descriptor for a WebP, but decoded by libwebp at `scale` (at most 1)
/// as the caller chose.
int thumbs_vips_thumbnail_webp(int descriptor, double scale, VipsImage **out,
    int width, int height, int crop, int size, int partial);

/// vips_thumbnail_source(): shrink-on-load from a file, orientation applied, failing on truncated
/// data, or, with `partial`, on nothing the loader can go past (fail_on=none: a truncated or
/// damaged file gives what decoded, the rest as the loader fills it).
/// CMYK is converted to sRGB; an RGB image keeps its embedded profile (such as Display P3), for
/// thumbs_vips_icc_transform to convert. (export_profile is not used: libvips 8.14 then also
/// re-encodes profile-less images, shifting their colours.) `crop` is a VipsInteresting, `size` a
/// VipsSize.
int thumbs_vips_thumbnail_descriptor(int descriptor, VipsImage **out,
    int width, int height, int crop, int size, int partial);

/// vips_thumbnail_buffer() of an encoded image in memory into a `width` x `height` box, only
/// ever shrinking (a smaller image keeps its size), failing on truncated data. libvips reads
/// `data` lazily: the caller keeps it until every image made from it is closed.
int thumbs_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out,
    int width, int height);

/// vips_thumbnail_image() on an already upright image (no_rotate=TRUE), used to derive a smaller
/// rendition from a larger decoded one.
int thumbs_vips_thumbnail_image(VipsImage *in, VipsImage **out,
    int width, int height, int crop, int size);

/// Sets `orientation` (EXIF 1...8) on a copy of `in` and applies it with vips_autorot(). Used for
/// embedded previews, which inherit the orientation of the file that holds them.
int thumbs_vips_orient(VipsImage *in, VipsImage **out, int orientation);

/// 1 when the ICC profile `data` describes sRGB: an RGB matrix/TRC profile whose colorants are
/// sRGB's (within 0.002) and whose three tone curves follow sRGB's (within 0.0015, under half a
/// step of 255), however it is written ('curv' table or 'para' function). 0 otherwise, for a
/// profile built on lookup tables too (IccProfile.c). Reads only inside `length`.
int thumbs_icc_is_srgb(const unsigned char *data, size_t length);

/// 1 when the header of the ICC profile `data` says it describes pictures of `bands` bands (1,
/// grey, or 3, RGB) against the XYZ or Lab connection space, and its tag table fits inside it:
/// what thumbs_srgb_transform_for() needs before lcms reads the tags. Reads only the header.
int thumbs_icc_describes(const unsigned char *data, size_t length, int bands);

/// thumbs_icc_is_srgb() of the image's embedded ICC profile; 0 when it has none.
int thumbs_vips_profile_is_srgb(VipsImage *image);

/// The ICC profile of the colour described by the chunks of the PNG open at `descriptor`, for
/// a PNG without one of its own (no iCCP, or one libvips could not read): NULL when they leave
/// it sRGB (an sRGB chunk, no usable cHRM or gAMA, or values that are sRGB's), else a profile
/// from malloc, `*length` bytes, of cHRM's primaries and white point (else sRGB's) and gAMA's
/// gamma (else sRGB's curve); a grey one when `grey`, from gAMA alone. The chunks are read
/// before PLTE and IDAT; damaged ones are ignored (PngColourChunks.c).
unsigned char *thumbs_png_colour_profile(int descriptor, int grey, size_t *length);

/// A copy of `in` (sharing its pixels) with `icc` as its ICC profile.
int thumbs_vips_with_profile(VipsImage *in, VipsImage **out, const unsigned char *icc, size_t icc_length);

/// A transform from an embedded ICC profile to lcms' sRGB profile, kept per profile and shared by
/// the threads; it needs no libvips (see SrgbTransform.c).
typedef struct thumbs_srgb_transform thumbs_srgb_transform;

/// The transform from `icc` for 8-bit pictures of `bands` bands (1, grey, or 3, RGB) to 8-bit
/// sRGB, as vips_icc_transform() would make it (relative intent) but to lcms' sRGB; NULL when the profile does not
/// describe such pictures (or cannot be read), and libvips is left to deal with it. Release it
/// with thumbs_srgb_transform_release().
thumbs_srgb_transform *thumbs_srgb_transform_for(const unsigned char *icc, size_t icc_length, int bands);

/// Converts `height` rows of `width` pixels, `stride` bytes apart, to 3-band sRGB rows in `out`,
/// `out_stride` bytes apart.
void thumbs_srgb_transform_apply(thumbs_srgb_transform *transform, const unsigned char *pixels, int width,
    int height, size_t stride, unsigned char *out, size_t out_stride);

void thumbs_srgb_transform_release(thumbs_srgb_transform *transform);

/// vips_icc_transform() from the image's embedded ICC profile (sRGB when it has none) to
/// `profile` ("srgb", "p3", "cmyk" or a file), relative intent; the output carries `profile`.
int thumbs_vips_icc_transform(VipsImage *in, VipsImage **out, const char *profile);

/// vips_colourspace() to 8-bit sRGB: grey, 16-bit and CMYK images become 3 bands of uchar
/// (plus alpha when present).
int thumbs_vips_to_srgb(VipsImage *in, VipsImage **out);

/// vips_addalpha(): `in` with an opaque alpha band added (it must have none).
int thumbs_vips_add_alpha(VipsImage *in, VipsImage **out);

/// vips_flatten() onto white, for encoders without alpha (JPEG).
int thumbs_vips_flatten_white(VipsImage *in, VipsImage **out);

/// vips_crop() of the rectangle (left, top, width, height).
int thumbs_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);

/// A copy of `in` (sharing its pixels) without any metadata: EXIF (GPS position included), XMP,
/// IPTC, ICC profile, orientation, comments, embedded thumbnails. The savers' `strip` is not
/// enough: libvips 8.14's webpsave still writes EXIF and ICC, and while rewriting the EXIF it
/// reads freed memory; an image with nothing to write avoids both.
int thumbs_vips_without_metadata(VipsImage *in, VipsImage **out);

/// vips_jpegsave_buffer() at quality `quality` (1...100) with optimised Huffman tables;
/// `strip` removes all metadata; `interlace` writes a progressive JPEG. The buffer is freed with
/// g_free.
int thumbs_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int quality, int strip, int interlace);

/// vips_webpsave_buffer() at quality `quality` (1...100); `strip` removes all metadata.
int thumbs_vips_webpsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int quality, int strip);

/// vips_pngsave_buffer() with zlib level `compression` (0...9); `strip` removes all metadata.
int thumbs_vips_pngsave_buffer(VipsImage *in, void **buffer, size_t *length,
    int compression, int strip);

/// vips_copy() that relabels the pixels' interpretation (e.g. as CMYK or RGB16) without
/// converting them; used to build synthetic images from raw memory.
int thumbs_vips_copy_interpretation(VipsImage *in, VipsImage **out, int interpretation);

/// vips_tiffsave_buffer() uncompressed, keeping metadata (test fixtures: CMYK, 16-bit).
int thumbs_vips_tiffsave_buffer(VipsImage *in, void **buffer, size_t *length);

/// vips_arrayjoin() of `count` images into a grid `across` wide, each cell `cell_width` by
/// `cell_height` with `shim` pixels between cells, on a white background.
int thumbs_vips_arrayjoin(VipsImage **images, int count, VipsImage **out, int across,
    int cell_width, int cell_height, int shim);

/// vips_text() of `text` (Pango markup allowed) in `font` (e.g. "sans 14") at `dpi`: a one-band
/// mask, 255 where the glyphs are; used to label benchmark charts.
int thumbs_vips_text(const char *text, const char *font, int dpi, VipsImage **out);

/// mallopt(M_ARENA_MAX, arenas): glibc otherwise gives each allocating thread its own arena
/// (up to 8 per core), and decode buffers of megabytes allocated on many threads fragment across
/// them, so resident memory creeps up with the length of a run. Not libvips, but the process
/// that decodes with it: the thumbs command calls it at start.
void thumbs_limit_malloc_arenas(int arenas);

/// mallopt(M_MMAP_THRESHOLD, bytes) and mallopt(M_TRIM_THRESHOLD, 2 × bytes): allocations up to
/// `bytes` come from malloc's heaps, and freed memory stays there for the next one, instead of
/// each large buffer being mapped, faulted in page by page and unmapped again. Returns 1 when
/// glibc took both settings, 0 otherwise (the defaults then stay).
int thumbs_keep_freed_allocations(size_t bytes);

#endif
