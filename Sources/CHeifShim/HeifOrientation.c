#include "HeifOrientation.h"

#include <stdint.h>
#include <string.h>

/* A box of an ISO base media file: its type, and its payload (after the header). */
typedef struct {
    char type[4];
    const uint8_t *payload;
    size_t length;
} iso_box;

static uint32_t read_u16(const uint8_t *bytes) {
    return ((uint32_t) bytes[0] << 8) | bytes[1];
}

static uint32_t read_u32(const uint8_t *bytes) {
    return ((uint32_t) bytes[0] << 24) | ((uint32_t) bytes[1] << 16) | ((uint32_t) bytes[2] << 8) | bytes[3];
}

/* The box at `*offset` of `bytes[0..<length]`, advancing `*offset` past it; 0 at the end or on
 * a box that does not fit. */
static int next_box(const uint8_t *bytes, size_t length, size_t *offset, iso_box *box) {
    size_t start = *offset;
    if (length < 8 || start > length - 8)
        return 0;
    uint64_t size = read_u32(bytes + start);
    size_t header = 8;
    if (size == 1) {
        if (start > length - 16)
            return 0;
        size = ((uint64_t) read_u32(bytes + start + 8) << 32) | read_u32(bytes + start + 12);
        header = 16;
    } else if (size == 0) {
        size = length - start;
    }
    if (size < header || size > length - start)
        return 0;
    memcpy(box->type, bytes + start + 4, 4);
    box->payload = bytes + start + header;
    box->length = (size_t) size - header;
    *offset = start + (size_t) size;
    return 1;
}

/* The first box of type `type` among the boxes of `bytes[0..<length]`. */
static int find_box(const uint8_t *bytes, size_t length, const char type[4], iso_box *found) {
    size_t offset = 0;
    iso_box box;
    while (next_box(bytes, length, &offset, &box))
        if (memcmp(box.type, type, 4) == 0) {
            *found = box;
            return 1;
        }
    return 0;
}

/* A turn or a mirror as a 2×2 matrix on (x, y), y pointing down: the image's content moves by
 * it. Products of these are the eight EXIF orientations. */
typedef struct {
    int a, b, c, d;
} plane_map;

static plane_map then(plane_map first, plane_map second) {
    plane_map product = {
        second.a * first.a + second.b * first.c, second.a * first.b + second.b * first.d,
        second.c * first.a + second.d * first.c, second.c * first.b + second.d * first.d,
    };
    return product;
}

/* What EXIF orientation 1...8 does to turn the stored picture upright, as a plane_map. */
static const plane_map exif_orientations[8] = {
    { 1, 0, 0, 1 },   /* 1: as stored */
    { -1, 0, 0, 1 },  /* 2: mirrored left to right */
    { -1, 0, 0, -1 }, /* 3: turned half round */
    { 1, 0, 0, -1 },  /* 4: mirrored top to bottom */
    { 0, 1, 1, 0 },   /* 5: transposed */
    { 0, -1, 1, 0 },  /* 6: turned a quarter clockwise */
    { 0, -1, -1, 0 }, /* 7: transversed */
    { 0, 1, -1, 0 },  /* 8: turned a quarter anticlockwise */
};

/* The property boxes of ipco, in order (ipma counts them from 1). */
#define MAX_PROPERTIES 256

int thumbs_heif_orientation(const void *file, size_t length) {
    iso_box meta, pitm, iprp, ipco;
    if (!find_box(file, length, "meta", &meta) || meta.length < 4)
        return THUMBS_HEIF_ORIENTATION_UNKNOWN;
    /* meta is a full box: a version and flags come before its children. */
    const uint8_t *children = meta.payload + 4;
    size_t children_length = meta.length - 4;
    if (!find_box(children, children_length, "pitm", &pitm) || pitm.length < 6 ||
        !find_box(children, children_length, "iprp", &iprp) ||
        !find_box(iprp.payload, iprp.length, "ipco", &ipco))
        return THUMBS_HEIF_ORIENTATION_UNKNOWN;
    uint32_t primary = pitm.payload[0] == 0 ? read_u16(pitm.payload + 4)
        : pitm.length >= 8                  ? read_u32(pitm.payload + 4)
                                            : UINT32_MAX;

    iso_box properties[MAX_PROPERTIES];
    size_t property_count = 0, offset = 0;
    while (property_count < MAX_PROPERTIES && next_box(ipco.payload, ipco.length, &offset, &properties[property_count]))
        property_count++;

    plane_map upright = exif_orientations[0];
    int associated = 0;
    size_t iprp_offset = 0;
    iso_box ipma;
    /* Every ipma of iprp: a file may split the associations over several. */
    while (next_box(iprp.payload, iprp.length, &iprp_offset, &ipma)) {
        if (memcmp(ipma.type, "ipma", 4) != 0)
            continue;
        if (ipma.length < 8)
            return THUMBS_HEIF_ORIENTATION_UNKNOWN;
        int version = ipma.payload[0], wide_indices = ipma.payload[3] & 1;
        const uint8_t *cursor = ipma.payload + 8, *end = ipma.payload + ipma.length;
        for (uint32_t entry = 0, entries = read_u32(ipma.payload + 4); entry < entries; entry++) {
            size_t id_bytes = version < 1 ? 2 : 4;
            if ((size_t) (end - cursor) < id_bytes + 1)
                return THUMBS_HEIF_ORIENTATION_UNKNOWN;
            uint32_t item = version < 1 ? read_u16(cursor) : read_u32(cursor);
            int count = cursor[id_bytes];
            cursor += id_bytes + 1;
            if (item == primary)
                associated = 1;
            size_t index_bytes = wide_indices ? 2 : 1;
            if ((size_t) (end - cursor) < (size_t) count * index_bytes)
                return THUMBS_HEIF_ORIENTATION_UNKNOWN;
            for (int association = 0; association < count; association++, cursor += index_bytes) {
                if (item != primary)
                    continue;
                uint32_t index = wide_indices ? read_u16(cursor) & 0x7fff : cursor[0] & 0x7f;
                if (index == 0 || index > property_count)
                    continue;
                const iso_box *property = &properties[index - 1];
                /* The transformations apply in the order they are listed. */
                if (memcmp(property->type, "irot", 4) == 0 && property->length >= 1) {
                    static const plane_map quarter_anticlockwise = { 0, 1, -1, 0 };
                    for (int turn = 0; turn < (property->payload[0] & 3); turn++)
                        upright = then(upright, quarter_anticlockwise);
                } else if (memcmp(property->type, "imir", 4) == 0 && property->length >= 1) {
                    static const plane_map left_to_right = { -1, 0, 0, 1 }, top_to_bottom = { 1, 0, 0, -1 };
                    upright = then(upright, (property->payload[0] & 1) ? left_to_right : top_to_bottom);
                } else if (memcmp(property->type, "clap", 4) == 0) {
                    /* A crop: not an orientation. */
                    return THUMBS_HEIF_ORIENTATION_UNKNOWN;
                }
            }
        }
    }
    if (!associated)
        return THUMBS_HEIF_ORIENTATION_UNKNOWN;
    for (int orientation = 0; orientation < 8; orientation++)
        if (memcmp(&exif_orientations[orientation], &upright, sizeof upright) == 0)
            return orientation + 1;
    return THUMBS_HEIF_ORIENTATION_UNKNOWN;
}
