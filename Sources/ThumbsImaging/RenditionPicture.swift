import ThumbsCore

/// A whole decoded picture, upright and sRGB, that a render makes its renditions from: a libvips
/// image, or a ``PixelPicture`` that no libvips image holds. ``VipsRenderer/renditions(from:upright:specs:outputs:_:)``
/// takes either.
protocol RenditionPicture {
    var size: PixelSize { get }
    /// Resized for a rendition of `size` (see ``VipsRenderer/resized(_:to:fill:_:)`` for
    /// `fill`), in memory, ready to be resized again or encoded.
    func resizedForRendition(to size: PixelSize, fill: Bool, _ failure: (String) -> ImagingError)
        throws(ImagingError) -> Self
    /// Encoded for `spec`, with the placeholder of its picture when `placeholder`.
    func encoded(for spec: RenditionSpec, placeholder: Bool) throws(ImagingError) -> Thumbnail
}

extension VipsImageHandle: RenditionPicture {
    func resizedForRendition(
        to size: PixelSize, fill: Bool, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        try VipsRenderer.resized(self, to: size, fill: fill, failure).inMemory(failure)
    }

    func encoded(for spec: RenditionSpec, placeholder: Bool) throws(ImagingError) -> Thumbnail {
        try VipsRenderer.encode(self, spec: spec, placeholder: placeholder)
    }
}

extension PixelPicture: RenditionPicture {
    func resizedForRendition(
        to size: PixelSize, fill: Bool, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> PixelPicture {
        guard let resized = try resized(to: size, fill: fill) else {
            throw failure("a \(self.size.width)x\(self.size.height) picture does not shrink to \(size)")
        }
        return resized
    }

    func encoded(for spec: RenditionSpec, placeholder: Bool) throws(ImagingError) -> Thumbnail {
        guard var thumbnail = try encoded(for: spec) else {
            throw .encodingFailed("\(spec.format.rawValue) is libvips' to encode")
        }
        if placeholder { thumbnail.placeholder = try? ThumbHash(picture: self) }
        return thumbnail
    }
}
