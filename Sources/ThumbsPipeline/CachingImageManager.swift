import Foundation
import Synchronization
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// Thumbnails on request, as Apple's `PHCachingImageManager`: from memory, from the store, or
/// rendered, degraded first then final ("opportunistic delivery"), with preheating for what is
/// about to be shown.
///
/// ```swift
/// let manager = CachingImageManager(renderer: ThumbnailRenderer(), store: store)
/// let task = manager.requestImage(for: asset, targetSize: PixelSize(width: 256, height: 256),
///                                 contentMode: .aspectFill)
/// for try await result in task { show(result.bytes, degraded: result.isDegraded) }
///
/// // Or only the final image, in one call:
/// let image = try await manager.image(for: asset, targetSize: PixelSize(width: 256, height: 256),
///                                     contentMode: .aspectFill)
/// ```
/// Identical requests in flight share one render; a request cancelled before its render starts
/// costs nothing; at most the renderer's ``/ThumbsRendering/ThumbnailRendering/workers`` full decodes run at once.
public final class CachingImageManager: Sendable {
    public let configuration: PipelineConfiguration
    let renderer: any ThumbnailRendering
    let store: ThumbnailStore
    let memory: MemoryCache
    let coordinator = RenderCoordinator()
    let preheating = LockedValue<[ThumbnailKey: Preheat]>([:])
    let writeBehind: StoreWriteBehind
    let onRender: RenderEventHandler?
    private let nextRequestID = Atomic<UInt64>(0)

    /// `renderer` is usually a `ThumbnailRenderer` (ThumbsImaging); `onRender`, if given, hears the outcome of
    /// every final render (see ``RenderEvent``).
    public init(
        renderer: any ThumbnailRendering, store: ThumbnailStore,
        configuration: PipelineConfiguration = .init(), onRender: RenderEventHandler? = nil
    ) {
        self.renderer = renderer
        self.store = store
        self.configuration = configuration
        self.onRender = onRender
        writeBehind = StoreWriteBehind(store: store)
        memory = MemoryCache(costLimit: Int(configuration.memoryCostLimit.bytes))
    }

    /// Returns once every image rendered so far is in the store. Rendered images are delivered
    /// first and written after, so call this before the process exits, or before reading the
    /// store for what was just delivered.
    public func persisted() async {
        await writeBehind.flushed()
    }

    /// Final renders running or queued now, shared ones counted once (for benchmarks and tests).
    package var rendersInFlight: Int { coordinator.inFlight }

    /// The cache key of a request: the same for display requests and preheating.
    public func key(
        for asset: Asset, targetSize: PixelSize, contentMode: ContentMode,
        options: ImageRequestOptions = .init()
    ) -> ThumbnailKey {
        ThumbnailKey(
            assetID: asset.id, fingerprint: asset.fingerprint, rendition: spec(targetSize, contentMode, options))
    }

    /// What a request for a `targetSize` box asks for: the configured rendition of that box and
    /// mode when `options` name no format or quality (``PipelineConfiguration/renditions``),
    /// else the box with `options`' format and quality, or the configuration's.
    func spec(_ targetSize: PixelSize, _ contentMode: ContentMode, _ options: ImageRequestOptions) -> RenditionSpec {
        let requested = RenditionSpec(
            size: targetSize, contentMode: contentMode, format: options.format ?? configuration.format,
            quality: options.quality ?? configuration.quality)
        guard options.format == nil, options.quality == nil,
            let rendition = configuration.renditions.first(where: {
                $0.size == requested.size && $0.contentMode == contentMode
            })
        else { return requested }
        return rendition
    }

    /// Requests an image of `asset` for a `targetSize` box, as `requestImage(for:targetSize:
    /// contentMode:options:resultHandler:)`; see ``DeliveryMode`` for what comes. The task's
    /// sequence throws ``ImageRequestError``.
    public func requestImage(
        for asset: Asset, targetSize: PixelSize, contentMode: ContentMode, options: ImageRequestOptions = .init()
    ) -> ImageTask {
        requestImage(for: asset, rendition: spec(targetSize, contentMode, options), options: options)
    }

