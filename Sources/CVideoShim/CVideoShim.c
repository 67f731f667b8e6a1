#include "CVideoShim.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* Packets read while looking for one keyframe (and decoding on from it, in the fallback). A GOP
 * of 10 s at 60 fps with its audio is about 1,100 packets; an endless or broken stream stops
 * here even if it reads fast enough to stay within the time limit. */
#define THUMBS_PACKETS_PER_ATTEMPT 2048
/* Keyframes tried after the first when it is nearly uniform. */
#define THUMBS_RETRIES 3
/* Standard deviation of luma (of 255) below which a frame counts as uniform: a fade, a black
 * leader. Real footage, even a dim or foggy scene, measures well above it. */
#define THUMBS_UNIFORM_SD 6.0
/* A retried keyframe lies at least this far after the rejected one, so that an all-intra
 * codec (MJPEG: every frame a keyframe) gets out of the fade as well. */
#define THUMBS_RETRY_GAP_SECONDS 1.0
#define THUMBS_IO_BUFFER (64 * 1024)
#define THUMBS_MAX_PIXELS (16384 * 8192)

/* ---- FFmpeg's log ------------------------------------------------------------------------ */

/* FFmpeg logs through one process-wide callback. Ours prints nothing: a damaged file surfaces
 * as a status, never as noise on a user's terminal. While a call of this file runs on a thread,
 * the first error FFmpeg logs on that thread (such as "moov atom not found", which the error
 * code alone does not say) is kept for the message. With thread_count 1 every log line of a
 * call comes from the calling thread, so a thread-local buffer sees exactly that call's. */
static _Thread_local char *thumbs_log_buffer;
static _Thread_local size_t thumbs_log_size;

static void thumbs_log(void *context, int level, const char *format, va_list arguments) {
    (void) context;
    /* av_log passes every level to a custom callback: the filtering is ours. */
    if (level > AV_LOG_ERROR || !thumbs_log_buffer || thumbs_log_buffer[0])
        return;
    vsnprintf(thumbs_log_buffer, thumbs_log_size, format, arguments);
    size_t length = strlen(thumbs_log_buffer);
    while (length > 0 && strchr("\n ", thumbs_log_buffer[length - 1]))
        thumbs_log_buffer[--length] = '\0';
}

static pthread_once_t thumbs_log_once = PTHREAD_ONCE_INIT;

static void thumbs_log_setup(void) {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(thumbs_log);
}

/* ---- Time and messages ------------------------------------------------------------------- */

static double thumbs_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

