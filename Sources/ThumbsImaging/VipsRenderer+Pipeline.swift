import CPNGEncoder
import CVips
import CVipsShim
import ThumbsCore
import ThumbsSupport

/// The libvips steps renders are made of.
extension VipsRenderer {
    /// The file shrunk on load to `size` (see ``resized(_:to:fill:_:)`` for `fill`), upright,
    /// 8-bit sRGB (from its ICC profile, or the colour its format states otherwise), decoded into
    /// memory so that decode errors surface here rather than in the encoder. With `partial`,
    /// libvips' loaders decode past damage, as far as they can
    /// (``VipsRenderer/partialRenditions(of:specs:decodeSize:outputs:failure:)``); a picture
    /// that is all one colour then is the loader's fill alone, nothing decoded, and fails.
    func shrinkOnLoad(
        _ file: ImageFile, to size: PixelSize, fill: Bool, partial: Bool = false
    ) throws(ImagingError) -> VipsImageHandle {
        let failure = file.decodeError
        let shrunk: VipsImageHandle
        if !partial, let decoded = try file.handler.storedPicture(file, target: size, cover: fill) {
            // Resized as stored, then turned: the turn then moves the fewest pixels.
            let orientation = decoded.orientation
            let stored = orientation >= 5 ? PixelSize(width: size.height, height: size.width) : size
            shrunk = try Self.upright(
                Self.resized(decoded.image, to: stored, fill: fill, failure), orientation: orientation, failure)
        } else {
            shrunk = try file.handler.loaded(file, to: size, fill: fill, partial: partial)
        }
        let picture = try Self.srgb(file.handler.describingColour(shrunk, of: file, failure), failure).inMemory(failure)
        if partial && Self.isUniform(picture) { throw failure("nothing of the picture decoded") }
        return picture
    }

    /// libvips' thumbnail options for a picture of `size`: its width and height, the crop
    /// (centre when `fill`) and the sizing (both sides covered when `fill`, else forced to fit).
    static func thumbnailOptions(
        _ size: PixelSize, fill: Bool
    ) -> (width: Int32, height: Int32, interesting: Int32, sizing: Int32) {
        (
            Int32(clamping: size.width), Int32(clamping: size.height),
            Int32(fill ? VIPS_INTERESTING_CENTRE.rawValue : VIPS_INTERESTING_NONE.rawValue),
            Int32(fill ? VIPS_SIZE_BOTH.rawValue : VIPS_SIZE_FORCE.rawValue)
        )
    }

    /// The scale (1, 2, 4 or 8) a picture of `upright` size is decoded at for a thumbnail of
    /// `target` (covering it when `cover`, else fitting it): the largest that leaves the picture
    /// at least twice the target, so that the Lanczos-3 resize after it does at least a factor of
    /// two of the shrinking. It is a JPEG's DCT scaling (libjpeg-turbo's reduced IDCT, as libvips'
    /// own thumbnail chooses it), a HEIF picture's block mean and a RAW file's JPEG preview's
    /// scaling. A reduced IDCT or a block mean followed by a short resize blurs: decoded at the
    /// smallest scale still at least the target (gdk-pixbuf's and Pillow's `draft` choice),
    /// half of the shared JPEGs' 256-px thumbnails keep less than 0.9× the fine detail of a
    /// Lanczos-3 resize of the full decode (down to 0.71×); with the factor of two, one of 108
    /// (`scripts/bench-sharpness`, docs/BENCHMARKS.md). At scales 1, 1/2 and 1/4, the decoded
    /// picture has fewer than 16 times the target's pixels.
    static func decodeShrink(_ upright: PixelSize, to target: PixelSize, cover: Bool) -> Int32 {
        let across = Double(upright.width) / Double(max(1, target.width))
        let down = Double(upright.height) / Double(max(1, target.height))
        let factor = cover ? min(across, down) : max(across, down)
        return [8, 4, 2].first { Double($0) * minimumResize <= factor } ?? 1
    }

    /// How much of a thumbnail's shrinking the Lanczos-3 resize does at least, after a scaled
    /// decode (``decodeShrink(_:to:cover:)``).
    static let minimumResize = 2.0

