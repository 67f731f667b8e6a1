import CVips
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
        do throws(ImagingError) {
            try DecodingLibrary.libvips.open()
        } catch {
            return .failure(error)
        }
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

    /// Loads libvips' module `name` (vips-NAME.so beside libvips), unless its loader `nickname`
    /// is there already: libvips started without its modules when the program asked for that
    /// (`ProcessTuning.startLibvipsWithoutModules()`), and loads only the ones Thumbs uses.
    static func loadModule(_ name: String, providing nickname: String) throws(ImagingError) {
        try ensureStarted()
        guard thumbs_vips_has_loader(nickname) == 0 else { return }
        guard let folder = DecodingLibrary.libvips.folder, thumbs_vips_load_module(folder, name) == 0 else {
            throw .libraryUnavailable(
                "libvips' module vips-\(name).so cannot be loaded (\(VipsError.takeMessage())): reinstall Debian's "
                    + "package libvips\(VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE)")
        }
    }
}
