import ThumbsCore
import ThumbsRendering

/// Everything Thumbs knows of one file format, in one place: which files it reads, the
/// libraries they need, and how their headers are probed, their pictures decoded (shrunk on
/// load, cropped, or as the preview they embed) and their subtypes found.
///
/// ``FormatRegistry`` picks the handler of each file; ``VipsRenderer`` hands the file to it.
/// Most handlers use libvips as their engine, to read a header, resize, colour-manage and
/// encode (``StillImageHandler``), or decode the picture with another library and let libvips
/// make the renditions (``MediaHandler``). Adding a format is one handler file and one line in
/// ``FormatRegistry/standard``.
package protocol FormatHandler: Sendable {
    /// The format's name as people know it: "JPEG", "camera RAW".
    var name: String { get }
    /// The libraries its files are decoded with, each opened when a file first needs it
    /// (``DecodingLibrary``), and opened by a render worker before it confines itself.
    var libraries: Set<DecodingLibrary> { get }
    /// The libraries `source` may need: what a process that confines itself before it decodes
    /// opens first. ``libraries`` unless the handler can tell more from the file.
    func libraries(for source: ImageSource) -> Set<DecodingLibrary>
    /// Whether this handler reads `source`, found by its leading bytes.
    func reads(_ source: ImageSource) -> Bool
    /// How its files are decoded, with the versions of `loaded`: a line of
    /// `thumbs version --libraries`.
    func decoding(with loaded: DecoderLibraries) -> String

    /// What the header tells, decoding no pixels.
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties
    /// Several renditions of the file from a single decode, in the order of `specs` (not empty).
    func render(
        _ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer
    ) throws(ImagingError) -> [Thumbnail]
    /// The part of the picture inside `crop`, fitted or filled into `spec`'s box.
    func render(
        _ source: ImageSource, spec: RenditionSpec, crop: NormalizedRect, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail
    /// The preview the file carries, upright and encoded at its own size, or nil when it has
    /// none (or a damaged one): the degraded image of opportunistic delivery.
    func embeddedPreview(
        _ source: ImageSource, format: ThumbnailFormat, quality: Int, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail?
    /// What an HDR file gives the gain maps of its renditions that carry one
    /// (``RenditionSpec/carriesGainMap``), the largest of which is `size` (upright; a centred
    /// crop of the picture when `fill`): its light, or the gain map it stores, at least that
    /// fine; nil for an SDR file, whose renditions then carry none.
    func gainMapSource(
        _ source: ImageSource, size: PixelSize, fill: Bool, engine: VipsRenderer
    ) throws(ImagingError) -> GainMapSource?
}

extension FormatHandler {
    func libraries(for source: ImageSource) -> Set<DecodingLibrary> { libraries }

    func gainMapSource(
        _ source: ImageSource, size: PixelSize, fill: Bool, engine: VipsRenderer
    ) throws(ImagingError) -> GainMapSource? { nil }
}
