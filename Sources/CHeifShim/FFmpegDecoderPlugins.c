#include "CHeifShim.h"

#include "CVideoShim.h"

#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* libheif decoder plugins that hand HEIF's HEVC pictures (HEIC) and AV1 pictures (AVIF) to
 * FFmpeg's libavcodec. For HEVC, FFmpeg is a third faster than libde265 for the same pixels. For
 * AV1, FFmpeg's decoder is dav1d, as libheif's own plugin is, but its messages go through
 * FFmpeg's log, which Thumbs keeps quiet: libheif's plugin leaves dav1d's logger at its default,
 * which prints "Error parsing OBU data" to stderr for every damaged AVIF, into the middle of a
 * command's output.
 *
 * libheif hands a decoder the bitstream of one picture (a grid's tile, an alpha plane) in
 * pieces: for HEVC the parameter sets, then the picture's NAL units, each behind a 4-byte
 * big-endian length, which become start codes (FFmpeg reads Annex B); for AV1 the sequence
 * header, then the picture's OBUs, as FFmpeg reads them. The picture is decoded whole when
 * libheif asks for it. */
typedef struct {
    enum AVCodecID codec;
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} coded_picture;

/* libheif keeps a returned message's pointer: only static text is ever returned. */
static const char success[] = "Success";

static struct heif_error plugin_error(enum heif_suberror_code code, const char *message) {
    struct heif_error error = { heif_error_Decoder_plugin_error, code, message };
    return error;
}

static struct heif_error plugin_success(void) {
    struct heif_error error = { heif_error_Ok, heif_suberror_Unspecified, success };
    return error;
}

static const char *hevc_plugin_name(void) {
    return "FFmpeg HEVC decoder (Thumbs)";
}

static const char *av1_plugin_name(void) {
    return "FFmpeg AV1 decoder (Thumbs)";
}

static void plugin_init(void) {}

static void plugin_deinit(void) {}

/* Above libde265's 100, so that libheif picks this decoder for HEVC. */
static int hevc_plugin_supports(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? 200 : 0;
}

/* Above dav1d's 150 and libaom's 100, so that libheif picks this decoder for AV1. */
static int av1_plugin_supports(enum heif_compression_format format) {
    return format == heif_compression_AV1 ? 200 : 0;
}

static struct heif_error new_decoder(void **decoder, enum AVCodecID codec) {
    coded_picture *picture = calloc(1, sizeof(coded_picture));
    if (picture)
        picture->codec = codec;
    *decoder = picture;
    return picture ? plugin_success() : plugin_error(heif_suberror_Unspecified, "out of memory");
}

static struct heif_error hevc_new_decoder(void **decoder) {
    return new_decoder(decoder, AV_CODEC_ID_HEVC);
}

static struct heif_error av1_new_decoder(void **decoder) {
    return new_decoder(decoder, AV_CODEC_ID_AV1);
}

static void plugin_free_decoder(void *decoder) {
    coded_picture *picture = decoder;
    free(picture->bytes);
    free(picture);
}

/* Appends `prefix` and `bytes` to the picture, keeping room for the zeroed padding libavcodec
 * reads past the end. */
static struct heif_error append(coded_picture *picture, const uint8_t *prefix, size_t prefix_length,
    const uint8_t *bytes, size_t length) {
    size_t room = SIZE_MAX - AV_INPUT_BUFFER_PADDING_SIZE - picture->length;
    if (prefix_length > room || length > room - prefix_length)
        return plugin_error(heif_suberror_Unspecified, "the picture is too large");
    size_t needed = picture->length + prefix_length + length + AV_INPUT_BUFFER_PADDING_SIZE;
    if (needed > picture->capacity) {
        size_t capacity = needed > SIZE_MAX / 2 ? needed : needed * 2;
        uint8_t *grown = realloc(picture->bytes, capacity);
        if (!grown)
            return plugin_error(heif_suberror_Unspecified, "out of memory");
        picture->bytes = grown;
        picture->capacity = capacity;
    }
    if (prefix_length > 0)
        memcpy(picture->bytes + picture->length, prefix, prefix_length);
    if (length > 0)
        memcpy(picture->bytes + picture->length + prefix_length, bytes, length);
    picture->length += prefix_length + length;
    return plugin_success();
}

static struct heif_error hevc_push_data(void *decoder, const void *data, size_t size) {
    coded_picture *picture = decoder;
    const uint8_t *bytes = data;
    size_t offset = 0;
    while (offset < size) {
        if (size - offset < 4)
            return plugin_error(heif_suberror_End_of_data, "HEVC data ends inside a NAL unit's length");
        size_t length = ((size_t) bytes[offset] << 24) | ((size_t) bytes[offset + 1] << 16) |
            ((size_t) bytes[offset + 2] << 8) | (size_t) bytes[offset + 3];
        offset += 4;
        if (length > size - offset)
            return plugin_error(heif_suberror_End_of_data, "a HEVC NAL unit runs past its data");
        static const uint8_t start_code[4] = { 0, 0, 0, 1 };
        struct heif_error error = append(picture, start_code, 4, bytes + offset, length);
        if (error.code != heif_error_Ok)
            return error;
        offset += length;
    }
    return plugin_success();
}

static struct heif_error av1_push_data(void *decoder, const void *data, size_t size) {
    return append(decoder, NULL, 0, data, size);
}

/* The libheif chroma of a planar YUV or grey frame, or -1 for any other layout. */
static int heif_chroma_of(const AVPixFmtDescriptor *format) {
    if (format->flags & (AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA))
        return -1;
    if (format->nb_components == 1)
        return heif_chroma_monochrome;
    if (format->nb_components != 3 || !(format->flags & AV_PIX_FMT_FLAG_PLANAR))
        return -1;
    if (format->log2_chroma_w == 1 && format->log2_chroma_h == 1)
        return heif_chroma_420;
    if (format->log2_chroma_w == 1 && format->log2_chroma_h == 0)
        return heif_chroma_422;
    if (format->log2_chroma_w == 0 && format->log2_chroma_h == 0)
        return heif_chroma_444;
    return -1;
}

/* Copies `frame` into a new libheif image, with the colour description of its bitstream. */
static struct heif_error image_of_frame(const AVFrame *frame, struct heif_image **image) {
    const AVPixFmtDescriptor *format = av_pix_fmt_desc_get(frame->format);
    int chroma = format ? heif_chroma_of(format) : -1;
    if (chroma < 0)
        return plugin_error(heif_suberror_Unsupported_color_conversion, "unsupported pixel format");
    int depth = format->comp[0].depth;
    for (int component = 1; component < format->nb_components; component++)
        if (format->comp[component].depth != depth)
            return plugin_error(heif_suberror_Unsupported_color_conversion,
                "planes of different bit depths are not supported");
    int mono = chroma == heif_chroma_monochrome;
    struct heif_error error = heif_image_create(frame->width, frame->height,
        mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, (enum heif_chroma) chroma, image);
    if (error.code != heif_error_Ok)
        return plugin_error(heif_suberror_Unspecified, "libheif could not make an image for a picture");
    static const enum heif_channel channels[3] = { heif_channel_Y, heif_channel_Cb, heif_channel_Cr };
    size_t sample_bytes = depth > 8 ? 2 : 1;
    for (int plane = 0; plane < (mono ? 1 : 3); plane++) {
        int width = plane == 0 ? frame->width : AV_CEIL_RSHIFT(frame->width, format->log2_chroma_w);
        int height = plane == 0 ? frame->height : AV_CEIL_RSHIFT(frame->height, format->log2_chroma_h);
        error = heif_image_add_plane(*image, channels[plane], width, height, depth);
        if (error.code != heif_error_Ok) {
            heif_image_release(*image);
            *image = NULL;
            return plugin_error(heif_suberror_Unspecified, "libheif could not hold a picture's plane");
        }
        int stride;
        uint8_t *destination = heif_image_get_plane(*image, channels[plane], &stride);
        for (int row = 0; row < height; row++)
            memcpy(destination + (size_t) row * (size_t) stride,
                frame->data[plane] + (ptrdiff_t) row * frame->linesize[plane], (size_t) width * sample_bytes);
    }
    /* The bitstream's colour description (HEVC's VUI, AV1's sequence header), as libheif's own
     * decoders give it: libheif uses it where the container has no colour box. FFmpeg's
     * enumerations are ITU-T H.273's codes. */
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t) frame->color_primaries);
        heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t) frame->color_trc);
        heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t) frame->colorspace);
        nclx->full_range_flag = frame->color_range == AVCOL_RANGE_JPEG;
        heif_image_set_nclx_color_profile(*image, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    return plugin_success();
}

