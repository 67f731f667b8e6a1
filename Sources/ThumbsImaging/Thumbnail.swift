/// An encoded thumbnail.
public struct Thumbnail: Sendable, Hashable {
    /// The encoded file (JPEG, WebP or PNG), without metadata.
    public var bytes: [UInt8]
    public var pixelSize: PixelSize
    public var format: ThumbnailFormat

    public init(bytes: [UInt8], pixelSize: PixelSize, format: ThumbnailFormat) {
        self.bytes = bytes
        self.pixelSize = pixelSize
        self.format = format
    }
}
