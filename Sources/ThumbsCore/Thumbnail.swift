/// An encoded thumbnail.
///
/// Two thumbnails are equal when their encoded images are: the ``placeholder`` and
/// ``isPartial`` describe the picture and are left out of equality and hashing.
public struct Thumbnail: Sendable, Hashable {
    /// The encoded file (JPEG, WebP or PNG), without metadata.
    public var bytes: [UInt8]
    public var pixelSize: PixelSize
    public var format: ThumbnailFormat
    /// The placeholder of the picture, made by `ThumbnailRenderer` from its pixels before they
    /// were encoded, for the smallest thumbnail of each render; nil otherwise.
    public var placeholder: ThumbHash?
    /// Whether the picture shows only what decoded of a damaged file (its decode ended early:
    /// a truncated file, a bad restart marker), the rest filled by the decoder. Made only of a
    /// file unmodified for ``FileFingerprint/settlingTime``, not of one still being copied.
    public var isPartial = false

    public init(bytes: [UInt8], pixelSize: PixelSize, format: ThumbnailFormat) {
        self.bytes = bytes
        self.pixelSize = pixelSize
        self.format = format
    }

    public static func == (lhs: Thumbnail, rhs: Thumbnail) -> Bool {
        lhs.bytes == rhs.bytes && lhs.pixelSize == rhs.pixelSize && lhs.format == rhs.format
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
        hasher.combine(pixelSize)
        hasher.combine(format)
    }
}
