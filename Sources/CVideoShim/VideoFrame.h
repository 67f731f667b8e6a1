/* A decoded frame's pixels (VideoFrame.c): its displayed size, how uniform it is, and its
 * conversion to RGB at the size the renditions need. */
#ifndef THUMBS_VIDEO_FRAME_H
#define THUMBS_VIDEO_FRAME_H

#include "CVideoShim.h"

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
/* The standard deviation of luma (0...255) over a grid of samples of the frame. */
double video_luma_deviation(const AVFrame *frame);
/* The frame as packed RGB24 at target_width x target_height, into out->pixels (malloc'ed). */
thumbs_video_status video_frame_to_rgb(const AVFrame *frame, int target_width,
    int target_height, thumbs_video_frame *out, char *message, size_t size);

#endif
