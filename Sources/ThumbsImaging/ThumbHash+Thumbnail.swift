import CVips
import CVipsShim
import ThumbsCore
import ThumbsSupport

extension ThumbHash {
    /// The placeholder of a rendered thumbnail: its bytes decoded with libvips, shrunk on load to
    /// fit 100 × 100, as 8-bit sRGB with alpha, then hashed.
    ///
    /// Runs on the caller's thread: a thumbnail of a few hundred pixels takes a millisecond or
    /// two of CPU to decode and about half a millisecond to hash, little next to the render that
    /// made it. A thumbnail libvips cannot decode is ``/ThumbsCore/ImagingError/corrupt(_:)``.
    public init(encoded thumbnail: Thumbnail) throws(ImagingError) {
        try self.init(encoded: thumbnail.bytes)
    }

    /// The placeholder of an encoded image in memory (JPEG, WebP, PNG), as
    /// ``init(encoded:)-(Thumbnail)``. Meant for thumbnails: a large photo would be decoded
    /// whole, in memory, on the caller's thread.
    public init(encoded bytes: [UInt8]) throws(ImagingError) {
        try VipsRuntime.ensureStarted()
        let (size, pixels) = try VipsCallGate.run { () throws(ImagingError) in
            // Through a Result: `withUnsafeBytes` would widen the error to `any Error`.
            try bytes.withUnsafeBytes { encoded in
                Result { () throws(ImagingError) in try Self.rgbaPixels(of: encoded) }
            }.get()
        }
        self.init(rgba: pixels, width: size.width, height: size.height)
    }

    /// The placeholder of a picture in memory (8-bit, as a render makes it before encoding),
    /// fitted into 100 × 100 by Thumbs' resize. Inside the gate.
    init(picture: VipsImageHandle) throws(ImagingError) {
        let side = PixelSize(width: Self.maximumSide, height: Self.maximumSide)
        let fitted = RenditionGeometry.outputSize(source: picture.size, spec: RenditionSpec(size: side))
        let shrunk = try VipsRenderer.resized(picture, to: fitted, fill: false, ImagingError.corrupt)
        let (size, pixels) = try Self.rgbaPixels(of: shrunk)
        self.init(rgba: pixels, width: size.width, height: size.height)
    }

    /// The image fitted into the hash's 100 × 100, as RGBA bytes. Inside the gate, and inside the
    /// lifetime of `encoded`, which libvips reads only while the pixels are written out.
    private static func rgbaPixels(of encoded: UnsafeRawBufferPointer) throws(ImagingError) -> (PixelSize, [UInt8]) {
        let side = Int32(maximumSide)
        let shrunk = try VipsImageHandle.make(ImagingError.corrupt) {
            thumbs_vips_thumbnail_buffer(encoded.baseAddress, encoded.count, $0, side, side)
        }
        return try rgbaPixels(of: shrunk)
    }

    /// An image of at most 100 × 100 as 8-bit sRGB RGBA bytes.
    private static func rgbaPixels(of shrunk: VipsImageHandle) throws(ImagingError) -> (PixelSize, [UInt8]) {
        if let pixels = rgbaPixelsInMemory(of: shrunk) { return (shrunk.size, pixels) }
        var image = try VipsRenderer.srgb(shrunk, ImagingError.corrupt)
        if !image.hasAlpha {
            let opaque = image
            image = try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_add_alpha(opaque.pointer, $0) }
        }
        let range = 1...maximumSide
        guard image.bands == 4, image.bandFormat == VIPS_FORMAT_UCHAR, range.contains(image.width),
            range.contains(image.height)
        else {
            throw .corrupt("decoded as \(image.width)x\(image.height), \(image.bands) bands, not 8-bit RGBA")
        }
        return (image.size, try image.pixelBytes())
    }

    /// An 8-bit grey or RGB picture in memory that is sRGB already (no profile, or an sRGB one),
    /// as RGBA bytes read straight from its pixels; nil for any other image. This is what a
    /// render's picture is: going through libvips instead (a band join written to memory) would
    /// hand the few thousand pixels to libvips' worker threads and wait for them, once per photo.
    private static func rgbaPixelsInMemory(of image: VipsImageHandle) -> [UInt8]? {
        guard image.isEightBitGreyOrRGB, (1...maximumSide).contains(image.width),
            (1...maximumSide).contains(image.height),
            !image.has("icc-profile-data") || thumbs_vips_profile_is_srgb(image.pointer) != 0
        else { return nil }
        var stride = 0
        guard let source = thumbs_vips_memory_pixels(image.pointer, &stride) else {
            _ = VipsError.takeMessage()
            return nil
        }
        return rgba(of: source, stride: stride, size: image.size, bands: image.bands)
    }

    /// The placeholder of a picture a render made without libvips (sRGB, 8-bit, as
    /// ``init(picture:)-(VipsImageHandle)`` takes it), fitted into 100 × 100 by the same resize.
    init(picture: PixelPicture) throws(ImagingError) {
        let side = PixelSize(width: Self.maximumSide, height: Self.maximumSide)
        let fitted = RenditionGeometry.outputSize(source: picture.size, spec: RenditionSpec(size: side))
        guard let shrunk = try picture.resized(to: fitted, fill: false) else {
            throw .corrupt("a \(picture.size.width)x\(picture.size.height) picture does not shrink to \(fitted)")
        }
        let pixels = shrunk.withPixels { pixels, stride in
            Self.rgba(of: pixels, stride: stride, size: shrunk.size, bands: shrunk.bands)
        }
        self.init(rgba: pixels, width: shrunk.size.width, height: shrunk.size.height)
    }

    /// Grey or RGB pixels, with or without alpha (2 or 4 bands), rows `stride` bytes apart, as
    /// RGBA bytes.
    private static func rgba(of source: UnsafePointer<UInt8>, stride: Int, size: PixelSize, bands: Int) -> [UInt8] {
        let width = size.width, height = size.height
        let colour = bands >= 3, alpha = bands == 2 || bands == 4
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { rgba, count in
            for y in 0..<height {
                let line = source + y * stride
                for x in 0..<width {
                    let pixel = line + x * bands, at = (y * width + x) * 4
                    rgba[at] = pixel[0]
                    rgba[at + 1] = pixel[colour ? 1 : 0]
                    rgba[at + 2] = pixel[colour ? 2 : 0]
                    rgba[at + 3] = alpha ? pixel[bands - 1] : 255
                }
            }
            count = width * height * 4
        }
    }
}
