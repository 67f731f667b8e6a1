import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsStore

/// A walk that keeps folder listings (``PhotoLibrary/assets(batchSize:keepingListings:)``):
/// what is gone since the last one, files recognised under a new path, and roots taken for disks
/// not mounted.
@Suite struct FolderListingKeeperTests {
    let folder = TemporaryFolder()
    typealias F = LibraryFixtures

    /// What one walk found, all batches together.
    private func walk(_ library: PhotoLibrary, keepingListings: Bool = true) async throws -> LibraryBatch {
        var all = LibraryBatch()
        for try await batch in library.assets(batchSize: 2, keepingListings: keepingListings) { all.append(batch) }
        return all
    }

    private func store() throws -> ThumbnailStore {
        try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
    }

    private func move(_ from: String, _ to: String) throws {
        try FileManager.default.moveItem(atPath: folder.path + "/" + from, toPath: folder.path + "/" + to)
    }

    @Test func aRenamedFolderIsRecognisedAndItsOldPathIsGone() async throws {
        for index in 0..<3 { try folder.write(F.jpeg(length: 64 + index), to: "library/2024-06/\(index).jpg") }
        try folder.write(F.jpeg(length: 100), to: "library/other/x.jpg")
        let library = F.library(folder, store: try store())
        let first = try await walk(library)
        #expect(first.inspected == 4 && first.gone.isEmpty)

        try move("library/2024-06", "library/2024-06 Italy")
        let second = try await walk(library)
        #expect(second.inspected == 0 && second.recognised == 3)
        #expect(Set(second.gone.map(\.relativePath)) == ["2024-06/0.jpg", "2024-06/1.jpg", "2024-06/2.jpg"])
        #expect(second.gone.allSatisfy { $0.mediaType == .jpeg })
        #expect(Set(second.assets.map(\.relativePath)).isSuperset(of: ["2024-06 Italy/0.jpg", "other/x.jpg"]))

        let third = try await walk(library)
        #expect(third.gone.isEmpty && third.recognised == 0 && third.inspected == 0)
    }

    @Test func aWalkStoppedBeforeItsCallerTookWhatIsGoneFindsItGoneAgain() async throws {
        try folder.write(F.jpeg(), to: "library/a/1.jpg")
        try folder.write(F.jpeg(length: 80), to: "library/a/2.jpg")
        let library = F.library(folder, store: try store())
        _ = try await walk(library)
        try FileManager.default.removeItem(atPath: folder.path + "/library/a/2.jpg")
        var iterator = library.assets(batchSize: 2, keepingListings: true).makeAsyncIterator()
        var gone: [Asset] = []
        while gone.isEmpty, let batch = try await iterator.next() { gone = batch.gone }
        #expect(gone.map(\.relativePath) == ["a/2.jpg"])
        // Stopped here: the listing that lost the file is not kept yet.
        #expect(try await walk(library).gone.map(\.relativePath) == ["a/2.jpg"])
        #expect(try await walk(library).gone.isEmpty)
    }

    @Test func aWalkThatKeepsNoListingsSaysNothingIsGoneAndChangesNone() async throws {
        try folder.write(F.jpeg(), to: "library/a/1.jpg")
        try folder.write(F.jpeg(length: 80), to: "library/b/2.jpg")
        let library = F.library(folder, store: try store())
        _ = try await walk(library)
        try FileManager.default.removeItem(atPath: folder.path + "/library/b")
        #expect(try await walk(library, keepingListings: false).gone.isEmpty)
        #expect(try await walk(library).gone.map(\.relativePath) == ["b/2.jpg"])
    }

    @Test func aRootWithNoFileWhereFilesWereListedIsTakenForADiskNotMounted() async throws {
        try folder.write(F.jpeg(), to: "library/top.jpg")
        try folder.write(F.jpeg(length: 80), to: "library/a/1.jpg")
        let library = F.library(folder, store: try store())
        _ = try await walk(library)
        try move("library", "elsewhere")
        try FileManager.default.createDirectory(atPath: folder.path + "/library", withIntermediateDirectories: false)
        let empty = try await walk(library)
        #expect(empty.gone.isEmpty)
        #expect(empty.issues.map(\.reason) == [.emptyRoot(listed: 2)])
        try FileManager.default.removeItem(atPath: folder.path + "/library")
        try move("elsewhere", "library")
        let back = try await walk(library)
        #expect(back.gone.isEmpty && back.issues.isEmpty && back.inspected == 0)
    }

    @Test func aLibraryWithoutAStoreKeepsNoListings() async throws {
        try folder.write(F.jpeg(), to: "library/a/1.jpg")
        let library = F.library(folder)
        _ = try await walk(library)
        try FileManager.default.removeItem(atPath: folder.path + "/library/a/1.jpg")
        #expect(try await walk(library).gone.isEmpty)
    }
}
