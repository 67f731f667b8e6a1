import ThumbsCore

/// A decoded picture taken through a render's steps without libvips where it can be
/// (``PixelPicture``): a video's frame, an image sequence's frame of grey or RGB. The steps and
/// the C code are those of ``image(_:)`` and the engine's renditions, so the thumbnails are the
/// same bytes, and a process that renders only videos never opens libvips.
extension DecodedPicture {
    /// The picture upright and in sRGB as a ``PixelPicture``; nil where libvips is needed: a
    /// picture encoded in a format of its own (a video's cover), a JPEG (a RAW's preview), alpha,
    /// a sensor's squeezed half-size decode, a profile lcms cannot read.
    func uprightPixelPicture() throws(ImagingError) -> PixelPicture? {
        guard shape == nil else { return nil }
        let picture: PixelPicture? =
            switch content {
            case .rgb(let pixels, let size): PixelPicture(copying: pixels, size: size, bands: 3, profile: nil)
            case .pixels(let pixels, let size, let bands, let profile):
                PixelPicture(copying: pixels, size: size, bands: bands, profile: profile)
            case .jpeg, .encoded: nil
            }
        return try picture?.upright(orientation: orientation)?.inSRGB()
    }

    /// `specs` made from the picture without libvips (``VipsRenderer/renditions(from:upright:specs:outputs:_:)``
    /// over a ``PixelPicture``); nil for the engine to make: WebP, an enlargement, or a picture
    /// ``uprightPixelPicture()`` does not take.
    func renditionsWithoutLibvips(
        upright: PixelSize, specs: [RenditionSpec], outputs: [PixelSize]
    ) throws(ImagingError) -> [Thumbnail]? {
        guard PixelPicture.makes(specs), let base = try uprightPixelPicture() else { return nil }
        return try VipsRenderer.renditions(
            from: base, upright: upright, specs: specs, outputs: outputs, ImagingError.corrupt)
    }

    /// The picture encoded at its own size, without libvips; nil where ``uprightPixelPicture()``
    /// does not take it, or `format` is WebP.
    func encodedWithoutLibvips(format: ThumbnailFormat, quality: Int) throws(ImagingError) -> Thumbnail? {
        guard format != .webp, let picture = try uprightPixelPicture() else { return nil }
        return try picture.encoded(for: RenditionSpec(size: picture.size, format: format, quality: quality))
    }
}
