import CVipsShim

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
}
