import CVips
import CVipsShim
import Glibc
import ThumbsCore
import ThumbsSupport

/// A picture FFmpeg, LibRaw or libavif decoded (a video's poster frame, a RAW's preview or
/// half-size decode, an animated AVIF's first frame), copied out of the C library, to be turned
/// upright and resized like a photo: by libvips (``image(_:)``), or without it where it is plain
/// pixels (`DecodedPicture+Direct.swift`).
/// The C decode runs outside ``VipsCallGate`` (it may take seconds, and is no libvips call);
/// only ``image(_:)`` runs inside it.
struct DecodedPicture: Sendable {
    enum Content: Sendable {
        /// 8-bit RGB pixels, tightly packed.
        case rgb([UInt8], PixelSize)
        /// A JPEG, decoded at 1/`shrink` scale by libjpeg.
        case jpeg([UInt8], shrink: Int32)
        /// An image in any format libvips reads (a video's cover picture).
        case encoded([UInt8])
        /// 8-bit pixels of `bands` (3: RGB, 4: RGBA), tightly packed, with their ICC profile.
        case pixels([UInt8], PixelSize, bands: Int, profile: [UInt8]?)
    }

    var content: Content
    /// The EXIF orientation (1...8) that turns the picture upright.
    var orientation: Int
    /// The shape of the upright photo, when the picture may not have it: a half-size decode of
    /// a sensor whose pixels are not square (a Kodak's are half again as wide) comes out
    /// squeezed, and is stretched back.
    var shape: PixelSize?

    init(content: Content, orientation: Int, shape: PixelSize? = nil) {
        self.content = content
        self.orientation = orientation
        self.shape = shape
    }

    /// The picture upright, 8-bit sRGB, decoded into memory. Call inside ``VipsCallGate``.
    func image(_ failure: (String) -> ImagingError) throws(ImagingError) -> VipsImageHandle {
        let opened: UnsafeMutablePointer<VipsImage>? =
            switch content {
            case .rgb(let pixels, let size):
                pixels.withUnsafeBufferPointer {
                    thumbs_vips_image_from_rgb($0.baseAddress, Int32(size.width), Int32(size.height))
                }
            case .jpeg(let bytes, let shrink):
                bytes.withUnsafeBytes { thumbs_vips_open_jpeg_buffer($0.baseAddress, $0.count, shrink) }
            case .encoded(let bytes):
                bytes.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }
            case .pixels(let pixels, let size, let bands, let profile):
                Self.adopting(pixels, size, bands: bands, profile: profile)
            }
        guard let opened else { throw failure(VipsError.takeMessage()) }
        let stored = VipsImageHandle(opened)
        var upright = stored
        if orientation != 1 {
            upright = try VipsImageHandle.make(failure) { thumbs_vips_orient(stored.pointer, $0, Int32(orientation)) }
        }
        if let shape { upright = try Self.reshaped(upright, to: shape, failure) }
        return try VipsRenderer.srgb(upright, failure).inMemory(failure)
    }

    /// A copy of `pixels`, owned by the image made of it.
    private static func adopting(
        _ pixels: [UInt8], _ size: PixelSize, bands: Int, profile: [UInt8]?
    ) -> UnsafeMutablePointer<VipsImage>? {
        guard let copy = malloc(max(1, pixels.count))?.assumingMemoryBound(to: UInt8.self) else { return nil }
        pixels.withUnsafeBufferPointer { buffer in
            if let start = buffer.baseAddress { copy.update(from: start, count: buffer.count) }
        }
        return (profile ?? []).withUnsafeBufferPointer {
            thumbs_vips_image_adopting(
                copy, Int32(size.width), Int32(size.height), Int32(bands), $0.baseAddress, $0.count)
        }
    }

    private static func reshaped(
        _ image: VipsImageHandle, to upright: PixelSize, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        let imageAspect = Double(image.width) / Double(max(1, image.height))
        let photoAspect = Double(upright.width) / Double(max(1, upright.height))
        guard abs(imageAspect / photoAspect - 1) > 0.05 else { return image }
        let size =
            imageAspect < photoAspect
            ? PixelSize(width: Int((Double(image.height) * photoAspect).rounded()), height: image.height)
            : PixelSize(width: image.width, height: Int((Double(image.width) / photoAspect).rounded()))
        return try VipsImageHandle.make(failure) {
            thumbs_vips_thumbnail_image(
                image.pointer, $0, Int32(size.width), Int32(size.height),
                Int32(VIPS_INTERESTING_NONE.rawValue), Int32(VIPS_SIZE_FORCE.rawValue))
        }
    }
}