/* FFmpeg's decoder for `codec`: for AV1, dav1d (FFmpeg's own AV1 decoder only drives hardware). */
static const AVCodec *ffmpeg_decoder(enum AVCodecID codec) {
    return codec == AV_CODEC_ID_AV1 ? avcodec_find_decoder_by_name("libdav1d") : avcodec_find_decoder(codec);
}

static struct heif_error plugin_decode_image(void *decoder, struct heif_image **image) {
    coded_picture *stream = decoder;
    *image = NULL;
    if (stream->length == 0)
        return plugin_error(heif_suberror_End_of_data, "no picture data");
    memset(stream->bytes + stream->length, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    const AVCodec *codec = ffmpeg_decoder(stream->codec);
    AVCodecContext *context = codec ? avcodec_alloc_context3(codec) : NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    struct heif_error result = plugin_error(heif_suberror_Unspecified, "out of memory");
    if (!context || !packet || !frame)
        goto finish;
    /* One thread: libheif decodes a grid's tiles side by side already, and Thumbs renders
     * several pictures at once. */
    context->thread_count = 1;
    /* The coded picture may claim any size, whatever the container's `ispe` said (and the
     * decode budget reserved): refuse one beyond 16K x 8K before the decoder allocates it. */
    context->max_pixels = 16384 * 8192;
    if (avcodec_open2(context, codec, NULL) < 0) {
        result = plugin_error(heif_suberror_Unspecified, "FFmpeg could not open its decoder");
        goto finish;
    }
    if (stream->length > INT_MAX) {
        result = plugin_error(heif_suberror_Unspecified, "the picture is too large");
        goto finish;
    }
    packet->data = stream->bytes;
    packet->size = (int) stream->length;
    int sent = avcodec_send_packet(context, packet);
    int flushed = avcodec_send_packet(context, NULL);
    if (sent < 0 || flushed < 0 || avcodec_receive_frame(context, frame) < 0) {
        result = plugin_error(heif_suberror_Unspecified, "FFmpeg could not decode the picture");
        goto finish;
    }
    /* FFmpeg hides damaged slices and still returns the picture: a broken photo is reported
     * rather than thumbnailed with grey or smeared blocks. */
    if (frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT)) {
        result = plugin_error(heif_suberror_Unspecified, "the picture is damaged");
        goto finish;
    }
    result = image_of_frame(frame, image);
finish:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    return result;
}

