#include "VideoInput.h"

#include <math.h>
#include <string.h>

#include <libavutil/display.h>

/* ---- The probe --------------------------------------------------------------------------- */

double video_duration(const AVFormatContext *format, int video) {
    if (format->duration != AV_NOPTS_VALUE && format->duration > 0)
        return (double) format->duration / AV_TIME_BASE;
    /* Without avformat_find_stream_info the file's duration is unset for AVI; its streams
     * know theirs. Prefer the video stream's. */
    double longest = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->duration == AV_NOPTS_VALUE || stream->duration <= 0 || video_is_cover(stream))
            continue;
        double seconds = (double) stream->duration * av_q2d(stream->time_base);
        /* A time base of 0/n or n/0 read from a damaged header. */
        if (!isfinite(seconds) || seconds <= 0)
            continue;
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

static void thumbs_fill_info(const video_input *input, thumbs_video_info *info) {
    AVFormatContext *format = input->format;
    memset(info, 0, sizeof *info);
    /* "mov,mp4,m4a,3gp,3g2,mj2" -> "mov". */
    const char *name = format->iformat->name;
    size_t length = strcspn(name, ",");
    if (length >= sizeof info->container)
        length = sizeof info->container - 1;
    memcpy(info->container, name, length);
    info->duration = video_duration(format, input->video);

    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *stream = format->streams[i];
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_AUDIO)
            info->has_audio = 1;
        if (video_is_cover(stream) && stream->attached_pic.size > 0)
            info->has_cover = 1;
    }

    const char *creation = thumbs_tag(format->metadata, "creation_time");
    if (input->video >= 0) {
        AVStream *stream = format->streams[input->video];
        const AVCodecParameters *parameters = stream->codecpar;
        if (parameters->codec_id == AV_CODEC_ID_NONE && parameters->codec_tag) {
            char fourcc[AV_FOURCC_MAX_STRING_SIZE];
            video_copy(info->codec, sizeof info->codec,
                av_fourcc_make_string(fourcc, parameters->codec_tag));
        } else {
            video_copy(info->codec, sizeof info->codec, avcodec_get_name(parameters->codec_id));
        }
        info->decodable = avcodec_find_decoder(parameters->codec_id) != NULL;
        info->transfer = (int32_t) parameters->color_trc;
        info->width = parameters->width;
        info->height = parameters->height;
        AVRational aspect = av_guess_sample_aspect_ratio(format, stream, NULL);
        if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) {
            /* The aspect comes from the file: a huge one is refused by the pixel limit, not
             * wrapped into a small or negative width. */
            int64_t width = av_rescale(info->width, aspect.num, aspect.den);
            info->width = width > INT32_MAX ? INT32_MAX : (int32_t) width;
        }
        thumbs_rotation(stream, &info->rotation, &info->mirrored);
        AVRational rate = stream->avg_frame_rate;
        if (rate.num <= 0 || rate.den <= 0)
            rate = stream->r_frame_rate;
        if (rate.num > 0 && rate.den > 0)
            info->frame_rate = av_q2d(rate);
        if (!creation)
            creation = thumbs_tag(stream->metadata, "creation_time");
    }
    video_copy(info->creation_time, sizeof info->creation_time, creation);
    video_copy(info->creation_date, sizeof info->creation_date,
        thumbs_tag(format->metadata, "com.apple.quicktime.creationdate"));
    video_copy(info->content_identifier, sizeof info->content_identifier,
        thumbs_tag(format->metadata, "com.apple.quicktime.content.identifier"));
    video_copy(info->capture_rate, sizeof info->capture_rate,
        thumbs_tag(format->metadata, "com.android.capture.fps"));
}

thumbs_video_status thumbs_video_probe(int descriptor, double time_limit_seconds,
    thumbs_video_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    video_message(message, message_size, "%s", "");
    video_input input;
    thumbs_video_status status = video_input_open(&input, descriptor, time_limit_seconds, message,
        message_size);
    if (status == THUMBS_VIDEO_OK) {
        thumbs_fill_info(&input, info);
        if (input.video < 0) {
            video_message(message, message_size, "no video stream in this %s file",
                info->container);
            status = THUMBS_VIDEO_NO_VIDEO_STREAM;
        }
    }
    video_input_close(&input);
    return status;
}
