import ThumbsCore
import ThumbsRendering

/// AVIF image sequences (animated AVIFs, major brand `avis`), whose frames libheif does not
/// read: libavif decodes the first frame (``AVIFSequenceFile``). A sequence libavif cannot parse,
/// such as one with an audio track beside its frames (libavif 0.11: "BMFF parsing failed"), is
/// read by FFmpeg, as the movie it is (``FirstFrameOfMovie``).
struct AVIFSequenceHandler: MediaHandler {
    let name = "animated AVIF"
    let libraries: Set<DecodingLibrary> = [.libvips, .libavif, .ffmpeg]

    /// An AVIF whose major brand is `avis`: its frames are a track, which libheif does not read.
    /// A file of major brand `avif` that also lists `avis` has a still picture of its own, which
    /// ``HEIFHandler`` reads.
    func reads(_ source: ImageSource) -> Bool {
        let bytes = source.leadingBytes
        return source.mediaType == .avif && bytes.count >= 12 && bytes[8..<12].elementsEqual("avis".utf8)
    }

    func decoding(with loaded: DecoderLibraries) -> String {
        "libavif \(loaded.libavif), its first frame; FFmpeg \(loaded.ffmpeg) for a sequence libavif cannot parse"
    }

    func open(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) -> any PictureFile {
        do throws(ImagingError) {
            return try AVIFSequenceFile(source, pixelLimit: pixelLimit)
        } catch  where error.kind == .corrupt || error.kind == .unsupportedFormat {
            // libavif's failure stands when FFmpeg cannot read the file either.
            guard let movie = try? VideoFile(source, pixelLimit: pixelLimit, timeLimit: timeLimit) else { throw error }
            return FirstFrameOfMovie(movie)
        }
    }
}

/// An image sequence read by FFmpeg as a movie, shown, as every sequence is, by its first frame.
struct FirstFrameOfMovie: PictureFile {
    let movie: VideoFile
    let properties: ImageProperties

    /// `movie`'s properties as a still's: no video properties or video subtypes, and as many
    /// pages as its frames (from its duration and frame rate, where it states them).
    init(_ movie: VideoFile) {
        self.movie = movie
        let stated = movie.properties
        let frames = stated.video.flatMap { video in
            video.duration.flatMap { duration in video.frameRate.map { duration * $0 } }
        }
        // Values read from the file: a NaN or an infinity is no count.
        let pages = frames.flatMap { $0.isFinite ? Int(exactly: min(max(1, $0), 1e9).rounded()) : nil }
        properties = ImageProperties(
            mediaType: stated.mediaType, pixelSize: stated.pixelSize, captureDate: stated.captureDate,
            pageCount: pages ?? 1, fingerprint: stated.fingerprint)
    }

    var source: ImageSource { movie.source }
    var hasDegradedPicture: Bool { false }

    /// The first frame: FFmpeg's cheapest picture of a movie without a cover is its first
    /// keyframe, and a sequence's first frame is one.
    func picture(covering: PixelSize, degraded: Bool) throws(ImagingError) -> DecodedPicture {
        try movie.poster(covering: covering, degraded: true)
    }

    func decodeMemory(covering: PixelSize, renditionPixels: Int) -> Int {
        movie.decodeMemory(covering: covering, renditionPixels: renditionPixels)
    }
}
