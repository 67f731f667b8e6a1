import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
import ThumbsStore

@testable import ThumbsServer

/// The index keeps the albums, days and moments it read for as long as no change is noted, and
/// reads them ahead of the first request when asked to.
@Suite("LibraryIndex")
struct LibraryIndexTests {
    let folder = TemporaryFolder()

    /// A photo of `folder` taken on `day` of May 2024.
    private static func photo(_ path: String, day: Int) -> Asset {
        let fingerprint = FileFingerprint(size: 1_000, modificationTimeNanoseconds: 1_700_000_000_000_000_000)
        let properties = ImageProperties(
            mediaType: .jpeg, pixelSize: PixelSize(width: 40, height: 30),
            captureDate: CaptureDate(exif: String(format: "2024:05:%02d 12:00:00", day), offset: "+00:00"),
            fingerprint: fingerprint)
        return Asset(
            root: "/library", relativePath: path, mediaType: .jpeg, fingerprint: fingerprint, properties: properties)
    }

    private static func folders(_ index: LibraryIndex) throws -> [String] {
        try index.albums().list.compactMap {
            guard case .folder(_, let path) = $0.kind else { return nil }
            return path
        }
    }

    @Test func listsReadAheadHoldUntilAChangeIsNoted() async throws {
        let catalog = LibraryCatalog(
            store: try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache")),
            timeZone: TimeZone(identifier: "UTC")!)
        try await catalog.keep([Self.photo("a/1.jpg", day: 1)])
        let index = LibraryIndex(catalog: catalog, roots: ["/library"])
        await index.prepareLists()

        // Writes the index has not heard of yet: what was read ahead is what it answers.
        let changes = try await catalog.keep([Self.photo("b/2.jpg", day: 2), Self.photo("a/3.jpg", day: 1)])
        #expect(try index.days().map(\.day.description) == ["2024-05-01"])
        #expect(try Self.folders(index) == ["a"])
        #expect(try index.moments(of: index.days()[...]).map(\.assets.count) == [1])

        index.note(changes)
        await index.prepareLists()
        #expect(try index.days().map(\.day.description) == ["2024-05-02", "2024-05-01"])
        #expect(try Self.folders(index) == ["a", "b"])
        #expect(try index.moments(of: index.days()[...]).map(\.count) == [1, 2])
    }
}
