// The Linux calls that open files beneath a folder, which Swift cannot reach on its own:
// openat2() has no glibc wrapper in Debian 12 (only the variadic syscall(), which Swift cannot
// call), and O_PATH is defined only with _GNU_SOURCE. And the read of a whole open file, which
// the C decoders share.
#ifndef THUMBS_CFILEACCESS_H
#define THUMBS_CFILEACCESS_H

#include <stddef.h>

/// O_PATH: a descriptor that only names a place (a folder to open beneath), reading nothing.
extern const int thumbs_o_path;

/// openat2(directory, path, {flags, 0, resolve}); returns the descriptor, or -1 with errno set
/// (ENOSYS where the kernel lacks openat2). `resolve` is a mask of RESOLVE_* flags.
int thumbs_openat2(int directory, const char *path, int flags, unsigned long long resolve);

/// RESOLVE_BENEATH: fail (EXDEV) if resolution would leave `directory`, by "..", an absolute
/// path or a link.
extern const unsigned long long thumbs_resolve_beneath;
/// RESOLVE_NO_MAGICLINKS: refuse /proc magic links on the way.
extern const unsigned long long thumbs_resolve_no_magiclinks;

/// The whole file open as `descriptor`, read with pread (the descriptor's offset is left alone),
/// in memory to free with free(); its size in `length`. NULL when it is empty, larger than
/// `limit` bytes, or cannot be read.
unsigned char *thumbs_read_whole_file(int descriptor, size_t limit, size_t *length);

#endif