    /// Encodes without any metadata, whatever the format: a thumbnail must not carry the
    /// photo's GPS position, and its colours are sRGB already. JPEG loses alpha by flattening
    /// onto white. An 8-bit grey or sRGB JPEG, flattened or opaque, is encoded by libjpeg-turbo
    /// directly (``JpegEncoder``), the rest by libvips.
    static func encode(_ image: VipsImageHandle, spec: RenditionSpec) throws(ImagingError) -> Thumbnail {
        var picture = image
        if spec.format == .jpeg && image.hasAlpha {
            picture = try VipsImageHandle.make(ImagingError.encodingFailed) {
                thumbs_vips_flatten_white(image.pointer, $0)
            }
        }
        if spec.format == .jpeg, let bytes = try JpegEncoder.encode(picture, quality: spec.quality) {
            return Thumbnail(bytes: bytes, pixelSize: picture.size, format: .jpeg)
        }
        let flattened = picture
        let source = try VipsImageHandle.make(ImagingError.encodingFailed) {
            thumbs_vips_without_metadata(flattened.pointer, $0)
        }
        if spec.format == .png, source.bandFormat == VIPS_FORMAT_UCHAR {
            return Thumbnail(bytes: try Self.png(of: source), pixelSize: source.size, format: .png)
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let quality = Int32(spec.quality)
        let status: Int32 =
            switch spec.format {
            case .jpeg: thumbs_vips_jpegsave_buffer(source.pointer, &buffer, &length, quality, 1, 0)
            case .webp: thumbs_vips_webpsave_buffer(source.pointer, &buffer, &length, quality, 1)
            case .png: thumbs_vips_pngsave_buffer(source.pointer, &buffer, &length, 1, 1)
            }
        guard status == 0, let buffer else { throw .encodingFailed(VipsError.takeMessage()) }
        defer { g_free(buffer) }
        let encoded = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        return Thumbnail(
            bytes: spec.format == .webp ? WebPMetadata.stripping(encoded) : encoded,
            pixelSize: source.size, format: spec.format)
    }

    /// An 8-bit image as a PNG from Thumbs' own encoder (`CPNGEncoder`: Paeth filter, zlib's
    /// run-length strategy), smaller and faster than libvips' for thumbnails of photos.
    static func png(of image: VipsImageHandle) throws(ImagingError) -> [UInt8] {
        var length = 0
        guard let pixels = vips_image_write_to_memory(image.pointer, &length) else {
            throw .encodingFailed(VipsError.takeMessage())
        }
        defer { g_free(pixels) }
        var png: UnsafeMutablePointer<UInt8>?
        var pngLength = 0
        guard
            thumbs_png_encode(
                pixels.assumingMemoryBound(to: UInt8.self), Int32(image.width), Int32(image.height),
                Int32(image.bands), &png, &pngLength) == 0, let png
        else { throw .encodingFailed("PNG encoding failed (\(image.width)x\(image.height), \(image.bands) bands)") }
        defer { free(png) }
        return Array(UnsafeBufferPointer(start: png, count: pngLength))
    }

    /// Colour-manages to 8-bit sRGB: an embedded profile (Display P3, Adobe RGB, a CMYK press
    /// profile) is converted, since metadata stripping would otherwise drop it and leave the
    /// colours dull; grey, 16-bit and Lab images are converted by interpretation. A profile that
    /// is sRGB already (most cameras' and phones') is not converted: lcms would build a
    /// transform for the photo only to map each colour to itself. An 8-bit grey or RGB picture
    /// is converted by the transform kept for its profile (``convertedToSRGB(_:_:)``), the rest
    /// by libvips.
    static func srgb(
        _ image: VipsImageHandle, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        var managed = image
        if image.has("icc-profile-data") && thumbs_vips_profile_is_srgb(image.pointer) == 0 {
            if let converted = try convertedToSRGB(image, failure) { return converted }
            managed = try VipsImageHandle.make(failure) { thumbs_vips_icc_transform(image.pointer, $0, "srgb") }
        }
        if managed.interpretation == VIPS_INTERPRETATION_sRGB && managed.bandFormat == VIPS_FORMAT_UCHAR {
            return managed
        }
        let converted = managed
        return try VipsImageHandle.make(failure) { thumbs_vips_to_srgb(converted.pointer, $0) }
    }

    /// EXIF thumbnails are a fixed 160x120 whatever the photo's shape, so cameras pad them with
    /// black bars; centre-cropping to the photo's aspect ratio removes the bars, and the degraded
    /// image then lines up with the final one that replaces it.
    static func trimmingLetterbox(
        _ preview: VipsImageHandle, toAspectOf photo: PixelSize
    ) throws(ImagingError) -> VipsImageHandle {
        let size = letterboxTrimmed(preview.size, toAspectOf: photo)
        guard size != preview.size else { return preview }
        return try VipsImageHandle.make(ImagingError.corrupt) {
            thumbs_vips_crop(
                preview.pointer, $0, Int32((preview.width - size.width) / 2),
                Int32((preview.height - size.height) / 2), Int32(size.width), Int32(size.height))
        }
    }

    /// The size of a preview of `preview` pixels once ``trimmingLetterbox(_:toAspectOf:)`` took
    /// its bars off: itself when its aspect ratio is within 3 % of the photo's.
    static func letterboxTrimmed(_ preview: PixelSize, toAspectOf photo: PixelSize) -> PixelSize {
        let photoAspect = Double(photo.width) / Double(photo.height)
        let previewAspect = Double(preview.width) / Double(preview.height)
        guard abs(previewAspect / photoAspect - 1) > 0.03 else { return preview }
        return previewAspect > photoAspect
            ? PixelSize(width: max(1, Int((Double(preview.height) * photoAspect).rounded())), height: preview.height)
            : PixelSize(width: preview.width, height: max(1, Int((Double(preview.width) / photoAspect).rounded())))
    }
}
