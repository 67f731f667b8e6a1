import CResample
import CVips
import CVipsShim
import Glibc
import ThumbsCore

/// The steps done on a picture's pixels in memory, on the render thread, without a libvips
/// sink: the resize to a thumbnail's size, the turn upright, the conversion to sRGB.
extension VipsRenderer {
    /// `image` resized to exactly `size`, or, when `fill`, to cover `size` and then cropped to
    /// it around the centre: `vips_thumbnail_image`'s rules for an exact size and for a centre
    /// crop.
    ///
    /// An 8-bit grey or RGB picture that shrinks is resampled by Thumbs' own Lanczos-3
    /// (`thumbs_resample`, in CResample): the kernel libvips resizes with, vectorised, on the
    /// render thread, computing only the crop's pixels. libvips 8.14 runs its own as scalar code
    /// once ORC is off (see `thumbs_vips_start`), which made it half of a warm's CPU time.
    /// Anything else (alpha, 16 bits, CMYK, a picture that grows) is resized by libvips.
    static func resized(
        _ image: VipsImageHandle, to size: PixelSize, fill: Bool, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        let (scaled, across, down) =
            fill
            ? cover(image.size, box: size)
            : (size, Double(image.width) / Double(size.width), Double(image.height) / Double(size.height))
        // The centre crop of the covering size, computed alone.
        let width = min(size.width, scaled.width), height = min(size.height, scaled.height)
        let window = thumbs_window(
            width: Int32(scaled.width), height: Int32(scaled.height), left: Int32((scaled.width - width) / 2),
            top: Int32((scaled.height - height) / 2))
        if let resampled = try resampled(
            image, window: window, size: PixelSize(width: width, height: height), shrinks: (across, down), failure)
        {
            return resampled
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
        return (RenditionGeometry.cover(source: source, box: box), shrink, shrink)
    }

    /// `image` turned upright by EXIF `orientation`: an 8-bit grey or RGB picture by
    /// `thumbs_orient`, from its pixels in memory, anything else by libvips' autorot. 1 (or a
    /// value out of range) leaves the image as it is.
    static func upright(
        _ image: VipsImageHandle, orientation: Int32, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        guard (2...8).contains(orientation) else { return image }
        guard image.isEightBitGreyOrRGB else {
            return try VipsImageHandle.make(failure) { thumbs_vips_orient(image.pointer, $0, orientation) }
        }
        let size = orientation >= 5 ? PixelSize(width: image.height, height: image.width) : image.size
        return try pictureInMemory(from: image, size: size, failure) { source, target in
            thumbs_orient(&source, &target, orientation)
        }
    }

    /// `image` resampled by `thumbs_resample` into a picture of `size`, the part of the
    /// `window`-sized resample it says (`shrinks` across and down: see CResample.h), or nil when
    /// it is not an 8-bit grey or RGB picture without alpha, or would grow. The profile goes
    /// along; it is converted later.
    private static func resampled(
        _ image: VipsImageHandle, window: thumbs_window, size: PixelSize, shrinks: (across: Double, down: Double),
        _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle? {
        let shrinking =
            Int(window.width) <= image.width && Int(window.height) <= image.height && shrinks.across >= 1
            && shrinks.down >= 1
        guard image.isEightBitGreyOrRGB, shrinking else { return nil }
        return try pictureInMemory(from: image, size: size, failure) { source, target in
            thumbs_resample(&source, &target, window, shrinks.across, shrinks.down)
        }
    }

    /// `image`, an 8-bit grey or RGB picture with an ICC profile, converted to sRGB by the
    /// transform kept for its profile (`thumbs_srgb_transform_for`): the pixels libvips'
    /// `icc_transform` gives, without building a transform for every photo. Nil when it is not
    /// such a picture or lcms cannot read the profile for it.
    static func convertedToSRGB(
        _ image: VipsImageHandle, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle? {
        guard image.isEightBitGreyOrRGB, let profile = image.blob("icc-profile-data"),
            let transform = profile.withUnsafeBufferPointer({
                thumbs_srgb_transform_for($0.baseAddress, $0.count, Int32(image.bands))
            })
        else { return nil }
        defer { thumbs_srgb_transform_release(transform) }
        return try pictureInMemory(from: image, size: image.size, bands: 3, keepsProfile: false, failure) {
            source, target in
            thumbs_srgb_transform_apply(
                transform, source.pixels, source.width, source.height, source.stride, target.pixels, target.stride)
            return 0
        }
    }

    /// A new 8-bit picture of `size` and `bands` (`image`'s when nil), with `image`'s profile
    /// when `keepsProfile`, whose pixels `make` writes from `image`'s (returning 0, or -1 when it
    /// cannot).
    private static func pictureInMemory(
        from image: VipsImageHandle, size: PixelSize, bands: Int? = nil, keepsProfile: Bool = true,
        _ failure: (String) -> ImagingError, _ make: (inout thumbs_pixels, inout thumbs_pixels) -> Int32
    ) throws(ImagingError) -> VipsImageHandle {
        let bands = bands ?? image.bands
        var stride = 0
        guard let pixels = thumbs_vips_memory_pixels(image.pointer, &stride) else {
            throw failure(VipsError.takeMessage())
        }
        guard let output = malloc(size.pixelCount * bands)?.assumingMemoryBound(to: UInt8.self) else {
            throw failure("out of memory making a \(size.width)x\(size.height) picture")
        }
        var source = thumbs_pixels(
            pixels: UnsafeMutablePointer(mutating: pixels), width: Int32(image.width), height: Int32(image.height),
            bands: Int32(image.bands), stride: stride)
        var target = thumbs_pixels(
            pixels: output, width: Int32(size.width), height: Int32(size.height), bands: Int32(bands),
            stride: size.width * bands)
        guard make(&source, &target) == 0 else {
            free(output)
            throw failure("could not make a \(size.width)x\(size.height) picture of \(image.width)x\(image.height)")
        }
        let profile = keepsProfile ? image.blob("icc-profile-data") ?? [] : []
        // The image takes the pixels (and frees them when it cannot be made).
        let made = profile.withUnsafeBufferPointer {
            thumbs_vips_image_adopting(output, target.width, target.height, target.bands, $0.baseAddress, $0.count)
        }
        guard let made else { throw failure(VipsError.takeMessage()) }
        return VipsImageHandle(made)
    }
}
