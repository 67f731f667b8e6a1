import ThumbsCore
import ThumbsRendering

/// Videos (MP4, QuickTime, Matroska, WebM, AVI): FFmpeg reads them from the open descriptor
/// (``VideoFile``); a representative frame is the thumbnail, the cover stored in the container
/// or the first keyframe the embedded preview.
struct VideoHandler: MediaHandler {
    let name = "video"
    let libraries: Set<DecodingLibrary> = [.libvips, .ffmpeg]

    func reads(_ source: ImageSource) -> Bool { source.mediaType.isVideo }

    func decoding(with loaded: DecoderLibraries) -> String {
        "FFmpeg \(loaded.ffmpeg), a representative frame (the cover or first keyframe while it comes)"
    }

    func open(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) -> any PictureFile {
        try VideoFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit)
    }
}
