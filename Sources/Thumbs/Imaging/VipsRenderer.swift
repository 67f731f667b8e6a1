import CVips
import CVipsShim

/// The synchronous core of the imaging layer: probe, render and extract previews with libvips.
///
/// Every call blocks its thread for the whole decode; ``ThumbnailRenderer`` runs them on render
/// threads. Errors are typed and keep libvips' message.
package struct VipsRenderer: Sendable {
    package var pixelLimit: Int

    package init(pixelLimit: Int = ImagingConfiguration().pixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// Reads what the header tells, decoding no pixels.
    package func probe(_ path: String) throws(ImagingError) -> ImageProperties {
        try VipsCallGate.run { () throws(ImagingError) in try probeFile(path) }
    }

    private func probeFile(_ path: String) throws(ImagingError) -> ImageProperties {
        let file = try ImageFile(path: path, pixelLimit: pixelLimit)
        let header = file.header
        let orientationTag = header.exifString("exif-ifd0-Orientation")
            .flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
            .flatMap { (1...8).contains($0) ? $0 : nil }
        return ImageProperties(
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
    }

    /// Renders one rendition straight from the file, with shrink-on-load.
    package func render(_ path: String, spec: RenditionSpec) throws(ImagingError) -> Thumbnail {
        try render(path, specs: [spec])[0]
    }

    /// Renders several renditions of one file from a single decode, in the order given.
    ///
    /// The file is decoded once, shrunk on load to the largest scale any spec needs; every
    /// rendition is then derived from that in-memory image. The file must not change meanwhile.
    package func render(_ path: String, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        guard !specs.isEmpty else { return [] }
        return try VipsCallGate.run { () throws(ImagingError) in try renderFile(path, specs: specs) }
    }

    private func renderFile(_ path: String, specs: [RenditionSpec]) throws(ImagingError) -> [Thumbnail] {
        let file = try ImageFile(path: path, pixelLimit: pixelLimit)
        let thumbnails: [Thumbnail]
        if specs.count == 1 {
            thumbnails = [try renderDirect(file, spec: specs[0])]
        } else {
            let decodeSize = RenditionGeometry.sharedDecodeSize(source: file.uprightSize, specs: specs)
            let base = try shrinkOnLoad(file, to: decodeSize, crop: false, exact: true)
            thumbnails = try specs.map { spec throws(ImagingError) in
                let output = RenditionGeometry.outputSize(source: file.uprightSize, spec: spec)
                let derived = try VipsImageHandle.make(file.decodeError) {
                    thumbs_vips_thumbnail_image(base.pointer, $0, Int32(output.width),
                        Int32(output.height), Self.crop(spec), Self.sizeMode(spec))
                }
                return try encode(derived, spec: spec)
            }
        }
        try file.ensureUnchanged()
        return thumbnails
    }

    /// The preview stored inside the file, upright and encoded, or nil when there is none.
    package func embeddedPreview(
        _ path: String, format: ThumbnailFormat = .jpeg, quality: Int = 82
    ) throws(ImagingError) -> Thumbnail? {
        try VipsCallGate.run { () throws(ImagingError) -> Thumbnail? in
            let file = try ImageFile(path: path, pixelLimit: pixelLimit)
            // A damaged preview (some phones write truncated ones) is no preview: the caller
            // simply waits for the full render.
            do throws(ImagingError) {
                guard let preview = try embeddedPreviewImage(of: file) else { return nil }
                let spec = RenditionSpec(size: preview.size, format: format, quality: quality)
                return try encode(preview.inMemory(file.decodeError), spec: spec)
            } catch where error.isLibvipsFailure {
                return nil
            }
        }
    }

    private func renderDirect(_ file: ImageFile, spec: RenditionSpec) throws(ImagingError) -> Thumbnail {
        let output = RenditionGeometry.outputSize(source: file.uprightSize, spec: spec)
        let image = try shrinkOnLoad(file, to: output, crop: spec.contentMode == .aspectFill,
                                     exact: spec.contentMode == .aspectFit)
        return try encode(image, spec: spec)
    }

    /// vips_thumbnail on the file to `size`, upright, 8-bit sRGB, decoded into memory so that
    /// decode errors surface here rather than in the encoder.
    private func shrinkOnLoad(
        _ file: ImageFile, to size: PixelSize, crop: Bool, exact: Bool
    ) throws(ImagingError) -> VipsImageHandle {
        let failure = file.decodeError
        let shrunk = try VipsImageHandle.make(failure) { out in
            file.path.withCString {
                thumbs_vips_thumbnail_file($0, out, Int32(size.width), Int32(size.height),
                    Int32(crop ? VIPS_INTERESTING_CENTRE.rawValue : VIPS_INTERESTING_NONE.rawValue),
                    Int32(exact ? VIPS_SIZE_FORCE.rawValue : VIPS_SIZE_BOTH.rawValue))
            }
        }
        return try Self.srgb(shrunk, failure).inMemory(failure)
    }

    /// The embedded preview as an upright 8-bit sRGB image (not yet decoded), or nil.
    private func embeddedPreviewImage(of file: ImageFile) throws(ImagingError) -> VipsImageHandle? {
        let failure = file.decodeError
        switch file.mediaType {
        case .jpeg:
            guard let bytes = file.header.blob("jpeg-thumbnail-data") else { return nil }
            guard let opened = bytes.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) })
            else { throw failure(VipsError.takeMessage()) }
            // The EXIF thumbnail has no orientation of its own: it shares the photo's.
            let orientation = Int32(file.header.orientation)
            let upright = try VipsImageHandle.make(failure) {
                thumbs_vips_orient(opened, $0, orientation)
            }
            g_object_unref(opened)
            return try Self.srgb(Self.trimmingLetterbox(upright, toAspectOf: file.uprightSize), failure)
        case .heif, .avif:
            let thumbnail = try VipsImageHandle.make(failure) { out in
                file.path.withCString { thumbs_vips_heif_thumbnail($0, out) }
            }
            // libheif hands back the primary image when there is no thumbnail; libheif has
            // already applied the container's rotation to both.
            guard thumbnail.size != file.header.size else { return nil }
            return try Self.srgb(thumbnail, failure)
        default:
            return nil
        }
    }

    /// Encodes with metadata stripped; JPEG loses alpha by flattening onto white.
    private func encode(_ image: VipsImageHandle, spec: RenditionSpec) throws(ImagingError) -> Thumbnail {
        var source = image
        if spec.format == .jpeg && image.hasAlpha {
            source = try VipsImageHandle.make(ImagingError.encodingFailed) {
                thumbs_vips_flatten_white(image.pointer, $0)
            }
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let quality = Int32(spec.quality)
        let status: Int32 = switch spec.format {
        case .jpeg: thumbs_vips_jpegsave_buffer(source.pointer, &buffer, &length, quality, 1)
        case .webp: thumbs_vips_webpsave_buffer(source.pointer, &buffer, &length, quality, 1)
        case .png: thumbs_vips_pngsave_buffer(source.pointer, &buffer, &length, 6, 1)
        }
        guard status == 0, let buffer else { throw .encodingFailed(VipsError.takeMessage()) }
        defer { g_free(buffer) }
        return Thumbnail(bytes: Array(UnsafeRawBufferPointer(start: buffer, count: length)),
                         pixelSize: source.size, format: spec.format)
    }

    /// Converts to 8-bit sRGB unless it already is (grey, 16-bit, CMYK and Lab all arrive here).
    private static func srgb(
        _ image: VipsImageHandle, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        if image.interpretation == VIPS_INTERPRETATION_sRGB && image.bandFormat == VIPS_FORMAT_UCHAR {
            return image
        }
        return try VipsImageHandle.make(failure) { thumbs_vips_to_srgb(image.pointer, $0) }
    }

    /// EXIF thumbnails are a fixed 160x120 whatever the photo's shape, so cameras pad them with
    /// black bars; centre-cropping to the photo's aspect ratio removes the bars, and the degraded
    /// image then lines up with the final one that replaces it.
    private static func trimmingLetterbox(
        _ preview: VipsImageHandle, toAspectOf photo: PixelSize
    ) throws(ImagingError) -> VipsImageHandle {
        let photoAspect = Double(photo.width) / Double(photo.height)
        let previewAspect = Double(preview.width) / Double(preview.height)
        guard abs(previewAspect / photoAspect - 1) > 0.03 else { return preview }
        let size = previewAspect > photoAspect
            ? PixelSize(width: max(1, Int((Double(preview.height) * photoAspect).rounded())), height: preview.height)
            : PixelSize(width: preview.width, height: max(1, Int((Double(preview.width) / photoAspect).rounded())))
        return try VipsImageHandle.make(ImagingError.corrupt) {
            thumbs_vips_crop(preview.pointer, $0, Int32((preview.width - size.width) / 2),
                             Int32((preview.height - size.height) / 2), Int32(size.width), Int32(size.height))
        }
    }

    private static func crop(_ spec: RenditionSpec) -> Int32 {
        Int32(spec.contentMode == .aspectFill ? VIPS_INTERESTING_CENTRE.rawValue : VIPS_INTERESTING_NONE.rawValue)
    }

    private static func sizeMode(_ spec: RenditionSpec) -> Int32 {
        Int32(spec.contentMode == .aspectFit ? VIPS_SIZE_FORCE.rawValue : VIPS_SIZE_BOTH.rawValue)
    }
}