static void thumbs_message(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void thumbs_message(char *message, size_t size, const char *format, ...) {
    if (!message || size == 0)
        return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

static void thumbs_copy(char *destination, size_t size, const char *source) {
    snprintf(destination, size, "%s", source ? source : "");
}

/* ---- Reading through the descriptor ------------------------------------------------------ */

/* The AVIOContext's reader: pread at an offset of its own, so the descriptor's file offset is
 * never used or moved and FFmpeg never sees a path. It also enforces the time limit, because
 * FFmpeg checks its interrupt callback only in a few loops, not on a custom context's reads. */
typedef struct {
    int descriptor;
    int64_t offset;
    double deadline;    /* thumbs_now() seconds; 0 = none */
    int read_errno;     /* the first failed pread's errno, 0 if none */
    int timed_out;
} thumbs_io;

static int thumbs_past_deadline(thumbs_io *io) {
    if (io->deadline > 0 && thumbs_now() > io->deadline)
        io->timed_out = 1;
    return io->timed_out;
}

static int thumbs_read(void *opaque, uint8_t *buffer, int size) {
    thumbs_io *io = opaque;
    if (thumbs_past_deadline(io))
        return AVERROR_EXIT;
    ssize_t count;
    do {
        count = pread(io->descriptor, buffer, (size_t) size, (off_t) io->offset);
    } while (count < 0 && errno == EINTR);
    if (count < 0) {
        if (!io->read_errno)
            io->read_errno = errno;
        return AVERROR(errno);
    }
    if (count == 0)
        return AVERROR_EOF;
    io->offset += count;
    return (int) count;
}

static int64_t thumbs_seek(void *opaque, int64_t offset, int whence) {
    thumbs_io *io = opaque;
    struct stat status;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE || whence == SEEK_END) {
        if (fstat(io->descriptor, &status) != 0) {
            if (!io->read_errno)
                io->read_errno = errno;
            return AVERROR(errno);
        }
        if (whence == AVSEEK_SIZE)
            return (int64_t) status.st_size;
        offset += (int64_t) status.st_size;
    } else if (whence == SEEK_CUR) {
        offset += io->offset;
    } else if (whence != SEEK_SET) {
        return AVERROR(EINVAL);
    }
    if (offset < 0)
        return AVERROR(EINVAL);
    io->offset = offset;
    return offset;
}

static int thumbs_interrupt(void *opaque) {
    return thumbs_past_deadline(opaque);
}

/* Containers that refer to other resources (HLS and DASH playlists, concat lists, QuickTime
 * reference movies) open them through this hook: it refuses, so a file in the library can never
 * make FFmpeg read another file or the network. */
static int thumbs_refuse_open(AVFormatContext *context, AVIOContext **pb, const char *url,
    int flags, AVDictionary **options) {
    (void) context; (void) pb; (void) url; (void) flags; (void) options;
    return AVERROR(EPERM);
}

/* ---- One open file ----------------------------------------------------------------------- */

typedef struct {
    thumbs_io io;
    AVIOContext *pb;
    AVFormatContext *format;
    int video;              /* stream index, -1 if none */
    AVCodecContext *codec;
    AVPacket *packet;
    char log[160];          /* FFmpeg's first error line during the call */
} thumbs_input;

static void thumbs_close(thumbs_input *input) {
    avcodec_free_context(&input->codec);
    av_packet_free(&input->packet);
    avformat_close_input(&input->format);    /* does not free a custom AVIOContext */
    if (input->pb) {
        av_freep(&input->pb->buffer);    /* FFmpeg may have replaced the buffer we gave it */
        avio_context_free(&input->pb);
    }
    thumbs_log_buffer = NULL;
    thumbs_log_size = 0;
}

/* The status for a failed FFmpeg call, with the reason in the message. A failed read or the
 * time limit wins over FFmpeg's code, which only says what it made of the short read. */
static thumbs_video_status thumbs_failure(thumbs_input *input, int error,
    thumbs_video_status otherwise, const char *what, char *message, size_t size) {
    if (input->io.read_errno) {
        thumbs_message(message, size, "%s: read error: %s", what, strerror(input->io.read_errno));
        return THUMBS_VIDEO_UNREADABLE;
    }
    if (input->io.timed_out || error == AVERROR_EXIT) {
        thumbs_message(message, size, "%s: the time limit passed", what);
        return THUMBS_VIDEO_TIMED_OUT;
    }
    if (error == AVERROR(ENOMEM)) {
        thumbs_message(message, size, "%s: out of memory", what);
        return THUMBS_VIDEO_NO_MEMORY;
    }
    char text[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(error, text, sizeof text);
    if (input->log[0])
        thumbs_message(message, size, "%s: %s (%s)", what, text, input->log);
    else
        thumbs_message(message, size, "%s: %s", what, text);
    return otherwise;
}

static int thumbs_is_cover(const AVStream *stream) {
    return (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
}

/* The video stream to use: not a cover; the default one first, then the largest. */
static int thumbs_pick_video(const AVFormatContext *format) {
    int best = -1;
    int64_t best_score = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->codecpar->codec_type != AVMEDIA_TYPE_VIDEO || thumbs_is_cover(stream))
            continue;
        int64_t score = (int64_t) stream->codecpar->width * stream->codecpar->height;
        if (stream->disposition & AV_DISPOSITION_DEFAULT)
            score += INT64_C(1) << 40;
        if (score > best_score) {
            best = (int) i;
            best_score = score;
        }
    }
    return best;
}

/* avformat_find_stream_info decodes frames to fill in what the header leaves out: 190 ms on a
 * 4K HEVC file. QuickTime/MP4, Matroska/WebM and AVI headers already state the codec and the
 * frame size (AVI's duration comes from its stream headers, see thumbs_duration), so it runs
 * only for other containers, such as MPEG-TS whose streams are only found by reading packets,
 * or when the size is missing. */
static int thumbs_needs_stream_info(const AVFormatContext *format) {
    const char *name = format->iformat->name;
    if (strncmp(name, "mov,", 4) != 0 && strncmp(name, "matroska", 8) != 0 &&
        strcmp(name, "avi") != 0)
        return 1;
    int video = thumbs_pick_video(format);
    if (video < 0)
        return format->nb_streams == 0;
    const AVCodecParameters *parameters = format->streams[video]->codecpar;
    return parameters->width <= 0 || parameters->height <= 0;
}

static thumbs_video_status thumbs_open(thumbs_input *input, int descriptor, double time_limit,
    char *message, size_t size) {
    memset(input, 0, sizeof *input);
    input->video = -1;
    input->io.descriptor = descriptor;
    if (time_limit > 0)
        input->io.deadline = thumbs_now() + time_limit;
    thumbs_log_buffer = input->log;
    thumbs_log_size = sizeof input->log;

    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        thumbs_message(message, size, "open: %s", strerror(errno));
        return THUMBS_VIDEO_UNREADABLE;
    }
    if (S_ISREG(status.st_mode) && status.st_size == 0) {
        thumbs_message(message, size, "open: the file is empty");
        return THUMBS_VIDEO_INVALID;
    }

    uint8_t *buffer = av_malloc(THUMBS_IO_BUFFER);
    if (buffer)
        input->pb = avio_alloc_context(buffer, THUMBS_IO_BUFFER, 0, &input->io, thumbs_read, NULL,
            thumbs_seek);
    if (!input->pb) {
        av_free(buffer);
        thumbs_message(message, size, "open: out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    input->format = avformat_alloc_context();
    input->packet = av_packet_alloc();
    if (!input->format || !input->packet) {
        thumbs_message(message, size, "open: out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    input->format->pb = input->pb;
    input->format->interrupt_callback.callback = thumbs_interrupt;
    input->format->interrupt_callback.opaque = &input->io;
    input->format->io_open = thumbs_refuse_open;

    /* No name: the format is probed from the bytes alone, not guessed from an extension. On
     * failure avformat_open_input frees the context (but not our AVIOContext). */
    int error = avformat_open_input(&input->format, "", NULL, NULL);
    if (error < 0)
        return thumbs_failure(input, error, THUMBS_VIDEO_INVALID, "open", message, size);

    if (thumbs_needs_stream_info(input->format)) {
        error = avformat_find_stream_info(input->format, NULL);
        /* A failure here still leaves what the header gave; only the limit and read errors end
         * the call. */
        if (error < 0 && (input->io.read_errno || input->io.timed_out))
            return thumbs_failure(input, error, THUMBS_VIDEO_INVALID, "read stream info", message,
                size);
    }
    input->video = thumbs_pick_video(input->format);
    return THUMBS_VIDEO_OK;
}

/* ---- The probe --------------------------------------------------------------------------- */

static double thumbs_duration(const AVFormatContext *format, int video) {
    if (format->duration != AV_NOPTS_VALUE && format->duration > 0)
        return (double) format->duration / AV_TIME_BASE;
    /* Without avformat_find_stream_info the file's duration is unset for AVI; its streams
     * know theirs. Prefer the video stream's. */
    double longest = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->duration == AV_NOPTS_VALUE || stream->duration <= 0 || thumbs_is_cover(stream))
            continue;
        double seconds = (double) stream->duration * av_q2d(stream->time_base);
        if ((int) i == video)
            return seconds;
        if (seconds > longest)
            longest = seconds;
    }
    return longest;
}

static const char *thumbs_tag(const AVDictionary *metadata, const char *key) {
    const AVDictionaryEntry *entry = av_dict_get(metadata, key, NULL, 0);
    return entry ? entry->value : NULL;
}

/* The display matrix's turn, as clockwise degrees to upright, and whether it mirrors. */
static void thumbs_rotation(const AVStream *stream, int32_t *rotation, int32_t *mirrored) {
    *rotation = 0;
    *mirrored = 0;
    size_t size = 0;
    const int32_t *matrix = (const int32_t *) av_stream_get_side_data(stream,
        AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!matrix || size < 9 * sizeof(int32_t))
        return;
    /* A mirror has a negative determinant (of the 2x2 part). av_display_rotation_get does not
     * look for one (it reads a plain left-right mirror as a turn by 180), so the mirror is
     * undone first, as av_display_matrix_flip(matrix, 1, 0) would: what is left is the turn
     * that comes before the flip. ffmpeg's autorotate shows a mirrored test file the same way. */
    int32_t turn[9];
    memcpy(turn, matrix, sizeof turn);
    if ((double) turn[0] * turn[4] - (double) turn[1] * turn[3] < 0) {
        *mirrored = 1;
        turn[0] = -turn[0];
        turn[3] = -turn[3];
        turn[6] = -turn[6];
    }
    double counter_clockwise = av_display_rotation_get(turn);
    if (isnan(counter_clockwise)) {
        *mirrored = 0;
        return;
    }
    long clockwise = lround(-counter_clockwise / 90.0) * 90 % 360;
    *rotation = (int32_t) (clockwise < 0 ? clockwise + 360 : clockwise);
}

static void thumbs_fill_info(const thumbs_input *input, thumbs_video_info *info) {
    AVFormatContext *format = input->format;
    memset(info, 0, sizeof *info);
    /* "mov,mp4,m4a,3gp,3g2,mj2" -> "mov". */
    const char *name = format->iformat->name;
    size_t length = strcspn(name, ",");
    if (length >= sizeof info->container)
        length = sizeof info->container - 1;
    memcpy(info->container, name, length);
    info->duration = thumbs_duration(format, input->video);

    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_AUDIO)
            info->has_audio = 1;
        if (thumbs_is_cover(stream) && stream->attached_pic.size > 0)
            info->has_cover = 1;
    }

    const char *creation = thumbs_tag(format->metadata, "creation_time");
    if (input->video >= 0) {
        AVStream *stream = format->streams[input->video];
        const AVCodecParameters *parameters = stream->codecpar;
        if (parameters->codec_id == AV_CODEC_ID_NONE && parameters->codec_tag) {
            char fourcc[AV_FOURCC_MAX_STRING_SIZE];
            thumbs_copy(info->codec, sizeof info->codec,
                av_fourcc_make_string(fourcc, parameters->codec_tag));
        } else {
            thumbs_copy(info->codec, sizeof info->codec, avcodec_get_name(parameters->codec_id));
        }
        info->decodable = avcodec_find_decoder(parameters->codec_id) != NULL;
        info->width = parameters->width;
        info->height = parameters->height;
        AVRational aspect = av_guess_sample_aspect_ratio(format, stream, NULL);
        if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den)
            info->width = (int32_t) av_rescale(info->width, aspect.num, aspect.den);
        thumbs_rotation(stream, &info->rotation, &info->mirrored);
        AVRational rate = stream->avg_frame_rate;
        if (rate.num <= 0 || rate.den <= 0)
            rate = stream->r_frame_rate;
        if (rate.num > 0 && rate.den > 0)
            info->frame_rate = av_q2d(rate);
        if (!creation)
            creation = thumbs_tag(stream->metadata, "creation_time");
    }
    thumbs_copy(info->creation_time, sizeof info->creation_time, creation);
    thumbs_copy(info->creation_date, sizeof info->creation_date,
        thumbs_tag(format->metadata, "com.apple.quicktime.creationdate"));
}

