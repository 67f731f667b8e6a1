import CVips
import CVipsShim
import ThumbsCore
import ThumbsImaging

/// An image of one grey level, of any shape, encoded without computing its pixels one by one:
/// for tests in which only a file's size, layout and format matter (limits, decode memory),
/// such as a 100000 x 1000 PNG that ``SyntheticImage`` would take minutes to draw.
///
/// ```swift
/// let png = try PlainImage(width: 100_000, height: 1000, bands: 4).encoded(as: .png)
/// ```
public struct PlainImage: Sendable {
    public var width: Int
    public var height: Int
    /// 1 (grey), 3 (RGB) or 4 (RGBA).
    public var bands: Int

    public init(width: Int, height: Int, bands: Int = 3) {
        self.width = width
        self.height = height
        self.bands = bands
    }

    /// The image in `container`, 8-bit; a JPEG is progressive when `progressive`.
    public func encoded(as container: SyntheticImage.Container, progressive: Bool = false) throws(ImagingError)
        -> [UInt8]
    {
        try VipsRuntime.ensureStarted()
        return try VipsCallGate.run { () throws(ImagingError) in
            let pixels = [UInt8](repeating: 160, count: width * height * bands)
            guard
                let raw = pixels.withUnsafeBytes({
                    vips_image_new_from_memory_copy(
                        $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
                })
            else { throw .encodingFailed(VipsError.takeMessage()) }
            let plain = VipsImageHandle(raw)
            let interpretation = bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
            let image = try VipsImageHandle.make(ImagingError.encodingFailed) {
                thumbs_vips_copy_interpretation(plain.pointer, $0, Int32(interpretation.rawValue))
            }
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            let status: Int32 =
                switch container {
                case .jpeg: thumbs_vips_jpegsave_buffer(image.pointer, &buffer, &length, 90, 1, progressive ? 1 : 0)
                case .png: thumbs_vips_pngsave_buffer(image.pointer, &buffer, &length, 1, 1)
                case .webp: thumbs_vips_webpsave_buffer(image.pointer, &buffer, &length, 90, 1)
                case .tiff: thumbs_vips_tiffsave_buffer(image.pointer, &buffer, &length)
                }
            guard status == 0, let buffer else { throw .encodingFailed(VipsError.takeMessage()) }
            defer { g_free(buffer) }
            return Array(UnsafeRawBufferPointer(start: buffer, count: length))
        }
    }
}
