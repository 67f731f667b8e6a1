import ThumbsCore
import ThumbsRendering

/// Options of one request, as `PHImageRequestOptions`. What is left nil comes from the
/// manager's ``PipelineConfiguration``.
///
/// ```swift
/// let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
/// ```
public struct ImageRequestOptions: Sendable, Hashable {
    /// Overrides the manager's default delivery mode.
    public var deliveryMode: DeliveryMode?
    public var resizeMode: ResizeMode
    /// Overrides the manager's default format.
    public var format: ThumbnailFormat?
    /// Overrides the manager's default quality (1...100).
    public var quality: Int?
    /// Only this part of the picture (fractions of the upright image). Cropped requests are
    /// rendered each time, not cached.
    public var normalizedCropRect: NormalizedRect?

    public init(
        deliveryMode: DeliveryMode? = nil, resizeMode: ResizeMode = .fast,
        format: ThumbnailFormat? = nil, quality: Int? = nil, normalizedCropRect: NormalizedRect? = nil
    ) {
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.format = format
        self.quality = quality
        self.normalizedCropRect = normalizedCropRect
    }
}
