import CVipsShim
import Glibc

/// Process-wide settings a program that decodes many images should apply at start.
public enum ProcessTuning {
    /// Limits glibc to `arenas` malloc arenas. By default each thread that allocates gets its own
    /// (up to 8 per core); decode buffers of megabytes allocated on many threads then fragment
    /// across them and resident memory grows with the length of a run. Measured in
    /// docs/BENCHMARKS.md: two arenas keep peak memory nearly flat from 100 to 1,000 concurrent
    /// requests. Call once, before any work.
    public static func limitMallocArenas(_ arenas: Int = 2) {
        thumbs_limit_malloc_arenas(Int32(arenas))
    }

    /// Serves allocations of up to `bytes` (default 64 MiB) from malloc's heaps and keeps freed
    /// memory there for the next decode, instead of glibc mapping each allocation over 32 MiB
    /// afresh and unmapping it when freed.
    ///
    /// A progressive JPEG is decoded through a buffer of all its coefficients, 128 bytes per 8×8
    /// block: 48 MiB for the luma of a 24 MP photo, zeroed by libjpeg before use. Freshly mapped,
    /// every page of it is faulted in and cleared by the kernel first; measured in
    /// docs/BENCHMARKS.md, that was 12 % of the CPU of a warm of the shared JPEGs. Memory freed
    /// stays resident up to twice `bytes` per arena, which is no more than a decode has just used.
    /// Call once, before any work.
    public static func keepFreedAllocations(upTo bytes: Int = 64 << 20) {
        _ = thumbs_keep_freed_allocations(bytes)
    }

    /// Has libvips start without loading its modules.
    ///
    /// At its start libvips loads every module of `$VIPSHOME/lib/vips-modules-8.x` (its install
    /// folder when unset; libvips then sets `VIPSHOME`, which child processes inherit): on Debian
    /// ImageMagick, poppler, OpenSlide, libjxl and libheif, with their dependencies, 14 ms and
    /// dozens of shared objects a process that decodes one JPEG spends for nothing. Thumbs reads
    /// nothing through the first three, and loads the HEIF module from beside libvips itself
    /// when a HEIF file first needs it. `/dev/null` can hold no folder. Call once, before any
    /// other thread runs (it sets an environment variable).
    public static func startLibvipsWithoutModules() {
        setenv("VIPSHOME", "/dev/null", 1)
    }
}
