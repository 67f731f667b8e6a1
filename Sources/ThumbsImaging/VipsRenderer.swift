import CVips
import CVipsShim
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// The synchronous core of the imaging layer: probe, render and extract previews with libvips,
/// and with FFmpeg and LibRaw for videos and camera RAW files (``MediaFile``), whose pictures
/// libvips then resizes and encodes like a photo's.
///
/// Every call blocks its thread for the whole decode; ``ThumbnailRenderer`` runs them on render
/// threads. Errors are typed and keep libvips' message.
package struct VipsRenderer: Sendable {
    package var pixelLimit: Int
    /// How long one video or RAW decode may take before it is stopped.
    package var decodeTimeLimit: Duration
    /// Shared by every copy of this renderer (and so by all its render threads).
    let memory: DecodeMemoryBudget

    package init(
        pixelLimit: Int = ImagingConfiguration().pixelLimit,
        decodeMemoryBudget: ByteCount = ImagingConfiguration.defaultDecodeMemoryBudget,
        decodeTimeLimit: Duration = ImagingConfiguration.defaultDecodeTimeLimit
    ) {
        self.pixelLimit = pixelLimit
        self.decodeTimeLimit = decodeTimeLimit
        memory = DecodeMemoryBudget(decodeMemoryBudget)
    }

    /// The most decode memory reserved at once so far.
    package var peakDecodeMemory: Int { memory.peakReserved }

    /// Reads what the header tells, decoding no pixels.
    package func probe(_ path: String) throws(ImagingError) -> ImageProperties {
        try probe(ImageLocation(path: path))
    }

    /// Reads what the header tells, decoding no pixels.
    package func probe(_ location: ImageLocation) throws(ImagingError) -> ImageProperties {
        try probe(try ImageSource(location))
    }

    package func probe(_ source: ImageSource) throws(ImagingError) -> ImageProperties {
        if let media = try MediaFile(source, pixelLimit: pixelLimit, timeLimit: decodeTimeLimit) {
            return media.properties
        }
        let (probed, xmp) = try VipsCallGate.run { () throws(ImagingError) in
            let file = try ImageFile(source, pixelLimit: pixelLimit)
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
                embeddedPreviewSize: try? embeddedPreviewImage(of: file)?.size,
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
        let file = FileBytes(source.file, size: source.fingerprint.size)
        if source.mediaType == .jpeg || source.mediaType == .heif {
            properties.embeddedMovie = EmbeddedMovie(in: file, xmp: xmp)
        }
        if source.mediaType == .jpeg {
            properties.mediaSubtypes.formUnion(MediaSubtypes(jpeg: JPEGSegments(in: file)))
        }
        if source.mediaType == .heif || source.mediaType == .avif, let meta = HEIFMetaBox(in: file) {
            properties.mediaSubtypes.formUnion(MediaSubtypes(heif: meta))
        }
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

    /// Renders one rendition straight from the file, with shrink-on-load.
    package func render(_ path: String, spec: RenditionSpec) throws(ImagingError) -> Thumbnail {
        try render(ImageLocation(path: path), specs: [spec])[0]
    }

    /// Renders several renditions of the file named by `path` (a file named on its own).
    package func render(_ path: String, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        try render(ImageLocation(path: path), specs: specs)
    }

    /// Renders several renditions of one file from a single decode, in the order given.
    ///
    /// The file is decoded once, shrunk on load to the largest scale any spec needs; every
    /// rendition is then derived from that in-memory image. The file must not change meanwhile.
    package func render(_ location: ImageLocation, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        guard !specs.isEmpty else { return [] }
        return try render(try ImageSource(location), specs: specs)
    }

    /// As ``render(_:specs:)-(ImageLocation,_)``, of a file already opened and found an asset.
    package func render(_ source: ImageSource, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        guard !specs.isEmpty else { return [] }
        if let media = try MediaFile(source, pixelLimit: pixelLimit, timeLimit: decodeTimeLimit) {
            return try render(media, specs: specs)
        }
        return try VipsCallGate.run { () throws(ImagingError) in
            let (file, damage) = try openedForRender(source)
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

    /// ``embeddedPreview(_:format:quality:)-(ImageLocation,_,_)`` of a file named on its own.
    package func embeddedPreview(
        _ path: String, format: ThumbnailFormat = .jpeg, quality: Int = RenditionSpec.defaultQuality
    ) throws(ImagingError) -> Thumbnail? {
        try embeddedPreview(ImageLocation(path: path), format: format, quality: quality)
    }

    /// The preview stored inside the file, upright and encoded, or nil when there is none.
    package func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat = .jpeg, quality: Int = RenditionSpec.defaultQuality
    ) throws(ImagingError) -> Thumbnail? {
        try embeddedPreview(try ImageSource(location), format: format, quality: quality)
    }

    /// As ``embeddedPreview(_:format:quality:)-(ImageLocation,_,_)``, of a file already opened and
    /// found an asset.
    package func embeddedPreview(
        _ source: ImageSource, format: ThumbnailFormat, quality: Int
    ) throws(ImagingError) -> Thumbnail? {
        if let media = try MediaFile(source, pixelLimit: pixelLimit, timeLimit: decodeTimeLimit) {
            return try embeddedPreview(media, format: format, quality: quality)
        }
        return try VipsCallGate.run { () throws(ImagingError) -> Thumbnail? in
            let file = try ImageFile(source, pixelLimit: pixelLimit)
            // A damaged preview (some phones write truncated ones) is no preview: the caller
            // simply waits for the full render.
            do throws(ImagingError) {
                guard let preview = try embeddedPreviewImage(of: file) else { return nil }
                let spec = RenditionSpec(size: preview.size, format: format, quality: quality)
                return try encode(preview.inMemory(file.decodeError), spec: spec)
            } catch  where error.isLibvipsFailure {
                return nil
            }
        }
    }

    /// `specs` from one decode at `decodeSize`; `outputs` are their sizes, in the same order.
    /// With `partial`, the decode goes past damage (``shrinkOnLoad(_:to:fill:partial:)``).
    func renderRenditions(
        of file: ImageFile, specs: [RenditionSpec], decodeSize: PixelSize, outputs: [PixelSize],
        partial: Bool = false
    ) throws(ImagingError) -> [Thumbnail] {
        // One decode for all, unless that decode would itself be over the pixel limit (a fill of
        // a strip-shaped image with upscaling): then each rendition is decoded on its own.
        guard specs.count > 1, decodeSize.pixelCount <= pixelLimit else {
            let smallest = Self.smallest(outputs)
            return try specs.indices.map { index throws(ImagingError) in
                let spec = specs[index]
                let image = try shrinkOnLoad(
                    file, to: outputs[index], fill: spec.contentMode == .aspectFill, partial: partial)
                return try encode(image, spec: spec, placeholder: index == smallest)
            }
        }
        let base = try shrinkOnLoad(file, to: decodeSize, fill: false, partial: partial)
        return try renditions(from: base, upright: file.uprightSize, specs: specs, outputs: outputs, file.decodeError)
    }

    /// `specs` made from `base`, the whole upright picture decoded at least as large as any
    /// of them needs; `outputs` are their sizes, in the same order.
    func renditions(
        from base: VipsImageHandle, upright: PixelSize, specs: [RenditionSpec], outputs: [PixelSize],
        _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> [Thumbnail] {
        // Largest first, each rendition is made from the smallest whole picture made so far that
        // still covers it: a 256 grid cell from the 1024 preview resizes a sixteenth of the
        // pixels it would from the decode.
        func scale(_ size: PixelSize, _ mode: ContentMode) -> Double {
            RenditionGeometry.scale(source: upright, output: size, contentMode: mode)
        }
        var wholePictures: [(image: VipsImageHandle, scale: Double)] = [(base, scale(base.size, .aspectFit))]
        let smallest = Self.smallest(outputs)
        var thumbnails = [Thumbnail?](repeating: nil, count: specs.count)
        for index in specs.indices.sorted(by: {
            scale(outputs[$0], specs[$0].contentMode) > scale(outputs[$1], specs[$1].contentMode)
        }) {
            let spec = specs[index], output = outputs[index]
            let needed = scale(output, spec.contentMode)
            let source = wholePictures.last { $0.scale >= needed }?.image ?? base
            var derived = try Self.resized(source, to: output, fill: spec.contentMode == .aspectFill, failure)
            if spec.contentMode == .aspectFit {
                derived = try derived.inMemory(failure)
                wholePictures.append((derived, scale(derived.size, .aspectFit)))
            }
            thumbnails[index] = try encode(derived, spec: spec, placeholder: index == smallest)
        }
        return thumbnails.map { $0! }
    }

    /// The index of the smallest of `outputs`: the thumbnail that carries the render's
    /// placeholder.
    static func smallest(_ outputs: [PixelSize]) -> Int? {
        outputs.indices.min { outputs[$0].pixelCount < outputs[$1].pixelCount }
    }

    /// `image` encoded for `spec`, with the placeholder of its picture when `placeholder`: made
    /// here from the pixels, it costs a resize of a small picture, where making it from the
    /// encoded thumbnail would decode it again. A placeholder that cannot be made is left out.
    func encode(_ image: VipsImageHandle, spec: RenditionSpec, placeholder: Bool) throws(ImagingError) -> Thumbnail {
        var thumbnail = try encode(image, spec: spec)
        if placeholder { thumbnail.placeholder = try? ThumbHash(picture: image) }
        return thumbnail
    }
}
