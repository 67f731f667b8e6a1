/* A decoded frame's pixels (VideoFrame.c): its displayed size, how uniform it is, and its
 * conversion to RGB at the size the renditions need. */
#ifndef THUMBS_VIDEO_FRAME_H
#define THUMBS_VIDEO_FRAME_H

#include "CVideoShim.h"

#include <libavformat/avformat.h>
#include <libavutil/frame.h>
#include <libavutil/rational.h>

/* The frame's displayed size with square pixels, never larger than stored: wide pixels shorten
 * the height, narrow ones the width. */
void video_square(int width, int height, AVRational aspect, double *square_width,
    double *square_height);
/* The output size: the smallest that covers min_width x min_height keeping the aspect ratio,
 * never more than the square-pixel size. */
void video_target(double width, double height, int min_width, int min_height,
    int *target_width, int *target_height);
/* Gives `frame` the content light level and mastering display its stream states (an MP4's or
 * QuickTime file's `clli` and `mdcv` boxes, which FFmpeg puts in the stream's side data) where
 * the frame carries none of its own (an HEVC stream's SEI): the peak a PQ picture is mapped
 * from. Nothing is added when memory runs out; the frame is then mapped from the nominal peak. */
void video_adopt_stream_light(const AVStream *stream, AVFrame *frame);
/* The standard deviation of luma (0...255) over a grid of samples of the frame. */
double video_luma_deviation(const AVFrame *frame);
/* The frame at target_width x target_height: as packed RGB24 into out->pixels (malloc'ed) when
 * `out` is not NULL, and, when `light` is not NULL and the frame is HDR (PQ or HLG), its light
 * relative to SDR white (thumbs_tone_map_relative_luminance) into light->luminance (malloc'ed),
 * light->width and light->height; `light` is left alone for an SDR frame. */
thumbs_video_status video_frame_to_rgb(const AVFrame *frame, int target_width,
    int target_height, thumbs_video_frame *out, thumbs_light_plane *light, char *message,
    size_t size);

#endif
