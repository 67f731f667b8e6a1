import CHeifShim
import CJpegShim
import CPNGDecoder
import CPNGEncoder
import CResample
import CVipsShim
import Glibc
import ThumbsCore

/// An 8-bit grey or RGB picture in memory, with or without alpha, that no libvips image holds:
/// a JPEG decoded by libjpeg-turbo, taken through the steps a render makes of it (resize, turn
/// upright, sRGB, encode) by the same C code the libvips pipeline calls for such pictures
/// (`CResample`, lcms' transform kept per profile, `CJpegShim`, `CPNGEncoder`), or by C code
/// that computes what libvips does (its thumbnail's resize of a PNG, with alpha premultiplied),
/// so the thumbnail is the same, byte for byte, and a process that renders only such files
/// never opens libvips.
///
/// Each step answers nil where the picture is not one it takes (a resize that would grow it),
/// for the caller to hand the file to libvips instead.
final class PixelPicture {
    let size: PixelSize
    /// 1 (grey), 2 (grey and alpha), 3 (RGB) or 4 (RGB and alpha).
    let bands: Int
    /// The embedded ICC profile, until the picture is converted to sRGB.
    let profile: [UInt8]?
    /// `size.pixelCount × bands` bytes from malloc, rows packed; freed with the picture.
    private let pixels: UnsafeMutablePointer<UInt8>

    private init(pixels: UnsafeMutablePointer<UInt8>, size: PixelSize, bands: Int, profile: [UInt8]?) {
        self.pixels = pixels
        self.size = size
        self.bands = bands
        self.profile = profile
    }

    deinit { free(pixels) }

    /// The picture `decoded` holds, which it takes over (its profile copied).
    convenience init?(adopting decoded: inout thumbs_jpeg_picture) {
        guard let pixels = decoded.pixels, [1, 3].contains(decoded.bands), decoded.width > 0, decoded.height > 0
        else { return nil }
        let profile = decoded.icc.map { Array(UnsafeBufferPointer(start: $0, count: Int(decoded.icc_length))) }
        decoded.pixels = nil
        self.init(
            pixels: pixels, size: PixelSize(width: Int(decoded.width), height: Int(decoded.height)),
            bands: Int(decoded.bands), profile: profile)
    }

    /// A copy of `pixels`, 8-bit grey or RGB rows packed, with their ICC profile; nil for other
    /// band counts, or pixels that do not fill `size`.
    convenience init?(copying pixels: [UInt8], size: PixelSize, bands: Int, profile: [UInt8]?) {
        guard [1, 3].contains(bands), size.width > 0, size.height > 0, pixels.count == size.pixelCount * bands,
            let copy = malloc(pixels.count)?.assumingMemoryBound(to: UInt8.self)
        else { return nil }
        pixels.withUnsafeBufferPointer { copy.update(from: $0.baseAddress!, count: $0.count) }
        self.init(pixels: copy, size: size, bands: bands, profile: profile)
    }

    /// The RGB or RGBA picture libheif's `decoded` holds, which it takes over (its profile
    /// copied, and freed).
    convenience init?(adopting decoded: inout thumbs_heif_picture) {
        defer {
            free(decoded.icc)
            decoded.icc = nil
        }
        guard let pixels = decoded.pixels, [3, 4].contains(decoded.bands), decoded.width > 0, decoded.height > 0
        else { return nil }
        let profile = decoded.icc.map { Array(UnsafeBufferPointer(start: $0, count: decoded.icc_length)) }
        decoded.pixels = nil
        self.init(
            pixels: pixels, size: PixelSize(width: Int(decoded.width), height: Int(decoded.height)),
            bands: Int(decoded.bands), profile: profile)
    }

    /// The picture `decoded` holds, which it takes over, with `profile`, the colour it is in.
    convenience init?(adopting decoded: inout thumbs_png_picture, profile: [UInt8]?) {
        guard let pixels = decoded.pixels, (1...4).contains(decoded.bands), decoded.width > 0, decoded.height > 0
        else { return nil }
        decoded.pixels = nil
        self.init(
            pixels: pixels, size: PixelSize(width: Int(decoded.width), height: Int(decoded.height)),
            bands: Int(decoded.bands), profile: profile)
    }

    /// Whether pictures like these make `specs`: some, none WebP (libvips' to encode) or
    /// enlarged (libvips' to resize).
    static func makes(_ specs: [RenditionSpec]) -> Bool {
        !specs.isEmpty && !specs.contains { $0.format == .webp || $0.allowsUpscaling }
    }

