import ThumbsCore
import ThumbsRendering

/// Files whose header libvips reads (``StillImageHandler``): probed from that header, decoded
/// once shrunk on load, each rendition made from that decode, and a damaged file of a settled
/// copy rendered as far as it decodes (``partialRenditions(of:specs:decodeSize:outputs:failure:)``).
extension VipsRenderer {
    func probe(_ source: ImageSource, as handler: some StillImageHandler) throws(ImagingError) -> ImageProperties {
        let (probed, xmp) = try VipsCallGate.run { () throws(ImagingError) in
            let file = try ImageFile(source, handler: handler, pixelLimit: pixelLimit)
            let header = file.header
            let orientationTag = header.exifString("exif-ifd0-Orientation")
                .flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
                .flatMap { (1...8).contains($0) ? $0 : nil }
            var properties = ImageProperties(
                mediaType: file.mediaType,
                pixelSize: file.uprightSize,
                exifOrientation: header.has("orientation") ? header.orientation : orientationTag,
                captureDate: header.exifString("exif-ifd2-DateTimeOriginal").flatMap {
                    CaptureDate(exif: $0, offset: header.exifString("exif-ifd2-OffsetTimeOriginal"))
                },
                cameraMake: header.exifString("exif-ifd0-Make"),
                cameraModel: header.exifString("exif-ifd0-Model"),
                embeddedPreviewSize: try? handler.embeddedPreviewImage(of: file, pixelLimit: pixelLimit)?.size,
                pageCount: max(1, header.pageCount),
                fingerprint: file.fingerprint)
            let makerNote = header.blob("exif-data").flatMap(AppleMakerNote.init(exif:))
            properties.contentIdentifier = makerNote?.contentIdentifier
            properties.burst = makerNote.flatMap(BurstMembership.init(appleMakerNote:))
            if MediaSubtypes.isScreenshot(
                userComment: header.exifString("exif-ifd2-UserComment"), cameraMake: properties.cameraMake,
                mediaType: properties.mediaType, pixelSize: properties.pixelSize, path: source.path)
            {
                properties.mediaSubtypes.insert(.photoScreenshot)
            }
            return (properties, header.blob("xmp-data"))
        }
        var properties = probed
        // Outside the gate, as it is no libvips call: box headers read through the descriptor
        // already open (a render worker opens no path).
        handler.detectSubtypes(
            in: FileBytes(source.file, size: source.fingerprint.size), xmp: xmp, of: source, into: &properties)
        if let xmp {
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
