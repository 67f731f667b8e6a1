import ThumbsCore
import ThumbsRendering

/// Videos (MP4, QuickTime, Matroska, WebM, AVI): FFmpeg reads them from the open descriptor
/// (``VideoFile``); a representative frame is the thumbnail, the cover stored in the container
/// or the first keyframe the embedded preview.
struct VideoHandler: MediaHandler {
    let name = "video"
    let libraries: Set<DecodingLibrary> = [.libvips, .ffmpeg]

    func reads(_ source: ImageSource) -> Bool { source.mediaType.isVideo }

    /// FFmpeg alone: a poster frame or first keyframe is made into thumbnails without libvips
    /// (``DecodedPicture/renditionsWithoutLibvips(upright:specs:outputs:)``). A cover picture
    /// stored in the container and a crop take libvips too, which a render worker that lacks it
    /// hands on to one that opens it.
    func libraries(for source: ImageSource) -> Set<DecodingLibrary> { [.ffmpeg] }

    func decoding(with loaded: DecoderLibraries) -> String {
        "FFmpeg \(loaded.ffmpeg), a representative frame (the cover or first keyframe while it comes)"
    }

    func open(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) -> any PictureFile {
        try VideoFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit)
    }
}
