import CResample
import CVips
import CVipsShim
import Glibc

/// Resizing a picture held in memory to a thumbnail's size.
extension VipsRenderer {
    /// `image` resized to exactly `size`, or, when `fill`, to cover `size` and then cropped to
    /// it around the centre: `vips_thumbnail_image`'s rules for an exact size and for a centre
    /// crop.
    ///
    /// An 8-bit grey or RGB picture that shrinks is resampled by Thumbs' own Lanczos-3
    /// (`thumbs_resample`, in CResample): the kernel libvips resizes with, vectorised, on the
    /// render thread. libvips 8.14 runs its own as scalar code once ORC is off (see
    /// `thumbs_vips_start`), which made it half of a warm's CPU time. Anything else (alpha,
    /// 16 bits, CMYK, a picture that grows) is resized by libvips.
    static func resized(
        _ image: VipsImageHandle, to size: PixelSize, fill: Bool, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        let (scaled, across, down) =
            fill
            ? cover(image.size, box: size)
            : (size, Double(image.width) / Double(size.width), Double(image.height) / Double(size.height))
        if let resampled = try resampled(image, to: scaled, shrinks: (across, down), failure) {
            guard scaled != size else { return resampled }
            let width = min(size.width, scaled.width), height = min(size.height, scaled.height)
            return try VipsImageHandle.make(failure) {
                thumbs_vips_crop(
                    resampled.pointer, $0, Int32((scaled.width - width) / 2), Int32((scaled.height - height) / 2),
                    Int32(width), Int32(height))
            }
        }
        let interesting = fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE
        let sizing = fill ? VIPS_SIZE_BOTH : VIPS_SIZE_FORCE
        return try VipsImageHandle.make(failure) {
            thumbs_vips_thumbnail_image(
                image.pointer, $0, Int32(clamping: size.width), Int32(clamping: size.height),
                Int32(interesting.rawValue), Int32(sizing.rawValue))
        }
    }

    /// The size that covers `box` at `source`'s aspect ratio, as libvips' centre crop makes it:
    /// one shrink for both axes, the smaller of the two, and the sizes it gives rounded.
    static func cover(_ source: PixelSize, box: PixelSize) -> (size: PixelSize, across: Double, down: Double) {
        let shrink = min(Double(source.width) / Double(box.width), Double(source.height) / Double(box.height))
        let size = PixelSize(
            width: max(1, Int(Double(source.width) / shrink + 0.5)),
            height: max(1, Int(Double(source.height) / shrink + 0.5)))
        return (size, shrink, shrink)
    }

    /// `image` resampled to `size` by `thumbs_resample` (`shrinks` across and down: see
    /// CResample.h), or nil when it is not an 8-bit grey or RGB picture without alpha, or would
    /// grow. The profile goes along; it is converted later.
    private static func resampled(
        _ image: VipsImageHandle, to size: PixelSize, shrinks: (across: Double, down: Double),
        _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle? {
        let bands = image.bands
        let shrinking =
            size.width <= image.width && size.height <= image.height && shrinks.across >= 1 && shrinks.down >= 1
        guard image.isEightBitGreyOrRGB, shrinking else { return nil }
        var stride = 0
        guard let pixels = thumbs_vips_memory_pixels(image.pointer, &stride) else {
            throw failure(VipsError.takeMessage())
        }
        guard let output = malloc(size.pixelCount * bands)?.assumingMemoryBound(to: UInt8.self) else {
            throw failure("out of memory resizing to \(size.width)x\(size.height)")
        }
        var source = thumbs_pixels(
            pixels: UnsafeMutablePointer(mutating: pixels), width: Int32(image.width), height: Int32(image.height),
            bands: Int32(bands), stride: stride)
        var target = thumbs_pixels(
            pixels: output, width: Int32(size.width), height: Int32(size.height), bands: Int32(bands),
            stride: size.width * bands)
        guard thumbs_resample(&source, &target, shrinks.across, shrinks.down) == 0 else {
            free(output)
            throw failure("out of memory resizing to \(size.width)x\(size.height)")
        }
        let profile = image.blob("icc-profile-data") ?? []
        // The image takes the pixels (and frees them when it cannot be made).
        let resampled = profile.withUnsafeBufferPointer {
            thumbs_vips_image_adopting(
                output, target.width, target.height, target.bands, $0.baseAddress, $0.count)
        }
        guard let resampled else { throw failure(VipsError.takeMessage()) }
        return VipsImageHandle(resampled)
    }
}
