import ThumbsCore
import ThumbsRendering
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
    /// Delivery mode of requests unless a request says otherwise. Default:
    /// ``defaultDeliveryMode``.
    public var deliveryMode: DeliveryMode
    /// Format of requested images unless a request says otherwise. Default: JPEG.
    public var format: ThumbnailFormat
    /// Quality of requested images unless a request says otherwise. Default:
    /// ``/ThumbsCore/RenditionSpec/defaultQuality``.
    public var quality: Int
    /// The configured renditions (a warm's ladder). A request by size and content mode that
    /// matches one of them, and names neither a format nor a quality of its own, is that
    /// rendition, with its format and quality: it finds what a warm stored for it rather than
    /// rendering the same box again at the default quality. `ThumbsConfiguration` sets it to its
    /// renditions. Default: none.
    public var renditions: [RenditionSpec] = []

    /// ``DeliveryMode/opportunistic``: a degraded image first when a cheap one exists.
    public static let defaultDeliveryMode = DeliveryMode.opportunistic

    public init(
        memoryCostLimit: ByteCount = ByteCount(64 << 20), deliveryMode: DeliveryMode = defaultDeliveryMode,
        format: ThumbnailFormat = .jpeg, quality: Int = RenditionSpec.defaultQuality
    ) {
        self.memoryCostLimit = memoryCostLimit
        self.deliveryMode = deliveryMode
        self.format = format
        self.quality = quality
    }
}
