import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// Folder listings: their records, and the store's reads and writes of them.
@Suite struct FolderListingTests {
    let folder = TemporaryFolder()

    private func store() throws -> ThumbnailStore {
        try ThumbnailStore(configuration: .testing(folder))
    }

    private static func listing(_ root: String, _ folder: String, _ names: [String]) -> FolderListing {
        FolderListing(
            root: root, folder: Array(folder.utf8),
            files: names.enumerated().map { index, name in
                .init(
                    name: Array(name.utf8),
                    fingerprint: FileFingerprint(size: UInt64(index + 1), modificationTimeNanoseconds: Int64(index)))
            })
    }

    @Test func aListingReadsBackAsWritten() async throws {
        let store = try store()
        let listing = Self.listing("/photos", "2024-06", ["a.jpg", "b\u{e9}.heic", ""])
        try await store.putFolderListings([listing])
        #expect(try store.folderListing(root: "/photos", folder: Array("2024-06".utf8)) == listing)
        #expect(try store.folderListing(root: "/other", folder: Array("2024-06".utf8)) == nil)
        #expect(try store.folderListing(root: "/photos", folder: []) == nil)
    }

    @Test func aListingsDigestIsReadAloneAndIgnoresTheFilesOrder() async throws {
        let store = try store()
        let listing = Self.listing("/photos", "x", ["a.jpg", "b.jpg"])
        try await store.putFolderListings([listing])
        let recorded = try store.folderListingDigest(root: "/photos", folder: Array("x".utf8))
        #expect(recorded == listing.digest.recorded)
        var reversed = listing
        reversed.files.reverse()
        #expect(reversed.digest == listing.digest)
        var renamed = listing
        renamed.files[0].name = Array("c.jpg".utf8)
        var touched = listing
        touched.files[0].fingerprint.modificationTimeNanoseconds += 1
        let fewer = FolderListing(root: "/photos", folder: Array("x".utf8), files: [listing.files[0]])
        for other in [renamed, touched, fewer] { #expect(other.digest.recorded != recorded) }
        #expect(try store.folderListingDigest(root: "/photos", folder: Array("y".utf8)) == nil)
    }

    @Test func theFoldersOfARootNotVisitedAreTheOnesLeft() async throws {
        let store = try store()
        let kept = Self.listing("/photos", "2024-06", ["a.jpg"])
        let gone = Self.listing("/photos", "2024-07", ["b.jpg"])
        try await store.putFolderListings([kept, gone, Self.listing("/elsewhere", "2024-07", ["c.jpg"])])
        let left = try store.folderListings(
            under: "/photos", except: [FolderListing.folderHash(Array("2024-06".utf8))])
        #expect(left == [gone])
        try await store.removeFolderListings(root: "/photos", folders: [gone.folder])
        #expect(try store.folderListings(under: "/photos", except: []) == [kept])
    }

    @Test func aDamagedRecordIsNoListing() throws {
        let record = Self.listing("/photos", "x", ["a.jpg", "b.jpg"]).encoded()
        for cut in [1, 10, record.count - 1] {
            #expect(throws: StoreError.self) {
                try record.prefix(cut).withUnsafeBytes { try FolderListing(decoding: $0) }
            }
        }
        var countPastTheRecord = record
        countPastTheRecord.replaceSubrange(21..<25, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: StoreError.self) { try countPastTheRecord.withUnsafeBytes { try FolderListing(decoding: $0) } }
        var otherVersion = record
        otherVersion[0] = 99
        #expect(try otherVersion.withUnsafeBytes { try FolderListing(decoding: $0) } == nil)
    }

    @Test func aListingTooLongForItsRecordRemovesTheFoldersInstead() async throws {
        let store = try store()
        try await store.putFolderListings([Self.listing("/photos", "x", ["a.jpg"])])
        let long = Self.listing("/photos", "x", [String(repeating: "n", count: FolderListing.longestField + 1)])
        #expect(!long.isStorable)
        try await store.putFolderListings([long])
        #expect(try store.folderListing(root: "/photos", folder: Array("x".utf8)) == nil)
    }
}
