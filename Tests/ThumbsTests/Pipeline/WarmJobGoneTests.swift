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

/// `WarmJob.run(forgettingGoneFrom:)`, what `thumbs warm` runs: files moved, renamed or copied
/// keep their thumbnails, files gone are forgotten.
@Suite struct WarmJobGoneTests {
    let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        RenditionSpec(size: PixelSize(width: 1024, height: 1024)),
    ]

    @Test func aRenamedFolderRendersNothingAndLeavesNoStaleEntry() async throws {
        let fixture = try PipelineFixture()
        for index in 0..<6 {
            let photo = try SyntheticImage(width: 400 + index * 10, height: 300).encoded(as: .jpeg)
            try fixture.folder.write(photo, to: "library/2024-06/IMG_\(index).jpg")
        }
        try fixture.folder.write(try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "library/kept.jpg")
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        let cold = try await job.run(forgettingGoneFrom: library)
        #expect(cold.rendered == 7)
        let before = try fixture.store.statistics()
        #expect(before.thumbnails == 14 && before.metadataEntries == 7)

        try FileManager.default.moveItem(
            atPath: fixture.folder.path + "/library/2024-06", toPath: fixture.folder.path + "/library/2024-06 Italy")
        let moved = try await job.run(forgettingGoneFrom: library)
        #expect(moved.rendered == 0 && moved.fresh == 7)
        #expect(moved.recognised == 6 && moved.forgotten == 6)
        let after = try fixture.store.statistics()
        #expect(after.thumbnails == before.thumbnails && after.metadataEntries == before.metadataEntries)
        #expect(after.liveBytes == before.liveBytes)
        #expect(try fixture.store.verify().isConsistent)

        unlink(fixture.folder.path + "/library/kept.jpg")
        let kept = try await WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
            .run(over: library)
        #expect(kept.forgotten == 0)
        #expect(try fixture.store.statistics().metadataEntries == 7, "run(over:) forgets nothing")
        let removed = try await job.run(forgettingGoneFrom: library)
        #expect(removed.forgotten == 1 && removed.rendered == 0)
        #expect(try fixture.store.statistics().thumbnails == 12)
    }

    @Test func aRecordKeptBeforeSignaturesGetsOneAndItsFileIsRecognisedMoved() async throws {
        let fixture = try PipelineFixture()
        for index in 0..<3 {
            let photo = try SyntheticImage(width: 400 + index * 10, height: 300).encoded(as: .jpeg)
            try fixture.folder.write(photo, to: "library/2024-06/IMG_\(index).jpg")
        }
        let root = fixture.folder.path + "/library"
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        _ = try await job.run(forgettingGoneFrom: library)
        // The records as a cache kept them before signatures: the same, without one.
        let ids = (0..<3).map { AssetID.make(root: root, relativePath: "2024-06/IMG_\($0).jpg") }
        var unsigned: [ThumbnailStore.MetadataEntry] = []
        for id in ids {
            var metadata = try #require(try fixture.store.metadata(for: id))
            metadata.contentSignature = nil
            unsigned.append(.init(assetID: id, metadata: metadata))
        }
        try await fixture.store.removeMetadata(of: ids)
        try await fixture.store.putMetadata(unsigned)
        #expect(try ids.allSatisfy { try fixture.store.metadata(for: $0)?.contentSignature == nil })

        _ = try await library.allAssets()
        #expect(try ids.allSatisfy { try fixture.store.metadata(for: $0)?.contentSignature != nil })
        try FileManager.default.moveItem(atPath: root + "/2024-06", toPath: root + "/2024-06 Italy")
        let moved = try await job.run(forgettingGoneFrom: library)
        #expect(moved.rendered == 0 && moved.recognised == 3 && moved.forgotten == 3)
    }
}
