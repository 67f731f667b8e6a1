import CVips
import CVipsShim
import Foundation
import ThumbsCore
import ThumbsSupport

/// Gives every libvips failure its own message.
///
/// libvips keeps one error buffer for the whole process, and warnings (where damaged files
/// often say what is wrong, such as "IHDR: CRC error") go to one log handler. Calls run
/// concurrently under shared access; when one fails, it is run once more under exclusive access,
/// with the buffer cleared and warnings captured, so the message and the error kind derived
/// from it describe that file alone. Failures are rare, so the retry costs little, and a
/// failure that does not repeat (a file still being written) ends as the retry's success.
///
/// Every libvips call of the package goes through it, renders or not (a contact sheet, a chart,
/// a synthetic test image): a successful operation clears the buffer of the notes it left, so
/// one running outside the gate could wipe the message of a failure being read alone. Calls
/// must not nest.
///
/// It also starts libvips before the first call: a video's or RAW file's first libvips call
/// comes after FFmpeg or LibRaw decoded it, with nothing of libvips touched yet, and a call
/// into libvips before `VIPS_INIT` (while another thread runs it) aborts in libvips' type
/// registry.
package enum VipsCallGate {
    private static let gate = SharedExclusiveLock()

    package static func run<T>(_ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        try VipsRuntime.ensureStarted()
        do {
            return try gate.withShared(body)
        } catch  where error.isLibvipsFailure {
            return try gate.withExclusive { () throws(ImagingError) -> T in
                vips_error_clear()
                thumbs_vips_capture_warnings(1)
                defer { thumbs_vips_capture_warnings(0) }
                return try body()
            }
        }
    }
}

extension ImagingError {
    /// Errors whose kind and message came from libvips' shared error text. (Inside the gate,
    /// an unsupported format or an unreadable file can only have been reported by libvips: the
    /// content and the file's presence were checked before.)
    var isLibvipsFailure: Bool {
        switch self {
        case .truncated, .corrupt, .encodingFailed, .unsupportedFormat, .unreadable: true
        default: false
        }
    }
}
