#ifndef THUMBS_CHEIFSHIM_H
#define THUMBS_CHEIFSHIM_H

#include <stddef.h>

#include <CToneMap.h>

/* Makes FFmpeg's HEVC decoder (libavcodec) the one libheif uses for HEIC pictures, in this whole
 * process: libvips' HEIF loader included, since libheif keeps one list of decoders. libheif still
 * reads the container (grid, rotation, colour, alpha); only the HEVC bitstreams go to FFmpeg,
 * which decodes them to the same pixels as libde265 (HEVC decoding is bit-exact) in about two
 * thirds of the time. Call once, before the first HEIF decode; later calls do nothing.
 * Returns 0, or -1 when libavcodec has no HEVC decoder or libheif refuses the plugin (libde265
 * then stays in use). */
int thumbs_heif_use_ffmpeg_hevc(void);

/* Makes FFmpeg's dav1d decoder (libavcodec's libdav1d) the one libheif uses for AV1 pictures
 * (AVIF), in this whole process, as above: the same decoder as libheif's own dav1d plugin, whose
 * messages ("Error parsing OBU data") go to stderr, but with its messages in FFmpeg's log, which
 * Thumbs keeps quiet. Returns 0, or -1 when libavcodec has no libdav1d or libheif refuses the
 * plugin (libheif's own AV1 decoders then stay in use). */
int thumbs_heif_use_ffmpeg_av1(void);

/* The name of the decoder libheif picks for HEVC (the first of its list, by priority), e.g.
 * "libde265 HEVC decoder, version 1.0.11"; an empty string when it has none. */
const char *thumbs_heif_hevc_decoder_name(void);

/* The name of the decoder libheif picks for AV1, e.g. "FFmpeg AV1 decoder (Thumbs)". */
const char *thumbs_heif_av1_decoder_name(void);

/* A HEIF picture (HEIC or AVIF) decoded by libheif without its transformations, to planar RGB,
 * and averaged down here: for thumbnails, what libvips' loader gives, without libheif turning
 * the whole picture and interleaving it first. An HDR picture (PQ or HLG transfer in its nclx
 * colour description, any depth) is averaged in linear light and tone-mapped to SDR sRGB
 * (CToneMap), where libvips' loader would show its code values as sRGB. An SDR picture's
 * stored thumbnail stands in for it when large enough (THUMBS_HEIF_THUMBNAIL_RESIZE). */
typedef struct {
    /* 8-bit RGB, or RGBA (`bands`), rows packed, as stored (not yet turned upright); from
     * malloc, the caller's. */
    unsigned char *pixels;
    int width;
    int height;
    /* 3, or 4 for an HDR picture with alpha (not premultiplied): an SDR one with alpha is left to
     * libvips' loader. */
    int bands;
    /* The EXIF orientation (1...8) that turns it upright: the file's rotation and mirroring;
     * 1 for a stored thumbnail, which libheif turns. */
    int orientation;
    /* The ICC profile of the file, or NULL (always for an HDR picture, now sRGB); from malloc,
     * the caller's. */
    unsigned char *icc;
    size_t icc_length;
} thumbs_heif_picture;

enum {
    THUMBS_HEIF_DECODED = 0,
    /* For libvips' loader: alpha, a crop, a file over 256 MB, one libheif cannot read (whose
     * error libvips' loader then reports), and SDR pictures of more than 8 bits. */
    THUMBS_HEIF_NOT_HANDLED = 1,
};

/* How many times a thumbnail's size (across and down) a file's stored thumbnail must be to be
 * decoded in place of its picture. A stored thumbnail is the camera's own downscale, often soft:
 * the Samsung One UI HEIC's 384x512 one shrunk by 2 to 256 pixels keeps 0.80x the fine detail of
 * a Lanczos-3 downscale of the whole picture (scripts/bench-sharpness); by 2.5 and more, the
 * shared HEICs' keep at least 0.9x. */
#define THUMBS_HEIF_THUMBNAIL_RESIZE 2.5

