import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

private typealias F = StoreFixtures

/// Records of folders a warm left with nothing to do: kept, read back, and stale once the cache
/// removed something they may have counted on.
@Suite struct WarmedFolderTests {
    let folder = TemporaryFolder()

    private func store(budget: Int64 = 1 << 30) throws -> ThumbnailStore {
        try ThumbnailStore(configuration: .testing(folder, budget: budget))
    }

    private static func record(
        _ folder: String, generation: Int64 = 0, root: String = "/photos", context: UInt64 = 9
    ) -> WarmedFolder {
        WarmedFolder(
            root: root, folder: Array(folder.utf8), digest: 7, context: context, generation: generation, assets: 3)
    }

    @Test func aRecordReadsBackAsWrittenForItsFolderOnly() async throws {
        let store = try store()
        let record = Self.record("2024-06")
        try await store.putWarmedFolders([record, Self.record("", root: "/other")])
        #expect(try store.warmedFolder(root: "/photos", folder: Array("2024-06".utf8), context: 9) == record)
        #expect(try store.warmedFolder(root: "/photos", folder: [], context: 9) == nil)
        #expect(try store.warmedFolder(root: "/other", folder: [], context: 9) == Self.record("", root: "/other"))
    }

    @Test func eachContextKeepsItsOwnRecordAndAForgottenFolderLosesThemAll() async throws {
        let store = try store()
        let other = Self.record("x", context: 10)
        try await store.putWarmedFolders([Self.record("x"), other])
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 9) == Self.record("x"))
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 10) == other)
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 11) == nil)
        try await store.removeFolderListings(root: "/photos", folders: [Array("x".utf8)])
        for context: UInt64 in [9, 10] {
            #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: context) == nil)
        }
    }

    @Test func anEvictionMakesEveryRecordStaleAndAReplacedVersionNone() async throws {
        let store = try store(budget: 3 * 20_100)
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(0))])
        try await store.putThumbnails([.init(key: F.key("a", version: 2), thumbnail: F.thumbnail(1))])
        #expect(try store.removalGeneration() == 0, "a file's old version replaced is no removal")
        try await store.putWarmedFolders([Self.record("x")])
        for index in 1...3 {
            try await store.putThumbnails([.init(key: F.key("b\(index)"), thumbnail: F.thumbnail(index))])
        }
        #expect(try store.removalGeneration() == 1)
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 9) == nil)
        try await store.putWarmedFolders([Self.record("x", generation: 1)])
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 9) != nil)
        try await store.removeMetadata(of: ["b1"])
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 9) == nil)
    }

    @Test func forgettingFilesDropsTheirFoldersRecordsAlone() async throws {
        let store = try store()
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(0))])
        try await store.putWarmedFolders([Self.record("x"), Self.record("y")])
        #expect(try await store.forget(["a"], inFolders: [(root: "/photos", folder: Array("x".utf8))]) == 1)
        #expect(try store.removalGeneration() == 0)
        #expect(try store.warmedFolder(root: "/photos", folder: Array("x".utf8), context: 9) == nil)
        #expect(try store.warmedFolder(root: "/photos", folder: Array("y".utf8), context: 9) != nil)
        try await store.removeFolderListings(root: "/photos", folders: [Array("y".utf8)])
        #expect(try store.warmedFolder(root: "/photos", folder: Array("y".utf8), context: 9) == nil)
    }

    @Test func aDamagedRecordIsNone() throws {
        let record = Self.record("2024-06").encoded()
        for cut in [1, 10, record.count - 1] {
            #expect(throws: StoreError.self) {
                try record.prefix(cut).withUnsafeBytes { try WarmedFolder(decoding: $0) }
            }
        }
        var otherVersion = record
        otherVersion[0] = 99
        #expect(try otherVersion.withUnsafeBytes { try WarmedFolder(decoding: $0) } == nil)
    }

    @Test func theContextIsTheRenditionsInAnyOrder() {
        let both = WarmedFolder.context(renditions: [F.grid, F.preview])
        #expect(both == WarmedFolder.context(renditions: [F.preview, F.grid]))
        #expect(both != WarmedFolder.context(renditions: [F.grid]))
        #expect(both != WarmedFolder.context(renditions: [F.grid, F.preview], more: [1]))
    }
}
