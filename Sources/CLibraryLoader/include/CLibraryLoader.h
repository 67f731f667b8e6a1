#ifndef THUMBS_CLIBRARYLOADER_H
#define THUMBS_CLIBRARYLOADER_H

/// The decoding libraries Thumbs opens when a file first needs one, not at start: together they
/// load some 150 shared objects (FFmpeg alone brings every codec and network library it was
/// built with), which a command that decodes nothing, or only JPEGs, has no use for.
///
/// Each function Thumbs calls in them has a trampoline of its own name in this target
/// (Trampolines.S), so the callers (Swift through the libraries' own headers, and the C shims)
/// are written as if the library were linked. A trampoline jumps through a slot that
/// `thumbs_library_open` fills from the opened library; before that it points at a function that
/// names the library and aborts, so a call that skipped the open cannot go unnoticed.
typedef enum thumbs_library {
    /// libvips (libvips.so.42 on Debian 12).
    THUMBS_LIBRARY_VIPS = 0,
    /// FFmpeg's libavformat, libavcodec, libavutil and libswscale.
    THUMBS_LIBRARY_FFMPEG = 1,
    /// libheif.
    THUMBS_LIBRARY_HEIF = 2,
    /// LibRaw's thread-safe build (libraw_r).
    THUMBS_LIBRARY_LIBRAW = 3,
    /// libavif (AVIF image sequences, which libheif does not read).
    THUMBS_LIBRARY_AVIF = 4,
} thumbs_library;

/// Opens `library` by the sonames the build's headers name and resolves every function Thumbs
/// calls in it, once per process (thread-safe; later calls only read the outcome). Returns 0, or
/// -1 when a shared object or one of the functions cannot be had: `thumbs_library_failure` then
/// says which, and which Debian package provides it. A failed open is not retried.
int thumbs_library_open(thumbs_library library);

/// Has every later `thumbs_library_open` of a library not tried yet fail, saying the process
/// confined itself before it opened the library (a render worker, which Landlock keeps from
/// opening any file: the dynamic linker's failure would read as a missing package).
void thumbs_library_seal(void);

/// Why `thumbs_library_open(library)` failed; "" while it has not failed. The text lives as long
/// as the process.
const char *thumbs_library_failure(thumbs_library library);

/// Whether `library` is open, without opening it.
int thumbs_library_is_open(thumbs_library library);

/// The folder the library's first shared object was loaded from (libvips' modules are found
/// beside it), or "" while it is not open.
const char *thumbs_library_folder(thumbs_library library);

/// The version of the library's headers this build was compiled against, e.g. "8.14.1" (FFmpeg's
/// as "libavformat 59.27.100": its headers do not name the release).
const char *thumbs_library_header_version(thumbs_library library);

#endif
