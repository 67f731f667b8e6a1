#include "HeifFile.h"

#include "CFileAccess.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES ((size_t) 256 << 20)

int open_heif(int descriptor, opened_heif *opened) {
    memset(opened, 0, sizeof *opened);
    opened->file = thumbs_read_whole_file(descriptor, MAX_FILE_BYTES, &opened->length);
    opened->context = opened->file ? heif_context_alloc() : NULL;
    return opened->context &&
        heif_context_read_from_memory_without_copy(opened->context, opened->file, opened->length, NULL).code ==
        heif_error_Ok &&
        heif_context_get_primary_image_handle(opened->context, &opened->primary).code == heif_error_Ok;
}

void close_heif(opened_heif *opened) {
    heif_image_handle_release(opened->primary);
    heif_context_free(opened->context);
    free(opened->file);
}
