import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

extension CachingImageManager {
    /// The steps of one request: a final image if one is cached; else the failure remembered for
    /// the file as it is now, if any; else, unless high quality only, a degraded one; then the
    /// final render (shared with identical requests, then stored, or its failure remembered).
    func deliver(
        asset: Asset, spec: RenditionSpec, options: ImageRequestOptions, requestID: UInt64,
        to continuation: AsyncThrowingStream<ImageResult, any Error>.Continuation
    ) async throws {
        func send(_ thumbnail: Thumbnail, degraded: Bool, _ source: ImageResult.Source) {
            continuation.yield(ImageResult(thumbnail, isDegraded: degraded, source: source, requestID: requestID))
        }
        if let crop = options.normalizedCropRect {
            send(
                try await renderer.render(asset.location, spec: spec, crop: crop, priority: .interactive),
                degraded: false, .rendered)
            return
        }
        let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: spec)
        if let (thumbnail, source) = try cachedFinal(for: key, options: options) {
            send(thumbnail, degraded: false, source)
            return
        }
        try Task.checkCancellation()
        // Before the stand-in: a file that failed is not opened again, not even for its preview.
        if let failure = try failures.failure(of: asset) { throw ImageRequestError.failedBefore(failure) }
        let mode = options.deliveryMode ?? configuration.deliveryMode
        if mode != .highQualityFormat, let (degraded, source) = try await degraded(for: key, asset: asset, spec: spec) {
            send(degraded, degraded: true, source)
            if mode == .fastFormat { return }
        }
        send(try await final(for: key, asset: asset, priority: .interactive), degraded: false, .rendered)
    }

    /// The final image from memory or the store, if there: exactly `key`'s, or (resize mode
    /// `.fast`) any rendition of the same file covering the box.
    func cachedFinal(for key: ThumbnailKey, options: ImageRequestOptions) throws -> (Thumbnail, ImageResult.Source)? {
        if let hit = memory.thumbnail(for: key) { return (hit, .memory) }
        if let stored = try store.thumbnail(for: key) {
            memory.insert(stored.thumbnail, for: key)
            return (stored.thumbnail, .store)
        }
        guard options.resizeMode == .fast, key.rendition.contentMode == .aspectFit else { return nil }
        // A larger whole-picture rendition may stand for a fit request (never a fill one: it is
        // cropped to another shape).
        if let larger = memory.closest(to: key, size: key.rendition.size, atLeast: true, servingFinal: true) {
            return (larger.thumbnail, .memory)
        }
        if let larger = try store.closestThumbnail(to: key, size: key.rendition.size, atLeast: true, servingFinal: true)
        {
            return (larger.thumbnail, .store)
        }
        return nil
    }

    /// A cheap stand-in, cheapest source first: memory, the store, the file's embedded preview
    /// (a video's cover or first keyframe).
    func degraded(for key: ThumbnailKey, asset: Asset, spec: RenditionSpec) async throws -> (
        Thumbnail, ImageResult.Source
    )? {
        if let near = memory.closest(to: key, size: spec.size, atLeast: false) { return (near.thumbnail, .memory) }
        if let near = try store.closestThumbnail(to: key, size: spec.size, atLeast: false) {
            return (near.thumbnail, .store)
        }
        guard asset.properties?.hasCheapPicture == true,
            let preview = try? await renderer.embeddedPreview(
                asset.location, format: spec.format, quality: spec.quality,
                priority: .immediate)
        else { return nil }
        return (preview, .embedded)
    }

    /// The final image for `key`: rendered once however many ask, then stored and kept in memory.
    func final(for key: ThumbnailKey, asset: Asset, priority: WorkPriority) async throws -> Thumbnail {
        try await coordinator.value(for: key, priority: priority) { [self] ticket in
            // A job that finished just before this one started may have left it in memory.
            if let done = memory.thumbnail(for: key) { return done }
            let thumbnail: Thumbnail
            do {
                thumbnail = try await renderer.render(asset.location, specs: [key.rendition], ticket: ticket)[0]
            } catch {
                report(key, ticket.priority, error is CancellationError ? .cancelled : .failed)
                if let error = error as? ImagingError { await remember(error, of: asset) }
                throw error
            }
            report(key, ticket.priority, .rendered)
            memory.insert(thumbnail, for: key)
            // Delivered before it is stored: the request does not wait for the commit.
            writeBehind.enqueue(.init(key: key, thumbnail: thumbnail))
            keepPlaceholder(of: asset, from: thumbnail)
            return thumbnail
        }
    }

    /// Makes the asset's placeholder from a thumbnail just rendered, when the metadata cache has
    /// a record of this version of the file without one. In the background: the request has its
    /// image already, and a placeholder lost (the process exits) is made by the next warm.
    private func keepPlaceholder(of asset: Asset, from thumbnail: Thumbnail) {
        guard asset.placeholder == nil, let metadata = try? store.metadata(for: asset.id),
            metadata.fingerprint == asset.fingerprint, metadata.placeholder == nil
        else { return }
        let store = store, renderer = renderer
        Task.detached(priority: .utility) {
            guard let placeholder = thumbnail.placeholder ?? (try? renderer.placeholder(of: thumbnail)) else { return }
            _ = try? await store.setPlaceholder(placeholder, for: asset.id, fingerprint: asset.fingerprint)
        }
    }

    /// Remembers a failed render in the failure memo (when its kind is one to remember), so that
    /// the next request for the file answers from there. Awaited, so that a request that follows
    /// this one's answer finds it. A record the store fails to keep costs the next request a
    /// decode, not this one its answer.
    private func remember(_ error: ImagingError, of asset: Asset) async {
        _ = try? await failures.remember(error, of: asset)
    }

    private func report(_ key: ThumbnailKey, _ priority: WorkPriority, _ outcome: RenderEvent.Outcome) {
        onRender?(RenderEvent(assetID: key.assetID, rendition: key.rendition, priority: priority, outcome: outcome))
    }
}
