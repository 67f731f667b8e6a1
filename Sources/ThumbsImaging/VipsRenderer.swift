import CVips
import CVipsShim
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// The synchronous core of the imaging layer: probe, render and extract previews. Each file goes
/// to the handler of its format (``FormatRegistry``), which decodes it with libvips or its own
/// library (libjpeg-turbo, libheif, FFmpeg, LibRaw, libavif) and uses this renderer as its
/// engine: libvips resizes, colour-manages and encodes every picture, whoever decoded it.
///
/// Every call blocks its thread for the whole decode; ``ThumbnailRenderer`` runs them on render
/// threads. Errors are typed and keep the decoder's message.
package struct VipsRenderer: Sendable {
    package var pixelLimit: Int
    /// How long one video or RAW decode may take before it is stopped.
    package var decodeTimeLimit: Duration
    /// Shared by every copy of this renderer (and so by all its render threads).
    let memory: DecodeMemoryBudget
    /// Who decodes each format.
    let formats: FormatRegistry

    package init(
        pixelLimit: Int = ImagingConfiguration().pixelLimit,
        decodeMemoryBudget: ByteCount = ImagingConfiguration.defaultDecodeMemoryBudget,
        decodeTimeLimit: Duration = ImagingConfiguration.defaultDecodeTimeLimit,
        formats: FormatRegistry = .standard
    ) {
        self.pixelLimit = pixelLimit
        self.formats = formats
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
        try formats.handler(for: source).probe(source, engine: self)
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
    /// A JPEG rendition whose spec asks for a gain map is an Ultra HDR JPEG when the file is
    /// HDR (``UltraHDRRendition``).
    package func render(_ source: ImageSource, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        guard !specs.isEmpty else { return [] }
        let handler = try formats.handler(for: source)
        let thumbnails = try handler.render(source, specs: specs, engine: self)
        let largest = zip(specs, thumbnails).filter { $0.0.carriesGainMap }
            .max { $0.1.pixelSize.pixelCount < $1.1.pixelSize.pixelCount }
        guard let (spec, thumbnail) = largest,
            let gainMap = try gainMapSource(
                of: source, handler: handler, size: UltraHDRRendition.gainMapSize(of: thumbnail.pixelSize),
                fill: spec.contentMode == .aspectFill)
        else { return thumbnails }
        return try zip(specs, thumbnails).map { spec, thumbnail throws(ImagingError) in
            guard spec.carriesGainMap else { return thumbnail }
            return try UltraHDRRendition.make(
                thumbnail, source: gainMap, fill: spec.contentMode == .aspectFill, quality: spec.quality)
        }
    }

    /// The handler's gain-map source for `source`; nil, the renditions left SDR, when its decode
    /// would pass the decode budget, which the SDR renditions' did not: they are still the
    /// picture.
    private func gainMapSource(
        of source: ImageSource, handler: any FormatHandler, size: PixelSize, fill: Bool
    ) throws(ImagingError) -> GainMapSource? {
        do {
            return try handler.gainMapSource(source, size: size, fill: fill, engine: self)
        } catch {
            guard case .tooMuchMemory = error else { throw error }
            return nil
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
        try formats.handler(for: source).embeddedPreview(source, format: format, quality: quality, engine: self)
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
                return try Self.encode(image, spec: spec, placeholder: index == smallest)
            }
        }
        let base = try shrinkOnLoad(file, to: decodeSize, fill: false, partial: partial)
        return try Self.renditions(
            from: base, upright: file.uprightSize, specs: specs, outputs: outputs, file.decodeError)
    }

    /// `specs` made from `base`, the whole upright picture decoded at least as large as any
    /// of them needs; `outputs` are their sizes, in the same order.
    static func renditions<Picture: RenditionPicture>(
        from base: Picture, upright: PixelSize, specs: [RenditionSpec], outputs: [PixelSize],
        _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> [Thumbnail] {
        // Largest first, each rendition is made from the smallest whole picture made so far that
        // is its own whole picture (a fill is then its crop) or at least twice it, so that no
        // rendition is a short resize of one already resampled: a 256 grid cell from the 1024
        // preview resizes a sixteenth of the pixels it would from the decode. The decode is
        // large enough for the rest (``RenditionGeometry/sharedScale(_:)``).
        func scale(_ size: PixelSize, _ mode: ContentMode) -> Double {
            RenditionGeometry.scale(source: upright, output: size, contentMode: mode)
        }
        var wholePictures: [(picture: Picture, scale: Double)] = [(base, scale(base.size, .aspectFit))]
        let smallest = Self.smallest(outputs)
        var thumbnails = [Thumbnail?](repeating: nil, count: specs.count)
        for index in specs.indices.sorted(by: {
            scale(outputs[$0], specs[$0].contentMode) > scale(outputs[$1], specs[$1].contentMode)
        }) {
            let spec = specs[index], output = outputs[index]
            let needed = scale(output, spec.contentMode)
            let source =
                wholePictures.last { $0.scale == needed || RenditionGeometry.isTwice($0.scale, or: needed) }?.picture
                ?? base
            let derived = try source.resizedForRendition(to: output, fill: spec.contentMode == .aspectFill, failure)
            if spec.contentMode == .aspectFit {
                wholePictures.append((derived, scale(derived.size, .aspectFit)))
            }
            thumbnails[index] = try derived.encoded(for: spec, placeholder: index == smallest)
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
    static func encode(
        _ image: VipsImageHandle, spec: RenditionSpec, placeholder: Bool
    ) throws(ImagingError) -> Thumbnail {
        var thumbnail = try encode(image, spec: spec)
        if placeholder { thumbnail.placeholder = try? ThumbHash(picture: image) }
        return thumbnail
    }
}
