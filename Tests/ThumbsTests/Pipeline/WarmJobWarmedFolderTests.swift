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

/// A warm passes over the folders the last warm of the same renditions left with nothing to do
/// (`WarmedFolder`), and over nothing else.
@Suite struct WarmJobWarmedFolderTests {
    let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        RenditionSpec(size: PixelSize(width: 1024, height: 1024)),
    ]

    /// Three photos in `a`, two in `b`, one in the root.
    private func library(_ fixture: PipelineFixture) throws -> PhotoLibrary {
        for (index, name) in ["a/1.jpg", "a/2.jpg", "a/3.jpg", "b/1.jpg", "b/2.jpg", "top.jpg"].enumerated() {
            let photo = try SyntheticImage(width: 300 + index * 10, height: 200).encoded(as: .jpeg)
            try fixture.folder.write(photo, to: "library/" + name)
        }
        return PhotoLibrary(roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
    }

    private func job(_ fixture: PipelineFixture, _ renditions: [RenditionSpec]? = nil) -> WarmJob {
        WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions ?? self.renditions)
    }

    @Test func anUnchangedRunPassesOverEveryFolder() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        let cold = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(cold.rendered == 6 && cold.freshInWarmedFolders == 0)
        let again = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(again.found == 6 && again.done == 6 && again.fresh == 6 && again.rendered == 0)
        #expect(again.freshInWarmedFolders == 6)
        let plain = try await job(fixture).run(over: library)
        #expect(plain.freshInWarmedFolders == 6, "a warm that keeps no listings passes over them too")
    }

    @Test func aChangedFileHasItsFolderWarmedFileByFile() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        _ = try await job(fixture).run(forgettingGoneFrom: library)
        try fixture.folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: "library/a/2.jpg")
        let changed = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(changed.rendered == 1 && changed.fresh == 5 && changed.freshInWarmedFolders == 3)
        try fixture.folder.write(try SyntheticImage(width: 320, height: 240).encoded(as: .jpeg), to: "library/a/4.jpg")
        let added = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(added.rendered == 1 && added.found == 7 && added.freshInWarmedFolders == 3)
        #expect(try await job(fixture).run(forgettingGoneFrom: library).freshInWarmedFolders == 7)
    }

    @Test func aForgottenFileHasItsFolderWarmedFileByFile() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        _ = try await job(fixture).run(forgettingGoneFrom: library)
        let path = fixture.folder.path + "/library/b/1.jpg"
        let photo = try await fixture.asset("b/1.jpg", Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        try await job(fixture).forget([photo])
        let after = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(after.rendered == 1 && after.fresh == 5 && after.freshInWarmedFolders == 4)
        #expect(try await job(fixture).run(forgettingGoneFrom: library).freshInWarmedFolders == 6)
    }

    @Test func anotherRenditionIsAnotherWarm() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        _ = try await job(fixture).run(forgettingGoneFrom: library)
        let smaller = [RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFill)]
        let other = try await job(fixture, smaller).run(forgettingGoneFrom: library)
        #expect(other.rendered == 6 && other.freshInWarmedFolders == 0)
        #expect(try await job(fixture, smaller).run(forgettingGoneFrom: library).freshInWarmedFolders == 6)
        // Each warm keeps its own records: the first one's still hold.
        #expect(try await job(fixture).run(forgettingGoneFrom: library).freshInWarmedFolders == 6)
    }

    @Test func aListingWalkPassesOverTheFoldersAWarmLeft() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        _ = try await job(fixture).run(forgettingGoneFrom: library)
        let listing = try await job(fixture, []).run(forgettingGoneFrom: library)
        #expect(listing.found == 6 && listing.freshInWarmedFolders == 6, "the warm kept its assets in the catalog")
        try fixture.folder.write(try SyntheticImage(width: 320, height: 240).encoded(as: .jpeg), to: "library/a/4.jpg")
        let afterAdding = try await job(fixture, []).run(forgettingGoneFrom: library)
        #expect(afterAdding.found == 7 && afterAdding.freshInWarmedFolders == 3 && afterAdding.rendered == 0)
        // What a listing walk kept is no reason for a warm to pass over a folder.
        let warm = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(warm.rendered == 1 && warm.freshInWarmedFolders == 3)
    }

    @Test func aFolderWithAFailureIsNeverPassedOver() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        try fixture.folder.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], to: "library/b/broken.jpg")
        let cold = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(cold.rendered == 6 && cold.failed == 1)
        let again = try await job(fixture).run(forgettingGoneFrom: library)
        #expect(again.failed + again.skippedFailures == 1, "the broken file is reported again")
        #expect(again.rendered == 0 && again.freshInWarmedFolders == 4)
    }

    @Test func aWarmWithAnotherOutputPassesOverNothing() async throws {
        let fixture = try PipelineFixture()
        let library = try library(fixture)
        _ = try await job(fixture).run(forgettingGoneFrom: library)
        let files = FolderWarmOutput(
            folder: fixture.folder.path + "/out", libraryFolders: [fixture.folder.path + "/library"],
            renditions: [(name: "grid", spec: renditions[0])])
        let both = WarmJob(
            renderer: fixture.renderer,
            outputs: [StoreWarmOutput(store: fixture.store, renditions: renditions), files])
        let run = try await both.run(forgettingGoneFrom: library)
        #expect(run.rendered == 6 && run.freshInWarmedFolders == 0)
    }
}
