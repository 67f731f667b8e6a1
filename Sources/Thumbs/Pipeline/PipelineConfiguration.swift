/// Settings of a ``CachingImageManager``.
public struct PipelineConfiguration: Sendable, Hashable {
    /// Bytes of encoded thumbnails kept in memory. Default: 64 MiB.
    public var memoryCostLimit: ByteCount
    /// Format of requested images unless a request says otherwise. Default: JPEG.
    public var format: ThumbnailFormat
    /// Quality of requested images unless a request says otherwise. Default: 82.
    public var quality: Int

    public init(memoryCostLimit: ByteCount = ByteCount(64 << 20), format: ThumbnailFormat = .jpeg, quality: Int = 82) {
        self.memoryCostLimit = memoryCostLimit
        self.format = format
        self.quality = quality
    }
}