/* Decodes the HEIF file read from `descriptor` (with pread: its offset is left alone), by the
 * decoder libheif names `decoder` ("libde265", "dav1d"; NULL: the one libheif picks, FFmpeg's
 * once plugged in), for a thumbnail of `target_width` x `target_height` (upright): the first
 * stored thumbnail, decoded whole, when it is THUMBS_HEIF_THUMBNAIL_RESIZE times that size and of
 * the picture's shape; else the primary picture at 1/`shrink` of its size (each pixel the mean of
 * a `shrink`-square block, the last ones of partial blocks). Only a decoded picture holds
 * memory. */
int thumbs_heif_decode(int descriptor, const char *decoder, int shrink, int target_width, int target_height,
    thumbs_heif_picture *picture);

/* The first stored thumbnail of the HEIF file read from `descriptor`, when its own colour
 * description is PQ or HLG: decoded whole by libheif, upright (orientation 1), and tone-mapped
 * to SDR sRGB as an HDR picture is, where libvips' loader would show its code values. Only a
 * thumbnail smaller than the picture and of at most `pixel_limit` pixels, as the loader's is
 * kept for a preview. THUMBS_HEIF_NOT_HANDLED when there is none, or it is SDR (the loader's
 * then), or libheif cannot read the file. */
int thumbs_heif_hdr_thumbnail(int descriptor, const char *decoder, long long pixel_limit, thumbs_heif_picture *picture);

/* The light of the HEIF file read from `descriptor` when its primary picture is PQ or HLG: at
 * 1/`shrink`, each value the mean of a block in linear light as thumbs_heif_decode averages the
 * picture it tone-maps, as the luminance relative to SDR white of thumbs_tone_map_relative_luminance,
 * as stored (`light->orientation` turns it upright): the HDR picture a gain map restores.
 * THUMBS_HEIF_NOT_HANDLED for an SDR picture or a file libheif cannot read. */
int thumbs_heif_hdr_light(int descriptor, const char *decoder, int shrink, thumbs_light_plane *light);

/* An auxiliary gain map, 8-bit grey, as stored. */
typedef struct {
    /* `width` × `height` samples, rows packed; from malloc, the caller's. */
    unsigned char *pixels;
    int width;
    int height;
    /* The EXIF orientation (1...8) that turns it upright: the primary picture's. */
    int orientation;
} thumbs_heif_gain_map;

/* The HDR gain map of an Apple HEIC (the primary picture's auxiliary image of type
 * `urn:com:apple:photo:2020:aux:hdrgainmap`) read from `descriptor`, decoded as stored (its
 * values as the file has them; the MakerNote's headroom says what they restore). Only one of
 * at most `pixel_limit` pixels. THUMBS_HEIF_NOT_HANDLED when the file has none, or libheif
 * cannot decode it. */
int thumbs_heif_apple_gain_map(int descriptor, const char *decoder, long long pixel_limit, thumbs_heif_gain_map *map);

/* What libvips' HEIF loader reads of a file's header, read by libheif alone. */
typedef struct {
    /* The primary image's size upright (libheif's rotation, mirroring and crop applied). */
    int width;
    int height;
    /* The first thumbnail's size upright; 0 × 0 when there is none. */
    int thumbnail_width;
    int thumbnail_height;
    /* The top-level images: libvips' page count. */
    int page_count;
    /* The primary image's EXIF (past the block's 4-byte offset field) and XMP, as libvips'
     * loader attaches them, or NULL; from malloc, freed by thumbs_heif_header_free. */
    unsigned char *exif;
    size_t exif_length;
    unsigned char *xmp;
    size_t xmp_length;
} thumbs_heif_header;

/* Reads the header of the HEIF file open as `descriptor` (with pread). Returns 0, or -1 when
 * libheif cannot read it (libvips' loader then reports why). */
int thumbs_heif_read_header(int descriptor, thumbs_heif_header *header);

/* Frees what thumbs_heif_read_header allocated. */
void thumbs_heif_header_free(thumbs_heif_header *header);

#endif
