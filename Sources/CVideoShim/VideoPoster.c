#include "VideoFrame.h"
#include "VideoInput.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
/* Frames larger than this are refused before anything is allocated for them. */
#define THUMBS_MAX_PIXELS (16384 * 8192)

/* ---- Decoding ---------------------------------------------------------------------------- */

/* The largest lowres (a decode at 1/2^n of the size) whose frame still covers the target. */
static int thumbs_lowres(const AVCodec *decoder, int width, int height, AVRational aspect,
    int target_width, int target_height) {
    for (int lowres = decoder->max_lowres; lowres > 0; lowres--) {
        double square_width, square_height;
        video_square(AV_CEIL_RSHIFT(width, lowres), AV_CEIL_RSHIFT(height, lowres), aspect,
            &square_width, &square_height);
        if (square_width + 1e-6 >= target_width && square_height + 1e-6 >= target_height)
            return lowres;
    }
    return 0;
}

static thumbs_video_status thumbs_open_decoder(video_input *input, int degraded, int min_width,
    int min_height, char *message, size_t size) {
    AVStream *stream = input->format->streams[input->video];
    const AVCodecParameters *parameters = stream->codecpar;
    const AVCodec *decoder = avcodec_find_decoder(parameters->codec_id);
    if (!decoder) {
        char fourcc[AV_FOURCC_MAX_STRING_SIZE];
        if (parameters->codec_id == AV_CODEC_ID_NONE)
            video_message(message, size, "no decoder for the video codec '%s'",
                av_fourcc_make_string(fourcc, parameters->codec_tag));
        else
            video_message(message, size, "no decoder for the video codec %s",
                avcodec_get_name(parameters->codec_id));
        return THUMBS_VIDEO_DECODER_MISSING;
    }
    input->codec = avcodec_alloc_context3(decoder);
    if (!input->codec) {
        video_message(message, size, "out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    int error = avcodec_parameters_to_context(input->codec, parameters);
    if (error < 0)
        return video_input_failure(input, error, THUMBS_VIDEO_INVALID, "decoder", message, size);
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
        video_square(parameters->width, parameters->height, aspect, &square_width,
            &square_height);
        video_target(square_width, square_height, min_width, min_height, &target_width,
            &target_height);
        input->codec->lowres = thumbs_lowres(decoder, parameters->width, parameters->height, aspect,
            target_width, target_height);
    }
    error = avcodec_open2(input->codec, decoder, NULL);
    if (error < 0) {
        thumbs_video_status status = video_input_failure(input, error, THUMBS_VIDEO_INVALID, "decoder",
            message, size);
        /* A feature of the codec this decoder does not implement. */
        if (status == THUMBS_VIDEO_INVALID &&
            (error == AVERROR_PATCHWELCOME || error == AVERROR(ENOSYS)))
            status = THUMBS_VIDEO_DECODER_MISSING;
        return status;
    }
    return THUMBS_VIDEO_OK;
}

/* `seconds` in ticks of `base`, or 0 when the stream's time base (read from the file) makes
 * that no number of ticks: a conversion of an infinity or NaN to an integer is undefined. */
static int64_t thumbs_ticks(double seconds, AVRational base) {
    double ticks = seconds / av_q2d(base);
    return isfinite(ticks) && fabs(ticks) < 0x1p62 ? (int64_t) ticks : 0;
}

static int64_t thumbs_packet_time(const AVPacket *packet) {
    return packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
}

/* Reads on to the next packet of the video stream. Counts against *budget; AVERROR_EOF when
 * it runs out. */
static int thumbs_next_packet(video_input *input, int *budget) {
    for (;;) {
        if (video_past_deadline(&input->io))
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
static int thumbs_decode_keyframe(video_input *input, int64_t after, AVFrame *frame,
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


/* ---- The poster -------------------------------------------------------------------------- */

static thumbs_video_status thumbs_cover(video_input *input, thumbs_video_frame *out,
    char *message, size_t size) {
    for (unsigned i = 0; i < input->format->nb_streams; i++) {
        const AVStream *stream = input->format->streams[i];
        if (!video_is_cover(stream) || stream->attached_pic.size <= 0)
            continue;
        out->encoded = malloc((size_t) stream->attached_pic.size);
        if (!out->encoded) {
            video_message(message, size, "out of memory");
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
static void thumbs_seek_to_poster(video_input *input) {
    AVStream *stream = input->format->streams[input->video];
    double duration = video_duration(input->format, input->video);
    if (duration <= 0)
        return;
    double seconds = fmin(duration * 0.1, 3.0);
    int64_t target = thumbs_ticks(seconds, stream->time_base);
    if (target <= 0)
        return;
    if (stream->start_time != AV_NOPTS_VALUE) {
        if (stream->start_time > INT64_MAX - target)
            return;
        target += stream->start_time;
    }
    if (target <= 0 || (stream->start_time != AV_NOPTS_VALUE && target <= stream->start_time))
        return;
    av_seek_frame(input->format, input->video, target, AVSEEK_FLAG_BACKWARD);
}

/* thumbs_video_poster, whose frame also gives its light into `light` when that is not NULL
 * (thumbs_video_poster_light): the frame found, decoded and converted by the same steps, its
 * SDR pixels then left out. */
static thumbs_video_status video_poster(int descriptor, int32_t mode, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_video_frame *frame,
    thumbs_light_plane *light, char *message, size_t message_size) {
    memset(frame, 0, sizeof *frame);
    video_message(message, message_size, "%s", "");
    int degraded = mode == 1;

    video_input input;
    AVFrame *candidate = NULL, *best = NULL;
    thumbs_video_status status = video_input_open(&input, descriptor, time_limit_seconds, message,
        message_size);
    if (status != THUMBS_VIDEO_OK)
        goto done;
    if (input.video < 0) {
        video_message(message, message_size, "no video stream in this file");
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
        video_message(message, message_size, "out of memory");
        status = THUMBS_VIDEO_NO_MEMORY;
        goto done;
    }
    double best_deviation = -1;
    int64_t best_time = AV_NOPTS_VALUE, after = AV_NOPTS_VALUE;
    int error = 0;
    int64_t gap = thumbs_ticks(THUMBS_RETRY_GAP_SECONDS, stream->time_base);
    for (int attempt = 0; attempt <= THUMBS_RETRIES; attempt++) {
        int64_t time = AV_NOPTS_VALUE;
        error = thumbs_decode_keyframe(&input, after, candidate, &time, &frame->packets_decoded);
        if (error == AVERROR_EOF || error == AVERROR_EXIT || error == AVERROR(ENOMEM) ||
            input.io.read_errno)
            break;
        if (time != AV_NOPTS_VALUE)
            after = time < INT64_MAX - gap ? time + gap : INT64_MAX;
        if (error < 0)
            continue;    /* a damaged keyframe: try the next */
        double deviation = degraded ? 255 : video_luma_deviation(candidate);
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
        status = video_input_failure(&input, error, THUMBS_VIDEO_NO_FRAME, "decode", message,
            message_size);
        if (status == THUMBS_VIDEO_NO_FRAME && (error == AVERROR_EOF || error >= 0)) {
            if (input.log[0])
                video_message(message, message_size, "no frame could be decoded (%s)", input.log);
            else
                video_message(message, message_size, "no frame could be decoded");
        }
        goto done;
    }

    double square_width, square_height;
    int target_width, target_height;
    AVRational aspect = av_guess_sample_aspect_ratio(input.format, stream, best);
    video_square(best->width, best->height, aspect, &square_width, &square_height);
    /* With lowres the frame is already smaller than stored, but still covers the minimum. */
    video_target(square_width, square_height, min_width, min_height, &target_width,
        &target_height);
    video_adopt_stream_light(stream, best);
    status = video_frame_to_rgb(best, target_width, target_height, light ? NULL : frame, light,
        message, message_size);
    if (status == THUMBS_VIDEO_OK) {
        double base = av_q2d(stream->time_base);
        frame->time = best_time != AV_NOPTS_VALUE ? (double) best_time * base : -1;
        if (stream->start_time != AV_NOPTS_VALUE && frame->time >= 0)
            frame->time -= (double) stream->start_time * base;
        frame->uniform = best_deviation < THUMBS_UNIFORM_SD;
        video_message(message, message_size, "%s", "");
    }

done:
    av_frame_free(&candidate);
    av_frame_free(&best);
    video_input_close(&input);
    if (status != THUMBS_VIDEO_OK)
        thumbs_video_frame_free(frame);
    return status;
}

thumbs_video_status thumbs_video_poster(int descriptor, int32_t mode, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_video_frame *frame, char *message,
    size_t message_size) {
    return video_poster(descriptor, mode, min_width, min_height, time_limit_seconds, frame, NULL,
        message, message_size);
}

thumbs_video_status thumbs_video_poster_light(int descriptor, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_light_plane *light, char *message,
    size_t message_size) {
    memset(light, 0, sizeof *light);
    thumbs_video_frame frame;
    thumbs_video_status status = video_poster(descriptor, 0, min_width, min_height,
        time_limit_seconds, &frame, light, message, message_size);
    thumbs_video_frame_free(&frame);
    return status;
}

void thumbs_video_frame_free(thumbs_video_frame *frame) {
    if (!frame)
        return;
    free(frame->pixels);
    free(frame->encoded);
    memset(frame, 0, sizeof *frame);
}
