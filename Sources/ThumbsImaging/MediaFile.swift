import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// A file whose pictures another library decodes before libvips resizes them: a video (FFmpeg),
/// a camera RAW file (LibRaw) or an AVIF image sequence (libavif). Opening it reads the header
/// only.
enum MediaFile {
    case video(VideoFile)
    case raw(RawFile)
    case avifSequence(AVIFSequenceFile)

    /// Opens `source` when it is a video, a RAW file or an AVIF image sequence; nil for the
    /// images libvips reads itself.
    init?(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) {
        if source.mediaType.isVideo {
            self = .video(try VideoFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit))
        } else if source.mediaType == .cameraRaw {
            self = .raw(try RawFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit))
        } else if source.isAVIFSequence {
            self = .avifSequence(try AVIFSequenceFile(source, pixelLimit: pixelLimit))
        } else {
            return nil
        }
    }

    var properties: ImageProperties {
        switch self {
        case .video(let video): video.properties
        case .raw(let raw): raw.properties
        case .avifSequence(let sequence): sequence.properties
        }
    }

    var uprightSize: PixelSize { properties.pixelSize }

    private var source: ImageSource {
        switch self {
        case .video(let video): video.source
        case .raw(let raw): raw.source
        case .avifSequence(let sequence): sequence.source
        }
    }

    /// The whole picture, at least `covering` (upright) where the file holds that much: a
    /// video's poster frame, a RAW's preview or half-size decode, a sequence's first frame.
    /// `degraded`: the cheapest acceptable one (a video's cover or first keyframe, a RAW's
    /// preview whatever its size).
    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        switch self {
        case .video(let video): try video.poster(covering: covering, degraded: degraded)
        case .raw(let raw): try raw.picture(covering: covering, degraded: degraded)
        case .avifSequence(let sequence): try sequence.firstFrame()
        }
    }

    /// What decoding a picture of at least `covering` takes, with `renditionPixels` more pixels
    /// for the renditions made from it.
    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int {
        switch self {
        case .video(let video): video.decodeMemory(covering: covering, renditionPixels: renditionPixels)
        case .raw(let raw): raw.decodeMemory(covering: covering, renditionPixels: renditionPixels)
        case .avifSequence(let sequence): sequence.decodeMemory(covering: covering, renditionPixels: renditionPixels)
        }
    }

    /// Whether a degraded picture can be had at all (a RAW without a preview has none cheaper
    /// than its final one, nor has an AVIF sequence).
    var hasDegradedPicture: Bool {
        switch self {
        case .video: true
        case .raw(let raw): raw.previewSize != nil
        case .avifSequence: false
        }
    }

    /// Fails with ``/ThumbsCore/ImagingError/changedWhileRendering`` if the file is not the version opened.
    func ensureUnchanged() throws(ImagingError) {
        try source.ensureUnchanged()
    }
}
