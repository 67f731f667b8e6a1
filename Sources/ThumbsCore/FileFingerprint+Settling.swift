import Glibc

extension FileFingerprint {
    /// How long a file must have gone unmodified before a decode of it that ends early (a
    /// truncated file, a bad restart marker) is taken as damage and rendered as far as it
    /// decoded, a partial thumbnail (``Thumbnail/isPartial``). A file modified more recently (or
    /// dated ahead of the clock) may still be being copied in, and fails as truncated or corrupt,
    /// a failure not remembered (``ImagingError/mayPass(for:)``): the next render, once the file
    /// has settled, draws it partially. 5 seconds: the longest burst of changes
    /// `PhotoLibrary.watch()` coalesces (ten times its 500 ms of quiet), so that a copy pausing
    /// long enough to end a burst is still taken as under way for as long as a burst may last.
    public static let settlingTime = Duration.seconds(5)

    /// Whether the file was last modified at least ``settlingTime`` ago: a decode of it that
    /// ends early is the file's damage, not a copy still under way. A modification time ahead of
    /// the clock is not settled (a copy from a machine whose clock is ahead may still be under
    /// way).
    public var hasSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // A modification time may be any 64-bit value (a file dated in 2300 wraps): the age is
        // computed without trapping, and one past what 64 bits hold is no age at all.
        let nowNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let (age, overflow) = nowNanoseconds.subtractingReportingOverflow(modificationTimeNanoseconds)
        return !overflow && age >= Self.settlingTime.components.seconds * 1_000_000_000
    }
}

extension ImagingError {
    /// Whether a render of the file at `fingerprint` that failed with this error may succeed
    /// without the file changing, so that the failure is not remembered: a transient kind, or a
    /// decode that ended early of a file that had not settled (a copy under way, or one cut short
    /// and never touched again, which a render once it has settled draws partially).
    public func mayPass(for fingerprint: FileFingerprint) -> Bool {
        kind.isTransient || endsDecodeEarly && !fingerprint.hasSettled
    }

    /// Whether the error says the decode ended early: the file's data ran out, or was damaged
    /// part of the way in.
    package var endsDecodeEarly: Bool { kind == .truncated || kind == .corrupt }
}
