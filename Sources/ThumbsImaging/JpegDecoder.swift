import CJpegShim
import CVips
import CVipsShim
import Glibc
import ThumbsCore

/// JPEGs decoded with libjpeg-turbo directly, at the DCT scale the render picked.
///
/// libvips' jpegload drives the same library, through its per-image machinery (a region
/// pipeline, strips handed between threads). Decoding here gives the same pixels without it,
/// and a progressive JPEG scaled by 8 is handed to libjpeg without the AC scans of the
/// components a 1/8 picture makes from their DC alone (`thumbs_jpeg_decode`): most of the file
/// is never decoded.
///
/// CMYK and YCCK JPEGs are left to libvips' loader, which knows Adobe's inverted CMYK. Damage
/// follows the loader's rule: a file libjpeg warns about decodes as the loader decodes it, up to
/// the 100th warning, which leaves the file to the loader (to fail, then to read past its damage
/// as a partial thumbnail).
enum JpegDecoder {
    /// A decoded picture, as stored (not yet turned upright), with the file's ICC profile.
    struct Picture {
        let image: VipsImageHandle
        /// Whether scans of a progressive file were left unread.
        let skippedScans: Bool
    }

    /// `file` decoded at 1/`shrink` (1, 2, 4 or 8); nil when the file is one libvips' loader
    /// should read. `skippingUnneededScans` is for tests, which compare with the full decode.
    static func decode(
        _ file: ImageFile, shrink: Int32, skippingUnneededScans: Bool = true
    ) throws(ImagingError) -> Picture? {
        var picture = thumbs_jpeg_picture()
        switch thumbs_jpeg_decode(file.descriptor, shrink, skippingUnneededScans ? 1 : 0, 0, &picture) {
        case Int32(THUMBS_JPEG_DECODED):
            break
        case Int32(THUMBS_JPEG_NOT_HANDLED):
            return nil
        default:
            throw file.decodeError(String(fixedCString: picture.message) ?? "libjpeg failed")
        }
        // The image takes the pixels; the profile is copied.
        defer { free(picture.icc) }
        guard
            let image = thumbs_vips_image_adopting(
                picture.pixels, picture.width, picture.height, picture.bands, picture.icc,
                Int(picture.icc_length))
        else { throw file.decodeError(VipsError.takeMessage()) }
        return Picture(image: VipsImageHandle(image), skippedScans: picture.scans_skipped != 0)
    }
}
