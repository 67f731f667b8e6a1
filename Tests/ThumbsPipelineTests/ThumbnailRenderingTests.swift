import Foundation
import Synchronization
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

/// A renderer that decodes nothing: what an app gives `CachingImageManager` to test its own code
/// without libvips.
private final class ScriptedRenderer: ThumbnailRendering {
    let renders = Atomic<Int>(0)
    let failure: ImagingError?
    /// Whether a render waits until it is cancelled, as a long decode would.
    let hangs: Bool

    init(failing failure: ImagingError? = nil, hangs: Bool = false) {
        self.failure = failure
        self.hangs = hangs
    }

    var workers: Int { 1 }

    func render(_ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket) async throws -> [Thumbnail] {
        renders.add(1, ordering: .relaxed)
        if hangs { try await Task.sleep(for: .seconds(600)) }
        if let failure { throw failure }
        return specs.map { Thumbnail(bytes: Array(location.description.utf8), pixelSize: $0.size, format: $0.format) }
    }

    func render(_ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority)
        async throws
        -> Thumbnail
    {
        try await render(location, specs: [spec], ticket: PriorityTicket(priority))[0]
    }

    func embeddedPreview(_ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority)
        async throws
        -> Thumbnail?
    {
        nil
    }

    func inspect(_ location: ImageLocation) async throws -> Inspection {
        throw failure ?? .unsupportedFormat("a scripted renderer inspects nothing")
    }

    func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
        throw .unsupportedFormat("a scripted renderer's thumbnails are no images")
    }
}

@Suite struct ThumbnailRenderingTests {
    let folder = TemporaryFolder()
    let grid = PixelSize(width: 256, height: 256)
    let asset = Asset(
        root: "/nowhere", relativePath: "a.jpg", mediaType: .jpeg,
        fingerprint: FileFingerprint(size: 10, modificationTimeNanoseconds: 1))

    private func manager(_ renderer: ScriptedRenderer) throws -> CachingImageManager {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        return CachingImageManager(renderer: renderer, store: store)
    }

    @Test func aManagerRunsOnAnyRenderer() async throws {
        let renderer = ScriptedRenderer()
        let manager = try manager(renderer)
        let image = try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill)
        #expect(image.bytes == Array("/nowhere/a.jpg".utf8) && !image.isDegraded && image.source == .rendered)
        let again = try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill)
        #expect(again.source == .memory && renderer.renders.load(ordering: .relaxed) == 1)
    }

    @Test func theOneShotRequestThrowsTypedErrors() async throws {
        let manager = try manager(ScriptedRenderer(failing: .corrupt("bad data")))
        do {
            _ = try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill)
            Issue.record("a corrupt file gave an image")
        } catch .imaging(let error) {
            #expect(error == .corrupt("bad data"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cancellingTheCallerCancelsTheOneShotRequest() async throws {
        let renderer = ScriptedRenderer(hangs: true)
        let manager = try manager(renderer)
        let asset = asset, grid = grid
        let task = Task { try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill) }
        try await eventually { renderer.renders.load(ordering: .relaxed) == 1 }
        task.cancel()
        await #expect(throws: ImageRequestError.cancelled) { _ = try await task.value }
    }
}
