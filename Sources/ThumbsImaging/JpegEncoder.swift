import CJpegShim
import CVipsShim
import ThumbsCore

/// JPEG thumbnails encoded with libjpeg-turbo directly, from the pixels in memory.
///
/// libvips' jpegsave drives the same library with the same settings (`thumbs_jpeg_encode`), but
/// through a sink: strips of the image computed on worker threads and handed to the encoder,
/// after a copy that strips the metadata. For a thumbnail already in memory that is all
/// overhead. Only 8-bit grey and sRGB pictures without alpha are taken; the rest (alpha to
/// flatten, 16 bits, CMYK) is left to libvips.
enum JpegEncoder {
    /// `image` as a JPEG file at `quality`, nothing but the pixels written; nil when it is not
    /// an 8-bit grey or sRGB picture without alpha.
    static func encode(_ image: VipsImageHandle, quality: Int) throws(ImagingError) -> [UInt8]? {
        guard image.isEightBitGreyOrRGB else { return nil }
        var stride = 0
        guard let pixels = thumbs_vips_memory_pixels(image.pointer, &stride) else {
            throw .encodingFailed(VipsError.takeMessage())
        }
        var encoded = thumbs_jpeg_encoded()
        defer { thumbs_jpeg_encoded_free(&encoded) }
        guard
            thumbs_jpeg_encode(
                pixels, Int32(image.width), Int32(image.height), Int32(image.bands), stride, Int32(quality), &encoded)
                == Int32(THUMBS_JPEG_ENCODED), let bytes = encoded.bytes
        else { throw .encodingFailed(String(fixedCString: encoded.message) ?? "libjpeg failed") }
        return Array(UnsafeBufferPointer(start: bytes, count: encoded.length))
    }
}