thumbs_video_status thumbs_video_probe(int descriptor, double time_limit_seconds,
    thumbs_video_info *info, char *message, size_t message_size) {
    pthread_once(&thumbs_log_once, thumbs_log_setup);
    memset(info, 0, sizeof *info);
    thumbs_message(message, message_size, "%s", "");
    thumbs_input input;
    thumbs_video_status status = thumbs_open(&input, descriptor, time_limit_seconds, message,
        message_size);
    if (status == THUMBS_VIDEO_OK) {
        thumbs_fill_info(&input, info);
        if (input.video < 0) {
            thumbs_message(message, message_size, "no video stream in this %s file",
                info->container);
            status = THUMBS_VIDEO_NO_VIDEO_STREAM;
        }
    }
    thumbs_close(&input);
    return status;
}

/* ---- Sizes ------------------------------------------------------------------------------- */

/* The frame's displayed size with square pixels, never larger than stored: wide pixels shorten
 * the height, narrow ones the width. */
static void thumbs_square(int width, int height, AVRational aspect, double *square_width,
    double *square_height) {
    *square_width = width;
    *square_height = height;
    if (aspect.num <= 0 || aspect.den <= 0 || aspect.num == aspect.den)
        return;
    if (aspect.num > aspect.den)
        *square_height = (double) height * aspect.den / aspect.num;
    else
        *square_width = (double) width * aspect.num / aspect.den;
}

