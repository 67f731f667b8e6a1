import Foundation
import Synchronization

/// Thumbnails on request, as Apple's `PHCachingImageManager`: from memory, from the store, or
/// rendered, degraded first then final ("opportunistic delivery"), with preheating for what is
/// about to be shown.
///
/// ```swift
/// let manager = CachingImageManager(renderer: renderer, store: store)
/// let request = manager.requestImage(for: asset, targetSize: PixelSize(width: 256, height: 256),
///                                    contentMode: .aspectFill)
/// for try await result in request { show(result.bytes, degraded: result.isDegraded) }
/// ```
/// Identical requests in flight share one render; a request cancelled before its render starts
/// costs nothing; at most ``ImagingConfiguration/renderThreads`` full decodes run at once.
public final class CachingImageManager: Sendable {
    public let configuration: PipelineConfiguration
    let renderer: ThumbnailRenderer
    let store: ThumbnailStore
    let memory: MemoryCache
    let coordinator = RenderCoordinator()
    let preheating = Mutex<[ThumbnailKey: Preheat]>([:])
    let onRender: RenderEventHandler?
    private let nextRequestID = Atomic<UInt64>(0)

    /// `onRender`, if given, hears the outcome of every final render (see ``RenderEvent``).
    public init(renderer: ThumbnailRenderer, store: ThumbnailStore, configuration: PipelineConfiguration = .init(),
                onRender: RenderEventHandler? = nil) {
        self.renderer = renderer
        self.store = store
        self.configuration = configuration
        self.onRender = onRender
        memory = MemoryCache(costLimit: Int(configuration.memoryCostLimit.bytes))
    }

    /// Final renders running or queued now, shared ones counted once.
    public var rendersInFlight: Int { coordinator.inFlight }

    /// The cache key of a request: the same for display requests and preheating.
    public func key(for asset: Asset, targetSize: PixelSize, contentMode: ContentMode,
                    options: ImageRequestOptions = .init()) -> ThumbnailKey {
        ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: spec(targetSize, contentMode, options))
    }

    func spec(_ targetSize: PixelSize, _ contentMode: ContentMode, _ options: ImageRequestOptions) -> RenditionSpec {
        RenditionSpec(size: targetSize, contentMode: contentMode, format: options.format ?? configuration.format,
                      quality: options.quality ?? configuration.quality)
    }

    /// Requests an image of `asset` for a `targetSize` box; see ``DeliveryMode`` for what comes.
    public func requestImage(
        for asset: Asset, targetSize: PixelSize, contentMode: ContentMode, options: ImageRequestOptions = .init()
    ) -> ImageRequest {
        let id = nextRequestID.add(1, ordering: .relaxed).newValue
        let (results, continuation) = AsyncThrowingStream.makeStream(of: ImageResult.self)
        let work = Task { [self] in
            do {
                try await deliver(asset: asset, spec: spec(targetSize, contentMode, options), options: options,
                                  requestID: id, to: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { work.cancel() }
        }
        return ImageRequest(id: id, results: results, work: work)
    }

    /// The original file's bytes and its EXIF orientation, as `requestImageData`.
    public func requestImageData(for asset: Asset) async throws -> (bytes: [UInt8], orientation: Int?) {
        let path = asset.path
        let bytes = try await renderer.pool.run { () throws -> [UInt8] in
            do {
                return Array(try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
            } catch {
                throw ImagingError.unreadable(error.localizedDescription)
            }
        }
        return (bytes, asset.properties?.exifOrientation)
    }

    /// Bytes of the assets' files, from the metadata cache where it knows them (the seeds'
    /// `fileSizeDict`), else from the sizes the assets were enumerated with.
    public func totalFileSize(of assets: [Asset]) throws -> UInt64 {
        let known = try store.totalFileSize(of: assets.map(\.id))
        let unknown = Set(known.unknown)
        return known.bytes + assets.filter { unknown.contains($0.id) }.reduce(0) { $0 + $1.fileSize }
    }
}
