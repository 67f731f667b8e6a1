import CVips
import CVipsShim
import Foundation
import ThumbsCore
import ThumbsSupport

/// An owned reference to a `VipsImage`, released when the handle goes away.
///
/// Handles are not `Sendable`: each lives inside one job on a render thread, from open to
/// encode. They are `package`, not public: the benchmark's charts draw with them, apps never see
/// one.
package final class VipsImageHandle {
    package let pointer: UnsafeMutablePointer<VipsImage>

    package init(_ pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Wraps the result of a shim call that fills an out-pointer, turning failure into `failure`.
    package static func make(
        _ failure: (String) -> ImagingError,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImageHandle {
        var out: UnsafeMutablePointer<VipsImage>?
        guard body(&out) == 0, let image = out else {
            if let out { g_object_unref(out) }
            throw failure(VipsError.takeMessage())
        }
        // Successful operations can leave notes in libvips' error buffer; clear them so that a
        // later failure's message (read alone, see VipsCallGate) is about that failure only.
        vips_error_clear()
        return VipsImageHandle(image)
    }

    package var width: Int { Int(vips_image_get_width(pointer)) }
    package var height: Int { Int(vips_image_get_height(pointer)) }
    package var size: PixelSize { PixelSize(width: width, height: height) }
    package var bands: Int { Int(vips_image_get_bands(pointer)) }
    package var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    package var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    package var bandFormat: VipsBandFormat { vips_image_get_format(pointer) }
    package var pageCount: Int { Int(vips_image_get_n_pages(pointer)) }

    /// Whether the pixels are 8-bit grey (one band) or sRGB (three), without alpha: what
    /// Thumbs' own resize and JPEG encoder take, everything else going to libvips.
    package var isEightBitGreyOrRGB: Bool {
        guard bandFormat == VIPS_FORMAT_UCHAR else { return false }
        return (bands == 1 && interpretation == VIPS_INTERPRETATION_B_W)
            || (bands == 3 && interpretation == VIPS_INTERPRETATION_sRGB)
    }

    /// The EXIF orientation libvips will apply (1...8); 1 when absent or out of range.
    package var orientation: Int {
        let value = Int(vips_image_get_orientation(pointer))
        return (1...8).contains(value) ? value : 1
    }

    package func has(_ field: String) -> Bool {
        vips_image_get_typeof(pointer, field) != 0
    }

    /// A string field; EXIF fields come back as "value (value, ASCII, n components, n bytes)",
    /// and only the leading value is returned.
    package func exifString(_ field: String) -> String? {
        guard has(field) else { return nil }
        var raw: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, field, &raw) == 0, let raw else {
            vips_error_clear()
            return nil
        }
        return EXIFBlock.text(String(cString: raw))
    }

    /// An integer field, or nil when the image has none.
    package func int(_ field: String) -> Int? {
        guard has(field) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, field, &value) == 0 else {
            vips_error_clear()
            return nil
        }
        return Int(value)
    }

    /// A binary field, copied out of libvips.
    package func blob(_ field: String) -> [UInt8]? {
        guard has(field) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &data, &length) == 0, let data, length > 0 else {
            vips_error_clear()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Decodes the pixels into memory so several operations can reuse them without re-reading
    /// the file.
    package func inMemory(_ failure: (String) -> ImagingError) throws(ImagingError) -> VipsImageHandle {
        guard let copy = vips_image_copy_memory(pointer) else {
            throw failure(VipsError.takeMessage())
        }
        return VipsImageHandle(copy)
    }

    /// The raw pixels, band-interleaved (used by tests and comparisons).
    package func pixelBytes() throws(ImagingError) -> [UInt8] {
        var length = 0
        guard let raw = vips_image_write_to_memory(pointer, &length) else {
            throw .corrupt(VipsError.takeMessage())
        }
        defer { g_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: length))
    }
}