/* The output size: the smallest that covers min_width x min_height keeping the aspect ratio,
 * never more than the square-pixel size. */
static void thumbs_target(double width, double height, int min_width, int min_height,
    int *target_width, int *target_height) {
    double scale = 0;
    if (min_width > 0)
        scale = fmax(scale, min_width / width);
    if (min_height > 0)
        scale = fmax(scale, min_height / height);
    if (scale <= 0 || scale > 1)
        scale = 1;
    /* Round up, less a hair for the floating point, so both sides still cover the minimum. */
    *target_width = (int) ceil(width * scale - 1e-6);
    *target_height = (int) ceil(height * scale - 1e-6);
    if (*target_width < 1)
        *target_width = 1;
    if (*target_height < 1)
        *target_height = 1;
}

/* The largest lowres (a decode at 1/2^n of the size) whose frame still covers the target. */
static int thumbs_lowres(const AVCodec *decoder, int width, int height, AVRational aspect,
    int target_width, int target_height) {
    for (int lowres = decoder->max_lowres; lowres > 0; lowres--) {
        double square_width, square_height;
        thumbs_square(AV_CEIL_RSHIFT(width, lowres), AV_CEIL_RSHIFT(height, lowres), aspect,
            &square_width, &square_height);
        if (square_width + 1e-6 >= target_width && square_height + 1e-6 >= target_height)
            return lowres;
    }
    return 0;
}

/* ---- Decoding ---------------------------------------------------------------------------- */

