import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
@testable import ThumbsPipeline
import ThumbsRendering
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples
import ThumbsTesting

@Suite struct CachingImageManagerTests {
    let grid = PixelSize(width: 256, height: 256)

    @Test func opportunisticGivesTheEmbeddedPreviewThenTheFinal() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photoWithPreview("preview.jpg")
        let (results, error) = await fixture.manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFill
        ).collect()
        #expect(error == nil)
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results.map(\.source) == [.embedded, .rendered])
        #expect(results[1].pixelSize == grid)
        // The final is stored (after it was delivered); the degraded one never is.
        await fixture.manager.persisted()
        let key = fixture.manager.key(for: asset, targetSize: grid, contentMode: .aspectFill)
        #expect(try fixture.store.thumbnail(for: key)?.thumbnail.bytes == results[1].bytes)
        #expect(try fixture.store.statistics().thumbnails == 1)
    }

    /// A camera RAW file's embedded JPEG preview is its cheap source; the final is resized from
    /// the same preview, turned by the RAW's orientation (6: the 1200 × 800 sensor stands upright).
    @Test(.enabled(if: GeneratedMedia.python != nil, GeneratedMedia.dngSkipReason))
    func opportunisticGivesARawFilesPreviewThenTheFinal() async throws {
        let fixture = try PipelineFixture()
        let made = fixture.folder.path + "/made.dng"
        try GeneratedMedia.dng(at: made, ["--raw", "1200x800", "--preview", "1200x800:jpeg", "--orientation", "6"])
        let asset = try await fixture.asset("raw.dng", Array(try Data(contentsOf: URL(fileURLWithPath: made))))
        #expect(asset.mediaType == .cameraRaw)
        let (results, error) = await fixture.manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFit
        ).collect()
        #expect(error == nil)
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results.map(\.source) == [.embedded, .rendered])
        #expect(results[1].pixelSize == PixelSize(width: 171, height: 256))
        #expect(results[0].pixelSize.height > results[0].pixelSize.width, "the preview is turned upright too")
    }

    /// The final image is delivered before it is stored: with the store's writer busy (a commit
    /// taking its time), the request still completes, and the image is stored once the writer
    /// is free. The time limit turns a request that waits for the held writer (a hang) into a
    /// failure; it is generous because a busy machine must not trip it.
    @Test(.timeLimit(.minutes(15))) func aDisplayRequestDoesNotWaitForTheStoresCommit() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg")
        let key = fixture.manager.key(for: asset, targetSize: grid, contentMode: .aspectFit)
        let image = try await fixture.store.withWriterHeld {
            let image = try await fixture.manager.image(for: asset, targetSize: grid, contentMode: .aspectFit)
            #expect(try fixture.store.thumbnail(for: key) == nil, "not committed while the writer is held")
            return image
        }
        await fixture.manager.persisted()
        #expect(try fixture.store.thumbnail(for: key)?.thumbnail.bytes == image.bytes)
    }

    @Test func opportunisticWithoutACheapSourceGivesOnlyTheFinal() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("plain.jpg")
        let (results, _) = await fixture.manager.requestImage(for: asset, targetSize: grid, contentMode: .aspectFit)
            .collect()
        #expect(results.map(\.isDegraded) == [false])
        #expect(results.map(\.source) == [.rendered])
    }

    @Test func aRenderKeepsThePlaceholderOfAnAssetTheCacheKnows() async throws {
        let fixture = try PipelineFixture()
        let known = try await fixture.photo("known.jpg", width: 900, height: 600)
        let unknown = try await fixture.photo("unknown.jpg")
        // As a walk with this store would have left them: the first one's metadata cached.
        try await fixture.store.putMetadata([
            .init(assetID: known.id, metadata: AssetMetadata(try #require(known.properties)))
        ])
        let fit = try await fixture.manager.image(for: known, targetSize: grid, contentMode: .aspectFit)
        _ = try await fixture.manager.image(for: unknown, targetSize: grid, contentMode: .aspectFit)
        let placeholder = { try? fixture.store.placeholder(for: known.id, fingerprint: known.fingerprint) }
        try await eventually { placeholder() != nil }
        let made = try #require(placeholder())
        #expect(made.resembles(try ThumbHash(encoded: fit.bytes)), "from the thumbnail just rendered")
        #expect(made.approximateAspectRatio == 7.0 / 5)
        #expect(try fixture.store.metadata(for: unknown.id) == nil, "no record to keep one in")
    }

    @Test func cachedFinalsComeFromTheStoreThenFromMemory() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photoWithPreview("p.jpg")
        _ = await fixture.manager.requestImage(for: asset, targetSize: grid, contentMode: .aspectFill).collect()
        let fresh = CachingImageManager(renderer: fixture.renderer, store: fixture.store)
        let fromStore = await fresh.requestImage(for: asset, targetSize: grid, contentMode: .aspectFill).collect()
            .results
        #expect(fromStore.map(\.source) == [.store] && fromStore.map(\.isDegraded) == [false])
        let fromMemory = await fresh.requestImage(for: asset, targetSize: grid, contentMode: .aspectFill).collect()
            .results
        #expect(fromMemory.map(\.source) == [.memory])
    }

    /// A request of a configured rendition's box and mode is that rendition (its quality and
    /// format), and finds what was stored for it; one naming its own quality is not.
    @Test func aRequestOfAConfiguredRenditionsBoxIsThatRendition() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg")
        let cell = RenditionSpec(size: grid, contentMode: .aspectFill, format: .webp, quality: 80)
        _ = try await fixture.manager.image(for: asset, rendition: cell)
        await fixture.manager.persisted()
        var configuration = PipelineConfiguration()
        configuration.renditions = [RenditionSpec(size: PixelSize(width: 1024, height: 1024)), cell]
        let manager = CachingImageManager(
            renderer: fixture.renderer, store: fixture.store, configuration: configuration)
        #expect(manager.key(for: asset, targetSize: grid, contentMode: .aspectFill).rendition == cell)
        let found = await manager.requestImage(for: asset, targetSize: grid, contentMode: .aspectFill).collect()
        #expect(found.results.map(\.source) == [.store] && found.results.map(\.format) == [.webp])

        let ownQuality = ImageRequestOptions(quality: 90)
        #expect(
            manager.key(for: asset, targetSize: grid, contentMode: .aspectFill, options: ownQuality).rendition
                == RenditionSpec(size: grid, contentMode: .aspectFill, quality: 90))
        let fit = manager.key(for: asset, targetSize: grid, contentMode: .aspectFit).rendition
        #expect(fit == RenditionSpec(size: grid, contentMode: .aspectFit), "no rendition of that mode: the defaults")
        let unconfigured = fixture.manager.key(for: asset, targetSize: grid, contentMode: .aspectFill).rendition
        #expect(unconfigured.quality == RenditionSpec.defaultQuality && unconfigured.format == .jpeg)
    }

    @Test func anotherCachedRenditionIsTheDegradedStandIn() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg")
        let big = PixelSize(width: 512, height: 512)
        _ = await fixture.manager.requestImage(for: asset, targetSize: big, contentMode: .aspectFit).collect()
        let (results, _) = await fixture.manager.requestImage(
            for: asset, targetSize: PixelSize(width: 128, height: 128),
            contentMode: .aspectFill
        ).collect()
        #expect(results.map(\.source) == [.memory, .rendered])
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results[0].pixelSize == PixelSize(width: 512, height: 341))
    }

    @Test func highQualityGivesOnlyTheFinal() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photoWithPreview("p.jpg")
        let (results, _) = await fixture.manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat)
        ).collect()
        #expect(results.map(\.source) == [.rendered] && results.map(\.isDegraded) == [false])
    }

    @Test func fastGivesOneResultTheCheapestAcceptable() async throws {
        let fixture = try PipelineFixture()
        let fast = ImageRequestOptions(deliveryMode: .fastFormat)
        let withPreview = try await fixture.photoWithPreview("p.jpg")
        let quick = await fixture.manager.requestImage(
            for: withPreview, targetSize: grid, contentMode: .aspectFill, options: fast
        ).collect()
        #expect(quick.results.map(\.source) == [.embedded] && quick.results.map(\.isDegraded) == [true])
        let plain = try await fixture.photo("plain.jpg")
        let rendered = await fixture.manager.requestImage(
            for: plain, targetSize: grid, contentMode: .aspectFill, options: fast
        ).collect()
        #expect(rendered.results.map(\.source) == [.rendered] && rendered.results.map(\.isDegraded) == [false])
    }

    @Test func fastResizeServesALargerCachedRendition() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg")
        _ = await fixture.manager.requestImage(
            for: asset, targetSize: PixelSize(width: 512, height: 512), contentMode: .aspectFit
        ).collect()
        let decodes = fixture.renderer.decodeCount
        let served = await fixture.manager.requestImage(for: asset, targetSize: grid, contentMode: .aspectFit).collect()
            .results
        #expect(served.map(\.source) == [.memory] && served[0].pixelSize == PixelSize(width: 512, height: 341))
        let exact = await fixture.manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFit,
            options: ImageRequestOptions(resizeMode: .exact)
        ).collect().results
        #expect(exact.last?.pixelSize == PixelSize(width: 256, height: 171))
        #expect(fixture.renderer.decodeCount == decodes + 1)
    }

    @Test func cropRectRendersThePartAskedFor() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg")
        let options = ImageRequestOptions(normalizedCropRect: NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5))
        let result = try #require(
            await fixture.manager.requestImage(
                for: asset, targetSize: PixelSize(width: 100, height: 100),
                contentMode: .aspectFit, options: options
            ).collect().results.last)
        let pixels = try DecodedPixels(result.bytes)
        #expect(result.pixelSize == PixelSize(width: 100, height: 67))
        let centre = pixels.colour(atFractionX: 0.5, y: 0.5)
        #expect(centre.r > 150 && centre.g < 110, "the top-left quadrant is red, is \(centre)")
    }

    @Test func identicalRequestsShareOneRender() async throws {
        let fixture = try PipelineFixture()
        let asset = try await fixture.photo("p.jpg", width: 3000, height: 2000)
        let before = fixture.renderer.decodeCount
        let manager = fixture.manager
        let grid = grid
        let finals = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    await manager.requestImage(
                        for: asset, targetSize: grid, contentMode: .aspectFill,
                        options: ImageRequestOptions(deliveryMode: .highQualityFormat)
                    )
                    .collect().results.last?.bytes
                }
            }
            return await group.reduce(into: [[UInt8]?]()) { $0.append($1) }
        }
        #expect(finals.count == 100 && Set(finals.compactMap { $0 }).count == 1)
        #expect(fixture.renderer.decodeCount - before == 1, "100 identical requests, one render")
    }

    @Test func aRequestCancelledBeforeItsRenderStartsCostsNothing() async throws {
        let fixture = try PipelineFixture(workers: 1)
        let asset = try await fixture.photo("p.jpg")
        let before = fixture.renderer.decodeCount
        // The one render thread is held, so the request's render is queued, never started.
        let held = try await HeldThread(fixture.renderer.pool)
        let cancelled = fixture.manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat))
        cancelled.cancel()
        let outcome = await cancelled.collect()
        #expect(outcome.results.isEmpty && outcome.error as? ImageRequestError == .cancelled)
        try await held.release()
        try await eventually(seconds: 1) { false }  // room for a wrongly started render to show
        #expect(fixture.renderer.decodeCount == before, "nothing was decoded")
        #expect(fixture.manager.coordinator.inFlight == 0)
    }

    @Test func aRequestCancelledDuringItsRenderGetsNoImage() async throws {
        let fixture = try PipelineFixture()
        let renderer = HeldRenderer(fixture.renderer)
        let manager = CachingImageManager(renderer: renderer, store: fixture.store)
        let asset = try await fixture.photo("p.jpg")
        let request = manager.requestImage(
            for: asset, targetSize: grid, contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat))
        try await eventually { renderer.heldRenders == 1 }
        request.cancel()
        renderer.release()
        let outcome = await request.collect()
        #expect(outcome.results.isEmpty && outcome.error as? ImageRequestError == .cancelled)
    }

    @Test func preheatedImagesAreHits() async throws {
        let fixture = try PipelineFixture()
        var assets: [Asset] = []
        for index in 0..<6 { assets.append(try await fixture.photo("p\(index).jpg")) }
        fixture.manager.startCaching(assets: assets, targetSize: grid, contentMode: .aspectFill)
        try await eventually { fixture.manager.preheatingCount == 0 }
        let decodes = fixture.renderer.decodeCount
        #expect(decodes == 6)
        for asset in assets {
            let results = await fixture.manager.requestImage(for: asset, targetSize: grid, contentMode: .aspectFill)
                .collect().results
            #expect(results.map(\.source) == [.memory])
        }
        #expect(fixture.renderer.decodeCount == decodes)
    }

    @Test func stopCachingCancelsPreheatNotStarted() async throws {
        let fixture = try PipelineFixture(workers: 1)
        var assets: [Asset] = []
        for index in 0..<10 { assets.append(try await fixture.photo("p\(index).jpg")) }
        let before = fixture.renderer.decodeCount
        let pool = fixture.renderer.pool
        let held = try await HeldThread(pool)
        fixture.manager.startCaching(assets: assets, targetSize: grid, contentMode: .aspectFill)
        try await eventually { pool.waitingCount(at: .preheat) == 10 }
        fixture.manager.stopCaching(assets: assets, targetSize: grid, contentMode: .aspectFill)
        try await held.release()
        try await eventually(seconds: 1) { false }
        #expect(fixture.renderer.decodeCount == before, "no preheat render ran")
        #expect(fixture.manager.preheatingCount == 0)
    }

    @Test func aDisplayRequestRaisesThePreheatItJoins() async throws {
        let fixture = try PipelineFixture(workers: 1)
        var assets: [Asset] = []
        for index in 0..<4 { assets.append(try await fixture.photo("p\(index).jpg")) }
        let order = Locked<[String]>([])
        let manager = CachingImageManager(renderer: fixture.renderer, store: fixture.store) { event in
            order.withLock { $0.append(event.assetID) }
        }
        // The one render thread is held until every request is queued where the test says.
        let pool = fixture.renderer.pool
        let held = try await HeldThread(pool)
        manager.startCaching(assets: assets, targetSize: grid, contentMode: .aspectFill)
        try await eventually { pool.waitingCount(at: .preheat) == 4 }
        let shown = manager.requestImage(
            for: assets[3], targetSize: grid, contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat))
        try await eventually { pool.waitingCount(at: .interactive) == 1 }
        #expect(pool.waitingCount(at: .preheat) == 3)
        try await held.release()
        #expect(await shown.collect().results.map(\.source) == [.rendered])
        try await eventually { manager.preheatingCount == 0 }
        // Each preheat is a task of its own, so the three left reach the queue in no set order.
        #expect(
            order.value.first == assets[3].id, "the cell on screen was rendered before the preheats queued ahead of it")
        #expect(Set(order.value.dropFirst()) == Set(assets.prefix(3).map(\.id)) && order.value.count == 4)
    }

    @Test func fileDataAndSizes() async throws {
        let fixture = try PipelineFixture()
        let bytes = try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg, orientation: 6)
        let asset = try await fixture.asset("o.jpg", bytes)
        let data = try fixture.manager.requestImageData(for: asset)
        #expect(Array(data.bytes) == bytes && data.orientation == 6 && data.mediaType == .jpeg)
        #expect(data.fingerprint == asset.fingerprint)
        #expect(try fixture.manager.totalFileSize(of: [asset]) == UInt64(bytes.count))
    }
}

