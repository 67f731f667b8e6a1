import CVips
import CVipsShim
import ThumbsCore
import ThumbsSupport

/// Thumbnails composed into one image, in a grid, for a person to look at what was warmed.
public enum ContactSheet {
    /// Joins `thumbnails` (in order, `across` per row, centred in equal cells) and encodes the
    /// sheet as `format`.
    public static func compose(
        _ thumbnails: [Thumbnail], across: Int = 8, format: ThumbnailFormat = .jpeg, quality: Int = 85
    ) throws(ImagingError) -> Thumbnail {
        try VipsRuntime.ensureStarted()
        guard !thumbnails.isEmpty else { throw .unsupportedFormat("no thumbnails to compose") }
        return try VipsCallGate.run { () throws(ImagingError) in
            try composeInGate(thumbnails, across: across, format: format, quality: quality)
        }
    }

    private static func composeInGate(
        _ thumbnails: [Thumbnail], across: Int, format: ThumbnailFormat, quality: Int
    ) throws(ImagingError) -> Thumbnail {
        var images: [VipsImageHandle] = []
        for thumbnail in thumbnails {
            guard let opened = thumbnail.bytes.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) })
            else { throw .corrupt(VipsError.takeMessage()) }
            // Every cell in three bands, so JPEG thumbnails and PNG ones with alpha can share a sheet.
            let decoded = VipsImageHandle(opened)
            let flat =
                decoded.hasAlpha
                ? try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_flatten_white(decoded.pointer, $0) }
                : decoded
            images.append(try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_to_srgb(flat.pointer, $0) })
        }
        let cell = PixelSize(width: images.map(\.width).max() ?? 1, height: images.map(\.height).max() ?? 1)
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map(\.pointer)
        let sheet = try VipsImageHandle.make(ImagingError.encodingFailed) { out in
            thumbs_vips_arrayjoin(
                &pointers, Int32(pointers.count), out, Int32(max(1, min(across, images.count))),
                Int32(cell.width), Int32(cell.height), 4)
        }
        return try VipsRenderer.encode(sheet, spec: RenditionSpec(size: sheet.size, format: format, quality: quality))
    }
}
