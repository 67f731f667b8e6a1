import CVipsShim
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

extension VipsRenderer {
    /// Decodes (shrunk on load) just enough to hold `crop` at `spec`'s size, cuts it out, and
    /// fits or fills it into the box.
    package func render(_ path: String, spec: RenditionSpec, crop: NormalizedRect) throws(ImagingError) -> Thumbnail {
        try render(ImageLocation(path: path), spec: spec, crop: crop)
    }

    package func render(
        _ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect
    ) throws(ImagingError) -> Thumbnail {
        try render(try ImageSource(location), spec: spec, crop: crop)
    }

    /// As ``render(_:spec:crop:)-(ImageLocation,_,_)``, of a file already opened and found an asset.
    package func render(
        _ source: ImageSource, spec: RenditionSpec, crop: NormalizedRect
    ) throws(ImagingError) -> Thumbnail {
        try formats.handler(for: source).render(source, spec: spec, crop: crop, engine: self)
    }

    /// The size to decode the whole picture at so that `crop` of it covers `spec`, and the size
    /// of the output.
    static func cropGeometry(
        full: PixelSize, crop: NormalizedRect, spec: RenditionSpec
    ) -> (decodeSize: PixelSize, output: PixelSize) {
        let rect = crop.clamped
        let region = PixelSize(
            width: max(1, Int(Double(full.width) * rect.width)),
            height: max(1, Int(Double(full.height) * rect.height)))
        let output = RenditionGeometry.outputSize(source: region, spec: spec)
        let scale = min(1, RenditionGeometry.scale(source: region, output: output, contentMode: spec.contentMode))
        let decodeSize = PixelSize(
            width: max(1, Int((Double(full.width) * scale).rounded(.up))),
            height: max(1, Int((Double(full.height) * scale).rounded(.up))))
        return (decodeSize, output)
    }

    /// `crop` of `base` (the whole upright picture) fitted or filled into `output`, encoded.
    func cropped(
        _ base: VipsImageHandle, to crop: NormalizedRect, output: PixelSize, spec: RenditionSpec,
        _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> Thumbnail {
        let rect = crop.clamped
        let left = min(base.width - 1, Int(Double(base.width) * rect.x))
        let top = min(base.height - 1, Int(Double(base.height) * rect.y))
        let cut = try VipsImageHandle.make(failure) {
            thumbs_vips_crop(
                base.pointer, $0, Int32(left), Int32(top),
                Int32(max(1, min(base.width - left, Int(Double(base.width) * rect.width)))),
                Int32(max(1, min(base.height - top, Int(Double(base.height) * rect.height)))))
        }
        let fitted = try Self.resized(cut, to: output, fill: spec.contentMode == .aspectFill, failure)
        return try Self.encode(fitted, spec: spec)
    }
}
