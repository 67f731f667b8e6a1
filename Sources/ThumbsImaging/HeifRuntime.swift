import CHeifShim
import CVipsShim
import ThumbsCore
import ThumbsSupport

/// What a HEIF or AVIF file needs, started on the first one: libheif and its decoders, and,
/// for the files libvips reads, libvips' HEIF loader.
///
/// libheif's HEVC and AV1 pictures go to FFmpeg's decoders when the process has FFmpeg as libheif
/// starts: HEIC pictures to FFmpeg's HEVC decoder, a third faster than libde265 for the same
/// pixels (docs/BENCHMARKS.md), AVIF pictures to dav1d through FFmpeg, whose messages stay off
/// stderr (libheif's own dav1d plugin prints them there). Opening FFmpeg costs some 30 ms, which
/// a render worker's many files pay back and one file does not: a process that confines itself
/// plugs them in only when it opened FFmpeg first (a render worker is given it with libheif,
/// ``DecodingLibrary/forManyFiles(_:)``), and otherwise decodes with libheif's own, libde265 and
/// dav1d, to the same pixels.
///
/// libvips starts without its modules (``VipsRuntime``), so its HEIF loader, a module, is loaded
/// after libheif has its decoders.
package enum HeifRuntime {
    private static let decoders = LockedValue<Result<Void, ImagingError>?>(nil)

    private static let loaderResult: Result<Void, ImagingError> = {
        do throws(ImagingError) {
            try startDecoders()
            try VipsRuntime.ensureStarted()
            try VipsRuntime.loadModule("heif", providing: "heifload_source")
            return .success(())
        } catch {
            return .failure(error)
        }
    }()

    /// Opens libheif and picks its decoders on first use, FFmpeg's when `withFFmpeg` and FFmpeg
    /// opens; later calls return the first one's outcome at once, whatever they ask.
    package static func startDecoders(withFFmpeg: Bool = true) throws(ImagingError) {
        try decoders.withLock { started in
            if let started { return started }
            let result = Result { () throws(ImagingError) in
                try DecodingLibrary.libheif.open()
                if withFFmpeg, (try? DecodingLibrary.ffmpeg.open()) != nil {
                    _ = thumbs_heif_use_ffmpeg_hevc()
                    _ = thumbs_heif_use_ffmpeg_av1()
                }
            }
            started = result
            return result
        }.get()
    }

    /// Starts libheif's decoders and libvips' HEIF loader on first use; later calls return at
    /// once.
    package static func ensureStarted() throws(ImagingError) {
        try loaderResult.get()
    }
}
