#include "VideoFrame.h"
#include "VideoInput.h"

#include <CToneMap.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* ---- Sizes ------------------------------------------------------------------------------- */

void video_square(int width, int height, AVRational aspect, double *square_width,
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

void video_target(double width, double height, int min_width, int min_height,
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

/* ---- Uniformity -------------------------------------------------------------------------- */

double video_luma_deviation(const AVFrame *frame) {
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



/* The full-range "J" formats are deprecated in swscale (it warns): use the plain format with
 * the range set explicitly. */
static enum AVPixelFormat video_plain_format(enum AVPixelFormat format, int *full_range) {
    switch (format) {
    case AV_PIX_FMT_YUVJ420P: *full_range = 1; return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: *full_range = 1; return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: *full_range = 1; return AV_PIX_FMT_YUV444P;
    case AV_PIX_FMT_YUVJ440P: *full_range = 1; return AV_PIX_FMT_YUV440P;
    case AV_PIX_FMT_YUVJ411P: *full_range = 1; return AV_PIX_FMT_YUV411P;
    default: return format;
    }
}

/* An HDR frame's pixels, 16-bit R'G'B' code values: tone-mapped into `pixels` (RGB24, the same
 * rows in place: each 6-byte pixel becomes a 3-byte one ahead of it) when `tone_map`, and their
 * light (thumbs_tone_map_relative_luminance) into `luminance` when not NULL, from the same
 * linear values. */
static void video_tone_map(const thumbs_tone_map *map, uint8_t *pixels, size_t count, int tone_map,
    float *luminance) {
    const uint16_t *codes = (const uint16_t *) pixels;
    for (size_t i = 0; i < count; i++) {
        float linear[3];
        for (int c = 0; c < 3; c++)
            linear[c] = thumbs_tone_map_linear(map, codes[3 * i + c] / 65535.0f);
        if (luminance)
            luminance[i] = thumbs_tone_map_relative_luminance(map, linear);
        if (tone_map)
            thumbs_tone_map_pixel(map, linear, pixels + 3 * i);
    }
}

/* The peak a frame states (HEVC's SEI, as FFmpeg attaches it), in cd/m²: its maximum content
 * light level, else its mastering display's peak; 0 when it states neither. */
static float video_stated_peak(const AVFrame *frame) {
    const AVFrameSideData *light = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    if (light && light->size >= sizeof(AVContentLightMetadata) &&
        ((const AVContentLightMetadata *) light->data)->MaxCLL > 0)
        return (float) ((const AVContentLightMetadata *) light->data)->MaxCLL;
    const AVFrameSideData *mastering = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    if (mastering && mastering->size >= sizeof(AVMasteringDisplayMetadata)) {
        const AVMasteringDisplayMetadata *display = (const AVMasteringDisplayMetadata *) mastering->data;
        if (display->has_luminance && display->max_luminance.den > 0 && display->max_luminance.num > 0)
            return (float) ((double) display->max_luminance.num / (double) display->max_luminance.den);
    }
    return 0;
}

void video_adopt_stream_light(const AVStream *stream, AVFrame *frame) {
    static const struct {
        enum AVPacketSideDataType stream;
        enum AVFrameSideDataType frame;
        size_t size;
    } kinds[] = {
        { AV_PKT_DATA_CONTENT_LIGHT_LEVEL, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL, sizeof(AVContentLightMetadata) },
        { AV_PKT_DATA_MASTERING_DISPLAY_METADATA, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA,
            sizeof(AVMasteringDisplayMetadata) },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t size = 0;
        const uint8_t *stated = av_stream_get_side_data(stream, kinds[i].stream, &size);
        if (!stated || size < kinds[i].size || av_frame_get_side_data(frame, kinds[i].frame))
            continue;
        AVFrameSideData *added = av_frame_new_side_data(frame, kinds[i].frame, kinds[i].size);
        if (added)
            memcpy(added->data, stated, kinds[i].size);
    }
}

/* The frame to packed RGB24 at target_width x target_height. The YUV matrix and range come
 * from the frame (swscale would otherwise assume BT.601 limited range for everything); an
 * unlabelled one is taken as BT.709 from 720 lines up, BT.601 below, as players do. An HDR
 * frame (PQ or HLG transfer) is scaled to 16-bit R'G'B' and tone-mapped to sRGB (CToneMap),
 * by its transfer, primaries and, for PQ, its stated peak; `light` gets its light from the same
 * 16-bit pixels, so that it matches the SDR pixels one for one. */
thumbs_video_status video_frame_to_rgb(const AVFrame *frame, int target_width,
    int target_height, thumbs_video_frame *out, thumbs_light_plane *light, char *message,
    size_t size) {
    int full_range = frame->color_range == AVCOL_RANGE_JPEG;
    enum AVPixelFormat format = video_plain_format(frame->format, &full_range);
    thumbs_tone_map hdr;
    int is_hdr = thumbs_tone_map_init(&hdr, (int) frame->color_trc, (int) frame->color_primaries);
    if (is_hdr)
        thumbs_tone_map_set_peak(&hdr, video_stated_peak(frame));
    /* An SDR frame has no light beyond what its pixels show. */
    if (!out && !is_hdr)
        return THUMBS_VIDEO_OK;
    struct SwsContext *scaler = sws_getContext(frame->width, frame->height, format,
        target_width, target_height, is_hdr ? AV_PIX_FMT_RGB48 : AV_PIX_FMT_RGB24,
        SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!scaler) {
        video_message(message, size, "cannot convert %s frames to RGB",
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

    size_t stride = (size_t) target_width * (is_hdr ? 6 : 3);
    /* A little slack after the last row: swscale's vector code may store a few bytes past the
     * end of a row it writes. */
    uint8_t *pixels = malloc(stride * (size_t) target_height + 64);
    size_t count = (size_t) target_width * (size_t) target_height;
    float *luminance = light && is_hdr ? malloc(count * sizeof(float)) : NULL;
    if (!pixels || (light && is_hdr && !luminance)) {
        free(pixels);
        free(luminance);
        sws_freeContext(scaler);
        video_message(message, size, "out of memory");
        return THUMBS_VIDEO_NO_MEMORY;
    }
    uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    int strides[4] = { (int) stride, 0, 0, 0 };
    int rows = sws_scale(scaler, (const uint8_t *const *) frame->data, frame->linesize, 0,
        frame->height, planes, strides);
    sws_freeContext(scaler);
    if (rows != target_height) {
        free(pixels);
        free(luminance);
        video_message(message, size, "cannot convert %s frames to RGB",
            av_get_pix_fmt_name(frame->format));
        return THUMBS_VIDEO_NO_FRAME;
    }
    if (is_hdr)
        video_tone_map(&hdr, pixels, count, out != NULL, luminance);
    if (out) {
        out->pixels = pixels;
        out->width = target_width;
        out->height = target_height;
    } else {
        free(pixels);
    }
    if (luminance) {
        light->luminance = luminance;
        light->width = target_width;
        light->height = target_height;
    }
    return THUMBS_VIDEO_OK;
}
