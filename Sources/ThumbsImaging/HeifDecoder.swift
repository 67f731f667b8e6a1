import CHeifShim
import CVips
import CVipsShim
import Glibc
import ThumbsCore

/// HEIF pictures (HEIC and AVIF) decoded by libheif as stored, then averaged down by
/// `CHeifShim`.
///
/// libvips' loader asks libheif for the upright picture in interleaved RGB: libheif then turns
/// the whole decoded picture (a sample at a time) and interleaves it before libvips shrinks it
/// to a thumbnail. Here libheif's planar RGB is averaged over blocks of the scale the render
/// picked, and turned once small, as a JPEG's orientation is. At full size the pixels are those
/// of libvips' loader.
///
/// A stored thumbnail at least `THUMBS_HEIF_THUMBNAIL_RESIZE` times the thumbnail is decoded in
/// the picture's place, turned upright by libheif. Pictures with alpha or more than 8 bits, or
/// a crop, are left to libvips' loader, as are files libheif fails on (the loader reports their
/// damage).
enum HeifDecoder {
    /// A decoded picture, as stored (not yet turned upright), with the file's ICC profile.
    struct Picture {
        let image: VipsImageHandle
        /// The EXIF orientation (1...8) the file's rotation and mirroring amount to.
        let orientation: Int32
    }

    /// `file` decoded at 1/`shrink`, or its stored thumbnail, for a thumbnail of `target`
    /// (upright, or the size a fill covers); nil when the file is one libvips' loader should read.
    static func decode(_ file: ImageFile, shrink: Int32, target: PixelSize) throws(ImagingError) -> Picture? {
        var picture = thumbs_heif_picture()
        guard
            thumbs_heif_decode(
                file.descriptor, nil, shrink, Int32(clamping: target.width), Int32(clamping: target.height),
                &picture) == Int32(THUMBS_HEIF_DECODED)
        else { return nil }
        return Picture(image: try adopt(picture, of: file), orientation: picture.orientation)
    }

    /// `file`'s stored thumbnail when it is HDR (PQ or HLG), tone-mapped as the picture would
    /// be, upright; nil when there is none, it is SDR (libvips' loader reads those), or it is not
    /// smaller than the picture or is over `pixelLimit` pixels.
    static func hdrThumbnail(_ file: ImageFile, pixelLimit: Int) throws(ImagingError) -> VipsImageHandle? {
        var picture = thumbs_heif_picture()
        guard thumbs_heif_hdr_thumbnail(file.descriptor, nil, Int64(pixelLimit), &picture) == Int32(THUMBS_HEIF_DECODED)
        else { return nil }
        return try adopt(picture, of: file)
    }

    /// A decoded picture as a libvips image, which takes its pixels; its profile is copied.
    private static func adopt(_ picture: thumbs_heif_picture, of file: ImageFile) throws(ImagingError)
        -> VipsImageHandle
    {
        defer { free(picture.icc) }
        guard
            let image = thumbs_vips_image_adopting(
                picture.pixels, picture.width, picture.height, picture.bands, picture.icc, picture.icc_length)
        else { throw file.decodeError(VipsError.takeMessage()) }
        return VipsImageHandle(image)
    }
}
