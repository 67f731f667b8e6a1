import ThumbsSupport

/// What a probe learns about an image from its header, without decoding its pixels.
public struct ImageProperties: Sendable, Hashable, Codable {
    /// The format, from the file's content.
    public var mediaType: MediaType
    /// The size as displayed: orientation (EXIF or HEIF rotation) already applied.
    public var pixelSize: PixelSize
    /// The EXIF orientation tag as written in the file (1...8), when present. For HEIF the
    /// container's own rotation is what counts and is already part of ``pixelSize``.
    public var exifOrientation: Int?
    /// EXIF DateTimeOriginal, with its offset when recorded.
    public var captureDate: CaptureDate?
    public var cameraMake: String?
    public var cameraModel: String?
    /// The size of the preview image stored inside the file (JPEG EXIF thumbnail, HEIF
    /// thumbnail), upright, when there is one.
    public var embeddedPreviewSize: PixelSize?
    /// Frames or pages (animated GIF and WebP, multi-page TIFF); thumbnails show the first.
    public var pageCount: Int
    /// The file's size and modification time when it was probed.
    public var fingerprint: FileFingerprint

    public init(
        mediaType: MediaType, pixelSize: PixelSize, exifOrientation: Int? = nil,
        captureDate: CaptureDate? = nil, cameraMake: String? = nil,
        cameraModel: String? = nil, embeddedPreviewSize: PixelSize? = nil,
        pageCount: Int = 1, fingerprint: FileFingerprint
    ) {
        self.mediaType = mediaType
        self.pixelSize = pixelSize
        self.exifOrientation = exifOrientation
        self.captureDate = captureDate
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.embeddedPreviewSize = embeddedPreviewSize
        self.pageCount = pageCount
        self.fingerprint = fingerprint
    }
}
