import Foundation
import Glibc
import Testing
import ThumbsCore
import ThumbsCoreTestSupport

@Suite struct FileFingerprintTests {
    let folder = TemporaryFolder()

    /// Sets the file's access and modification times to `seconds` since 1970.
    private func date(_ path: String, seconds: Int) throws {
        let time = timespec(tv_sec: seconds, tv_nsec: 0)
        #expect(utimensat(AT_FDCWD, path, [time, time], 0) == 0, "utimensat: \(String(cString: strerror(errno)))")
    }

    /// A time past 2262 (the last an Int64 of nanoseconds holds) is a fingerprint like any
    /// other, and a later one differs from it.
    @Test func aModificationTimePastWhatNanosecondsHoldIsAFingerprint() throws {
        let path = try folder.write([1, 2, 3], to: "future.jpg")
        try date(path, seconds: 10_413_792_000)  // 2300-01-01
        let first = try FileFingerprint(path: path)
        try date(path, seconds: 10_445_328_000)  // 2301-01-01
        let later = try FileFingerprint(path: path)
        #expect(first != later)
        #expect(first.size == 3)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(try FileFingerprint(descriptor: descriptor) == later)
    }

    /// A modification time may be any 64-bit value (a file dated 2300 wraps): never a trap.
    @Test func aFileSettlesFiveSecondsAfterItsLastChange() {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        func settled(_ nanoseconds: Int64) -> Bool {
            FileFingerprint(size: 1, modificationTimeNanoseconds: nanoseconds).hasSettled
        }
        #expect(settled(now - 3_600_000_000_000) && !settled(now) && !settled(now + 3_600_000_000_000))
        #expect(!settled(.min), "an age past 64 bits is none")
        #expect(!settled(.max))
        let truncated = ImagingError.truncated("premature end of JPEG file")
        let old = FileFingerprint(size: 1, modificationTimeNanoseconds: now - 3_600_000_000_000)
        let fresh = FileFingerprint(size: 1, modificationTimeNanoseconds: now)
        #expect(!truncated.mayPass(for: old), "damage: remembered")
        #expect(truncated.mayPass(for: fresh), "maybe a copy under way")
        #expect(!ImagingError.unsupportedFormat("text").mayPass(for: fresh))
        #expect(ImagingError.unreadable("EIO").mayPass(for: old))
    }
}
