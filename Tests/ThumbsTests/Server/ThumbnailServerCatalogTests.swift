import Foundation
import Testing
import ThumbsCoreTestSupport
import ThumbsLibrary

/// The server answers from the catalog the cache keeps: it walks the library at start only when
/// no walk of it was kept, and catches up with what changed while it was down.
@Suite("ThumbnailServer: the catalog")
struct ThumbnailServerCatalogTests {
    @Test func aServerStartsFromTheCatalogKeptAndCatchesUpBeside() async throws {
        let fixture = try ServerFixture(photos: 3)
        let catalog = LibraryCatalog(store: fixture.store)
        #expect(try catalog.walkedWhole(roots: fixture.library.roots) == nil)
        _ = try await fixture.server()
        #expect(try catalog.walkedWhole(roots: fixture.library.roots) != nil, "the first start walked the library")
        #expect(try catalog.count(of: .library, roots: fixture.library.roots) == 3)

        try fixture.photos.addPhoto("while-down.jpg")
        try fixture.photos.remove("photo-0.jpg")
        _ = try await fixture.server()
        #expect(
            try catalog.count(of: .library, roots: fixture.library.roots) == 3,
            "a start from the catalog walks nothing before it answers")

        try await fixture.run { client, _ in
            var names: [String] = []
            let caughtUp = try await eventually {
                names = try await client.allAssets().compactMap { $0["name"] as? String }.sorted()
                return names == ["photo-1.jpg", "photo-2.jpg", "while-down.jpg"]
            }
            #expect(caughtUp, "the walk beside the server finds what changed while it was down: \(names)")
        }
    }
}
