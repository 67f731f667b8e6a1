import CVips
import CVipsShim
import ThumbsCore
import ThumbsRendering

/// A format whose header libvips reads (``ImageFile``), and whose pictures libvips or the
/// handler's own decoder decodes, shrunk on load, for libvips to orient, colour-manage, resize
/// and encode.
///
/// The handler answers what differs between formats, each with a default for the formats
/// libvips reads alone: what reading a header needs started (``prepare()``), a decoder of its
/// own (``storedPicture(_:target:cover:)``), libvips' loader as called for it
/// (``loaded(_:to:fill:partial:)``), the preview it embeds, the memory its decoder holds, how a
/// truncated file ends, the colour it states outside an ICC profile, and the subtypes its boxes
/// or segments tell.
protocol StillImageHandler: FormatHandler {
    /// The media types it reads.
    var mediaTypes: Set<MediaType> { get }
    /// Starts what reading a header of this format needs beyond libvips; on every file, so
    /// that later calls return at once.
    func prepare() throws(ImagingError)
    /// The picture decoded by the handler's own decoder for a thumbnail of `target` (covering it
    /// when `cover`), shrunk on load, as stored, with the EXIF orientation that turns it
    /// upright; nil for libvips' loader to read it.
    func storedPicture(
        _ file: ImageFile, target: PixelSize, cover: Bool
    ) throws(ImagingError) -> (image: VipsImageHandle, orientation: Int32)?
    /// The file read by libvips' loader, shrunk on load to `size` and upright (see
    /// ``VipsRenderer/resized(_:to:fill:_:)`` for `fill`), past damage when `partial`.
    func loaded(_ file: ImageFile, to size: PixelSize, fill: Bool, partial: Bool) throws(ImagingError)
        -> VipsImageHandle
    /// The preview the file embeds, upright, 8-bit sRGB (not yet decoded), or nil.
    func embeddedPreviewImage(of file: ImageFile, pixelLimit: Int) throws(ImagingError) -> VipsImageHandle?
    /// What the decoder holds besides the picture it hands over, decoding `file` for a picture
    /// of `decodeSize` (``ImageFile/decodeMemory(to:renditionPixels:)`` adds the picture and
    /// the renditions).
    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int
    /// Whether a file whose last bytes (trailing zeros dropped) are `tail` lacks the marker the
    /// format ends with: a decode failure of such a file is a truncation.
    func lacksEndMarker(_ tail: [UInt8]) -> Bool
    /// `image`, decoded from `file`, with the colour the file states outside an ICC profile.
    func describingColour(
        _ image: VipsImageHandle, of file: ImageFile, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle
    /// Adds to `properties` what the file's own boxes or segments tell (`bytes`, read through
    /// the open descriptor) besides its XMP packet (`xmp`), which ``probe(_:engine:)`` reads for
    /// every format.
    func detectSubtypes(
        in bytes: FileBytes, xmp: [UInt8]?, of source: ImageSource, into properties: inout ImageProperties)
}

extension StillImageHandler {
    func reads(_ source: ImageSource) -> Bool { mediaTypes.contains(source.mediaType) }

    func prepare() throws(ImagingError) {}

    func storedPicture(
        _ file: ImageFile, target: PixelSize, cover: Bool
    ) throws(ImagingError) -> (image: VipsImageHandle, orientation: Int32)? { nil }

    func loaded(
        _ file: ImageFile, to size: PixelSize, fill: Bool, partial: Bool
    ) throws(ImagingError) -> VipsImageHandle {
        let (width, height, interesting, sizing) = VipsRenderer.thumbnailOptions(size, fill: fill)
        return try VipsImageHandle.make(file.decodeError) { out in
            thumbs_vips_thumbnail_descriptor(file.descriptor, out, width, height, interesting, sizing, partial ? 1 : 0)
        }
    }

    func embeddedPreviewImage(of file: ImageFile, pixelLimit: Int) throws(ImagingError) -> VipsImageHandle? {
        nil
    }

    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        file.streamedLineMemory(lines: 1152)
    }

    func lacksEndMarker(_ tail: [UInt8]) -> Bool { false }

    /// Whether the last bytes of `source`, past any zeros, lack the format's end marker.
    func lacksEndMarker(in source: ImageSource) -> Bool {
        var tail = source.readSuffix(count: 64)
        // Trailing zero padding after the end marker is common and harmless.
        while tail.last == 0 { tail.removeLast() }
        return !tail.isEmpty && lacksEndMarker(tail)
    }

    func describingColour(
        _ image: VipsImageHandle, of file: ImageFile, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle { image }

    func detectSubtypes(
        in bytes: FileBytes, xmp: [UInt8]?, of source: ImageSource, into properties: inout ImageProperties
    ) {}

    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        try engine.probe(source, as: self)
    }

    func render(
        _ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer
    ) throws(ImagingError) -> [Thumbnail] {
        try engine.render(source, as: self, specs: specs)
    }

    func render(
        _ source: ImageSource, spec: RenditionSpec, crop: NormalizedRect, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail {
        try engine.render(source, as: self, spec: spec, crop: crop)
    }

    func embeddedPreview(
        _ source: ImageSource, format: ThumbnailFormat, quality: Int, engine: VipsRenderer
    ) throws(ImagingError) -> Thumbnail? {
        try engine.embeddedPreview(source, as: self, format: format, quality: quality)
    }
}
