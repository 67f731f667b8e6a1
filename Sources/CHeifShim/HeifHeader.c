#include "CHeifShim.h"

#include "CFileAccess.h"

#include <libheif/heif.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* As in HeifPicture.c: a photo's HEIF is a few megabytes. */
#define MAX_FILE_BYTES ((size_t) 256 << 20)
/* libvips' loader reads the first 16 metadata blocks of the primary image. */
#define MAX_METADATA_BLOCKS 16

/* Replaces `*copy` by a copy of `bytes`. */
static void keep(unsigned char **copy, size_t *copy_length, const unsigned char *bytes, size_t length) {
    free(*copy);
    *copy = malloc(length > 0 ? length : 1);
    *copy_length = *copy ? length : 0;
    if (*copy)
        memcpy(*copy, bytes, length);
}

/* The primary image's Exif and XMP blocks as libvips' loader attaches them: an Exif block past
 * its 4-byte offset field, a "mime" block that starts with "<x:xmpmeta" as XMP, a later block
 * of either kind replacing an earlier one. */
static void read_metadata(struct heif_image_handle *primary, thumbs_heif_header *header) {
    heif_item_id ids[MAX_METADATA_BLOCKS];
    int count = heif_image_handle_get_list_of_metadata_block_IDs(primary, NULL, ids, MAX_METADATA_BLOCKS);
    static const char xmp_start[] = "<x:xmpmeta";
    for (int index = 0; index < count; index++) {
        size_t length = heif_image_handle_get_metadata_size(primary, ids[index]);
        const char *type = heif_image_handle_get_metadata_type(primary, ids[index]);
        unsigned char *data = length > 0 ? malloc(length) : NULL;
        if (!type || !data || heif_image_handle_get_metadata(primary, ids[index], data).code != heif_error_Ok) {
            free(data);
            continue;
        }
        if (strcasecmp(type, "exif") == 0 && length > 4)
            keep(&header->exif, &header->exif_length, data + 4, length - 4);
        else if (strcasecmp(type, "mime") == 0 && length >= sizeof xmp_start - 1 &&
            memcmp(data, xmp_start, sizeof xmp_start - 1) == 0)
            keep(&header->xmp, &header->xmp_length, data, length);
        free(data);
    }
}

int thumbs_heif_read_header(int descriptor, thumbs_heif_header *header) {
    memset(header, 0, sizeof *header);
    size_t length = 0;
    uint8_t *file = thumbs_read_whole_file(descriptor, MAX_FILE_BYTES, &length);
    struct heif_context *context = file ? heif_context_alloc() : NULL;
    struct heif_image_handle *primary = NULL;
    int status = -1;
    if (!context || heif_context_read_from_memory_without_copy(context, file, length, NULL).code != heif_error_Ok ||
        heif_context_get_primary_image_handle(context, &primary).code != heif_error_Ok)
        goto finish;
    header->width = heif_image_handle_get_width(primary);
    header->height = heif_image_handle_get_height(primary);
    header->page_count = heif_context_get_number_of_top_level_images(context);
    heif_item_id first;
    struct heif_image_handle *thumbnail = NULL;
    if (heif_image_handle_get_list_of_thumbnail_IDs(primary, &first, 1) == 1 &&
        heif_image_handle_get_thumbnail(primary, first, &thumbnail).code == heif_error_Ok) {
        header->thumbnail_width = heif_image_handle_get_width(thumbnail);
        header->thumbnail_height = heif_image_handle_get_height(thumbnail);
        heif_image_handle_release(thumbnail);
    }
    read_metadata(primary, header);
    status = 0;
finish:
    heif_image_handle_release(primary);
    heif_context_free(context);
    free(file);
    return status;
}

void thumbs_heif_header_free(thumbs_heif_header *header) {
    free(header->exif);
    free(header->xmp);
    header->exif = header->xmp = NULL;
}
