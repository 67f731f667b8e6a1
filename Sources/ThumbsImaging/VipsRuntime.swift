import CHeifShim
import CVipsShim
import ThumbsCore
import ThumbsSupport

/// Starts libvips exactly once per process, with the policy every render relies on.
///
/// Call ``ensureStarted()`` before any libvips call; it is cheap after the first time.
/// ```swift
/// try VipsRuntime.ensureStarted()
/// ```
package enum VipsRuntime {
    /// Threads libvips may use inside one operation.
    ///
    /// One, because Thumbs parallelises *across* images on its own render threads
    /// (`BlockingThreadPool`): a thumbnail is mostly one JPEG/HEIF decode, which libvips cannot
    /// split anyway, and extra per-image threads would only fight the render threads for the same
    /// cores and add a thread pool per concurrent render.
    package static let threadsPerImage: Int32 = 1

    private static let startResult: Result<Void, ImagingError> = {
        // HEIC pictures go to FFmpeg's HEVC decoder, a third faster than libde265 for the same
        // pixels (docs/BENCHMARKS.md); when it cannot be had, libde265 stays in use.
        _ = thumbs_heif_use_ffmpeg_hevc()
        // AVIF pictures go to dav1d through FFmpeg, whose messages stay off stderr (libheif's
        // own dav1d plugin prints them there).
        _ = thumbs_heif_use_ffmpeg_av1()
        // The operation cache is turned off in the shim: it is keyed by file name, so it would
        // serve a stale decode after a file changes on disk, and it holds memory Thumbs budgets
        // itself.
        guard thumbs_vips_start("thumbs", threadsPerImage) == 0 else {
            return .failure(.libraryUnavailable(VipsError.takeMessage()))
        }
        thumbs_vips_route_warnings()
        return .success(())
    }()

    /// Starts libvips on first use; later calls return at once.
    package static func ensureStarted() throws(ImagingError) {
        try startResult.get()
    }
}
