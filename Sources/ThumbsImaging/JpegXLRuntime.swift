import CVips
import ThumbsCore
import ThumbsSupport

/// What a JPEG XL file needs, started on the first one: libvips' JPEG XL loader (`jxlload`), a
/// module of libvips' (`vips-jxl.so`) that links libjxl.
///
/// libvips starts without its modules (``VipsRuntime``); this one is loaded only when a JPEG XL
/// file is met, so a library without any loads neither the module nor libjxl. libjxl decodes a
/// whole frame at once (``ImageFile/decodeMemory(to:renditionPixels:)``).
///
/// libvips 8.14 counts `jxlload` among its untrusted loaders, which Thumbs blocks; this one is
/// let through once its module is loaded: JPEG XL files are decoded in confined render workers
/// like every other format (isolation `"process"`, the default), and JPEG XL is what users
/// asked to see, where the other untrusted loaders (ImageMagick's, OpenSlide's, poppler's) read
/// formats Thumbs does not list.
package enum JpegXLRuntime {
    /// The outcome of the first start, nil before it.
    private static let outcome = LockedValue<Result<Void, ImagingError>?>(nil)

    /// Starts it on first use; later calls return at once (a failure is not retried).
    package static func ensureStarted() throws(ImagingError) {
        try outcome.withLock { outcome in
            if let outcome { return outcome }
            let started = Result { () throws(ImagingError) in
                try VipsRuntime.loadModule("jxl", providing: "jxlload_source")
                vips_operation_block_set("VipsForeignLoadJxl", 0)
            }
            outcome = started
            return started
        }.get()
    }

    /// Whether it started, without starting it.
    package static var isStarted: Bool {
        outcome.withLock { outcome in
            if case .some(.success) = outcome { true } else { false }
        }
    }
}