    /// Requests an image of `asset` for exactly `rendition` (a rendition of the configured
    /// ladder, say, so that what `warm` stored is what is found); `options`' format and quality
    /// are not used.
    public func requestImage(
        for asset: Asset, rendition: RenditionSpec, options: ImageRequestOptions = .init()
    ) -> ImageTask {
        let id = nextRequestID.add(1, ordering: .relaxed).newValue
        let (results, continuation) = AsyncThrowingStream.makeStream(of: ImageResult.self)
        let work = Task { [self] in
            do {
                try await deliver(asset: asset, spec: rendition, options: options, requestID: id, to: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: ImageRequestError(error))
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { work.cancel() }
        }
        return ImageTask(id: id, results: results, work: work)
    }

    /// The final image of `asset` for a `targetSize` box, in one call: what the last result of
    /// ``requestImage(for:targetSize:contentMode:options:)`` would be. With the fast delivery
    /// mode, the one image that mode gives, degraded or not. Cancelling the calling task cancels
    /// the request.
    public func image(
        for asset: Asset, targetSize: PixelSize, contentMode: ContentMode, options: ImageRequestOptions = .init()
    ) async throws(ImageRequestError) -> ImageResult {
        try await image(for: asset, rendition: spec(targetSize, contentMode, options), options: options)
    }

    /// The final image of `asset` for exactly `rendition`, in one call, as
    /// ``image(for:targetSize:contentMode:options:)``.
    public func image(
        for asset: Asset, rendition: RenditionSpec, options: ImageRequestOptions = .init()
    ) async throws(ImageRequestError) -> ImageResult {
        let task = requestImage(for: asset, rendition: rendition, options: options)
        do {
            return try await withTaskCancellationHandler {
                var last: ImageResult?
                for try await result in task { last = result }
                guard let last else { throw ImageRequestError.cancelled }
                return last
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw ImageRequestError(error)
        }
    }

    /// The final image of `asset` for exactly `rendition` if memory or the store has it, at once
    /// and without rendering (as a synchronous request that allows no network access would);
    /// nil when neither has it. What a server answers a cache hit with, without a task.
    public func cachedImage(for asset: Asset, rendition: RenditionSpec) throws(ImageRequestError) -> ImageResult? {
        let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: rendition)
        do {
            guard let (thumbnail, source) = try cachedFinal(for: key, options: ImageRequestOptions(resizeMode: .exact))
            else { return nil }
            return ImageResult(
                thumbnail, isDegraded: false, source: source,
                requestID: nextRequestID.add(1, ordering: .relaxed).newValue)
        } catch {
            throw ImageRequestError(error)
        }
    }

    /// The final thumbnail of `asset` for exactly `rendition` if the memory tier holds it; nil
    /// otherwise. No I/O and no wait beyond the memory cache's lock: what an event loop may ask
    /// before handing a request to a task.
    public func memoryThumbnail(for asset: Asset, rendition: RenditionSpec) -> Thumbnail? {
        memory.thumbnail(for: ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: rendition))
    }

    /// The original file of `asset`, mapped into memory, with its EXIF orientation, as
    /// `requestImageData`.
    public func requestImageData(for asset: Asset) throws(ImagingError) -> ImageData {
        let (bytes, fingerprint) = try asset.location.mappedContents()
        return ImageData(
            bytes: bytes, mediaType: asset.mediaType, orientation: asset.properties?.exifOrientation,
            fingerprint: fingerprint)
    }

    /// Bytes of the assets' files, from the metadata cache where it knows them (what a
    /// photo picker keeps as a file-size dictionary), else from the sizes the assets were enumerated with.
    public func totalFileSize(of assets: [Asset]) throws(StoreError) -> UInt64 {
        let files = assets.flatMap(\.storedFiles)
        let known = try store.totalFileSize(of: files.map(\.id))
        let unknown = Set(known.unknownAssetIDs)
        return known.bytes + files.filter { unknown.contains($0.id) }.reduce(0) { $0 + $1.size }
    }
}