static const struct heif_decoder_plugin ffmpeg_hevc_plugin = {
    .plugin_api_version = 1,
    .get_plugin_name = hevc_plugin_name,
    .init_plugin = plugin_init,
    .deinit_plugin = plugin_deinit,
    .does_support_format = hevc_plugin_supports,
    .new_decoder = hevc_new_decoder,
    .free_decoder = plugin_free_decoder,
    .push_data = hevc_push_data,
    .decode_image = plugin_decode_image,
};

static const struct heif_decoder_plugin ffmpeg_av1_plugin = {
    .plugin_api_version = 1,
    .get_plugin_name = av1_plugin_name,
    .init_plugin = plugin_init,
    .deinit_plugin = plugin_deinit,
    .does_support_format = av1_plugin_supports,
    .new_decoder = av1_new_decoder,
    .free_decoder = plugin_free_decoder,
    .push_data = av1_push_data,
    .decode_image = plugin_decode_image,
};

static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int hevc_registration_status = -1, av1_registration_status = -1;

static int register_plugin(enum AVCodecID codec, const struct heif_decoder_plugin *plugin) {
    if (!ffmpeg_decoder(codec))
        return -1;
    return heif_register_decoder_plugin(plugin).code == heif_error_Ok ? 0 : -1;
}

static void register_plugins(void) {
    thumbs_ffmpeg_quiet_log();
    hevc_registration_status = register_plugin(AV_CODEC_ID_HEVC, &ffmpeg_hevc_plugin);
    av1_registration_status = register_plugin(AV_CODEC_ID_AV1, &ffmpeg_av1_plugin);
}

int thumbs_heif_use_ffmpeg_hevc(void) {
    pthread_once(&registration, register_plugins);
    return hevc_registration_status;
}

int thumbs_heif_use_ffmpeg_av1(void) {
    pthread_once(&registration, register_plugins);
    return av1_registration_status;
}

static const char *decoder_name(enum heif_compression_format format) {
    const struct heif_decoder_descriptor *first = NULL;
    if (heif_get_decoder_descriptors(format, &first, 1) < 1 || !first)
        return "";
    const char *name = heif_decoder_descriptor_get_name(first);
    return name ? name : "";
}

const char *thumbs_heif_hevc_decoder_name(void) {
    return decoder_name(heif_compression_HEVC);
}

const char *thumbs_heif_av1_decoder_name(void) {
    return decoder_name(heif_compression_AV1);
}
