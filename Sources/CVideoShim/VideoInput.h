/* What the probe and the poster share: one video opened through its descriptor (VideoInput.c),
 * and the messages they write. Internal to CVideoShim; the names carry no thumbs_ prefix so as
 * not to meet CRawShim's in the one program both are linked into. */
#ifndef THUMBS_VIDEO_INPUT_H
#define THUMBS_VIDEO_INPUT_H

#include "CVideoShim.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

/* The AVIOContext's reader: pread at an offset of its own, so the descriptor's file offset is
 * never used or moved and FFmpeg never sees a path. It also enforces the time limit, because
 * FFmpeg checks its interrupt callback only in a few loops, not on a custom context's reads. */
typedef struct {
    int descriptor;
    int64_t offset;
    double deadline;    /* thumbs_now() seconds; 0 = none */
    int read_errno;     /* the first failed pread's errno, 0 if none */
    int timed_out;
} video_io;

typedef struct {
    video_io io;
    AVIOContext *pb;
    AVFormatContext *format;
    int video;              /* stream index, -1 if none */
    AVCodecContext *codec;
    AVPacket *packet;
    char log[160];          /* FFmpeg's first error line during the call */
} video_input;

/* Opens the container read through `descriptor` and picks its video stream (FFmpeg's log routed
 * away from stderr, once per process); closes what it opened on failure. */
thumbs_video_status video_input_open(video_input *input, int descriptor, double time_limit,
    char *message, size_t size);
void video_input_close(video_input *input);
/* The status of FFmpeg's `error` (or `otherwise`), with `what` failed and why in `message`. */
thumbs_video_status video_input_failure(video_input *input, int error,
    thumbs_video_status otherwise, const char *what, char *message, size_t size);
/* Whether the stream is an attached picture (a cover), not video. */
int video_is_cover(const AVStream *stream);
/* Whether the time limit has passed. */
int video_past_deadline(video_io *io);
/* The duration in seconds, -1 when unknown (VideoProbe.c). */
double video_duration(const AVFormatContext *format, int video);

void video_message(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
void video_copy(char *destination, size_t size, const char *source);

#endif
