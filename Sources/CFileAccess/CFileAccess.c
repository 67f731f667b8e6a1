#define _GNU_SOURCE
#include "CFileAccess.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const int thumbs_o_path = O_PATH;
const unsigned long long thumbs_resolve_beneath = RESOLVE_BENEATH;
const unsigned long long thumbs_resolve_no_magiclinks = RESOLVE_NO_MAGICLINKS;

int thumbs_openat2(int directory, const char *path, int flags, unsigned long long resolve) {
#ifdef SYS_openat2
    struct open_how how = { .flags = (unsigned long long) flags, .mode = 0, .resolve = resolve };
    return (int) syscall(SYS_openat2, directory, path, &how, sizeof how);
#else
    (void) directory; (void) path; (void) flags; (void) resolve;
    errno = ENOSYS;
    return -1;
#endif
}

unsigned char *thumbs_read_whole_file(int descriptor, size_t limit, size_t *length) {
    struct stat status;
    if (fstat(descriptor, &status) != 0 || status.st_size <= 0 || (uintmax_t) status.st_size > limit)
        return NULL;
    size_t size = (size_t) status.st_size, done = 0;
    unsigned char *bytes = malloc(size);
    if (!bytes)
        return NULL;
    while (done < size) {
        ssize_t count = pread(descriptor, bytes + done, size - done, (off_t) done);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0) {
            free(bytes);
            return NULL;
        }
        done += (size_t) count;
    }
    *length = size;
    return bytes;
}
