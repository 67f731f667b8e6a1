import CJpegShim
import CVipsShim
import ThumbsCore
import ThumbsRendering

/// A JPEG rendered without libvips: its header read by ``JPEGHeader``, its picture decoded by
/// libjpeg-turbo at the DCT scale the engine would pick, and resized, turned, converted and
/// encoded as a ``PixelPicture``, by the same C code and in the same order as the engine's path
/// for such a picture, so the thumbnails are the same bytes. A program that renders only such
/// JPEGs (a thumbnailer's call, a warm of a camera's folder) never opens libvips, which costs
/// some 90 shared objects and 20 ms to open.
///
/// Whatever this path does not take goes to the engine, which decodes the file again: WebP
/// output, upscaling, frames libjpeg-turbo does not scale (``JPEGHeader``), CMYK, a file
/// libjpeg fails on, or warns about a hundred times while it may still be being written (a
/// settled one is rendered past its damage, as the engine's partial path renders it; fewer
/// warnings decode here as libvips' loader decodes them), a profile lcms cannot read. A photo
/// whose profile is not sRGB is converted here, by lcms.
extension JPEGHandler: PixelRenderingHandler {
    /// None for a file the direct path will take as far as its header and its end tell; libvips
    /// for CMYK or another frame ``JPEGHeader`` does not describe, a missing end marker (a
    /// truncation, which libvips renders in part), or an ICC profile other than sRGB whose
    /// header lcms would not convert the picture from. The segments are read in Swift, and a
    /// profile's header, tag table, colorants and curves in C within its length
    /// (`thumbs_icc_is_srgb`, `thumbs_icc_describes`): what the renderer's own process may read
    /// of a file before a confined one decodes it.
    func libraries(for source: ImageSource) -> Set<DecodingLibrary> {
        let bytes = FileBytes(source.file, size: source.fingerprint.size)
        guard let header = JPEGHeader(in: bytes), !lacksEndMarker(in: source) else { return [.libvips] }
        guard header.hasICCProfile else { return [] }
        let converted = header.iccProfile(in: bytes).withUnsafeBufferPointer {
            thumbs_icc_is_srgb($0.baseAddress, $0.count) == 1
                || thumbs_icc_describes($0.baseAddress, $0.count, Int32(header.components)) == 1
        }
        return converted ? [] : [.libvips]
    }

    /// What the header says, read from its segments (``JPEGHeader``, ``EXIFBlock``) as libvips
    /// reads it; a header described there never opens libvips.
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        let bytes = FileBytes(source.file, size: source.fingerprint.size)
        guard let header = JPEGHeader(in: bytes) else { return try engine.probe(source, as: self) }
        try header.storedSize.ensureWithin(pixelLimit: engine.pixelLimit)
        let exif = header.exif
        // The EXIF thumbnail has no orientation of its own: it is turned by the photo's.
        let preview = exif?.thumbnail.flatMap { JPEGHeader(in: FileBytes($0)) }.map {
            VipsRenderer.letterboxTrimmed(
                header.orientation >= 5 ? $0.storedSize.transposed : $0.storedSize, toAspectOf: header.uprightSize)
        }
        let still = VipsRenderer.StillHeader(
            uprightSize: header.uprightSize, exifOrientation: exif?.orientation, make: exif?.make,
            model: exif?.model, dateTimeOriginal: exif?.dateTimeOriginal, offsetTimeOriginal: exif?.offsetTimeOriginal,
            userComment: exif?.userComment, exif: exif?.bytes, xmp: header.xmp(in: bytes),
            embeddedPreviewSize: preview, pageCount: 1)
        return VipsRenderer.properties(of: source, still, handler: self)
    }

    /// `specs` of `source` made without libvips' decoder or resize; nil for the engine to make.
    /// It reserves the decode memory the engine would, under the same budget. A settled file
    /// damaged past libvips' rule (a hundred warnings) is rendered as the engine's partial path
    /// renders it (``VipsRenderer/partialRenditions(of:specs:decodeSize:outputs:failure:)``).
    func renderedWithoutLibvips(_ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer) -> [Thumbnail]? {
        guard PixelPicture.makes(specs),
            let header = JPEGHeader(in: FileBytes(source.file, size: source.fingerprint.size)),
            header.storedSize.pixelCount <= engine.pixelLimit
        else { return nil }
        if let thumbnails = renditions(of: source, header, specs: specs, engine: engine, pastDamage: false) {
            return thumbnails
        }
        guard source.hasSettled,
            let thumbnails = renditions(of: source, header, specs: specs, engine: engine, pastDamage: true)
        else { return nil }
        return thumbnails.map { thumbnail in
            var partial = thumbnail
            partial.isPartial = true
            return partial
        }
    }

    /// `specs` of `source`, decoded as the engine decodes it, or, `pastDamage`, as its partial
    /// path decodes a damaged file.
    private func renditions(
        of source: ImageSource, _ header: JPEGHeader, specs: [RenditionSpec], engine: VipsRenderer, pastDamage: Bool
    ) -> [Thumbnail]? {
        let upright = header.uprightSize
        return engine.pixelRenditions(
            of: source, upright: upright, bands: header.components, specs: specs,
            decoderMemory: { decodeSize in
                Self.decoderMemory(
                    stored: header.storedSize, upright: upright, bands: header.components, decodeSize: decodeSize,
                    progressiveSamplesPerPixel: header.isProgressive ? header.samplesPerPixel : nil)
            },
            picture: { size, fill throws(ImagingError) in
                try Self.uprightPicture(source, header, size: size, fill: fill, pastDamage: pastDamage)
            }
        )
    }

    /// The picture decoded at the DCT scale for `size` and resized to it (covering it when
    /// `fill`), then turned upright and converted to sRGB: ``VipsRenderer/shrinkOnLoad(_:to:fill:partial:)``'s
    /// steps for a picture its handler decoded. `pastDamage`: the steps of its partial path, for
    /// a file libjpeg warned about (nil for a whole one): decoded past the damage, resized by
    /// libvips' thumbnail resize (`thumbs_thumbnail_resize`), nil when nothing of it decoded
    /// (every pixel the same), and a fill of a turned photo left to the engine, whose crop
    /// follows the turn.
    private static func uprightPicture(
        _ source: ImageSource, _ header: JPEGHeader, size: PixelSize, fill: Bool, pastDamage: Bool
    ) throws(ImagingError) -> PixelPicture? {
        guard !(pastDamage && fill && header.orientation != 1) else { return nil }
        let shrink = VipsRenderer.decodeShrink(header.uprightSize, to: size, cover: fill)
        var decoded = thumbs_jpeg_picture()
        defer { thumbs_jpeg_free(&decoded) }
        guard
            thumbs_jpeg_decode(source.descriptor, shrink, pastDamage ? 0 : 1, pastDamage ? 1 : 0, &decoded)
                == Int32(THUMBS_JPEG_DECODED), !pastDamage || decoded.warnings > 0,
            let picture = PixelPicture(adopting: &decoded)
        else { return nil }
        // Resized as stored, then turned: the turn then moves the fewest pixels.
        let stored = header.orientation >= 5 ? size.transposed : size
        guard pastDamage else {
            return try picture.resized(to: stored, fill: fill)?.upright(orientation: header.orientation)?.inSRGB()
        }
        guard let resized = try picture.thumbnailed(to: stored, fill: fill), !resized.isUniform else { return nil }
        return try resized.upright(orientation: header.orientation)?.inSRGB()
    }
}
