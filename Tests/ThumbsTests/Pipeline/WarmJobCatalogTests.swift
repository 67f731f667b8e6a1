import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSamples
import ThumbsStore
import ThumbsTestSupport

/// The store's catalog follows what a warm finds: every asset kept, what is gone forgotten, and
/// each root marked once its walk was kept whole.
@Suite struct WarmJobCatalogTests {
    let renditions = [RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)]

    private func albums(_ library: PhotoLibrary) async throws -> [String] {
        let built = try await library.enumerateAlbums().albums
        return (built.smartAlbums + built.folderAlbums).map(Self.shown)
    }

    private static func shown(_ album: AssetCollection) -> String {
        "\(album.title) \(album.photoCount)/\(album.videoCount) \(album.totalBytes) \(album.keyAssets.map(\.id))"
    }

    @Test func theCatalogListsWhatTheWalkFinds() async throws {
        let fixture = try PipelineFixture()
        for (index, name) in ["a/1.jpg", "a/2.jpg", "b/1.jpg", "top.jpg"].enumerated() {
            let photo = try SyntheticImage(width: 300 + index * 10, height: 200).encoded(as: .jpeg)
            try fixture.folder.write(photo, to: "library/" + name)
        }
        let root = fixture.folder.path + "/library"
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: fixture.store)
        let catalog = LibraryCatalog(store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        #expect(try catalog.walkedWhole(roots: [root]) == nil)

        _ = try await job.run(forgettingGoneFrom: library)
        #expect(try catalog.walkedWhole(roots: [root]) != nil)
        #expect(try catalog.albums(roots: [root]).map(Self.shown) == (try await albums(library)))

        unlink(root + "/a/2.jpg")
        try fixture.folder.write(
            try SyntheticImage(width: 500, height: 300).encoded(as: .jpeg), to: "library/c/new.jpg")
        let next = try await job.run(forgettingGoneFrom: library)
        #expect(next.forgotten == 1 && next.rendered == 1)
        #expect(try catalog.albums(roots: [root]).map(Self.shown) == (try await albums(library)))
        #expect(try catalog.moments(roots: [root]).reduce(0) { $0 + $1.photos } == 4)
    }
}
