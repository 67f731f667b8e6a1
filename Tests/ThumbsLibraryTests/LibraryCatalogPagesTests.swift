import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsStore

/// The catalog's lists read a page at a time give what a fetch result of the same assets gives,
/// over every root, and its writes say what they changed in the listing.
@Suite("LibraryCatalog: pages and changes") struct LibraryCatalogPagesTests {
    let folder = TemporaryFolder()
    let roots = ["/library", "/other"]

    private func catalog() throws -> LibraryCatalog {
        LibraryCatalog(
            store: try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache")),
            timeZone: LibraryCatalogTests.utc)
    }

    /// Every id of `list`, `limit` at a time, following each page's position.
    private func paged(_ list: LibraryCatalog.List, of catalog: LibraryCatalog, limit: Int) throws -> [String] {
        var ids: [String] = [], position: LibraryCatalog.Position?
        repeat {
            let page = try catalog.page(
                of: list, roots: roots, after: position, limit: limit, now: LibraryCatalogTests.now)
            #expect(page.assets.count <= limit)
            ids += page.assets.map(\.id)
            position = page.next
        } while position != nil
        return ids
    }

    @Test func everyListPagesAsAFetchResultOrdersIt() async throws {
        let catalog = try catalog()
        let assets = LibraryCatalogTests.library()
        try await catalog.keep(assets)
        let listed = FetchResult(assets: assets.filter { !$0.isHiddenBurstFrame }).map(\.id)
        let frames = assets.filter { $0.burstIdentifier != nil }
        let albums = try catalog.albums(roots: roots, now: LibraryCatalogTests.now)
        let folderA = try #require(albums.first { $0.kind == .folder(root: "/library", path: "a") })
        let recent = try #require(albums.first { $0.kind == .smartAlbum(.recentlyAdded) })
        let expected: [(LibraryCatalog.List, [String])] = [
            (.library, listed),
            (.everything, FetchResult(assets: assets).map(\.id)),
            (
                .album(folderA),
                FetchResult(assets: assets.filter { $0.root == "/library" && $0.folder == "a" }).map(\.id)
            ),
            // Recently Added by when each was added, newest first.
            (
                .album(recent),
                assets.filter { ["a/broken.jpg", "a/new.jpg"].contains($0.relativePath) }
                    .sorted { $0.modificationDate > $1.modificationDate }.map(\.id)
            ),
            (
                .day(Day(year: 2024, month: 5, day: 2)),
                FetchResult(assets: assets.filter { ["a/3.mp4", "a/pano.jpg"].contains($0.relativePath) }).map(\.id)
            ),
            (.burst(of: frames[0]), FetchResult(assets: frames).map(\.id)),
        ]
        for (list, ids) in expected {
            for limit in [1, 2, 100] {
                #expect(try paged(list, of: catalog, limit: limit) == ids, "\(list) by \(limit)")
            }
            #expect(try catalog.count(of: list, roots: roots, now: LibraryCatalogTests.now) == ids.count, "\(list)")
        }
        let firstOfDay = try paged(.day(Day(year: 2024, month: 5, day: 1)), of: catalog, limit: 100)
        #expect(
            try catalog.ids(of: [.library, .day(Day(year: 2024, month: 5, day: 1))], roots: roots, limit: 3) == [
                Array(listed.prefix(3)), Array(firstOfDay.prefix(3)),
            ])
        #expect(try catalog.asset(id: listed[0], roots: roots)?.id == listed[0])
        #expect(try catalog.asset(id: listed[0].uppercased(), roots: roots) == nil)
        let other = try #require(assets.first { $0.root == "/other" })
        #expect(try catalog.asset(id: other.id, roots: ["/library"]) == nil, "an asset of another root")
    }

    @Test func aPositionResumesRightAfterItsAssetWhateverWasAddedBefore() async throws {
        let catalog = try catalog()
        let assets = LibraryCatalogTests.library()
        try await catalog.keep(assets)
        let first = try catalog.page(of: .library, roots: roots, limit: 3, now: LibraryCatalogTests.now)
        let position = try #require(first.next)
        #expect(LibraryCatalog.Position(position.text) == position)
        try await catalog.keep([LibraryCatalogTests.asset("a/newest.jpg", day: 30)])
        let rest = try catalog.page(of: .library, roots: roots, after: position, limit: 100)
        let listed = FetchResult(assets: assets.filter { !$0.isHiddenBurstFrame }).map(\.id)
        #expect(rest.assets.map(\.id) == Array(listed.dropFirst(3)))
        for text in [
            "", "abc", String(repeating: "g", count: 32), String(repeating: "F", count: 32),
            "+" + String(repeating: "0", count: 31),
        ] {
            #expect(LibraryCatalog.Position(text) == nil, "\(text)")
        }
    }

    @Test func writesSayWhatTheyChangedInTheListing() async throws {
        let catalog = try catalog()
        let assets = LibraryCatalogTests.library()
        let kept = try await catalog.keep(assets)
        #expect(Set(kept.inserted) == Set(assets.filter { !$0.isHiddenBurstFrame }.map(\.id)))
        #expect(kept.removed.isEmpty && kept.changed.isEmpty)
        #expect(try await catalog.keep(assets).isEmpty, "kept as they were")

        var touched = assets[0]
        touched = Asset(
            root: touched.root, relativePath: touched.relativePath, mediaType: touched.mediaType,
            fingerprint: FileFingerprint(size: 2_000, modificationTimeNanoseconds: 1), properties: touched.properties)
        #expect(try await catalog.keep([touched]) == CatalogChanges(changed: [touched.id]))

        let hidden = try #require(assets.first { $0.isHiddenBurstFrame })
        let cover = try #require(assets.first { $0.burstIdentifier != nil && !$0.isHiddenBurstFrame })
        #expect(try await catalog.forget([hidden.id]).isEmpty, "a hidden frame was not listed")
        #expect(try await catalog.forget([cover.id, "0000000000000000"]) == CatalogChanges(removed: [cover.id]))
    }
}
