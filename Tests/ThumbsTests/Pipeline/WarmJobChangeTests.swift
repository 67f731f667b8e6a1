import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// `WarmJob.apply(_:)`, what `thumbs watch` and the server's watch do with each change.
@Suite struct WarmJobChangeTests {
    let renditions = [RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)]

    @Test func aChangeIsWarmedForgottenAndReported() async throws {
        let fixture = try PipelineFixture()
        let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        try fixture.folder.write(jpeg, to: "library/kept.jpg")
        try fixture.folder.write(jpeg, to: "library/gone.jpg")
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        _ = try await job.run(over: library)
        let before = try await library.fetchAssets()
        #expect(try fixture.store.statistics().thumbnails == 2)

        unlink(fixture.folder.path + "/library/gone.jpg")
        try fixture.folder.write(try SyntheticImage(width: 500, height: 300).encoded(as: .jpeg), to: "library/new.jpg")
        try FileAge.markBeingWritten(
            try fixture.folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "library/cut.jpg"))
        let change = try #require(ChangeDetails.between(before, try await library.fetchAssets()))
        let report = try await job.apply(change)

        #expect(report.progress.rendered == 1 && report.failures.count == 1)
        #expect(report.failureLines == [fixture.folder.path + "/library/cut.jpg: truncated"])
        #expect(try fixture.store.statistics().thumbnails == 2, "one new, one removed")
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(fields["inserted"] as? Int == 2 && fields["removed"] as? Int == 1 && fields["changed"] as? Int == 0)
        #expect(fields["rendered"] as? Int == 1 && (fields["failed"] as? [String])?.count == 1)
    }

    @Test func aChangeMovesTheCatalog() async throws {
        let fixture = try PipelineFixture()
        let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        try fixture.folder.write(jpeg, to: "library/a/kept.jpg")
        try fixture.folder.write(jpeg, to: "library/a/gone.jpg")
        let root = fixture.folder.path + "/library"
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        _ = try await job.run(forgettingGoneFrom: library)
        let before = try await library.fetchAssets()

        unlink(root + "/a/gone.jpg")
        try fixture.folder.write(
            try SyntheticImage(width: 500, height: 300).encoded(as: .jpeg), to: "library/b/new.jpg")
        _ = try await job.apply(try #require(ChangeDetails.between(before, try await library.fetchAssets())))
        let albums = try LibraryCatalog(store: fixture.store).albums(roots: [root])
        #expect(albums.filter { $0.kind == .smartAlbum(.allPhotos) }.map(\.photoCount) == [2])
        #expect(
            albums.filter { if case .folder = $0.kind { true } else { false } }.map { "\($0.title) \($0.photoCount)" }
                == ["a 1", "b 1"])
    }
}
