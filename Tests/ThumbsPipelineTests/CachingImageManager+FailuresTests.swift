import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
@testable import ThumbsPipeline
import ThumbsStore
import ThumbsTesting

/// The manager and the failure memo: a request for a file that failed before is answered from
/// the memo, and a render that fails is remembered (over a renderer that decodes nothing, which
/// counts its renders).
@Suite struct CachingImageManagerFailuresTests {
    let folder = TemporaryFolder()
    let grid = PixelSize(width: 256, height: 256)
    /// Modified long ago: a failure of its content is remembered.
    let asset = Asset(
        root: "/nowhere", relativePath: "a.jpg", mediaType: .jpeg,
        fingerprint: FileFingerprint(size: 10, modificationTimeNanoseconds: 1))

    private func manager(_ renderer: InMemoryRenderer) throws -> CachingImageManager {
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        return CachingImageManager(renderer: renderer, store: store)
    }

    /// What a request for `asset` ends with: its images, or the request error.
    private func request(_ manager: CachingImageManager, _ asset: Asset) async -> Result<ImageResult, ImageRequestError>
    {
        do {
            return .success(try await manager.image(for: asset, targetSize: grid, contentMode: .aspectFill))
        } catch {
            return .failure(error)
        }
    }

    @Test func aFileRememberedAsFailedIsAnsweredFromTheMemoWithoutARender() async throws {
        let renderer = InMemoryRenderer()
        let manager = try manager(renderer)
        // The memo keeps whole seconds.
        let failure = FailureRecord(
            .tooManyPixels(width: 9000, height: 9000, limit: 1000), failedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
        try await FailureMemo(store: manager.store).remember(failure, of: asset)
        #expect(try manager.rememberedFailure(of: asset) == failure)
        // Every delivery mode, the opportunistic one's stand-in included, stops at the memo.
        for mode in [DeliveryMode.opportunistic, .highQualityFormat, .fastFormat] {
            let (results, error) = await manager.requestImage(
                for: asset, targetSize: grid, contentMode: .aspectFill, options: ImageRequestOptions(deliveryMode: mode)
            ).collect()
            #expect(results.isEmpty, "\(mode)")
            #expect(error as? ImageRequestError == .failedBefore(failure), "\(mode)")
        }
        #expect(renderer.renders == 0)
    }

    @Test func aFailedRenderIsRememberedAndNotDecodedAgain() async throws {
        let renderer = InMemoryRenderer()
        renderer.failure = .corrupt("bad data")
        let manager = try manager(renderer)
        #expect(await request(manager, asset) == .failure(.imaging(.corrupt("bad data"))))
        let remembered = try #require(try manager.rememberedFailure(of: asset))
        #expect(remembered.kind == .corrupt && remembered.message == "bad data")
        #expect(await request(manager, asset) == .failure(.failedBefore(remembered)))
        #expect(renderer.renders == 1)
    }

    @Test func aFailureOfTheMomentIsNotRemembered() async throws {
        let renderer = InMemoryRenderer()
        renderer.failure = .unreadable("EIO")
        let manager = try manager(renderer)
        #expect(await request(manager, asset) == .failure(.imaging(.unreadable("EIO"))))
        #expect(await request(manager, asset) == .failure(.imaging(.unreadable("EIO"))))
        #expect(try manager.rememberedFailure(of: asset) == nil)
        #expect(renderer.renders == 2)
    }

    @Test func aFileChangedSinceItsFailureIsRenderedAgain() async throws {
        let renderer = InMemoryRenderer()
        let manager = try manager(renderer)
        try await FailureMemo(store: manager.store).remember(.corrupt("bad data"), of: asset)
        let changed = Asset(
            root: asset.root, relativePath: asset.relativePath, mediaType: .jpeg,
            fingerprint: FileFingerprint(size: 11, modificationTimeNanoseconds: 2))
        let image = try await manager.image(for: changed, targetSize: grid, contentMode: .aspectFill)
        #expect(image.source == .rendered && renderer.renders == 1)
    }

    @Test func aFileRememberedAsFailedIsNotPreheated() async throws {
        let renderer = InMemoryRenderer()
        let manager = try manager(renderer)
        try await FailureMemo(store: manager.store).remember(.corrupt("bad data"), of: asset)
        manager.startCaching(assets: [asset], targetSize: grid, contentMode: .aspectFill)
        #expect(try await eventually { manager.preheatingCount == 0 })
        #expect(renderer.renders == 0)
    }
}
