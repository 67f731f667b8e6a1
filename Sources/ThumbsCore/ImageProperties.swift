import ThumbsSupport

/// What a probe learns about an image, a camera RAW file or a video from its header, without
/// decoding its pixels.
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
    /// thumbnail, a camera RAW's largest preview), upright, when there is one.
    public var embeddedPreviewSize: PixelSize?
    /// Frames or pages (animated GIF and WebP, multi-page TIFF); thumbnails show the first.
    public var pageCount: Int
    /// The file's size and modification time when it was probed.
    public var fingerprint: FileFingerprint
    /// What only a video has (nil for photos): codec, duration, frame rate, sound.
    public var video: VideoProperties?
    /// Apple's content identifier, which ties a Live Photo's still (its MakerNote) to its movie
    /// (`com.apple.quicktime.content.identifier`); nil when the file has none.
    public var contentIdentifier: String?
    /// The movie a motion photo carries after its picture; nil for any other file.
    public var embeddedMovie: EmbeddedMovie?
    /// What the file itself says of its kind (a screenshot, slow motion, a portrait…). An
    /// asset adds what takes more than its file (a Live Photo's pair) or a rule (a panorama's
    /// shape): see `Asset.mediaSubtypes`.
    public var mediaSubtypes: MediaSubtypes = []
    /// The burst the photo is a frame of; nil for most photos.
    public var burst: BurstMembership?

    public init(
        mediaType: MediaType, pixelSize: PixelSize, exifOrientation: Int? = nil,
        captureDate: CaptureDate? = nil, cameraMake: String? = nil,
        cameraModel: String? = nil, embeddedPreviewSize: PixelSize? = nil,
        pageCount: Int = 1, fingerprint: FileFingerprint, video: VideoProperties? = nil
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
        self.video = video
    }

    /// Whether a picture cheaper than the full render exists for opportunistic delivery: the
    /// embedded preview of a photo or RAW file, a video's cover or first keyframe.
    public var hasCheapPicture: Bool { embeddedPreviewSize != nil || video != nil }
}

/// What a video's container says beyond a photo's properties.
public struct VideoProperties: Sendable, Hashable, Codable {
    /// The container as FFmpeg names it ("mov", "matroska", "avi"…).
    public var container: String
    /// The video codec as FFmpeg names it ("h264", "hevc", "vp9", "mjpeg"…).
    public var codec: String
    /// Seconds, when the container says.
    public var duration: Double?
    /// Frames per second, when the container says.
    public var frameRate: Double?
    public var hasAudio: Bool

    public init(container: String, codec: String, duration: Double?, frameRate: Double?, hasAudio: Bool) {
        self.container = container
        self.codec = codec
        self.duration = duration
        self.frameRate = frameRate
        self.hasAudio = hasAudio
    }
}
