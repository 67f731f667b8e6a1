/* One video opened through its descriptor: FFmpeg's log, reading with pread under a time
 * limit, the container and its video stream. */
#include "VideoInput.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define THUMBS_IO_BUFFER (64 * 1024)

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

void thumbs_ffmpeg_quiet_log(void) {
    pthread_once(&thumbs_log_once, thumbs_log_setup);
}

/* ---- Time and messages ------------------------------------------------------------------- */

static double thumbs_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

void video_message(char *message, size_t size, const char *format, ...) {
    if (!message || size == 0)
        return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

void video_copy(char *destination, size_t size, const char *source) {
    snprintf(destination, size, "%s", source ? source : "");
}

/* ---- Reading through the descriptor ------------------------------------------------------ */

int video_past_deadline(video_io *io) {
    if (io->deadline > 0 && thumbs_now() > io->deadline)
        io->timed_out = 1;
    return io->timed_out;
}

static int thumbs_read(void *opaque, uint8_t *buffer, int size) {
    video_io *io = opaque;
    if (video_past_deadline(io))
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
    video_io *io = opaque;
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
    return video_past_deadline(opaque);
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

void video_input_close(video_input *input) {
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
thumbs_video_status video_input_failure(video_input *input, int error,
    thumbs_video_status otherwise, const char *what, char *message, size_t size) {
    if (input->io.read_errno) {
        video_message(message, size, "%s: read error: %s", what, strerror(input->io.read_errno));
        return THUMBS_VIDEO_UNREADABLE;
    }
    if (input->io.timed_out || error == AVERROR_EXIT) {
        video_message(message, size, "%s: the time limit passed", what);
        return THUMBS_VIDEO_TIMED_OUT;
    }
    if (error == AVERROR(ENOMEM)) {
        video_message(message, size, "%s: out of memory", what);
        return THUMBS_VIDEO_NO_MEMORY;
    }
    char text[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(error, text, sizeof text);
    if (input->log[0])
        video_message(message, size, "%s: %s (%s)", what, text, input->log);
    else
        video_message(message, size, "%s: %s", what, text);
    return otherwise;
}

int video_is_cover(const AVStream *stream) {
    return (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
}

/* The video stream to use: not a cover; the default one first, then the largest. */
static int thumbs_pick_video(const AVFormatContext *format) {
    int best = -1;
    int64_t best_score = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->codecpar->codec_type != AVMEDIA_TYPE_VIDEO || video_is_cover(stream))
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
 * frame size (AVI's duration comes from its stream headers, see video_duration), so it runs
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

thumbs_video_status video_input_open(video_input *input, int descriptor, double time_limit,
    char *message, size_t size) {
    thumbs_ffmpeg_quiet_log();
    memset(input, 0, sizeof *input);
    input->video = -1;
    input->io.descriptor = descriptor;
    if (time_limit > 0)
        input->io.deadline = thumbs_now() + time_limit;
    thumbs_log_buffer = input->log;
    thumbs_log_size = sizeof input->log;

    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        video_message(message, size, "open: %s", strerror(errno));
        return THUMBS_VIDEO_UNREADABLE;
    }
    if (S_ISREG(status.st_mode) && status.st_size == 0) {
        video_message(message, size, "open: the file is empty");
        return THUMBS_VIDEO_INVALID;
    }

    uint8_t *buffer = av_malloc(THUMBS_IO_BUFFER);
    if (buffer)
        input->pb = avio_alloc_context(buffer, THUMBS_IO_BUFFER, 0, &input->io, thumbs_read, NULL,
            thumbs_seek);
    if (!input->pb) {
        av_free(buffer);
        video_message(message, size, "open: out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    input->format = avformat_alloc_context();
    input->packet = av_packet_alloc();
    if (!input->format || !input->packet) {
        video_message(message, size, "open: out of memory");
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
        return video_input_failure(input, error, THUMBS_VIDEO_INVALID, "open", message, size);

    if (thumbs_needs_stream_info(input->format)) {
        error = avformat_find_stream_info(input->format, NULL);
        /* A failure here still leaves what the header gave; only the limit and read errors end
         * the call. */
        if (error < 0 && (input->io.read_errno || input->io.timed_out))
            return video_input_failure(input, error, THUMBS_VIDEO_INVALID, "read stream info", message,
                size);
    }
    input->video = thumbs_pick_video(input->format);
    return THUMBS_VIDEO_OK;
}

const char *thumbs_video_library_version(void) {
    return av_version_info();
}
