#include "CPNGEncoder.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
} png_buffer;

static void put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char) (value >> 24);
    at[1] = (unsigned char) (value >> 16);
    at[2] = (unsigned char) (value >> 8);
    at[3] = (unsigned char) value;
}

/* Appends a chunk whose data is already in place after room left for its length and type. */
static void close_chunk(png_buffer *buffer, size_t start, const char type[4], size_t data_length) {
    put32(buffer->bytes + start, (uint32_t) data_length);
    memcpy(buffer->bytes + start + 4, type, 4);
    uLong crc = crc32(0L, buffer->bytes + start + 4, (uInt) (4 + data_length));
    put32(buffer->bytes + start + 8 + data_length, (uint32_t) crc);
    buffer->length = start + 12 + data_length;
}

static unsigned char paeth(unsigned char left, unsigned char up, unsigned char up_left) {
    int estimate = (int) left + (int) up - (int) up_left;
    int to_left = abs(estimate - (int) left);
    int to_up = abs(estimate - (int) up);
    int to_up_left = abs(estimate - (int) up_left);
    if (to_left <= to_up && to_left <= to_up_left)
        return left;
    return to_up <= to_up_left ? up : up_left;
}

int thumbs_png_encode(const unsigned char *pixels, int width, int height, int bands,
    unsigned char **png, size_t *length) {
    static const unsigned char colour_types[5] = { 0, 0, 4, 2, 6 };
    if (!pixels || !png || !length || width <= 0 || height <= 0 || bands < 1 || bands > 4)
        return -1;
    size_t row = (size_t) width * (size_t) bands;
    if (row / (size_t) bands != (size_t) width || row + 1 > SIZE_MAX / (size_t) height)
        return -1;
    size_t filtered_length = (row + 1) * (size_t) height;
    if (filtered_length > UINT32_MAX)
        return -1;

    /* Each row behind its filter type (4, Paeth): the rows above and to the left predict a
     * photo's smooth gradients, leaving small residues for the compressor. */
    unsigned char *filtered = malloc(filtered_length);
    if (!filtered)
        return -1;
    for (int y = 0; y < height; y++) {
        const unsigned char *current = pixels + row * (size_t) y;
        const unsigned char *above = y > 0 ? current - row : NULL;
        unsigned char *out = filtered + (row + 1) * (size_t) y;
        out[0] = 4;
        for (size_t x = 0; x < row; x++) {
            unsigned char left = x >= (size_t) bands ? current[x - (size_t) bands] : 0;
            unsigned char up = above ? above[x] : 0;
            unsigned char up_left = above && x >= (size_t) bands ? above[x - (size_t) bands] : 0;
            out[1 + x] = (unsigned char) (current[x] - paeth(left, up, up_left));
        }
    }

    z_stream stream;
    memset(&stream, 0, sizeof stream);
    /* Run-length matches only: a thumbnail's residues repeat at distance one far more often
     * than anywhere else, and zlib's string search is what costs. */
    if (deflateInit2(&stream, 1, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK) {
        free(filtered);
        return -1;
    }
    uLong bound = deflateBound(&stream, (uLong) filtered_length);
    if (bound > UINT32_MAX) {
        deflateEnd(&stream);
        free(filtered);
        return -1;
    }
    /* Signature, IHDR (25), the IDAT's length, type and CRC (12), IEND (12). */
    png_buffer buffer = { NULL, 0, 8 + 25 + 12 + (size_t) bound + 12 };
    buffer.bytes = malloc(buffer.capacity);
    if (!buffer.bytes) {
        deflateEnd(&stream);
        free(filtered);
        return -1;
    }
    static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    memcpy(buffer.bytes, signature, 8);
    unsigned char *header = buffer.bytes + 8 + 8;
    put32(header, (uint32_t) width);
    put32(header + 4, (uint32_t) height);
    header[8] = 8;                       /* bits per sample */
    header[9] = colour_types[bands];
    header[10] = 0;                      /* deflate */
    header[11] = 0;                      /* adaptive filtering, the only method */
    header[12] = 0;                      /* not interlaced */
    close_chunk(&buffer, 8, "IHDR", 13);

    size_t data_start = buffer.length;
    stream.next_in = filtered;
    stream.avail_in = (uInt) filtered_length;
    stream.next_out = buffer.bytes + data_start + 8;
    stream.avail_out = (uInt) bound;
    int status = deflate(&stream, Z_FINISH);
    size_t compressed = (size_t) stream.total_out;
    deflateEnd(&stream);
    free(filtered);
    if (status != Z_STREAM_END) {
        free(buffer.bytes);
        return -1;
    }
    close_chunk(&buffer, data_start, "IDAT", compressed);
    close_chunk(&buffer, buffer.length, "IEND", 0);
    *png = buffer.bytes;
    *length = buffer.length;
    return 0;
}
