import CVipsShim
import ThumbsCore
import ThumbsRendering

/// JPEG: decoded by libjpeg-turbo at the DCT scale that leaves at least twice the thumbnail
/// (``VipsRenderer/decodeShrink(_:to:cover:)``), and rendered without libvips where it can be
/// (`JPEGHandler+Direct.swift`), else through the engine (``JpegDecoder``); libvips' `jpegload`,
/// told the same scale, reads what libjpeg-turbo refuses and decodes damaged files past their
/// damage. The EXIF thumbnail is the embedded
/// preview; Live Photo stills and motion photos, and the segments of HDR gain maps and depth,
/// are its subtypes.
struct JPEGHandler: StillImageHandler {
    let name = "JPEG"
    let mediaTypes: Set<MediaType> = [.jpeg]
    /// None: libjpeg-turbo is linked at start, and libvips opens only for what the direct path
    /// leaves to the engine (a render worker without it is replaced by one that opens it).
    let libraries: Set<DecodingLibrary> = []

    func decoding(with loaded: DecoderLibraries) -> String {
        "libjpeg-turbo at the DCT scale that leaves twice the thumbnail, resized without libvips; "
            + "libvips' jpegload past damage"
    }

    func storedPicture(
        _ file: ImageFile, target: PixelSize, cover: Bool
    ) throws(ImagingError) -> (image: VipsImageHandle, orientation: Int32)? {
        let shrink = VipsRenderer.decodeShrink(file.uprightSize, to: target, cover: cover)
        return try JpegDecoder.decode(file, shrink: shrink).map { ($0.image, Int32(file.header.orientation)) }
    }

    func loaded(
        _ file: ImageFile, to size: PixelSize, fill: Bool, partial: Bool
    ) throws(ImagingError) -> VipsImageHandle {
        let (width, height, interesting, sizing) = VipsRenderer.thumbnailOptions(size, fill: fill)
        let shrink = VipsRenderer.decodeShrink(file.uprightSize, to: size, cover: fill)
        return try VipsImageHandle.make(file.decodeError) { out in
            thumbs_vips_thumbnail_jpeg(
                file.descriptor, shrink, out, width, height, interesting, sizing, partial ? 1 : 0)
        }
    }

    /// The EXIF thumbnail, turned by the photo's orientation (it has none of its own) and
    /// without the black bars cameras pad it with.
    func embeddedPreviewImage(of file: ImageFile, pixelLimit: Int) throws(ImagingError) -> VipsImageHandle? {
        let failure = file.decodeError
        guard let bytes = file.header.blob("jpeg-thumbnail-data") else { return nil }
        guard let opened = bytes.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) }) else {
            throw failure(VipsError.takeMessage())
        }
        let thumbnail = VipsImageHandle(opened)
        let orientation = Int32(file.header.orientation)
        let upright = try VipsImageHandle.make(failure) { thumbs_vips_orient(thumbnail.pointer, $0, orientation) }
        return try VipsRenderer.srgb(VipsRenderer.trimmingLetterbox(upright, toAspectOf: file.uprightSize), failure)
    }

    /// The whole picture at its DCT scale, which may have up to sixteen times the pixels of
    /// `decodeSize`; a progressive JPEG keeps every DCT coefficient of the whole image besides.
    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        // Chroma subsampling shrinks the colour components' coefficient planes.
        let samplesPerPixel: Double =
            switch file.header.exifString("jpeg-chroma-subsample") {
            case "4:2:0": 1.5
            case "4:2:2": 2.0
            default: Double(file.bands)
            }
        return Self.decoderMemory(
            stored: file.storedSize, upright: file.uprightSize, bands: file.bands, decodeSize: decodeSize,
            progressiveSamplesPerPixel: file.isInterlaced ? samplesPerPixel : nil)
    }

    /// libjpeg's memory for a picture of `decodeSize`: the picture at its DCT scale, and, for a
    /// progressive file, 2 bytes per sample of each component at full size, whatever the scale.
    static func decoderMemory(
        stored: PixelSize, upright: PixelSize, bands: Int, decodeSize: PixelSize, progressiveSamplesPerPixel: Double?
    ) -> Int {
        let scale = Int(VipsRenderer.decodeShrink(upright, to: decodeSize, cover: true))
        let picture = stored.width / scale * (stored.height / scale) * bands
        guard let progressiveSamplesPerPixel else { return picture }
        return picture + Int(Double(stored.pixelCount) * progressiveSamplesPerPixel * 2)
    }

    /// A JPEG ends with EOI (`FF D9`).
    func lacksEndMarker(_ tail: [UInt8]) -> Bool {
        !tail.suffix(2).elementsEqual([0xFF, 0xD9])
    }

    /// A motion photo's movie, and what its APP segments mark (``MediaSubtypes/init(jpeg:)``).
    func detectSubtypes(
        in bytes: FileBytes, xmp: [UInt8]?, of source: ImageSource, into properties: inout ImageProperties
    ) {
        properties.embeddedMovie = EmbeddedMovie(in: bytes, xmp: xmp)
        properties.mediaSubtypes.formUnion(MediaSubtypes(jpeg: JPEGSegments(in: bytes)))
    }
}
