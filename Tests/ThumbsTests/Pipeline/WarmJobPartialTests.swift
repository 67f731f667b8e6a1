import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
@testable import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// A warm of damaged files: a settled one is rendered partially (a warning, counted and kept in
/// the metadata cache), one just modified fails as before.
@Suite struct WarmJobPartialTests {
    let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        RenditionSpec(size: PixelSize(width: 640, height: 640)),
    ]

    @Test func aSettledDamagedFileIsAPartialRenderAndOneJustModifiedAFailure() async throws {
        let fixture = try PipelineFixture()
        let whole = try SyntheticImage(width: 900, height: 600).encoded(as: .jpeg)
        try FileAge.settle(try fixture.folder.write(Array(whole.prefix(whole.count / 2)), to: "library/settled.jpg"))
        try FileAge.markBeingWritten(
            try fixture.folder.write(Array(whole.prefix(whole.count / 2)), to: "library/copying.jpg"))
        try fixture.folder.write(whole, to: "library/whole.jpg")
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)

        let partials = Locked<[Asset]>([])
        let failures = Locked<[String]>([])
        let progress = try await job.run(over: library) { event in
            switch event {
            case .partial(let asset): partials.withLock { $0.append(asset) }
            case .failed(let failure): failures.withLock { $0.append(failure.path) }
            case .progress, .issue: break
            }
        }
        #expect(progress.rendered == 2 && progress.partial == 1 && progress.failuresByKind == [.truncated: 1])
        #expect(progress.description.contains("1 partial"))
        #expect(partials.value.map(\.relativePath) == ["settled.jpg"])
        #expect(failures.value == [fixture.folder.path + "/library/copying.jpg"], "a copy maybe under way: as before")

        let assets = try await library.fetchAssets()
        func metadata(_ name: String) throws -> AssetMetadata? {
            try assets.first { $0.relativePath == name }.flatMap { try fixture.store.metadata(for: $0.id) }
        }
        #expect(try metadata("settled.jpg")?.isPartial == true, "kept in the metadata cache")
        #expect(try metadata("whole.jpg")?.isPartial == false)
        #expect(try metadata("copying.jpg")?.isPartial == false)
        // Its failure is not remembered: the same bytes, once they have settled (a copy cut short
        // and never touched again), are to be drawn partially by a later warm.
        let copying = try #require(assets.first { $0.relativePath == "copying.jpg" })
        #expect(try fixture.store.failure(for: copying.id, fingerprint: copying.fingerprint) == nil)

        // The copy completes: a new version, rendered whole, and the flag goes with the old one.
        try fixture.folder.write(whole, to: "library/settled.jpg")
        let again = try await job.run(over: library)
        #expect(again.rendered == 1 && again.partial == 0 && again.skippedFailures == 0)
        #expect(again.failuresByKind == [.truncated: 1], "the unsettled copy is tried again, and fails again")
        let current = try await library.fetchAssets().first { $0.relativePath == "settled.jpg" }
        #expect(try current.flatMap { try fixture.store.metadata(for: $0.id) }?.isPartial == false)
    }
}