    private var stride: Int { size.width * bands }

    /// Whether the last band is alpha.
    var hasAlpha: Bool { bands == 2 || bands == 4 }

    private var described: thumbs_pixels {
        thumbs_pixels(
            pixels: pixels, width: Int32(size.width), height: Int32(size.height), bands: Int32(bands),
            stride: stride)
    }

    /// A new picture of `size` and `bands`, whose pixels `make` writes from this one's (returning
    /// 0, or -1 when it cannot); nil when it cannot.
    private func making(
        _ size: PixelSize, bands: Int? = nil, profile: [UInt8]?,
        _ make: (inout thumbs_pixels, inout thumbs_pixels) -> Int32
    ) throws(ImagingError) -> PixelPicture? {
        let bands = bands ?? self.bands
        guard let output = malloc(size.pixelCount * bands)?.assumingMemoryBound(to: UInt8.self) else {
            throw .unreadable("out of memory making a \(size.width)x\(size.height) picture")
        }
        var source = described
        var target = thumbs_pixels(
            pixels: output, width: Int32(size.width), height: Int32(size.height), bands: Int32(bands),
            stride: size.width * bands)
        guard make(&source, &target) == 0 else {
            free(output)
            return nil
        }
        return PixelPicture(pixels: output, size: size, bands: bands, profile: profile)
    }

    /// Resized as ``VipsRenderer/resized(_:to:fill:_:)`` resizes an 8-bit picture: to exactly
    /// `size`, or, when `fill`, covering it and cropped to it around the centre; nil when that
    /// would grow the picture. A picture with alpha is libvips' to resize there, by its
    /// thumbnail: so is it here (``thumbnailed(to:fill:)``).
    func resized(to size: PixelSize, fill: Bool) throws(ImagingError) -> PixelPicture? {
        if hasAlpha { return try thumbnailed(to: size, fill: fill) }
        let (scaled, across, down) =
            fill
            ? VipsRenderer.cover(self.size, box: size)
            : (
                size, Double(self.size.width) / Double(size.width),
                Double(self.size.height) / Double(size.height)
            )
        let width = min(size.width, scaled.width), height = min(size.height, scaled.height)
        guard scaled.width <= self.size.width, scaled.height <= self.size.height, across >= 1, down >= 1 else {
            return nil
        }
        let window = thumbs_window(
            width: Int32(scaled.width), height: Int32(scaled.height), left: Int32((scaled.width - width) / 2),
            top: Int32((scaled.height - height) / 2))
        return try making(PixelSize(width: width, height: height), profile: profile) { source, target in
            thumbs_resample(&source, &target, window, across, down)
        }
    }

    /// Resized as libvips' `vips_thumbnail` resizes a picture its loader decoded whole (a PNG),
    /// or one in memory: to exactly `size`, or, when `fill`, covering it and cropped to it around
    /// the centre, by its block shrink and Lanczos-3 reduce (`thumbs_thumbnail_resize`, with
    /// alpha premultiplied in floats by `thumbs_thumbnail_resize_alpha`); nil when that would
    /// grow the picture.
    func thumbnailed(to size: PixelSize, fill: Bool) throws(ImagingError) -> PixelPicture? {
        var width: Int32 = 0
        var height: Int32 = 0
        let box = (Int32(clamping: size.width), Int32(clamping: size.height))
        guard
            thumbs_thumbnail_resize_size(
                Int32(self.size.width), Int32(self.size.height), box.0, box.1, fill ? 1 : 0, &width, &height) == 0
        else { return nil }
        let alpha = hasAlpha
        return try making(PixelSize(width: Int(width), height: Int(height)), profile: profile) { source, target in
            alpha
                ? thumbs_thumbnail_resize_alpha(&source, &target, box.0, box.1, fill ? 1 : 0)
                : thumbs_thumbnail_resize(&source, &target, box.0, box.1, fill ? 1 : 0)
        }
    }

    /// Whether every pixel is the same as the first: a damaged file of which nothing decoded.
    var isUniform: Bool {
        (1..<size.pixelCount).allSatisfy { memcmp(pixels + $0 * bands, pixels, bands) == 0 }
    }

    /// Turned upright by EXIF `orientation`, as libvips' autorot turns it.
    func upright(orientation: Int) throws(ImagingError) -> PixelPicture? {
        guard (2...8).contains(orientation) else { return self }
        return try making(orientation >= 5 ? size.transposed : size, profile: profile) { source, target in
            thumbs_orient(&source, &target, Int32(orientation))
        }
    }

