#ifndef THUMBS_CHEIFSHIM_H
#define THUMBS_CHEIFSHIM_H

/* Makes FFmpeg's HEVC decoder (libavcodec) the one libheif uses for HEIC pictures, in this whole
 * process: libvips' HEIF loader included, since libheif keeps one list of decoders. libheif still
 * reads the container (grid, rotation, colour, alpha); only the HEVC bitstreams go to FFmpeg,
 * which decodes them to the same pixels as libde265 (HEVC decoding is bit-exact) in about two
 * thirds of the time. Call once, before the first HEIF decode; later calls do nothing.
 * Returns 0, or -1 when libavcodec has no HEVC decoder or libheif refuses the plugin (libde265
 * then stays in use). */
int thumbs_heif_use_ffmpeg_hevc(void);

/* The name of the decoder libheif picks for HEVC (the first of its list, by priority), e.g.
 * "libde265 HEVC decoder, version 1.0.11"; an empty string when it has none. */
const char *thumbs_heif_hevc_decoder_name(void);

#endif
