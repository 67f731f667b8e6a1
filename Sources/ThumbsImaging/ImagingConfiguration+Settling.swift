import Glibc
import ThumbsCore

extension ImagingConfiguration {
    /// Whether the file at `fingerprint` was last modified at least ``settlingTime`` ago: a
    /// decode of it that ends early is the file's damage, not a copy still under way. A
    /// modification time ahead of the clock is not settled (a copy from a machine whose clock
    /// is ahead may still be under way).
    package static func hasSettled(_ fingerprint: FileFingerprint) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // A modification time may be any 64-bit value (a file dated in 2300 wraps): the age is
        // computed without trapping, and one past what 64 bits hold is no age at all.
        let nowNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let (age, overflow) = nowNanoseconds.subtractingReportingOverflow(fingerprint.modificationTimeNanoseconds)
        return !overflow && age >= settlingTime.components.seconds * 1_000_000_000
    }

    /// Whether a render of the file at `fingerprint` that failed with `error` may succeed without
    /// the file changing, so that the failure is not remembered: a transient kind, or a decode
    /// that ended early of a file that had not settled (a copy under way, or one cut short and
    /// never touched again, which a render once it has settled draws partially).
    public static func failureMayPass(_ error: ImagingError, for fingerprint: FileFingerprint) -> Bool {
        error.kind.isTransient || error.endsDecodeEarly && !hasSettled(fingerprint)
    }
}
