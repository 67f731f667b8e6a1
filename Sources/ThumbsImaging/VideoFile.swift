import CVideoShim
import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// A video opened for its poster frame: the container's header read by FFmpeg through the open
/// descriptor (never the path), checked against the pixel limit. No frame is decoded yet.
struct VideoFile {
    let source: ImageSource
    /// The frame as stored, before the display matrix's rotation.
    let storedSize: PixelSize
    /// Clockwise quarter turns that make the stored frame upright (0, 90, 180 or 270 degrees).
    let rotation: Int
    /// Whether the display matrix also mirrors the frame (after the turn, left to right).
    let isMirrored: Bool
    /// The ITU-T H.273 transfer characteristics the header states for the video stream: 16 (PQ),
    /// 18 (HLG), 1 (BT.709)...; 2 (unspecified) when it states none.
    let transferCharacteristics: Int
    let properties: ImageProperties
    private let pixelLimit: Int
    private let timeLimit: Duration

    init(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) {
        self.source = source
        self.timeLimit = timeLimit
        self.pixelLimit = pixelLimit
        try DecodingLibrary.ffmpeg.open()
        var info = thumbs_video_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_video_probe(source.descriptor, timeLimit.seconds, &info, &message, message.count)
        guard status == THUMBS_VIDEO_OK else {
            throw Self.error(status, message: String(cMessage: message), timeLimit: timeLimit)
        }
        // A stream cut short before its first frame's parameters reports 0x0 (codec "none").
        storedSize = try PixelSize.decoded(width: info.width, height: info.height, pixelLimit: pixelLimit)
        let rotation = (Int(info.rotation) % 360 + 360) % 360
        self.rotation = rotation
        isMirrored = info.mirrored != 0
        transferCharacteristics = Int(info.transfer)
        let upright = rotation % 180 == 0 ? storedSize : storedSize.transposed
        var properties = ImageProperties(
            mediaType: source.mediaType, pixelSize: upright,
            captureDate: CaptureDate(
                quickTimeCreationDate: String(fixedCString: info.creation_date),
                creationTime: String(fixedCString: info.creation_time)),
            fingerprint: source.fingerprint,
            video: VideoProperties(
                container: String(fixedCString: info.container) ?? "", codec: String(fixedCString: info.codec) ?? "",
                duration: info.duration >= 0 ? info.duration : nil,
                frameRate: info.frame_rate > 0 ? info.frame_rate : nil, hasAudio: info.has_audio != 0))
        properties.contentIdentifier = String(fixedCString: info.content_identifier)
        properties.mediaSubtypes = MediaSubtypes(
            videoFrameRate: properties.video?.frameRate,
            captureRate: String(fixedCString: info.capture_rate).flatMap { Double($0) })
        self.properties = properties
    }

    /// The poster frame, at least `covering` (upright) where the frame is that large, to be
    /// turned upright by libvips. `degraded` asks for the cheapest acceptable picture (the cover
    /// stored in the container, else the first keyframe) instead of a representative frame.
    func poster(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        let minimum = rotation % 180 == 0 ? covering : covering.transposed
        var frame = thumbs_video_frame()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_video_poster(
            source.descriptor, degraded ? 1 : 0, Int32(clamping: minimum.width), Int32(clamping: minimum.height),
            timeLimit.seconds, &frame, &message, message.count)
        defer { thumbs_video_frame_free(&frame) }
        guard status == THUMBS_VIDEO_OK else {
            throw Self.error(status, message: String(cMessage: message), timeLimit: timeLimit)
        }
        if let encoded = frame.encoded {
            // A cover picture: an image of its own, upright as stored.
            return DecodedPicture(
                content: .encoded(Array(UnsafeBufferPointer(start: encoded, count: frame.encoded_size))),
                orientation: 1)
        }
        guard let pixels = frame.pixels else { throw .corrupt("no frame") }
        let size = try PixelSize.decoded(width: frame.width, height: frame.height, pixelLimit: pixelLimit)
        return DecodedPicture(
            content: .rgb(Array(UnsafeBufferPointer(start: pixels, count: size.pixelCount * 3)), size),
            orientation: Self.exifOrientation(clockwise: rotation, mirrored: isMirrored))
    }

    /// Whether the poster frame may be HDR: the header states PQ or HLG, or no transfer at all
    /// (0, 2 and 3 are H.273's reserved and unspecified), which leaves it to the codec's headers
    /// and so to the decoded frame.
    var mayBeHDR: Bool { [0, 2, 3, 16, 18].contains(transferCharacteristics) }

    /// The light of the frame ``poster(covering:degraded:)`` gives for `covering` (not degraded):
    /// the same frame at the same size, found and decoded by the same steps under the same time
    /// limit, each value its luminance relative to SDR white before the tone map, turned upright
    /// as the poster is. Nil when the frame is SDR.
    func posterLight(covering: PixelSize) throws(ImagingError) -> GainPlane? {
        let minimum = rotation % 180 == 0 ? covering : covering.transposed
        var light = thumbs_light_plane()
        var message = [CChar](repeating: 0, count: 256)
        let status = thumbs_video_poster_light(
            source.descriptor, Int32(clamping: minimum.width), Int32(clamping: minimum.height), timeLimit.seconds,
            &light, &message, message.count)
        defer { free(light.luminance) }
        guard status == THUMBS_VIDEO_OK else {
            throw Self.error(status, message: String(cMessage: message), timeLimit: timeLimit)
        }
        guard let luminance = light.luminance else { return nil }
        let size = try PixelSize.decoded(width: light.width, height: light.height, pixelLimit: pixelLimit)
        guard
            let plane = GainPlane(
                size: size, channels: 1, values: Array(UnsafeBufferPointer(start: luminance, count: size.pixelCount)))
        else { throw .corrupt("no light") }
        return plane.upright(orientation: Self.exifOrientation(clockwise: rotation, mirrored: isMirrored))
    }

    /// The memory a poster of at least `covering` takes: the decoder's frames (YUV, a few
    /// references) at the stored size, and the RGB picture.
    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int {
        storedSize.pixelCount * 6 + covering.pixelCount * 3 * 2 + renditionPixels * 4
    }

    /// The EXIF orientation that turns a picture `degrees` clockwise, then mirrors it left to
    /// right when `mirrored`.
    static func exifOrientation(clockwise degrees: Int, mirrored: Bool) -> Int {
        switch (degrees, mirrored) {
        case (90, false): 6
        case (180, false): 3
        case (270, false): 8
        case (0, true): 2
        case (90, true): 5
        case (180, true): 4
        case (270, true): 7
        default: 1
        }
    }

    static func error(_ status: thumbs_video_status, message: String, timeLimit: Duration) -> ImagingError {
        switch status {
        case THUMBS_VIDEO_UNREADABLE: .unreadable(message)
        case THUMBS_VIDEO_NO_VIDEO_STREAM: .noVideoStream
        case THUMBS_VIDEO_DECODER_MISSING: .decoderMissing(message)
        case THUMBS_VIDEO_TIMED_OUT: .timedOut(timeLimit)
        case THUMBS_VIDEO_NO_MEMORY: .unreadable("out of memory")
        // A file copied in half ends before QuickTime's index (the moov atom) when it is
        // written last, as cameras and phones do.
        case _ where message.contains("moov atom not found") || message.lowercased().contains("end of file"):
            .truncated(message)
        default: .corrupt(message)
        }
    }
}
