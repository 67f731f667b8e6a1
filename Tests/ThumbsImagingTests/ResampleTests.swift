import CResample
import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsTestSupport

/// Thumbs' Lanczos-3 (`thumbs_resample`) and the resize built on it: the pictures libvips'
/// resize makes, to within rounding, on every path the processor can take.
@Suite struct ResampleTests {
    /// A picture of `width` x `height` pixels of `bands` samples whose rows are `stride` bytes
    /// apart (the padding is 0xEE, which must never show).
    struct Picture {
        var width: Int
        var height: Int
        var bands: Int
        var stride: Int
        var bytes: [UInt8]

        init(width: Int, height: Int, bands: Int, padding: Int = 0, sample: (Int, Int, Int) -> UInt8) {
            self.width = width
            self.height = height
            self.bands = bands
            stride = width * bands + padding
            bytes = [UInt8](repeating: 0xEE, count: stride * height)
            for y in 0..<height {
                for x in 0..<width {
                    for band in 0..<bands { bytes[y * stride + x * bands + band] = sample(x, y, band) }
                }
            }
        }

        /// The samples without the padding.
        var packed: [UInt8] {
            (0..<height).flatMap { bytes[($0 * stride)..<($0 * stride + width * bands)] }
        }
    }

    /// Photo-like samples: smooth gradients, hard edges and grain, the same on every run.
    static func photoLike(_ x: Int, _ y: Int, _ band: Int) -> UInt8 {
        let gradient = (x * 3 + y * 2 + band * 40) % 256
        let edge = (x / 37 + y / 23) % 2 == 0 ? 60 : 0
        let grain = Int(truncatingIfNeeded: (x &* 73_856_093) ^ (y &* 19_349_663) ^ (band &* 83_492_791)) & 31
        return UInt8(clamping: gradient / 2 + edge + grain)
    }

    /// `source` resampled into `width` x `height` by the given entry point, or into the piece of
    /// that size of `window` at its left and top; nil when refused.
    func resampled(
        _ source: Picture, width: Int, height: Int, window: (width: Int, height: Int, left: Int, top: Int)? = nil,
        across: Double? = nil, down: Double? = nil, padding: Int = 0, generic: Bool = false
    ) -> Picture? {
        var source = source
        var target = Picture(width: width, height: height, bands: source.bands, padding: padding) { _, _, _ in 0 }
        let window = window ?? (width, height, 0, 0)
        let across = across ?? Double(source.width) / Double(window.width)
        let down = down ?? Double(source.height) / Double(window.height)
        let status = source.bytes.withUnsafeMutableBufferPointer { input in
            target.bytes.withUnsafeMutableBufferPointer { output in
                var from = thumbs_pixels(
                    pixels: input.baseAddress, width: Int32(source.width), height: Int32(source.height),
                    bands: Int32(source.bands), stride: source.stride)
                var into = thumbs_pixels(
                    pixels: output.baseAddress, width: Int32(width), height: Int32(height),
                    bands: Int32(source.bands), stride: target.stride)
                let placed = thumbs_window(
                    width: Int32(window.width), height: Int32(window.height), left: Int32(window.left),
                    top: Int32(window.top))
                return generic
                    ? thumbs_resample_generic(&from, &into, placed, across, down)
                    : thumbs_resample(&from, &into, placed, across, down)
            }
        }
        return status == 0 ? target : nil
    }

    @Test("a flat picture stays flat at any shrink, in every band", arguments: [1, 3, 4])
    func flatStaysFlat(bands: Int) throws {
        let flat = Picture(width: 301, height: 203, bands: bands) { _, _, band in UInt8(17 + band * 70) }
        for (width, height) in [(300, 203), (301, 100), (150, 101), (97, 13), (1, 1), (37, 203)] {
            let shrunk = try #require(resampled(flat, width: width, height: height))
            let expected = (0..<(width * height)).flatMap { _ in (0..<bands).map { UInt8(17 + $0 * 70) } }
            #expect(shrunk.packed == expected, "\(width)x\(height)")
        }
    }

