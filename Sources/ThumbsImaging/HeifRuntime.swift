import CHeifShim
import CVipsShim
import ThumbsCore

/// What a HEIF or AVIF file needs, started on the first one: libheif, FFmpeg's decoders plugged
/// into it, and libvips' HEIF loader.
///
/// libvips starts without its modules (``VipsRuntime``), so its HEIF loader, a module, is loaded
/// here, after libheif has FFmpeg's decoders: HEIC pictures go to FFmpeg's HEVC decoder, a third
/// faster than libde265 for the same pixels (docs/BENCHMARKS.md), and AVIF pictures to dav1d
/// through FFmpeg, whose messages stay off stderr (libheif's own dav1d plugin prints them
/// there). Without FFmpeg, libheif's own decoders stay in use.
package enum HeifRuntime {
    private static let startResult: Result<Void, ImagingError> = {
        do throws(ImagingError) {
            try VipsRuntime.ensureStarted()
            try DecodingLibrary.libheif.open()
            if (try? DecodingLibrary.ffmpeg.open()) != nil {
                _ = thumbs_heif_use_ffmpeg_hevc()
                _ = thumbs_heif_use_ffmpeg_av1()
            }
            try VipsRuntime.loadModule("heif", providing: "heifload_source")
            return .success(())
        } catch {
            return .failure(error)
        }
    }()

    /// Starts it on first use; later calls return at once.
    package static func ensureStarted() throws(ImagingError) {
        try startResult.get()
    }
}
