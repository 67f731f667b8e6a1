#include "CAvifShim.h"

#include "CFileAccess.h"

#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An animated picture larger than this is not read into memory. */
#define MAX_FILE_BYTES ((size_t) 1 << 30)

/* The EXIF orientation of a rotation by `quarters` quarter turns anticlockwise (irot), followed by
 * a mirror (imir) exchanging left and right (`mirror` 1), top and bottom (0), or none (-1). */
static int32_t exif_orientation(int quarters, int mirror) {
    static const int32_t turned[4] = { 1, 8, 3, 6 };
    static const int32_t left_right[4] = { 2, 7, 4, 5 };
    static const int32_t top_bottom[4] = { 4, 5, 2, 7 };
    quarters &= 3;
    return mirror < 0 ? turned[quarters] : mirror ? left_right[quarters] : top_bottom[quarters];
}

static thumbs_avif_status status_of(avifResult result) {
    switch (result) {
    case AVIF_RESULT_OK: return THUMBS_AVIF_OK;
    case AVIF_RESULT_TRUNCATED_DATA: return THUMBS_AVIF_TRUNCATED;
    case AVIF_RESULT_OUT_OF_MEMORY: return THUMBS_AVIF_NO_MEMORY;
    case AVIF_RESULT_NO_CODEC_AVAILABLE:
    case AVIF_RESULT_NOT_IMPLEMENTED: return THUMBS_AVIF_UNSUPPORTED;
    default: return THUMBS_AVIF_CORRUPT;
    }
}

/* Whether the file's top-level boxes run past its end: a file cut short, whose damage libavif
 * reports as a box it could not parse. */
static int ends_early(const unsigned char *file, size_t length) {
    size_t offset = 0;
    while (length - offset >= 8) {
        const unsigned char *box = file + offset;
        uint64_t size = (uint64_t) box[0] << 24 | (uint64_t) box[1] << 16 | (uint64_t) box[2] << 8 | box[3];
        size_t header = 8;
        if (size == 1) {
            if (length - offset < 16)
                return 1;
            size = 0;
            for (int byte = 8; byte < 16; byte++)
                size = size << 8 | box[byte];
            header = 16;
        } else if (size == 0) {
            return 0; /* the last box, to the end of the file */
        }
        if (size < header)
            return 0; /* damaged, not cut short */
        if (size > length - offset)
            return 1;
        offset += (size_t) size;
    }
    return offset < length;
}

static void say(char *message, size_t size, const char *text) {
    if (message && size > 0)
        snprintf(message, size, "%s", text);
}

typedef struct {
    unsigned char *file;
    avifDecoder *decoder;
} opened_sequence;

static void close_sequence(opened_sequence *sequence) {
    if (sequence->decoder)
        avifDecoderDestroy(sequence->decoder);
    free(sequence->file);
}

/* Reads and parses the file, checks its size against `pixel_limit` and fills `info`. */
static thumbs_avif_status open_sequence(int descriptor, int64_t pixel_limit, opened_sequence *sequence,
    thumbs_avif_info *info, char *message, size_t message_size) {
    memset(sequence, 0, sizeof *sequence);
    memset(info, 0, sizeof *info);
    size_t length = 0;
    sequence->file = thumbs_read_whole_file(descriptor, MAX_FILE_BYTES, &length);
    if (!sequence->file) {
        say(message, message_size, "cannot read the file, or it is larger than 1 GiB");
        return THUMBS_AVIF_UNREADABLE;
    }
    sequence->decoder = avifDecoderCreate();
    if (!sequence->decoder) {
        say(message, message_size, "out of memory");
        return THUMBS_AVIF_NO_MEMORY;
    }
    avifDecoder *decoder = sequence->decoder;
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    avifResult result = avifDecoderSetIOMemory(decoder, sequence->file, length);
    if (result == AVIF_RESULT_OK)
        result = avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        say(message, message_size, avifResultToString(result));
        return result == AVIF_RESULT_BMFF_PARSE_FAILED && ends_early(sequence->file, length) ? THUMBS_AVIF_TRUNCATED
                                                                                             : status_of(result);
    }
    const avifImage *image = decoder->image;
    info->width = (int32_t) image->width;
    info->height = (int32_t) image->height;
    info->frame_count = decoder->imageCount;
    info->has_alpha = decoder->alphaPresent ? 1 : 0;
    info->depth = (int32_t) image->depth;
    int quarters = (image->transformFlags & AVIF_TRANSFORM_IROT) ? image->irot.angle : 0;
#if AVIF_VERSION_MAJOR >= 1
    int mirror = (image->transformFlags & AVIF_TRANSFORM_IMIR) ? image->imir.axis : -1;
#else
    int mirror = (image->transformFlags & AVIF_TRANSFORM_IMIR) ? image->imir.mode : -1;
#endif
    info->exif_orientation = exif_orientation(quarters, mirror);
    if (info->width <= 0 || info->height <= 0) {
        say(message, message_size, "the sequence has no frame size");
        return THUMBS_AVIF_CORRUPT;
    }
    if ((int64_t) info->width * info->height > pixel_limit) {
        say(message, message_size, "the frames are larger than the pixel limit");
        return THUMBS_AVIF_TOO_LARGE;
    }
    return THUMBS_AVIF_OK;
}

thumbs_avif_status thumbs_avif_probe(int descriptor, int64_t pixel_limit, thumbs_avif_info *info, char *message,
    size_t message_size) {
    opened_sequence sequence;
    thumbs_avif_status status = open_sequence(descriptor, pixel_limit, &sequence, info, message, message_size);
    close_sequence(&sequence);
    return status;
}

thumbs_avif_status thumbs_avif_first_frame(int descriptor, int64_t pixel_limit, thumbs_avif_info *info,
    thumbs_avif_frame *frame, char *message, size_t message_size) {
    memset(frame, 0, sizeof *frame);
    opened_sequence sequence;
    thumbs_avif_status status = open_sequence(descriptor, pixel_limit, &sequence, info, message, message_size);
    if (status != THUMBS_AVIF_OK) {
        close_sequence(&sequence);
        return status;
    }
    avifDecoder *decoder = sequence.decoder;
    avifResult result = avifDecoderNextImage(decoder);
    if (result != AVIF_RESULT_OK) {
        say(message, message_size, avifResultToString(result));
        close_sequence(&sequence);
        return status_of(result);
    }
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.depth = 8;
    rgb.format = info->has_alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    int bands = info->has_alpha ? 4 : 3;
    rgb.rowBytes = rgb.width * (uint32_t) bands;
    rgb.pixels = malloc((size_t) rgb.rowBytes * rgb.height);
    if (!rgb.pixels) {
        say(message, message_size, "out of memory");
        close_sequence(&sequence);
        return THUMBS_AVIF_NO_MEMORY;
    }
    result = avifImageYUVToRGB(decoder->image, &rgb);
    if (result != AVIF_RESULT_OK) {
        say(message, message_size, avifResultToString(result));
        free(rgb.pixels);
        close_sequence(&sequence);
        return status_of(result);
    }
    frame->pixels = rgb.pixels;
    frame->width = (int32_t) rgb.width;
    frame->height = (int32_t) rgb.height;
    frame->bands = bands;
    const avifRWData *icc = &decoder->image->icc;
    if (icc->size > 0 && (frame->icc = malloc(icc->size))) {
        memcpy(frame->icc, icc->data, icc->size);
        frame->icc_length = icc->size;
    }
    close_sequence(&sequence);
    return THUMBS_AVIF_OK;
}

const char *thumbs_avif_library_version(void) {
    return avifVersion();
}
