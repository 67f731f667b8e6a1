import CLibraryLoader
import ThumbsCore

/// A C library Thumbs decodes with, opened when a file first needs it rather than at start.
///
/// Together they load some 150 shared objects (FFmpeg's libraries alone bring every codec and
/// network library they were built with), which a command that decodes nothing, or only JPEGs,
/// has no use for. Each is opened by the soname the build's headers name, once per process; a
/// library that is missing fails every file that needs it with
/// ``/ThumbsCore/ImagingError/libraryUnavailable(_:)``, naming the Debian package to install,
/// and nothing else.
///
/// libjxl is the one Thumbs does not open itself: libvips' JPEG XL module (`vips-jxl.so`) links
/// it, and "opening" it loads that module into libvips (``JpegXLRuntime``).
///
/// ```swift
/// try DecodingLibrary.ffmpeg.open()
/// ```
package enum DecodingLibrary: String, CaseIterable, Sendable {
    case libvips, ffmpeg, libheif, libRaw = "libraw", libavif, libjxl

    /// Opens the library unless it is open; later calls only read the outcome.
    package func open() throws(ImagingError) {
        guard let id else { return try JpegXLRuntime.ensureStarted() }
        guard thumbs_library_open(id) == 0 else {
            throw .libraryUnavailable(String(cString: thumbs_library_failure(id)))
        }
    }

    /// Whether the library is open, without opening it.
    package var isOpen: Bool {
        guard let id else { return JpegXLRuntime.isStarted }
        return thumbs_library_is_open(id) != 0
    }

    /// The folder its (first) shared object was loaded from; nil while it is not open.
    var folder: String? {
        guard let id else { return nil }
        let folder = String(cString: thumbs_library_folder(id))
        return folder.isEmpty ? nil : folder
    }

    /// Its name as people know it: "libvips", "FFmpeg", "libheif", "LibRaw", "libavif", "libjxl".
    package var name: String {
        switch self {
        case .libvips: "libvips"
        case .ffmpeg: "FFmpeg"
        case .libheif: "libheif"
        case .libRaw: "LibRaw"
        case .libavif: "libavif"
        case .libjxl: "libjxl"
        }
    }

    /// The version of its headers this build was compiled against, e.g. "8.14.1"; empty for
    /// libjxl, which Thumbs reaches only through libvips' module.
    package var headerVersion: String { id.map { String(cString: thumbs_library_header_version($0)) } ?? "" }

    /// Its family in `CLibraryLoader`; nil for libjxl.
    private var id: thumbs_library? {
        switch self {
        case .libvips: THUMBS_LIBRARY_VIPS
        case .ffmpeg: THUMBS_LIBRARY_FFMPEG
        case .libheif: THUMBS_LIBRARY_HEIF
        case .libRaw: THUMBS_LIBRARY_LIBRAW
        case .libavif: THUMBS_LIBRARY_AVIF
        case .libjxl: nil
        }
    }

    /// Opens `libraries` and starts what they need (libvips; libheif with its decoders, FFmpeg's
    /// when `libraries` has FFmpeg, and libvips' HEIF loader when it has libvips; libvips' JPEG
    /// XL loader): for a process that must do it before it
    /// confines itself and can open nothing more (a render worker). A library that cannot be had
    /// stays failed, and fails the files that need it.
    package static func openBeforeConfinement(_ libraries: Set<DecodingLibrary>) {
        for library in allCases where libraries.contains(library) { try? library.open() }
        if libraries.contains(.libvips) { try? VipsRuntime.ensureStarted() }
        if libraries.contains(.libheif) {
            try? HeifRuntime.startDecoders(withFFmpeg: libraries.contains(.ffmpeg))
            if libraries.contains(.libvips) { try? HeifRuntime.ensureStarted() }
        }
    }

    /// `libraries` as a process that renders many files opens them (a render worker): with
    /// libheif, FFmpeg, whose HEVC decoder pays the 30 ms it takes to open back over a few HEICs
    /// (``HeifRuntime``). A process that renders one file opens only what the file needs.
    package static func forManyFiles(_ libraries: Set<DecodingLibrary>) -> Set<DecodingLibrary> {
        libraries.contains(.libheif) ? libraries.union([.ffmpeg]) : libraries
    }

    /// Has a later ``open()`` of a library not opened yet fail, saying the process confined
    /// itself first (the dynamic linker's own failure would read as a missing package).
    package static func sealAfterConfinement() {
        thumbs_library_seal()
    }
}
