import Glibc
import ThumbsCore

extension FileFingerprint {
    /// Whether the file was last modified at least ``ImagingConfiguration/settlingTime`` ago:
    /// a decode of it that ends early is the file's damage, not a copy still under way. A
    /// modification time ahead of the clock is not settled (a copy from a machine whose clock
    /// is ahead may still be under way).
    package var hasSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - modificationTimeNanoseconds
        return age >= ImagingConfiguration.settlingTime.components.seconds * 1_000_000_000
    }
}

extension ImagingError {
    /// Whether a render of the file at `fingerprint` that failed so may succeed without the
    /// file changing, so that the failure is not remembered: a transient kind, or a decode that
    /// ended early of a file that had not settled (a copy under way, or one cut short and
    /// never touched again, which a render once it has settled draws partially).
    public func mayPass(for fingerprint: FileFingerprint) -> Bool {
        kind.isTransient || endsDecodeEarly && !fingerprint.hasSettled
    }
}