    /// In 8-bit sRGB, three bands and any alpha, as ``VipsRenderer/srgb(_:_:)`` makes it: a
    /// profile that is not sRGB converted by the transform kept for it (lcms alone, no libvips),
    /// grey spread over the three bands, alpha kept. Nil when lcms cannot read the profile, and
    /// for a picture with alpha whose profile is not sRGB: libvips' icc_transform converts that.
    func inSRGB() throws(ImagingError) -> PixelPicture? {
        if let profile, profile.withUnsafeBufferPointer({ thumbs_icc_is_srgb($0.baseAddress, $0.count) }) == 0 {
            guard !hasAlpha,
                let transform = profile.withUnsafeBufferPointer({
                    thumbs_srgb_transform_for($0.baseAddress, $0.count, Int32(bands))
                })
            else { return nil }
            defer { thumbs_srgb_transform_release(transform) }
            return try making(size, bands: 3, profile: nil) { source, target in
                thumbs_srgb_transform_apply(
                    transform, source.pixels, source.width, source.height, source.stride, target.pixels,
                    target.stride)
                return 0
            }
        }
        // An sRGB profile goes nowhere: the encoders write no metadata.
        guard bands < 3 else { return self }
        let alpha = hasAlpha
        return try making(size, bands: bands + 2, profile: nil) { source, target in
            let from = Int(source.bands), into = Int(target.bands)
            for index in 0..<Int(source.width) * Int(source.height) {
                let grey = source.pixels[index * from]
                target.pixels[index * into] = grey
                target.pixels[index * into + 1] = grey
                target.pixels[index * into + 2] = grey
                if alpha { target.pixels[index * into + 3] = source.pixels[index * from + 1] }
            }
            return 0
        }
    }

    /// Without its alpha, flattened onto white as `vips_flatten` flattens an 8-bit picture: each
    /// sample weighed by alpha against 255, the sum's quotient by 255 truncated.
    private func flattened() throws(ImagingError) -> PixelPicture? {
        try making(size, bands: bands - 1, profile: profile) { source, target in
            let from = Int(source.bands), into = Int(target.bands)
            for index in 0..<Int(source.width) * Int(source.height) {
                let alpha = Int(source.pixels[index * from + into])
                for band in 0..<into {
                    let sample = Int(source.pixels[index * from + band])
                    target.pixels[index * into + band] = UInt8((sample * alpha + 255 * (255 - alpha)) / 255)
                }
            }
            return 0
        }
    }

    /// Encoded as PNG or JPEG for `spec`, nothing but the pixels written, by the encoders
    /// ``VipsRenderer/encode(_:spec:)`` uses for such a picture, alpha kept in a PNG and
    /// flattened onto white for a JPEG; nil for WebP, libvips' to encode.
    func encoded(for spec: RenditionSpec) throws(ImagingError) -> Thumbnail? {
        switch spec.format {
        case .webp:
            return nil
        case .jpeg:
            // JPEG has no alpha: the engine flattens the picture onto white, then encodes it.
            if hasAlpha { return try flattened()?.encoded(for: spec) }
            var encoded = thumbs_jpeg_encoded()
            defer { thumbs_jpeg_encoded_free(&encoded) }
            guard
                thumbs_jpeg_encode(
                    pixels, Int32(size.width), Int32(size.height), Int32(bands), stride, Int32(spec.quality),
                    &encoded) == Int32(THUMBS_JPEG_ENCODED), let bytes = encoded.bytes
            else { throw .encodingFailed(String(fixedCString: encoded.message) ?? "libjpeg failed") }
            return Thumbnail(
                bytes: Array(UnsafeBufferPointer(start: bytes, count: encoded.length)), pixelSize: size,
                format: .jpeg)
        case .png:
            var png: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard
                thumbs_png_encode(pixels, Int32(size.width), Int32(size.height), Int32(bands), &png, &length) == 0,
                let png
            else { throw .encodingFailed("PNG encoding failed (\(size.width)x\(size.height), \(bands) bands)") }
            defer { free(png) }
            return Thumbnail(
                bytes: Array(UnsafeBufferPointer(start: png, count: length)), pixelSize: size, format: .png)
        }
    }

    /// Calls `body` with the pixels, rows `stride` bytes apart.
    func withPixels<T, Failure: Error>(
        _ body: (UnsafePointer<UInt8>, _ stride: Int) throws(Failure) -> T
    ) throws(Failure) -> T {
        try body(pixels, stride)
    }
}
