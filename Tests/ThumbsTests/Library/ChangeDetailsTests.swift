import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsStore

/// A rescan against the cursor, the photos' order and kept headers read from their EXIF dates.
@Suite struct ChangeDetailsTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures
    var root: String { folder.path + "/library" }

    @Test func rescansAgainstThePersistedCursor() async throws {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        let library = L.library(folder, store: store)
        try folder.write(try L.jpeg(date: "2021:01:01 10:00:00"), to: "library/old.jpg")
        try folder.write(try L.jpeg(date: "2022:01:01 10:00:00"), to: "library/keep.jpg")
        try folder.write(try L.jpeg(date: "2023:01:01 10:00:00"), to: "library/edit.jpg")
        let first = try #require(try await library.rescan())
        #expect(first.insertedIndexes == [0, 1, 2] && first.removedIndexes.isEmpty)
        #expect(try await library.rescan() == nil, "unchanged")
        let kept = try store.cursor(named: PhotoLibrary.defaultCursor) { record throws(StoreError) in
            try FetchResult(cursorRecord: record)
        }
        #expect(kept??.map(\.relativePath).sorted() == ["edit.jpg", "keep.jpg", "old.jpg"])
        #expect(kept??.first?.properties?.captureDate?.year == 2023, "the snapshot keeps what the header said")

        // add, remove, modify, rename
        try folder.write(try L.jpeg(date: "2024:01:01 10:00:00"), to: "library/new.jpg")
        try FileManager.default.removeItem(atPath: root + "/old.jpg")
        try Data(try L.jpeg(300, 200, date: "2023:01:01 10:00:00")).write(to: URL(fileURLWithPath: root + "/edit.jpg"))
        try FileManager.default.moveItem(atPath: root + "/keep.jpg", toPath: root + "/kept.jpg")
        let changes = try #require(try await library.rescan())
        let after = changes.after.map(\.id)
        let id = { AssetID.make(root: root, relativePath: $0) }
        #expect(
            changes.removedIndexes.map { changes.before[$0].id }.sorted() == [id("keep.jpg"), id("old.jpg")].sorted())
        #expect(Set(changes.insertedIndexes.map { after[$0] }) == [id("new.jpg"), id("kept.jpg")])
        #expect(changes.changedIndexes.map { after[$0] } == [id("edit.jpg")])
    }
}
