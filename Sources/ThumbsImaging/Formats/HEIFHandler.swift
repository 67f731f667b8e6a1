import CVipsShim
import ThumbsCore
import ThumbsRendering

/// HEIF and AVIF stills: libheif reads them, its HEVC and AV1 pictures decoded by FFmpeg's
/// decoders plugged into it in a process that renders many files, by its own in one that
/// renders one (``HeifRuntime``), averaged down by blocks as they are converted
/// (``HeifDecoder``), and rendered without libvips where they can be
/// (`HEIFHandler+Direct.swift`). libheif's thumbnail item is the embedded preview; a Samsung
/// motion photo's movie, depth maps, portrait mattes, gain maps and PQ or HLG pictures are its subtypes.
/// AVIF image sequences are ``AVIFSequenceHandler``'s.
struct HEIFHandler: StillImageHandler {
    let name = "HEIF and AVIF"
    let mediaTypes: Set<MediaType> = [.heif, .avif]
    let libraries: Set<DecodingLibrary> = [.libvips, .libheif, .ffmpeg]

    func decoding(with loaded: DecoderLibraries) -> String {
        "libheif, its HEVC pictures decoded by \(loaded.heicDecoder), its AV1 pictures by \(loaded.avifDecoder)"
    }

    func prepare() throws(ImagingError) {
        try HeifRuntime.ensureStarted()
    }

    func storedPicture(
        _ file: ImageFile, target: PixelSize, cover: Bool
    ) throws(ImagingError) -> (image: VipsImageHandle, orientation: Int32)? {
        // The picture is averaged down to at least twice the target, so that the Lanczos
        // resize after it does the rest of the shrinking, as in libvips' own resize.
        let shrink = VipsRenderer.decodeShrink(file.uprightSize, to: target, cover: cover)
        return try HeifDecoder.decode(file, shrink: shrink, target: target).map {
            ($0.image, $0.orientation)
        }
    }

    /// libheif's thumbnail item, which libheif has turned by the container's rotation; an HDR
    /// one (PQ, HLG) tone-mapped as the picture is (``HeifDecoder/hdrThumbnail(_:pixelLimit:)``).
    func embeddedPreviewImage(of file: ImageFile, pixelLimit: Int) throws(ImagingError) -> VipsImageHandle? {
        if let hdr = try HeifDecoder.hdrThumbnail(file, pixelLimit: pixelLimit) { return hdr }
        let failure = file.decodeError
        let thumbnail = try VipsImageHandle.make(failure) { thumbs_vips_heif_thumbnail(file.descriptor, $0) }
        // libheif hands back the primary image when there is no thumbnail. A "thumbnail" no
        // smaller than the photo, or over the pixel limit, is not a cheap preview.
        guard thumbnail.size.pixelCount < file.header.size.pixelCount, thumbnail.size.pixelCount <= pixelLimit
        else { return nil }
        return try VipsRenderer.srgb(thumbnail, failure)
    }

    /// libheif decodes the whole picture, and converts it once more to RGB.
    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        decoderMemory(stored: file.storedSize, bands: file.bands, sampleBytes: file.sampleBytes)
    }

    func decoderMemory(stored: PixelSize, bands: Int, sampleBytes: Int) -> Int {
        stored.pixelCount * bands * sampleBytes * 2
    }

    /// A HEIC's Samsung motion photo movie (`mpvd`, or the XMP's trailing movie), and what the
    /// items of its `meta` box mark (``MediaSubtypes/init(heif:)``).
    func detectSubtypes(
        in bytes: FileBytes, xmp: [UInt8]?, of source: ImageSource, into properties: inout ImageProperties
    ) {
        if source.mediaType == .heif { properties.embeddedMovie = EmbeddedMovie(in: bytes, xmp: xmp) }
        if let meta = HEIFMetaBox(in: bytes) { properties.mediaSubtypes.formUnion(MediaSubtypes(heif: meta)) }
    }
}
