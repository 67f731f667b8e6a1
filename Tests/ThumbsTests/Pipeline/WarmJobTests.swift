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

@Suite struct WarmJobTests {
    let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        RenditionSpec(size: PixelSize(width: 640, height: 640)),
    ]

    @Test func aReRunOnAnUnchangedLibraryDecodesNothing() async throws {
        let fixture = try PipelineFixture()
        for index in 0..<12 {
            try fixture.folder.write(
                try SyntheticImage(width: 900 + index, height: 600).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        let whole = try SyntheticImage(width: 900, height: 600).encoded(as: .jpeg)
        // Its first bytes only, long settled: damage with nothing to draw, a failure remembered.
        try FileAge.settle(try fixture.folder.write(Array(whole.prefix(300)), to: "library/broken.jpg"))
        // The first bytes of an MP4 file and nothing more: a video asset whose index (the moov
        // atom) never came, a failure like the broken photo's.
        try FileAge.settle(
            try fixture.folder.write(
                [0, 0, 0, 20] + Array("ftypisom\0\0\u{2}\0isommp41".utf8) + Array(repeating: 0, count: 64),
                to: "library/clip.mp4"))
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)

        let first = try await job.run(over: library)
        #expect(first.found == 14 && first.rendered == 12 && first.failuresByKind == [.truncated: 2])
        #expect(fixture.renderer.decodeCount == 14)
        #expect(try fixture.store.statistics().thumbnails == 24)

        let second = try await job.run(over: library)
        #expect(second.fresh == 12 && second.skippedFailures == 2 && second.rendered == 0)
        #expect(fixture.renderer.decodeCount == 14, "nothing decoded the second time")

        // A changed file is rendered again; a repaired one is retried.
        try Data(try SyntheticImage(width: 500, height: 500).encoded(as: .jpeg))
            .write(to: URL(fileURLWithPath: fixture.folder.path + "/library/p3.jpg"))
        try Data(whole).write(to: URL(fileURLWithPath: fixture.folder.path + "/library/broken.jpg"))
        let third = try await job.run(over: library)
        #expect(third.rendered == 2 && third.fresh == 11 && third.failed == 0)
        #expect(try fixture.store.verify().isConsistent)
    }

    @Test func progressCountsEveryPhoto() async throws {
        let fixture = try PipelineFixture()
        for index in 0..<5 {
            try fixture.folder.write(
                try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let seen = Locked<[WarmJob.Progress]>([])
        let summary = try await WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions).run(
            over: library
        ) { event in
            if case .progress(let progress) = event { seen.withLock { $0.append(progress) } }
        }
        #expect(summary.done == 5 && summary.found == 5 && summary.walkFinished)
        #expect(seen.value.map(\.done) == seen.value.map(\.done).sorted())
        #expect(summary.bytesWritten > 0 && summary.rate > 0)
    }

    @Test func givenAssetsAreWarmedLikeAWalk() async throws {
        let fixture = try PipelineFixture()
        let assets = [try await fixture.photo("a.jpg"), try await fixture.photo("b.jpg")]
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        let summary = try await job.run(assets)
        #expect(summary.rendered == 2 && summary.found == 2)
        #expect(try fixture.store.statistics().thumbnails == 4)
        #expect(try await job.run(assets).fresh == 2)
    }

    @Test func everyRenderedPhotoGetsAPlaceholderFromItsSmallestRendition() async throws {
        let fixture = try PipelineFixture()
        for (index, size) in [(900, 600), (600, 900), (700, 700), (1200, 300)].enumerated() {
            try fixture.folder.write(
                try SyntheticImage(width: size.0, height: size.1).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        #expect(try await job.run(over: library).placeholders == 4)
        let assets = try await library.allAssets().assets
        #expect(assets.count == 4)
        for asset in assets {
            let smallest = try #require(
                try fixture.store.smallestThumbnail(of: asset.id, fingerprint: asset.fingerprint))
            #expect(smallest.thumbnail.pixelSize == PixelSize(width: 256, height: 256), "the grid cell")
            // Made from the grid cell's pixels before they were encoded.
            #expect(try #require(asset.placeholder).resembles(try ThumbHash(encoded: smallest.thumbnail)))
        }
        #expect(try await job.run(over: library).placeholders == 0, "every photo has one")
    }

    @Test func aWarmCacheWithoutPlaceholdersGetsThemWithoutADecode() async throws {
        let fixture = try PipelineFixture()
        for index in 0..<6 {
            try fixture.folder.write(
                try SyntheticImage(width: 600 + index * 40, height: 400).encoded(as: .jpeg), to: "library/p\(index).jpg"
            )
        }
        let library = PhotoLibrary(
            roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
        _ = try await job.run(over: library)
        // A cache from before placeholders: thumbnails stored, metadata records without one.
        let ids = try await library.allAssets().assets.map(\.id)
        try await fixture.store.removeMetadata(of: ids)
        #expect(try await library.allAssets().assets.allSatisfy { $0.placeholder == nil })
        let decodes = fixture.renderer.decodeCount

        let again = try await job.run(over: library)
        #expect(again.fresh == 6 && again.rendered == 0 && again.placeholders == 6)
        #expect(fixture.renderer.decodeCount == decodes, "made from stored thumbnails, no photo decoded")
        for asset in try await library.allAssets().assets {
            let smallest = try #require(
                try fixture.store.smallestThumbnail(of: asset.id, fingerprint: asset.fingerprint))
            // Made from the grid cell's pixels before they were encoded.
            #expect(try #require(asset.placeholder).resembles(try ThumbHash(encoded: smallest.thumbnail)))
        }
        #expect(try fixture.store.verify().isConsistent)
    }
}
