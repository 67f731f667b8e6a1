import ThumbsCore
import ThumbsImaging
import ThumbsStore

/// Settings of a ``CachingImageManager``, with what each request leaves unsaid.
///
/// ```swift
/// let manager = CachingImageManager(renderer: renderer, store: store,
///                                   configuration: PipelineConfiguration(deliveryMode: .highQualityFormat))
/// ```
public struct PipelineConfiguration: Sendable, Hashable {
    /// Bytes of encoded thumbnails kept in memory. Default: 64 MiB.
    public var memoryCostLimit: ByteCount
    /// Delivery mode of requests unless a request says otherwise. Default: opportunistic.
    public var deliveryMode: DeliveryMode
    /// Format of requested images unless a request says otherwise. Default: JPEG.
    public var format: ThumbnailFormat
    /// Quality of requested images unless a request says otherwise. Default: 82.
    public var quality: Int

    public init(
        memoryCostLimit: ByteCount = ByteCount(64 << 20), deliveryMode: DeliveryMode = .opportunistic,
        format: ThumbnailFormat = .jpeg, quality: Int = 82
    ) {
        self.memoryCostLimit = memoryCostLimit
        self.deliveryMode = deliveryMode
        self.format = format
        self.quality = quality
    }
}
