import CHeifShim
import ThumbsCore
import ThumbsRendering

/// A HEIF or AVIF still rendered without libvips: its size and rotation read from its boxes
/// (``HEIFMetaBox``), its picture decoded by libheif and averaged down at the scale the engine
/// would pick, or its stored thumbnail decoded where large enough (`thumbs_heif_decode`, the
/// engine's own decode), and resized, turned, converted and encoded as a ``PixelPicture``, by
/// the same C code and in the same order as the engine's path for such a picture, so the
/// thumbnails are the same bytes. A program that renders only such files never opens libvips,
/// nor, rendering one file, FFmpeg (``HeifRuntime``).
///
/// Whatever this path does not take goes to the engine, which decodes the file again: WebP
/// output, upscaling, what `thumbs_heif_decode` leaves to libvips' loader (SDR pictures with
/// alpha or of more than 8 bits, a crop), a file libheif fails on (the engine reports its damage), a
/// profile lcms cannot read.
extension HEIFHandler: PixelRenderingHandler {
    /// libheif alone for a still whose boxes say the direct path takes it: an HEVC, AV1 or grid
    /// primary picture, uncropped, without alpha, of 8 bits (or PQ or HLG, tone-mapped whatever
    /// its depth and alpha), whose boxes reach the end of the file (a truncated file is the engine's to
    /// report). Else libvips and libheif. The boxes are read in Swift: what the renderer's own
    /// process may read of a file before a confined one decodes it.
    func libraries(for source: ImageSource) -> Set<DecodingLibrary> {
        let bytes = FileBytes(source.file, size: source.fingerprint.size)
        guard let meta = HEIFMetaBox(in: bytes), Self.takesWithoutLibvips(meta), Self.isWhole(bytes) else {
            return [.libvips, .libheif]
        }
        return [.libheif]
    }

    /// Whether the file's top-level boxes end where it ends: a truncated file's last box reaches
    /// past it.
    static func isWhole(_ bytes: FileBytes) -> Bool {
        ISOBox.boxes(in: bytes, range: 0..<bytes.size).last?.end == bytes.size
    }

    /// Whether the boxes describe a picture `thumbs_heif_decode` decodes itself.
    static func takesWithoutLibvips(_ meta: HEIFMetaBox) -> Bool {
        let isHDR = [16, 18].contains(meta.primaryTransferCharacteristics)
        let hasAlpha = meta.auxiliaryTypes.contains { $0.hasSuffix(":auxid:1") || $0.hasSuffix(":auxiliary:alpha") }
        return ["hvc1", "av01", "grid"].contains(meta.primaryItemType) && meta.primaryUprightSize != nil
            && (isHDR || (meta.largestBitDepth <= 8 && !hasAlpha))
    }

    /// What the header says, read by libheif (`thumbs_heif_read_header`) as libvips' loader
    /// reads it: the primary picture's size upright, no EXIF orientation (libheif turns the
    /// picture, and libvips' loader drops the tag), EXIF and XMP, the first thumbnail's size, the
    /// top-level pictures as pages; libheif's decoders are not started. A file cut short or that
    /// libheif cannot read is the engine's to probe, and to report.
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        var header = thumbs_heif_header()
        defer { thumbs_heif_header_free(&header) }
        guard Self.isWhole(FileBytes(source.file, size: source.fingerprint.size)),
            (try? DecodingLibrary.libheif.open()) != nil, thumbs_heif_read_header(source.descriptor, &header) == 0,
            header.width > 0, header.height > 0
        else { return try engine.probe(source, as: self) }
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        try size.ensureWithin(pixelLimit: engine.pixelLimit)
        let exifBytes = header.exif.map { Array(UnsafeBufferPointer(start: $0, count: header.exif_length)) }
        let exif = exifBytes.flatMap(EXIFBlock.init)
        // As ``embeddedPreviewImage(of:pixelLimit:)`` keeps a thumbnail.
        let thumbnail = PixelSize(width: Int(header.thumbnail_width), height: Int(header.thumbnail_height))
        let isPreview =
            thumbnail.width > 0 && thumbnail.height > 0 && thumbnail.pixelCount < size.pixelCount
            && thumbnail.pixelCount <= engine.pixelLimit
        let still = VipsRenderer.StillHeader(
            uprightSize: size, exifOrientation: nil, make: exif?.make, model: exif?.model,
            dateTimeOriginal: exif?.dateTimeOriginal, offsetTimeOriginal: exif?.offsetTimeOriginal,
            userComment: exif?.userComment, exif: exifBytes,
            xmp: header.xmp.map { Array(UnsafeBufferPointer(start: $0, count: header.xmp_length)) },
            embeddedPreviewSize: isPreview ? thumbnail : nil, pageCount: max(1, Int(header.page_count)))
        return VipsRenderer.properties(of: source, still, handler: self)
    }

    /// `specs` of `source` made without libvips (``VipsRenderer/pixelRenditions(of:upright:bands:specs:decoderMemory:picture:)``);
    /// nil for the engine to make.
    func renderedWithoutLibvips(_ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer) -> [Thumbnail]? {
        guard PixelPicture.makes(specs),
            let upright = HEIFMetaBox(in: FileBytes(source.file, size: source.fingerprint.size))?.primaryUprightSize,
            upright.pixelCount <= engine.pixelLimit, (try? HeifRuntime.startDecoders()) != nil
        else { return nil }
        return engine.pixelRenditions(
            of: source, upright: upright, bands: 3, specs: specs,
            decoderMemory: { _ in decoderMemory(stored: upright, bands: 3, sampleBytes: 1) },
            picture: { size, fill throws(ImagingError) in
                try Self.uprightPicture(source, upright: upright, size: size, fill: fill)
            })
    }

    /// The picture decoded by libheif at the scale for `size`, or its stored thumbnail, resized
    /// to it (covering it when `fill`), then turned upright and converted to sRGB:
    /// ``VipsRenderer/shrinkOnLoad(_:to:fill:partial:)``'s steps for the picture ``HeifDecoder``
    /// decodes.
    private static func uprightPicture(
        _ source: ImageSource, upright: PixelSize, size: PixelSize, fill: Bool
    ) throws(ImagingError) -> PixelPicture? {
        let shrink = VipsRenderer.decodeShrink(upright, to: size, cover: fill)
        var decoded = thumbs_heif_picture()
        guard
            thumbs_heif_decode(
                source.descriptor, nil, shrink, Int32(clamping: size.width), Int32(clamping: size.height),
                &decoded) == Int32(THUMBS_HEIF_DECODED),
            let picture = PixelPicture(adopting: &decoded)
        else { return nil }
        let orientation = Int(decoded.orientation)
        // Resized as stored, then turned: the turn then moves the fewest pixels.
        let stored = orientation >= 5 ? size.transposed : size
        return try picture.resized(to: stored, fill: fill)?.upright(orientation: orientation)?.inSRGB()
    }
}
