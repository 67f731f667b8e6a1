import CPNGDecoder
import CResample
import CVipsShim
import Glibc
import ThumbsCore
import ThumbsRendering

/// A PNG rendered without libvips: its chunks read by ``PNGHeader``, its picture decoded whole by
/// libpng with libvips' loader settings (`CPNGDecoder`), resized by libvips' own thumbnail
/// resize rewritten in C (`thumbs_thumbnail_resize`: block shrink, then Lanczos-3 in its integer
/// arithmetic, or its float arithmetic around premultiplied alpha), converted from its profile or colour chunks by lcms, and encoded, as a
/// ``PixelPicture``, so the thumbnails are the engine's bytes. A program that renders only such
/// PNGs never opens libvips.
///
/// The direct path takes grey of up to 8 bits, 8- and 16-bit RGB (16 bits keep their high byte,
/// alpha's too, as libvips' RGB16 to sRGB does before its resize) and palette colour, interlaced
/// or not, with alpha, of their own or a tRNS chunk's, or without: alpha libvips premultiplies in
/// floats around its resize (`thumbs_thumbnail_resize_alpha`), and a JPEG flattens it onto
/// white. Everything else goes to the engine, which decodes the file again: 16-bit grey, with
/// alpha or without (libvips goes through linear light to make it 8-bit), alpha with a profile or
/// colour chunks that are not sRGB (libvips' icc_transform converts those), an eXIf chunk (an
/// orientation and EXIF fields libvips parses), more text chunks than libvips keeps, a file
/// libpng fails on (damage whose fate libvips' rules decide: a truncation, a picture chunk's
/// CRC), WebP output, upscaling, and a profile lcms cannot read. What libpng only warns about
/// (a damaged ancillary chunk, colour chunks that disagree), libvips reads past, and so does
/// this path, with the same chunks.
extension PNGHandler: PixelRenderingHandler {
    /// None for a file the direct path will take as far as its chunk headers, its end and its
    /// profile tell; libvips for the rest, for an ICC profile that is neither sRGB nor one lcms
    /// converts the picture from by its header (`thumbs_icc_is_srgb`, `thumbs_icc_describes`),
    /// and for a picture with alpha whose profile or colour chunks are not sRGB (libvips'
    /// icc_transform converts it). The chunks are read in Swift, the profile inflated by zlib
    /// within a bound (`thumbs_png_iccp_profile`), the colour chunks read from their headers
    /// (`thumbs_png_colour_profile`): what the renderer's own process may read of a file before a
    /// confined one decodes it.
    func libraries(for source: ImageSource) -> Set<DecodingLibrary> {
        guard let header = PNGHeader(in: FileBytes(source.file, size: source.fingerprint.size)), header.isDirect,
            !lacksEndMarker(in: source)
        else { return [.libvips] }
        var length = 0
        guard let chunk = header.iccpChunk else {
            guard header.hasAlpha,
                let described = thumbs_png_colour_profile(source.descriptor, header.bands < 3 ? 1 : 0, &length)
            else { return [] }
            free(described)
            return [.libvips]
        }
        guard
            let profile = thumbs_png_iccp_profile(
                source.descriptor, Int64(clamping: chunk.offset), chunk.length, Self.profileBytesRead, &length)
        else { return [.libvips] }
        defer { free(profile) }
        let converted =
            thumbs_icc_is_srgb(profile, length) == 1
            || (!header.hasAlpha && thumbs_icc_describes(profile, length, Int32(header.bands)) == 1)
        return converted ? [] : [.libvips]
    }

    /// The most bytes of an iCCP chunk, and of its profile, read before confinement.
    private static let profileBytesRead = 4 << 20

    /// What the header says, read by libpng as libvips' loader reads it: the size, and the XMP
    /// packet of its text chunks; a PNG the direct path does not take (an eXIf chunk, 16-bit grey) is
    /// the engine's to probe.
    func probe(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> ImageProperties {
        var decoded = thumbs_png_picture()
        defer { thumbs_png_free(&decoded) }
        guard thumbs_png_decode(source.descriptor, Int.max, 1, &decoded) == Int32(THUMBS_PNG_DECODED) else {
            return try engine.probe(source, as: self)
        }
        let size = PixelSize(width: Int(decoded.width), height: Int(decoded.height))
        try size.ensureWithin(pixelLimit: engine.pixelLimit)
        let xmp = decoded.xmp.map { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: decoded.xmp_length) {
                Array(UnsafeBufferPointer(start: $0, count: decoded.xmp_length))
            }
        }
        let still = VipsRenderer.StillHeader(
            uprightSize: size, exifOrientation: nil, make: nil, model: nil, dateTimeOriginal: nil,
            offsetTimeOriginal: nil, userComment: nil, exif: nil, xmp: xmp, embeddedPreviewSize: nil, pageCount: 1)
        return VipsRenderer.properties(of: source, still, handler: self)
    }

    /// `specs` of `source` made without libvips (``VipsRenderer/pixelRenditions(of:upright:bands:specs:decoderMemory:picture:)``);
    /// nil for the engine to make. libpng holds the whole picture, and the resize the lines of
    /// its first step.
    func renderedWithoutLibvips(_ source: ImageSource, specs: [RenditionSpec], engine: VipsRenderer) -> [Thumbnail]? {
        guard PixelPicture.makes(specs),
            let header = PNGHeader(in: FileBytes(source.file, size: source.fingerprint.size)), header.isDirect,
            header.storedSize.pixelCount <= engine.pixelLimit
        else { return nil }
        let size = header.storedSize
        return engine.pixelRenditions(
            of: source, upright: size, bands: header.bands, specs: specs,
            decoderMemory: { decodeSize in
                // Alpha is resized premultiplied, in 4-byte floats.
                let floats = header.hasAlpha ? 4 : 0
                return (size.pixelCount * (1 + floats) + size.width * decodeSize.height * max(1, floats)) * header.bands
            },
            picture: { target, fill throws(ImagingError) in
                try Self.decodedPicture(source, pixelLimit: engine.pixelLimit)?.thumbnailed(to: target, fill: fill)?
                    .inSRGB()
            })
    }

    /// The whole picture, with the colour the engine gives it (``describingColour(_:of:_:)``):
    /// its ICC profile, else the profile its colour chunks describe; nil when libpng does not
    /// decode it as libvips' loader would.
    private static func decodedPicture(_ source: ImageSource, pixelLimit: Int) -> PixelPicture? {
        var decoded = thumbs_png_picture()
        defer { thumbs_png_free(&decoded) }
        guard thumbs_png_decode(source.descriptor, pixelLimit, 0, &decoded) == Int32(THUMBS_PNG_DECODED) else {
            return nil
        }
        var profile = decoded.icc.map { Array(UnsafeBufferPointer(start: $0, count: decoded.icc_length)) }
        if profile == nil {
            var length = 0
            if let described = thumbs_png_colour_profile(source.descriptor, decoded.bands < 3 ? 1 : 0, &length) {
                profile = Array(UnsafeBufferPointer(start: described, count: length))
                free(described)
            }
        }
        return PixelPicture(adopting: &decoded, profile: profile)
    }
}
