import ThumbsCore
import ThumbsRendering

/// A format another library decodes whole pictures of (``PictureFile``): a video's poster
/// frame, a RAW file's preview or half-size decode, an image sequence's first frame. Every
/// rendition is then made from that picture, as from a photo's decode (``VipsRenderer``'s media
/// renders: without libvips where the picture is plain pixels).
protocol MediaHandler: FormatHandler {
    /// `source` opened, its header read and checked against `pixelLimit`; a decode of it stops
    /// after `timeLimit`.
    func open(_ source: ImageSource, pixelLimit: Int, timeLimit: Duration) throws(ImagingError) -> any PictureFile
}

extension MediaHandler {
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        try open(source, engine).properties
    }

    func render(
        _ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer
    ) throws(ImagingError) -> [Thumbnail] {
        try engine.render(open(source, engine), specs: specs)
    }

    func render(
        _ source: ImageSource, spec: RenditionSpec, crop: NormalizedRect, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail {
        try engine.render(open(source, engine), spec: spec, crop: crop)
    }

    func embeddedPreview(
        _ source: ImageSource, format: ThumbnailFormat, quality: Int, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail? {
        try engine.embeddedPreview(open(source, engine), format: format, quality: quality)
    }

    private func open(_ source: ImageSource, _ engine: VipsRenderer) throws(ImagingError) -> any PictureFile {
        try open(source, pixelLimit: engine.pixelLimit, timeLimit: engine.decodeTimeLimit)
    }
}