/// The fixture's real renderer, with every finished render kept from its caller until
/// ``release()``: a test acts while a render is surely under way, however slow the machine.
private final class HeldRenderer: ThumbnailRendering {
    let renderer: ThumbnailRenderer
    private let gate = Locked<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init(_ renderer: ThumbnailRenderer) { self.renderer = renderer }

    var workers: Int { renderer.workers }

    func inspect(_ location: ImageLocation) async throws -> Inspection { try await renderer.inspect(location) }

    func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
        try renderer.placeholder(of: thumbnail)
    }

    /// Renders done and waiting for ``release()``.
    var heldRenders: Int { gate.value.waiting.count }

    func release() {
        let waiting = gate.withLock { gate in
            gate.released = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func render(_ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket) async throws -> [Thumbnail] {
        let thumbnails = try await renderer.render(location, specs: specs, ticket: ticket)
        await withCheckedContinuation { continuation in
            let released = gate.withLock { gate in
                if !gate.released { gate.waiting.append(continuation) }
                return gate.released
            }
            if released { continuation.resume() }
        }
        return thumbnails
    }

    func render(_ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority)
        async throws
        -> Thumbnail
    {
        try await renderer.render(location, spec: spec, crop: crop, priority: priority)
    }

    func embeddedPreview(_ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority)
        async throws
        -> Thumbnail?
    {
        try await renderer.embeddedPreview(location, format: format, quality: quality, priority: priority)
    }
}
