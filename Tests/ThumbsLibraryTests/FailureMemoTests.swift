import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsStore

@Suite struct FailureMemoTests {
    let folder = TemporaryFolder()
    /// A version modified long ago: a decode of it that ended early is the file's damage.
    let settled = FileFingerprint(size: 10, modificationTimeNanoseconds: 1)

    private func memo() throws -> FailureMemo {
        FailureMemo(store: try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache")))
    }

    private func asset(_ fingerprint: FileFingerprint) -> Asset {
        Asset(root: folder.path + "/library", relativePath: "a.jpg", mediaType: .jpeg, fingerprint: fingerprint)
    }

    /// A version modified just now: it may still be being copied in.
    private func fresh() -> FileFingerprint {
        FileFingerprint(size: 10, modificationTimeNanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
    }

    @Test func aFailureIsRememberedForItsVersionOfTheFile() async throws {
        let memo = try memo()
        #expect(try memo.failure(of: asset(settled)) == nil)
        #expect(try await memo.remember(.corrupt("bad data"), of: asset(settled)))
        let failure = try #require(try memo.failure(of: asset(settled)))
        #expect(failure.kind == .corrupt && failure.message == "bad data")
        let changed = FileFingerprint(size: 11, modificationTimeNanoseconds: 2)
        #expect(try memo.failure(of: asset(changed)) == nil, "a file changed since its failure is tried again")
    }

    @Test func failuresOfTheMachineOrTheMomentAreNotRemembered() async throws {
        let memo = try memo()
        for error in [ImagingError.unreadable("EIO"), .changedWhileRendering, .libraryUnavailable("no libvips")] {
            #expect(!FailureMemo.remembers(error, for: settled), "\(error.kind)")
            #expect(try await !memo.remember(error, of: asset(settled)), "\(error.kind)")
        }
        #expect(try memo.failure(of: asset(settled)) == nil)
    }

    /// A decode that ended early is the file's damage once the file has settled, and maybe a copy
    /// under way before: only the first is remembered.
    @Test func aDecodeThatEndedEarlyIsRememberedOnlyOfASettledFile() async throws {
        let memo = try memo()
        let copying = fresh()
        #expect(try await !memo.remember(.truncated("cut short"), of: asset(copying)))
        #expect(try memo.failure(of: asset(copying)) == nil)
        #expect(FailureMemo.remembers(.unsupportedFormat("text"), for: copying), "not a matter of time")
        #expect(try await memo.remember(.truncated("cut short"), of: asset(settled)))
        #expect(try memo.failure(of: asset(settled))?.kind == .truncated)
    }

    @Test func aRecordReplacesTheOneOfAnotherVersion() async throws {
        let memo = try memo()
        let changed = FileFingerprint(size: 11, modificationTimeNanoseconds: 2)
        try await memo.remember(FailureRecord(.corrupt("bad")), of: asset(settled))
        try await memo.remember(FailureRecord(.tooManyPixels(width: 9, height: 9, limit: 1)), of: asset(changed))
        #expect(try memo.failure(of: asset(settled)) == nil)
        #expect(try memo.failure(of: asset(changed))?.kind == .tooManyPixels)
    }

    /// A crashed decode is remembered at the version its note names, or for a header read
    /// without one at the file's version now; a file that is gone is left out.
    @Test func crashedDecodesAreRememberedAtTheirFilesVersions() async throws {
        let memo = try memo()
        let root = FilePath(folder.path + "/library")
        let path = try folder.write([0xFF, 0xD8, 0xFF], to: "library/now.jpg")
        let noted = ImageLocation(root: root, relativePath: "a.jpg", expectedFingerprint: settled)
        let current = ImageLocation(root: root, relativePath: "now.jpg")
        let gone = ImageLocation(root: root, relativePath: "gone.jpg")
        #expect(FailureMemo.crashedFiles(at: [gone]).isEmpty)
        let files = try await memo.rememberCrashes(at: [noted, current, gone])
        #expect(files.map(\.relativePath) == ["a.jpg", "now.jpg"])
        #expect(try memo.failure(of: asset(settled))?.kind == .crashed)
        #expect(try memo.crashedBefore(assetID: asset(settled).id, fingerprint: settled))
        let now = try #require(files.last)
        #expect(now.fingerprint.size == 3 && now.path == path)
        #expect(try memo.failure(of: now)?.kind == .crashed)
        #expect(
            try !memo.crashedBefore(
                assetID: now.id, fingerprint: FileFingerprint(size: 4, modificationTimeNanoseconds: 2)))
    }

    @Test func onlyACrashIsACrashedDecode() async throws {
        let memo = try memo()
        try await memo.remember(.corrupt("bad data"), of: asset(settled))
        #expect(try !memo.crashedBefore(assetID: asset(settled).id, fingerprint: settled))
    }
}
