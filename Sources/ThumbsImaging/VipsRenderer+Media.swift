import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// Videos and camera RAW files: FFmpeg or LibRaw decodes the picture (outside
/// ``VipsCallGate``: it is no libvips call, and may take seconds), then every rendition is made
/// from it as from a photo's decode: without libvips where the picture is plain pixels
/// (``DecodedPicture/renditionsWithoutLibvips(upright:specs:outputs:)``), else by libvips.
extension VipsRenderer {
    func render(_ media: some PictureFile, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        let upright = media.uprightSize
        let decodeSize = RenditionGeometry.sharedDecodeSize(source: upright, specs: specs)
        let outputs = specs.map { RenditionGeometry.outputSize(source: upright, spec: $0) }
        let needed = media.decodeMemory(covering: decodeSize, renditionPixels: outputs.reduce(0) { $0 + $1.pixelCount })
        return try memory.withReservation(needed) { () throws(ImagingError) in
            let picture = try media.picture(covering: decodeSize, degraded: false)
            let thumbnails: [Thumbnail]
            if let direct = try picture.renditionsWithoutLibvips(upright: upright, specs: specs, outputs: outputs) {
                thumbnails = direct
            } else {
                thumbnails = try Self.renditionsByLibvips(of: picture, upright: upright, specs: specs, outputs: outputs)
            }
            try media.ensureUnchanged()
            return thumbnails
        }
    }

    /// The cheap picture of opportunistic delivery: a video's cover or first keyframe, a RAW's
    /// embedded preview, encoded at its own size (at most the size of the photo).
    func embeddedPreview(
        _ media: some PictureFile, format: ThumbnailFormat, quality: Int
    ) throws(ImagingError) -> Thumbnail? {
        guard media.hasDegradedPicture else { return nil }
        let picture: DecodedPicture
        do throws(ImagingError) {
            picture = try media.picture(covering: PixelSize(width: 1, height: 1), degraded: true)
        } catch  where error.kind == .corrupt || error.kind == .truncated {
            // A damaged preview is no preview: the caller waits for the full render.
            return nil
        }
        if let thumbnail = try picture.encodedWithoutLibvips(format: format, quality: quality) { return thumbnail }
        return try VipsCallGate.run { () throws(ImagingError) -> Thumbnail? in
            let image = try picture.image(ImagingError.corrupt)
            return try Self.encode(image, spec: RenditionSpec(size: image.size, format: format, quality: quality))
        }
    }

    /// `specs` made from `picture` by libvips.
    static func renditionsByLibvips(
        of picture: DecodedPicture, upright: PixelSize, specs: [RenditionSpec], outputs: [PixelSize]
    ) throws(ImagingError) -> [Thumbnail] {
        try VipsCallGate.run { () throws(ImagingError) in
            let base = try picture.image(ImagingError.corrupt)
            return try renditions(from: base, upright: upright, specs: specs, outputs: outputs, ImagingError.corrupt)
        }
    }

    /// The part of the picture inside `crop`, fitted or filled into `spec`'s box.
    func render(_ media: some PictureFile, spec: RenditionSpec, crop: NormalizedRect) throws(ImagingError) -> Thumbnail
    {
        let full = media.uprightSize
        let (decodeSize, output) = Self.cropGeometry(full: full, crop: crop, spec: spec)
        let needed = media.decodeMemory(covering: decodeSize, renditionPixels: output.pixelCount)
        return try memory.withReservation(needed) { () throws(ImagingError) -> Thumbnail in
            let picture = try media.picture(covering: decodeSize, degraded: false)
            let thumbnail = try VipsCallGate.run { () throws(ImagingError) -> Thumbnail in
                let base = try picture.image(ImagingError.corrupt)
                return try cropped(base, to: crop, output: output, spec: spec, ImagingError.corrupt)
            }
            try media.ensureUnchanged()
            return thumbnail
        }
    }
}
