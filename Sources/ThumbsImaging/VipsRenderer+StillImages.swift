import ThumbsCore
import ThumbsRendering

/// Files whose header libvips reads (``StillImageHandler``): probed from that header, decoded
/// once shrunk on load, each rendition made from that decode, and a damaged file of a settled
/// copy rendered as far as it decodes (``partialRenditions(of:specs:decodeSize:outputs:failure:)``).
extension VipsRenderer {
    func probe(_ source: ImageSource, as handler: some StillImageHandler) throws(ImagingError) -> ImageProperties {
        let header = try VipsCallGate.run { () throws(ImagingError) in
            let file = try ImageFile(source, handler: handler, pixelLimit: pixelLimit)
            let header = file.header
            let orientationTag = header.exifString("exif-ifd0-Orientation")
                .flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
                .flatMap { (1...8).contains($0) ? $0 : nil }
            return StillHeader(
                uprightSize: file.uprightSize,
                exifOrientation: header.has("orientation") ? header.orientation : orientationTag,
                make: header.exifString("exif-ifd0-Make"), model: header.exifString("exif-ifd0-Model"),
                dateTimeOriginal: header.exifString("exif-ifd2-DateTimeOriginal"),
                offsetTimeOriginal: header.exifString("exif-ifd2-OffsetTimeOriginal"),
                userComment: header.exifString("exif-ifd2-UserComment"), exif: header.blob("exif-data"),
                xmp: header.blob("xmp-data"),
                embeddedPreviewSize: try? handler.embeddedPreviewImage(of: file, pixelLimit: pixelLimit)?.size,
                pageCount: max(1, header.pageCount))
        }
        return Self.properties(of: source, header, handler: handler)
    }

    /// What a still's header says, read by libvips or by its handler.
    struct StillHeader {
        var uprightSize: PixelSize
        var exifOrientation: Int?
        /// EXIF's fields as ``VipsImageHandle/exifString(_:)`` gives them.
        var make, model, dateTimeOriginal, offsetTimeOriginal, userComment: String?
        /// The EXIF block and the XMP packet, as stored.
        var exif, xmp: [UInt8]?
        var embeddedPreviewSize: PixelSize?
        var pageCount: Int
    }

    /// The properties of `source`, whose header says `header`, with what its file's boxes or
    /// segments, its maker note, its XMP packet and its name tell.
    static func properties(
        of source: ImageSource, _ header: StillHeader, handler: some StillImageHandler
    ) -> ImageProperties {
        var properties = ImageProperties(
            mediaType: source.mediaType, pixelSize: header.uprightSize, exifOrientation: header.exifOrientation,
            captureDate: header.dateTimeOriginal.flatMap { CaptureDate(exif: $0, offset: header.offsetTimeOriginal) },
            cameraMake: header.make, cameraModel: header.model, embeddedPreviewSize: header.embeddedPreviewSize,
            pageCount: header.pageCount, fingerprint: source.fingerprint)
        let makerNote = header.exif.flatMap(AppleMakerNote.init(exif:))
        properties.contentIdentifier = makerNote?.contentIdentifier
        properties.burst = makerNote.flatMap(BurstMembership.init(appleMakerNote:))
        if MediaSubtypes.isScreenshot(
            userComment: header.userComment, cameraMake: properties.cameraMake, mediaType: properties.mediaType,
            pixelSize: properties.pixelSize, path: source.path)
        {
            properties.mediaSubtypes.insert(.photoScreenshot)
        }
        // Box headers read through the descriptor already open (a render worker opens no path).
        handler.detectSubtypes(
            in: FileBytes(source.file, size: source.fingerprint.size), xmp: header.xmp, of: source, into: &properties)
        if let xmp = header.xmp {
            let packet = XMPPacket(xmp)
            properties.mediaSubtypes.formUnion(MediaSubtypes(xmp: packet))
            properties.burst = properties.burst ?? BurstMembership(xmp: packet)
        }
        // A name is read only where the file's metadata says nothing of a burst.
        if properties.burst == nil, let name = source.path.split(separator: "/").last {
            properties.burst = BurstMembership(fileName: String(name))
        }
        return properties
    }

    func render(
        _ source: ImageSource, as handler: some StillImageHandler, specs: [RenditionSpec]
    ) throws(ImagingError) -> [Thumbnail] {
        try VipsCallGate.run { () throws(ImagingError) in
            let (file, damage) = try openedForRender(source, as: handler)
            let decodeSize = RenditionGeometry.sharedDecodeSize(source: file.uprightSize, specs: specs)
            let outputs = specs.map { RenditionGeometry.outputSize(source: file.uprightSize, spec: $0) }
            let needed = file.decodeMemory(to: decodeSize, renditionPixels: outputs.reduce(0) { $0 + $1.pixelCount })
            return try memory.withReservation(needed) { () throws(ImagingError) in
                let thumbnails: [Thumbnail]
                do throws(ImagingError) {
                    if let damage { throw damage }
                    thumbnails = try renderRenditions(of: file, specs: specs, decodeSize: decodeSize, outputs: outputs)
                } catch  where error.endsDecodeEarly && source.hasSettled {
                    thumbnails = try partialRenditions(
                        of: file, specs: specs, decodeSize: decodeSize, outputs: outputs, failure: error)
                }
                try file.ensureUnchanged()
                return thumbnails
            }
        }
    }

    func render(
        _ source: ImageSource, as handler: some StillImageHandler, spec: RenditionSpec, crop: NormalizedRect
    ) throws(ImagingError) -> Thumbnail {
        try VipsCallGate.run { () throws(ImagingError) -> Thumbnail in
            let file = try ImageFile(source, handler: handler, pixelLimit: pixelLimit)
            let (decodeSize, output) = Self.cropGeometry(full: file.uprightSize, crop: crop, spec: spec)
            let needed = file.decodeMemory(to: decodeSize, renditionPixels: output.pixelCount)
            return try memory.withReservation(needed) { () throws(ImagingError) -> Thumbnail in
                let base = try shrinkOnLoad(file, to: decodeSize, fill: false)
                let thumbnail = try cropped(base, to: crop, output: output, spec: spec, file.decodeError)
                try file.ensureUnchanged()
                return thumbnail
            }
        }
    }

    func embeddedPreview(
        _ source: ImageSource, as handler: some StillImageHandler, format: ThumbnailFormat, quality: Int
    ) throws(ImagingError) -> Thumbnail? {
        try VipsCallGate.run { () throws(ImagingError) -> Thumbnail? in
            let file = try ImageFile(source, handler: handler, pixelLimit: pixelLimit)
            // A damaged preview (some phones write truncated ones) is no preview: the caller
            // simply waits for the full render.
            do throws(ImagingError) {
                guard let preview = try handler.embeddedPreviewImage(of: file, pixelLimit: pixelLimit) else {
                    return nil
                }
                let spec = RenditionSpec(size: preview.size, format: format, quality: quality)
                return try Self.encode(preview.inMemory(file.decodeError), spec: spec)
            } catch  where error.isLibvipsFailure {
                return nil
            }
        }
    }
}
