import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsRendering

/// A file's content identity: the same wherever the file lies, another for other bytes at its
/// ends, read beneath the root only.
@Suite struct ImageLocationContentIdentityTests {
    let folder = TemporaryFolder()
    var root: String { folder.path + "/library" }

    private func identity(_ name: String, expecting fingerprint: FileFingerprint? = nil) throws -> ContentIdentity {
        try ImageLocation(root: FilePath(root), relativePath: FilePath(name), expectedFingerprint: fingerprint)
            .contentIdentity()
    }

    /// Writes `bytes` as library/`name` with the modification time 2024-06-01.
    private func write(_ bytes: [UInt8], _ name: String) throws {
        let path = try folder.write(bytes, to: "library/" + name)
        let time = timespec(tv_sec: 1_717_200_000, tv_nsec: 5)
        #expect(utimensat(AT_FDCWD, path, [time, time], 0) == 0)
    }

    @Test func theSameBytesAndTimeAreTheSameContentAnywhere() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try write(bytes, "a/IMG_1.jpg")
        try write(bytes, "b/renamed.jpg")
        let first = try identity("a/IMG_1.jpg"), second = try identity("b/renamed.jpg")
        #expect(first == second)
        #expect(
            first.fingerprint == FileFingerprint(size: 100_000, modificationTimeNanoseconds: 1_717_200_000_000_000_005))
    }

    @Test func otherBytesAtEitherEndAreOtherContent() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try write(bytes, "original.jpg")
        for offset in [0, 16_383, 100_000 - 16_384, 99_999] {
            var other = bytes
            other[offset] ^= 1
            try write(other, "other.jpg")
            #expect(try identity("other.jpg") != identity("original.jpg"), "byte \(offset)")
        }
        // The middle is not read: what the identity costs is two reads, whatever the size.
        var middle = bytes
        middle[50_000] ^= 1
        try write(middle, "middle.jpg")
        #expect(try identity("middle.jpg") == identity("original.jpg"))
        // A small file is read whole.
        try write([1, 2, 3], "small.jpg")
        try write([1, 2, 4], "small2.jpg")
        #expect(try identity("small.jpg").signature != identity("small2.jpg").signature)
    }

    @Test func aFileNotAtItsExpectedVersionOrOutsideTheRootIsRefused() throws {
        try write([1, 2, 3], "a.jpg")
        try folder.write([1, 2, 3], to: "outside.jpg")
        #expect(throws: ImagingError.changedWhileRendering) {
            try identity("a.jpg", expecting: FileFingerprint(size: 3, modificationTimeNanoseconds: 1))
        }
        #expect(throws: ImagingError.self) { try identity("../outside.jpg") }
    }
}
