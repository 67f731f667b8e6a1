#define _GNU_SOURCE
#include "CFileAccess.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
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