    @Test("the vectorised and the generic code give the same bytes, padded rows included")
    func vectorisedEqualsGeneric() throws {
        for bands in [1, 3, 4] {
            let source = Picture(width: 517, height: 389, bands: bands, padding: 5, sample: Self.photoLike)
            for (width, height) in [(256, 193), (511, 389), (517, 100), (64, 48), (3, 2)] {
                let fast = try #require(resampled(source, width: width, height: height, padding: 3))
                let generic = try #require(resampled(source, width: width, height: height, padding: 3, generic: true))
                #expect(fast.bytes == generic.bytes, "\(bands) bands, \(width)x\(height)")
                // The target's padding is left as it was.
                for y in 0..<height {
                    #expect(
                        fast.bytes[(y * fast.stride + width * bands)..<((y + 1) * fast.stride)].allSatisfy {
                            $0 == 0xEE
                        })
                }
            }
        }
    }

    @Test("a window's piece has the bytes the whole resample has there, and only that piece is written")
    func aWindowIsAPieceOfTheWhole() throws {
        for bands in [1, 3, 4] {
            let source = Picture(width: 517, height: 389, bands: bands, padding: 5, sample: Self.photoLike)
            // Centre crops either way, a piece anywhere, and a piece of a width not shrunk.
            for (window, piece) in [
                ((341, 256, 42, 0), (256, 256)), ((256, 341, 0, 42), (256, 256)), ((300, 200, 17, 149), (100, 50)),
                ((517, 200, 60, 0), (400, 200)), ((300, 389, 0, 10), (300, 300)),
            ] {
                let whole = try #require(resampled(source, width: window.0, height: window.1))
                for generic in [false, true] {
                    let part = try #require(
                        resampled(
                            source, width: piece.0, height: piece.1, window: window, padding: 3, generic: generic))
                    let (left, top) = (window.2 * bands, window.3)
                    let expected = (top..<(top + piece.1)).flatMap { (y: Int) -> ArraySlice<UInt8> in
                        let start = y * whole.stride + left
                        return whole.bytes[start..<(start + piece.0 * bands)]
                    }
                    #expect(part.packed == expected, "\(bands) bands, \(window) \(piece), generic: \(generic)")
                    let padding = (0..<piece.1).flatMap { (y: Int) -> ArraySlice<UInt8> in
                        part.bytes[(y * part.stride + piece.0 * bands)..<((y + 1) * part.stride)]
                    }
                    #expect(padding.allSatisfy { $0 == 0xEE })
                }
            }
        }
    }

    @Test("a window larger than the source, not holding the target, or at a negative place is refused")
    func windowRefusals() {
        let source = Picture(width: 40, height: 30, bands: 3, sample: Self.photoLike)
        #expect(resampled(source, width: 10, height: 10, window: (41, 20, 0, 0), across: 1.5, down: 1.5) == nil)
        #expect(resampled(source, width: 10, height: 10, window: (20, 15, 11, 0)) == nil)
        #expect(resampled(source, width: 10, height: 10, window: (20, 15, 0, 6)) == nil)
        #expect(resampled(source, width: 10, height: 10, window: (20, 15, -1, 0)) == nil)
        #expect(resampled(source, width: 10, height: 10, window: (20, 15, 10, 5)) != nil)
    }

    @Test("growing, a shrink under one, a size that disagrees with no shrink and mismatched bands are refused")
    func refusals() throws {
        let source = Picture(width: 40, height: 30, bands: 3, sample: Self.photoLike)
        #expect(resampled(source, width: 41, height: 30) == nil)
        #expect(resampled(source, width: 40, height: 31) == nil)
        #expect(resampled(source, width: 20, height: 15, across: 0.5) == nil)
        #expect(resampled(source, width: 20, height: 30, across: 1) == nil)
        var source3 = source
        var target = Picture(width: 20, height: 15, bands: 1) { _, _, _ in 0 }
        let status = source3.bytes.withUnsafeMutableBufferPointer { input in
            target.bytes.withUnsafeMutableBufferPointer { output in
                var from = thumbs_pixels(pixels: input.baseAddress, width: 40, height: 30, bands: 3, stride: 120)
                var into = thumbs_pixels(pixels: output.baseAddress, width: 20, height: 15, bands: 1, stride: 20)
                return thumbs_resample(&from, &into, thumbs_window(width: 20, height: 15, left: 0, top: 0), 2, 2)
            }
        }
        #expect(status == -1)
    }

    /// The same picture as a libvips image, for libvips' own resize.
    private func vipsImage(_ picture: Picture) throws -> VipsImageHandle {
        precondition(picture.bands == 3 && picture.stride == picture.width * 3)
        let image = try #require(
            picture.bytes.withUnsafeBufferPointer {
                thumbs_vips_image_from_rgb($0.baseAddress, Int32(picture.width), Int32(picture.height))
            })
        return VipsImageHandle(image)
    }

    /// libvips' resize of `image` to `size` (`fill`: covering it, centre-cropped).
    private func libvipsResize(_ image: VipsImageHandle, to size: PixelSize, fill: Bool) throws(ImagingError)
        -> VipsImageHandle
    {
        try VipsImageHandle.make(ImagingError.corrupt) {
            thumbs_vips_thumbnail_image(
                image.pointer, $0, Int32(size.width), Int32(size.height),
                Int32(fill ? VIPS_INTERESTING_CENTRE.rawValue : VIPS_INTERESTING_NONE.rawValue),
                Int32(fill ? VIPS_SIZE_BOTH.rawValue : VIPS_SIZE_FORCE.rawValue))
        }
    }

    /// The differences between Thumbs' resize and libvips' of a photo-like `source` to `size`.
    private func differencesFromLibvips(
        source: PixelSize, to size: PixelSize, fill: Bool
    ) throws -> (mean: Double, largest: Int) {
        try VipsRuntime.ensureStarted()
        let image = try vipsImage(Picture(width: source.width, height: source.height, bands: 3, sample: Self.photoLike))
        let (ours, theirs) = try VipsCallGate.run { () throws(ImagingError) in
            (
                try VipsRenderer.resized(image, to: size, fill: fill, ImagingError.corrupt),
                try libvipsResize(image, to: size, fill: fill)
            )
        }
        #expect(ours.size == size)
        #expect(theirs.size == size)
        let differences = zip(try ours.pixelBytes(), try theirs.pixelBytes()).map { abs(Int($0) - Int($1)) }
        return (Double(differences.reduce(0, +)) / Double(differences.count), differences.max() ?? 0)
    }

    @Test(
        "an exact size and a centre crop are libvips' resize to within rounding, under a shrink of 4",
        arguments: [
            (700, 467, 256, 171, false), (1517, 1011, 1024, 683, false), (700, 467, 255, 255, false),
            (700, 467, 256, 256, true), (700, 467, 200, 300, true),
        ])
    func matchesLibvips(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, fill: Bool) throws {
        let (mean, largest) = try differencesFromLibvips(
            source: PixelSize(width: sourceWidth, height: sourceHeight), to: PixelSize(width: width, height: height),
            fill: fill)
        // libvips tabulates its weights at 1/64 pixel and rounds them to 12 bits; these are
        // exact to 14 bits: the two differ by a level here and there, nowhere by more than 3.
        #expect(mean < 0.5)
        #expect(largest <= 3)
    }

    @Test("from a shrink of 4, close to libvips' resize, which averages blocks of pixels first")
    func closeToLibvipsAtLargeShrinks() throws {
        // libvips shrinks by 2 in boxes, then by 2.96 with Lanczos-3; Thumbs by 5.93 with
        // Lanczos-3 alone, the sharper filter.
        let (mean, largest) = try differencesFromLibvips(
            source: PixelSize(width: 1517, height: 1011), to: PixelSize(width: 256, height: 171), fill: false)
        #expect(mean < 0.75)
        #expect(largest <= 6)
    }

    @Test("a picture with alpha, or growing, is left to libvips' resize", arguments: [false, true])
    func leftToLibvips(alpha: Bool) throws {
        try VipsRuntime.ensureStarted()
        let opaque = try vipsImage(Picture(width: 120, height: 80, bands: 3, sample: Self.photoLike))
        let size = alpha ? PixelSize(width: 60, height: 40) : PixelSize(width: 240, height: 160)
        let (ours, theirs) = try VipsCallGate.run { () throws(ImagingError) in
            let image =
                alpha
                ? try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_add_alpha(opaque.pointer, $0) } : opaque
            return (
                try VipsRenderer.resized(image, to: size, fill: false, ImagingError.corrupt).pixelBytes(),
                try libvipsResize(image, to: size, fill: false).pixelBytes()
            )
        }
        #expect(ours == theirs)
    }
}
