import CVipsShim
import ThumbsCore
import ThumbsRendering

/// WebP: libvips' `webpload`; libwebp decodes the whole picture into RGBA, scaled down to four
/// times the thumbnail at most.
struct WebPHandler: StillImageHandler {
    let name = "WebP"
    let mediaTypes: Set<MediaType> = [.webp]
    let libraries: Set<DecodingLibrary> = [.libvips]

    func decoding(with loaded: DecoderLibraries) -> String {
        "libvips' webpload (libwebp), its first frame"
    }

    /// libvips' thumbnail of the file, but with libwebp's scaled decode stopped at
    /// ``leftToResize`` times the thumbnail, where libvips' own thumbnail has libwebp scale to
    /// the thumbnail itself.
    func loaded(
        _ file: ImageFile, to size: PixelSize, fill: Bool, partial: Bool
    ) throws(ImagingError) -> VipsImageHandle {
        let scale = Self.decodeScale(file.uprightSize, to: size, cover: fill)
        let (width, height, interesting, sizing) = VipsRenderer.thumbnailOptions(size, fill: fill)
        return try VipsImageHandle.make(file.decodeError) { out in
            thumbs_vips_thumbnail_webp(
                file.descriptor, scale, out, width, height, interesting, sizing, partial ? 1 : 0)
        }
    }

    /// The scale (at most 1) libwebp decodes a picture of `upright` size at for a thumbnail of
    /// `target` (covering it when `cover`, else fitting it): ``leftToResize`` times the
    /// thumbnail, or the whole picture when that is less.
    static func decodeScale(_ upright: PixelSize, to target: PixelSize, cover: Bool) -> Double {
        let across = Double(upright.width) / Double(max(1, target.width))
        let down = Double(upright.height) / Double(max(1, target.height))
        let factor = cover ? min(across, down) : max(across, down)
        return factor > leftToResize ? leftToResize / factor : 1
    }

    /// How much of the shrinking libvips' Lanczos-3 resize does at least after libwebp's scaled
    /// decode. libwebp's scaler averages areas, and saves no decoding (every macroblock is
    /// decoded whole): scaling all the way, as libvips' thumbnail does, keeps 0.57-0.79 times
    /// the fine detail of a Lanczos-3 downscale of the whole picture, and leaving twice the
    /// thumbnail, as a JPEG's DCT scale does, 0.88 (`scripts/bench-sharpness`, denali.webp).
    static let leftToResize = 4.0

    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        file.storedSize.pixelCount * 4 + file.streamedLineMemory(lines: 1152)
    }
}
