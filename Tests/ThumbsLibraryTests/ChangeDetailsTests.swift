import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsTesting
import ThumbsStore
import ThumbsSupport

@Suite struct ChangeDetailsTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures
    var root: String { folder.path + "/library" }

    private func asset(_ name: String, _ version: Int64 = 1) -> Asset {
        Asset(
            root: "/library", relativePath: name, mediaType: .jpeg,
            fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: version))
    }

    @Test func describesRemovalsInsertionsAndChanges() throws {
        let old = FetchResult(ordered: [asset("a"), asset("b"), asset("c")])
        let new = FetchResult(ordered: [asset("d"), asset("a"), asset("c", 2)])
        let changes = try #require(ChangeDetails.between(old, new))
        #expect(changes.removedIndexes == [1])
        #expect(changes.insertedIndexes == [0])
        #expect(changes.changedIndexes == [2])
        #expect(ChangeDetails.between(new, new) == nil, "nothing changed: no notification")
        #expect(changes.removedAssets == [asset("b")])
        #expect(changes.insertedAndChangedAssets == [asset("d"), asset("c", 2)])
    }

    /// A Live Photo is one asset of two files: a change to either is a change of the asset, and
    /// the movie's path and fingerprint are kept in the cursor.
    @Test func aLivePhotosMovieIsPartOfTheAsset() throws {
        func live(_ movieVersion: Int64?) -> Asset {
            var still = asset("IMG_1.HEIC")
            still.pairedMovie = movieVersion.map {
                PairedMovie(
                    relativeFilePath: "IMG_1.MOV", mediaType: .quickTime,
                    fingerprint: FileFingerprint(size: 5, modificationTimeNanoseconds: $0), duration: 2.5)
            }
            return still
        }
        let before = FetchResult(ordered: [live(1)])
        #expect(ChangeDetails.between(before, FetchResult(ordered: [live(1)])) == nil)
        for after in [live(2), live(nil)] {
            #expect(try #require(ChangeDetails.between(before, FetchResult(ordered: [after]))).changedIndexes == [0])
        }
        let read = try before.cursorRecord.withUnsafeBytes { bytes throws(StoreError) in
            try FetchResult(cursorRecord: bytes)
        }
        #expect(read?.first?.pairedMovie == live(1).pairedMovie && read?.first?.fileSize == 6)
    }

    @Test func aCursorOfAnotherVersionReadsAsNone() async throws {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        try await store.saveCursor([1, 0, 0, 0, 0], named: PhotoLibrary.defaultCursor)
        try folder.write(L.jpeg(), to: "library/a.jpg")
        let changes = try #require(try await L.library(folder, store: store).rescan())
        #expect(changes.insertedIndexes == [0] && changes.before.isEmpty)
    }

    /// A count read from a damaged record reserves nothing: decoding fails at the first short read.
    @Test func aCursorWithADamagedRootCountIsAnError() {
        let record: [UInt8] = [FetchResult.cursorVersion, 0xC0, 0xC0, 0xC0, 0xC0, 0, 0]
        #expect(throws: StoreError.self) {
            try record.withUnsafeBytes { bytes throws(StoreError) in try FetchResult(cursorRecord: bytes) }
        }
    }

    @Test func watchCoalescesABurstAndFollowsNewFolders() async throws {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        try folder.write(L.mp4, to: "library/existing.mp4")
        let library = L.library(folder, store: store)
        let changes = try await library.watch(debounce: .milliseconds(300))
        let collected = Task {
            var notifications: [ChangeDetails] = []
            for try await change in changes {
                notifications.append(change)
                if change.after.count == 1_102 { break }
            }
            return notifications
        }
        for index in 0..<1_000 { try folder.write(L.mp4, to: "library/copied/clip\(index).mp4") }
        try FileManager.default.createDirectory(atPath: root + "/later/deeper", withIntermediateDirectories: true)
        try await Task.sleep(for: .milliseconds(400))
        for index in 0..<101 { try folder.write(L.mp4, to: "library/later/deeper/clip\(index).mp4") }
        // Only a failing run waits this long. Under ThreadSanitizer, with other suites'
        // synchronous renders holding the cooperative threads, a passing run has needed over
        // three minutes.
        let timeout = Task {
            try await Task.sleep(for: .seconds(600))
            collected.cancel()
        }
        let notifications = try await collected.value
        timeout.cancel()
        // Every file arrived, the ones in the new folder included, in a few coalesced notifications.
        #expect(notifications.last?.after.count == 1_102)
        #expect(notifications.reduce(0) { $0 + $1.insertedIndexes.count } == 1_101)
        #expect(
            (1...4).contains(notifications.count),
            "a burst of 1,101 files is a few notifications (\(notifications.count))")
    }
}
