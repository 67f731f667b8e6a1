import CVipsShim
import Glibc
import ThumbsCore
import ThumbsRendering

/// Partial thumbnails: what decoded of a damaged file.
///
/// A decode that ends early (a truncated file, a JPEG whose restart markers are wrong, a GIF or
/// PNG cut short) fails as truncated or corrupt. Of a file unmodified for
/// ``/ThumbsCore/FileFingerprint/settlingTime`` it is decoded once more by libvips' loaders with
/// `fail_on=none` (and, for a JPEG, without jpegload's limit of 100 warnings), which give the
/// picture as far as it decoded and fill the rest (a JPEG grey, a GIF or PNG as its loader
/// leaves it); each thumbnail made from that is marked ``/ThumbsCore/Thumbnail/isPartial``. A
/// file modified more recently may still be being copied in and fails as before. Loaders that
/// give no picture of a damaged file (HEIF and AVIF through libheif, WebP, TIFF, JPEG XL) fail
/// again, and the first failure stands; so do videos, camera RAW files and AVIF image
/// sequences, which are not libvips' to decode.
extension VipsRenderer {
    /// `source` opened for a render: its header read as always, or, of a settled file whose
    /// header its loader refused as truncated or corrupt (a GIF's loader reads the whole file
    /// first), read past the damage, with the error the loader gave: the file is then rendered
    /// partially or fails with that error.
    func openedForRender(
        _ source: ImageSource, as handler: some StillImageHandler
    ) throws(ImagingError) -> (file: ImageFile, damage: ImagingError?) {
        do throws(ImagingError) {
            return (try ImageFile(source, handler: handler, pixelLimit: pixelLimit), nil)
        } catch  where error.endsDecodeEarly && source.hasSettled {
            guard let file = try? ImageFile(source, handler: handler, pixelLimit: pixelLimit, partial: true) else {
                throw error
            }
            return (file, error)
        }
    }

    /// `specs` of `file` decoded past its damage, each marked partial; `failure`, the error of
    /// the decode that ended early, when the loader gives no picture or nothing of it decoded.
    func partialRenditions(
        of file: ImageFile, specs: [RenditionSpec], decodeSize: PixelSize, outputs: [PixelSize],
        failure: ImagingError
    ) throws(ImagingError) -> [Thumbnail] {
        var thumbnails: [Thumbnail]
        do throws(ImagingError) {
            thumbnails = try renderRenditions(
                of: file, specs: specs, decodeSize: decodeSize, outputs: outputs, partial: true)
        } catch {
            throw failure
        }
        for index in thumbnails.indices { thumbnails[index].isPartial = true }
        return thumbnails
    }

    /// Whether every pixel of `picture` (8-bit, in memory) is the same as the first.
    static func isUniform(_ picture: VipsImageHandle) -> Bool {
        var rowBytes = 0
        guard let pixels = thumbs_vips_memory_pixels(picture.pointer, &rowBytes) else { return false }
        let pixelBytes = picture.bands
        for row in 0..<picture.height {
            let line = pixels + row * rowBytes
            for offset in stride(from: 0, to: picture.width * pixelBytes, by: pixelBytes)
            where memcmp(line + offset, pixels, pixelBytes) != 0 {
                return false
            }
        }
        return true
    }
}
