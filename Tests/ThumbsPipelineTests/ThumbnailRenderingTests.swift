import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
@testable import ThumbsPipeline
import ThumbsRendering
import ThumbsStore
import ThumbsSupport
import ThumbsTesting

/// The manager over a renderer that decodes nothing (ThumbsTesting's), as an app's tests use it.
@Suite struct ThumbnailRenderingTests {
    let folder = TemporaryFolder()
    let grid = PixelSize(width: 256, height: 256)
    let asset = Asset(
        root: "/nowhere", relativePath: "a.jpg", mediaType: .jpeg,
        fingerprint: FileFingerprint(size: 10, modificationTimeNanoseconds: 1))

    private func manager(_ renderer: InMemoryRenderer) throws -> CachingImageManager {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        return CachingImageManager(renderer: renderer, store: store)
    }

    @Test func aManagerRunsOnAnyRenderer() async throws {
        let renderer = InMemoryRenderer()
        let manager = try manager(renderer)
        let image = try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill)
        #expect(image.bytes == Array("/nowhere/a.jpg".utf8) && !image.isDegraded && image.source == .rendered)
        let again = try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill)
        #expect(again.source == .memory && renderer.renders == 1)
    }

    @Test func theOneShotRequestThrowsTypedErrors() async throws {
        let renderer = InMemoryRenderer()
        renderer.failure = .corrupt("bad data")
        let manager = try manager(renderer)
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
        let renderer = InMemoryRenderer()
        renderer.holdsRenders = true
        let manager = try manager(renderer)
        let asset = asset, grid = grid
        let task = Task { try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill) }
        try await eventually { renderer.renders == 1 }
        task.cancel()
        await #expect(throws: ImageRequestError.cancelled) { _ = try await task.value }
    }
}
