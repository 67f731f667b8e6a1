import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

extension CachingImageManager {
    /// Prepares images of `assets` for the same arguments a display request will use, at low
    /// priority, into the store and the memory tier (as `startCachingImages`).
    public func startCaching(
        assets: [Asset], targetSize: PixelSize, contentMode: ContentMode,
        options: ImageRequestOptions = .init()
    ) {
        startCaching(assets: assets, rendition: spec(targetSize, contentMode, options))
    }

    /// Prepares images of `assets` for exactly `rendition`, as
    /// ``startCaching(assets:targetSize:contentMode:options:)``; a file the failure memo
    /// remembers as failed is not rendered again.
    public func startCaching(assets: [Asset], rendition spec: RenditionSpec) {
        for asset in assets {
            let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: spec)
            guard !memory.contains(key) else { continue }
            preheating.withLock { tasks in
                guard tasks[key] == nil else { return }
                let token = UUID()
                let task = Task { [self] in
                    if (try? cachedFinal(for: key, options: ImageRequestOptions(resizeMode: .exact))) == nil,
                        (try? failures.failure(of: asset)) == nil
                    {
                        _ = try? await final(for: key, asset: asset, priority: .preheat)
                    }
                    // Only this task's own entry: a later startCaching may have replaced it.
                    preheating.withLock { tasks in if tasks[key]?.token == token { tasks[key] = nil } }
                }
                tasks[key] = Preheat(token: token, task: task)
            }
        }
    }

    /// Stops preheating `assets` for these arguments: work not started yet never runs (as
    /// `stopCachingImages`).
    public func stopCaching(
        assets: [Asset], targetSize: PixelSize, contentMode: ContentMode,
        options: ImageRequestOptions = .init()
    ) {
        stopCaching(assets: assets, rendition: spec(targetSize, contentMode, options))
    }

    /// Stops preheating `assets` for exactly `rendition`, as
    /// ``stopCaching(assets:targetSize:contentMode:options:)``.
    public func stopCaching(assets: [Asset], rendition spec: RenditionSpec) {
        let stopped = preheating.withLock { tasks in
            assets.compactMap {
                tasks.removeValue(forKey: ThumbnailKey(assetID: $0.id, fingerprint: $0.fingerprint, rendition: spec))
            }
        }
        for preheat in stopped { preheat.task.cancel() }
    }

    /// Stops all preheating (as `stopCachingImagesForAllAssets`).
    public func stopCachingForAllAssets() {
        let stopped = preheating.withLock { tasks in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        for preheat in stopped { preheat.task.cancel() }
    }

    /// Preheat tasks not finished yet (for benchmarks and tests).
    package var preheatingCount: Int { preheating.withLock { $0.count } }
}