static thumbs_video_status thumbs_open_decoder(thumbs_input *input, int degraded, int min_width,
    int min_height, char *message, size_t size) {
    AVStream *stream = input->format->streams[input->video];
    const AVCodecParameters *parameters = stream->codecpar;
    const AVCodec *decoder = avcodec_find_decoder(parameters->codec_id);
    if (!decoder) {
        char fourcc[AV_FOURCC_MAX_STRING_SIZE];
        if (parameters->codec_id == AV_CODEC_ID_NONE)
            thumbs_message(message, size, "no decoder for the video codec '%s'",
                av_fourcc_make_string(fourcc, parameters->codec_tag));
        else
            thumbs_message(message, size, "no decoder for the video codec %s",
                avcodec_get_name(parameters->codec_id));
        return THUMBS_VIDEO_DECODER_MISSING;
    }
    input->codec = avcodec_alloc_context3(decoder);
    if (!input->codec) {
        thumbs_message(message, size, "out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    int error = avcodec_parameters_to_context(input->codec, parameters);
    if (error < 0)
        return thumbs_failure(input, error, THUMBS_VIDEO_INVALID, "decoder", message, size);
    input->codec->pkt_timebase = stream->time_base;
    /* One thread: the caller runs one decode per core, and frame threading would only add
     * a frame of delay per thread. */
    input->codec->thread_count = 1;
    /* A header may claim any size; refuse frames beyond 16K x 8K (a 360-degree video) before
     * the decoder allocates them. */
    input->codec->max_pixels = THUMBS_MAX_PIXELS;
    if (degraded) {
        /* The cheapest picture: no deblocking (H.264, HEVC, VP9...) and the codecs' shortcuts. */
        input->codec->skip_loop_filter = AVDISCARD_ALL;
        input->codec->flags2 |= AV_CODEC_FLAG2_FAST;
    }
    if (decoder->max_lowres > 0 && parameters->width > 0 && parameters->height > 0 &&
        (min_width > 0 || min_height > 0)) {
        AVRational aspect = av_guess_sample_aspect_ratio(input->format, stream, NULL);
        double square_width, square_height;
        int target_width, target_height;
        thumbs_square(parameters->width, parameters->height, aspect, &square_width,
            &square_height);
        thumbs_target(square_width, square_height, min_width, min_height, &target_width,
            &target_height);
        input->codec->lowres = thumbs_lowres(decoder, parameters->width, parameters->height, aspect,
            target_width, target_height);
    }
    error = avcodec_open2(input->codec, decoder, NULL);
    if (error < 0) {
        thumbs_video_status status = thumbs_failure(input, error, THUMBS_VIDEO_INVALID, "decoder",
            message, size);
        /* A feature of the codec this decoder does not implement. */
        if (status == THUMBS_VIDEO_INVALID &&
            (error == AVERROR_PATCHWELCOME || error == AVERROR(ENOSYS)))
            status = THUMBS_VIDEO_DECODER_MISSING;
        return status;
    }
    return THUMBS_VIDEO_OK;
}

static int64_t thumbs_packet_time(const AVPacket *packet) {
    return packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
}

/* Reads on to the next packet of the video stream. Counts against *budget; AVERROR_EOF when
 * it runs out. */
static int thumbs_next_packet(thumbs_input *input, int *budget) {
    for (;;) {
        if (thumbs_past_deadline(&input->io))
            return AVERROR_EXIT;
        if (*budget <= 0)
            return AVERROR_EOF;
        (*budget)--;
        int error = av_read_frame(input->format, input->packet);
        if (error < 0)
            return error;
        if (input->packet->stream_index == input->video)
            return 0;
        av_packet_unref(input->packet);
    }
}

/* Decodes the next keyframe whose time is at least `after` (stream time base; AV_NOPTS_VALUE
 * for any) into `frame`. Returns 0, AVERROR_EOF when there is none, or an FFmpeg error (a
 * damaged packet: the caller may go on to the next keyframe).
 *
 * Only the keyframe is decoded: H.264 and HEVC hold a decoded frame back for reordering until
 * later packets arrive, so instead of sending those the decoder is drained (a NULL packet)
 * and then reset, ready for the next keyframe. If the keyframe alone gives nothing (an H.264
 * recovery point instead of an IDR frame, say), decoding goes on from it packet by packet. */
static int thumbs_decode_keyframe(thumbs_input *input, int64_t after, AVFrame *frame,
    int64_t *time, int *packets_decoded) {
    AVCodecContext *codec = input->codec;
    AVPacket *packet = input->packet;
    int budget = THUMBS_PACKETS_PER_ATTEMPT;
    int error;
    for (;;) {
        error = thumbs_next_packet(input, &budget);
        if (error < 0)
            return error;
        int64_t packet_time = thumbs_packet_time(packet);
        if ((packet->flags & AV_PKT_FLAG_KEY) &&
            (after == AV_NOPTS_VALUE || packet_time == AV_NOPTS_VALUE || packet_time >= after))
            break;
        av_packet_unref(packet);
    }
    *time = thumbs_packet_time(packet);

    AVPacket *keyframe = av_packet_clone(packet);
    av_packet_unref(packet);
    if (!keyframe)
        return AVERROR(ENOMEM);
    (*packets_decoded)++;
    error = avcodec_send_packet(codec, keyframe);
    if (error >= 0) {
        error = avcodec_receive_frame(codec, frame);
        if (error == AVERROR(EAGAIN)) {
            avcodec_send_packet(codec, NULL);
            error = avcodec_receive_frame(codec, frame);
        }
    }
    avcodec_flush_buffers(codec);
    /* A frame, or a damaged keyframe (the caller goes on to the next one). */
    if (error != AVERROR_EOF) {
        av_packet_free(&keyframe);
        return error;
    }

    /* The fallback: the keyframe again, then the packets after it, until a frame comes out. */
    (*packets_decoded)++;
    error = avcodec_send_packet(codec, keyframe);
    av_packet_free(&keyframe);
    int draining = 0;
    while (error >= 0 || error == AVERROR(EAGAIN) || error == AVERROR_INVALIDDATA) {
        error = avcodec_receive_frame(codec, frame);
        if (error >= 0 || draining)
            break;
        error = thumbs_next_packet(input, &budget);
        if (error == AVERROR_EOF) {
            draining = 1;
            error = avcodec_send_packet(codec, NULL);
            continue;
        }
        if (error < 0)
            break;
        (*packets_decoded)++;
        error = avcodec_send_packet(codec, packet);
        av_packet_unref(packet);
    }
    avcodec_flush_buffers(codec);
    if (error == AVERROR(EAGAIN))
        error = AVERROR_EOF;
    return error;
}

/* The standard deviation of luma (0...255) over a grid of samples of the frame. */
static double thumbs_luma_deviation(const AVFrame *frame) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(frame->format);
    const uint64_t unreadable = AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BITSTREAM |
        AV_PIX_FMT_FLAG_FLOAT;
    if (!descriptor || (descriptor->flags & unreadable) || frame->width <= 0 || frame->height <= 0)
        return 255;    /* cannot tell: take it as it is */
    int palette = (descriptor->flags & AV_PIX_FMT_FLAG_PAL) != 0;
    int rgb = palette ||
        ((descriptor->flags & AV_PIX_FMT_FLAG_RGB) && descriptor->nb_components >= 3);
    double maximum[3];
    for (int c = 0; c < 3; c++)
        maximum[c] = palette ? 255.0 : (double) ((1 << descriptor->comp[rgb ? c : 0].depth) - 1);
    const int grid = 48;
    double sum = 0, squares = 0;
    int count = 0;
    for (int row = 0; row < grid; row++) {
        int y = (int) (((int64_t) row * 2 + 1) * frame->height / (grid * 2));
        for (int column = 0; column < grid; column++) {
            int x = (int) (((int64_t) column * 2 + 1) * frame->width / (grid * 2));
            double luma;
            uint16_t value[3] = { 0, 0, 0 };
            for (int c = 0; c < (rgb ? 3 : 1); c++) {
                av_read_image_line2(&value[c], (const uint8_t **) frame->data, frame->linesize,
                    descriptor, x, y, c, 1, palette, 2);
            }
            /* A palette's entries are read as stored (B, G, R on little-endian machines): close
             * enough for telling a blank frame. */
            if (rgb)
                luma = 255.0 * (0.299 * value[0] / maximum[0] + 0.587 * value[1] / maximum[1] +
                    0.114 * value[2] / maximum[2]);
            else
                luma = 255.0 * value[0] / maximum[0];
            sum += luma;
            squares += luma * luma;
            count++;
        }
    }
    double mean = sum / count;
    double variance = squares / count - mean * mean;
    return variance > 0 ? sqrt(variance) : 0;
}

/* ---- Conversion -------------------------------------------------------------------------- */

/* The full-range "J" formats are deprecated in swscale (it warns): use the plain format with
 * the range set explicitly. */
static enum AVPixelFormat thumbs_plain_format(enum AVPixelFormat format, int *full_range) {
    switch (format) {
    case AV_PIX_FMT_YUVJ420P: *full_range = 1; return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: *full_range = 1; return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: *full_range = 1; return AV_PIX_FMT_YUV444P;
    case AV_PIX_FMT_YUVJ440P: *full_range = 1; return AV_PIX_FMT_YUV440P;
    case AV_PIX_FMT_YUVJ411P: *full_range = 1; return AV_PIX_FMT_YUV411P;
    default: return format;
    }
}

/* The frame to packed RGB24 at target_width x target_height. The YUV matrix and range come
 * from the frame (swscale would otherwise assume BT.601 limited range for everything); an
 * unlabelled one is taken as BT.709 from 720 lines up, BT.601 below, as players do. HDR (PQ,
 * HLG) is converted as it is, without tone mapping: darker and flatter, but recognisable. */
static thumbs_video_status thumbs_to_rgb(const AVFrame *frame, int target_width,
    int target_height, thumbs_video_frame *out, char *message, size_t size) {
    int full_range = frame->color_range == AVCOL_RANGE_JPEG;
    enum AVPixelFormat format = thumbs_plain_format(frame->format, &full_range);
    struct SwsContext *scaler = sws_getContext(frame->width, frame->height, format,
        target_width, target_height, AV_PIX_FMT_RGB24,
        SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!scaler) {
        thumbs_message(message, size, "cannot convert %s frames to RGB",
            av_get_pix_fmt_name(frame->format));
        return THUMBS_VIDEO_NO_FRAME;
    }
    int colorspace = frame->colorspace;
    if (colorspace == AVCOL_SPC_UNSPECIFIED || colorspace == AVCOL_SPC_RESERVED ||
        colorspace > AVCOL_SPC_BT2020_CL)
        colorspace = frame->height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601;
    /* Fails (harmlessly) for RGB sources, which have no matrix. */
    sws_setColorspaceDetails(scaler, sws_getCoefficients(colorspace), full_range,
        sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);

    size_t stride = (size_t) target_width * 3;
    /* A little slack after the last row: swscale's vector code may store a few bytes past the
     * end of a row it writes. */
    uint8_t *pixels = malloc(stride * (size_t) target_height + 64);
    if (!pixels) {
        sws_freeContext(scaler);
        thumbs_message(message, size, "out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    int strides[4] = { (int) stride, 0, 0, 0 };
    int rows = sws_scale(scaler, (const uint8_t *const *) frame->data, frame->linesize, 0,
        frame->height, planes, strides);
    sws_freeContext(scaler);
    if (rows != target_height) {
        free(pixels);
        thumbs_message(message, size, "cannot convert %s frames to RGB",
            av_get_pix_fmt_name(frame->format));
        return THUMBS_VIDEO_NO_FRAME;
    }
    out->pixels = pixels;
    out->width = target_width;
    out->height = target_height;
    return THUMBS_VIDEO_OK;
}

/* ---- The poster -------------------------------------------------------------------------- */

static thumbs_video_status thumbs_cover(thumbs_input *input, thumbs_video_frame *out,
    char *message, size_t size) {
    for (unsigned i = 0; i < input->format->nb_streams; i++) {
        const AVStream *stream = input->format->streams[i];
        if (!thumbs_is_cover(stream) || stream->attached_pic.size <= 0)
            continue;
        out->encoded = malloc((size_t) stream->attached_pic.size);
        if (!out->encoded) {
            thumbs_message(message, size, "out of memory");
            return THUMBS_VIDEO_NO_MEMORY;
        }
        memcpy(out->encoded, stream->attached_pic.data, (size_t) stream->attached_pic.size);
        out->encoded_size = (size_t) stream->attached_pic.size;
        out->width = stream->codecpar->width;
        out->height = stream->codecpar->height;
        out->time = -1;
        return THUMBS_VIDEO_OK;
    }
    return THUMBS_VIDEO_NO_FRAME;    /* none: not an error, the caller decodes */
}

/* Seeks back to the keyframe at or before 10 % of the duration, at most 3 s in. When the
 * container cannot seek, decoding starts where it is: at the start. */
static void thumbs_seek_to_poster(thumbs_input *input) {
    AVStream *stream = input->format->streams[input->video];
    double duration = thumbs_duration(input->format, input->video);
    if (duration <= 0)
        return;
    double seconds = fmin(duration * 0.1, 3.0);
    int64_t target = (int64_t) (seconds / av_q2d(stream->time_base));
    if (stream->start_time != AV_NOPTS_VALUE)
        target += stream->start_time;
    if (target <= 0 || (stream->start_time != AV_NOPTS_VALUE && target <= stream->start_time))
        return;
    av_seek_frame(input->format, input->video, target, AVSEEK_FLAG_BACKWARD);
}

thumbs_video_status thumbs_video_poster(int descriptor, int32_t mode, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_video_frame *frame, char *message,
    size_t message_size) {
    pthread_once(&thumbs_log_once, thumbs_log_setup);
    memset(frame, 0, sizeof *frame);
    thumbs_message(message, message_size, "%s", "");
    int degraded = mode == 1;

    thumbs_input input;
    AVFrame *candidate = NULL, *best = NULL;
    thumbs_video_status status = thumbs_open(&input, descriptor, time_limit_seconds, message,
        message_size);
    if (status != THUMBS_VIDEO_OK)
        goto done;
    if (input.video < 0) {
        thumbs_message(message, message_size, "no video stream in this file");
        status = THUMBS_VIDEO_NO_VIDEO_STREAM;
        goto done;
    }
    if (degraded && thumbs_cover(&input, frame, message, message_size) != THUMBS_VIDEO_NO_FRAME) {
        status = frame->encoded ? THUMBS_VIDEO_OK : THUMBS_VIDEO_NO_MEMORY;
        goto done;
    }
    status = thumbs_open_decoder(&input, degraded, min_width, min_height, message, message_size);
    if (status != THUMBS_VIDEO_OK)
        goto done;

    /* Only the video stream's packets are wanted: the demuxers skip the others' data. */
    for (unsigned i = 0; i < input.format->nb_streams; i++)
        if ((int) i != input.video)
            input.format->streams[i]->discard = AVDISCARD_ALL;
    AVStream *stream = input.format->streams[input.video];
    if (!degraded)
        thumbs_seek_to_poster(&input);

    candidate = av_frame_alloc();
    best = av_frame_alloc();
    if (!candidate || !best) {
        thumbs_message(message, message_size, "out of memory");
        status = THUMBS_VIDEO_NO_MEMORY;
        goto done;
    }
    double best_deviation = -1;
    int64_t best_time = AV_NOPTS_VALUE, after = AV_NOPTS_VALUE;
    int error = 0;
    int64_t gap = (int64_t) (THUMBS_RETRY_GAP_SECONDS / av_q2d(stream->time_base));
    for (int attempt = 0; attempt <= THUMBS_RETRIES; attempt++) {
        int64_t time = AV_NOPTS_VALUE;
        error = thumbs_decode_keyframe(&input, after, candidate, &time, &frame->packets_decoded);
        if (error == AVERROR_EOF || error == AVERROR_EXIT || error == AVERROR(ENOMEM) ||
            input.io.read_errno)
            break;
        if (time != AV_NOPTS_VALUE)
            after = time + gap;
        if (error < 0)
            continue;    /* a damaged keyframe: try the next */
        double deviation = degraded ? 255 : thumbs_luma_deviation(candidate);
        if (deviation > best_deviation) {
            best_deviation = deviation;
            best_time = candidate->best_effort_timestamp != AV_NOPTS_VALUE
                ? candidate->best_effort_timestamp : time;
            av_frame_unref(best);
            av_frame_move_ref(best, candidate);
        } else {
            av_frame_unref(candidate);
        }
        /* Degraded mode takes the first frame that decodes, uniform or not. */
        if (degraded || best_deviation >= THUMBS_UNIFORM_SD)
            break;
    }
    if (best_deviation < 0) {
        /* Nothing decoded: a read error or the limit says why, else FFmpeg's error, if any. */
        status = thumbs_failure(&input, error, THUMBS_VIDEO_NO_FRAME, "decode", message,
            message_size);
        if (status == THUMBS_VIDEO_NO_FRAME && (error == AVERROR_EOF || error >= 0)) {
            if (input.log[0])
                thumbs_message(message, message_size, "no frame could be decoded (%s)", input.log);
            else
                thumbs_message(message, message_size, "no frame could be decoded");
        }
        goto done;
    }

    double square_width, square_height;
    int target_width, target_height;
    AVRational aspect = av_guess_sample_aspect_ratio(input.format, stream, best);
    thumbs_square(best->width, best->height, aspect, &square_width, &square_height);
    /* With lowres the frame is already smaller than stored, but still covers the minimum. */
    thumbs_target(square_width, square_height, min_width, min_height, &target_width,
        &target_height);
    status = thumbs_to_rgb(best, target_width, target_height, frame, message, message_size);
    if (status == THUMBS_VIDEO_OK) {
        double base = av_q2d(stream->time_base);
        frame->time = best_time != AV_NOPTS_VALUE ? (double) best_time * base : -1;
        if (stream->start_time != AV_NOPTS_VALUE && frame->time >= 0)
            frame->time -= (double) stream->start_time * base;
        frame->uniform = best_deviation < THUMBS_UNIFORM_SD;
        thumbs_message(message, message_size, "%s", "");
    }

done:
    av_frame_free(&candidate);
    av_frame_free(&best);
    thumbs_close(&input);
    if (status != THUMBS_VIDEO_OK)
        thumbs_video_frame_free(frame);
    return status;
}

void thumbs_video_frame_free(thumbs_video_frame *frame) {
    if (!frame)
        return;
    free(frame->pixels);
    free(frame->encoded);
    memset(frame, 0, sizeof *frame);
}
