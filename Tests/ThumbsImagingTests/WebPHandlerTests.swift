import CVipsShim
import Foundation
import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport

/// A WebP is decoded by libwebp at four times the thumbnail, and resized the rest of the way by
/// libvips' Lanczos-3.
@Suite struct WebPHandlerTests {
    private func scale(_ width: Int, _ height: Int, to side: Int, cover: Bool = false) -> Double {
        WebPHandler.decodeScale(
            PixelSize(width: width, height: height), to: PixelSize(width: side, height: side), cover: cover)
    }

    @Test func libwebpScalesToFourTimesTheThumbnail() {
        #expect(scale(4096, 2048, to: 256) == 0.25)
        #expect(scale(4096, 2048, to: 256, cover: true) == 0.5)
        // Less than four times the thumbnail: the whole picture.
        #expect(scale(1000, 600, to: 256) == 1)
        #expect(scale(1024, 600, to: 256) == 1)
    }

    /// The fine detail of an RGB picture `width` pixels wide: the mean squared difference of
    /// neighbouring samples across and down.
    private func detail(_ pixels: [UInt8], width: Int) -> Double {
        let line = width * 3
        var sum = 0.0
        var count = 0
        for index in pixels.indices where index + line < pixels.count && (index % line) + 3 < line {
            let here = Double(pixels[index])
            sum += pow(here - Double(pixels[index + 3]), 2) + pow(here - Double(pixels[index + line]), 2)
            count += 2
        }
        return sum / Double(max(1, count))
    }

    /// denali.webp's 256-pixel thumbnail keeps at least 0.9 times the fine detail of a Lanczos-3
    /// downscale of the whole picture; libwebp's scaler alone, which libvips' own thumbnail
    /// uses, keeps less.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aWebPsThumbnailIsNearALanczosDownscaleOfTheWholePicture() throws {
        let path = SharedPhotos.root.appendingPathComponent("2019-trip/denali.webp").path
        let file = try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 100_000_000)
        let size = PixelSize(width: 256, height: 134)
        let (width, height, interesting, sizing) = VipsRenderer.thumbnailOptions(size, fill: false)
        let (thumbs, whole, libvips) = try VipsCallGate.run { () throws(ImagingError) in
            let thumbs = try WebPHandler().loaded(file, to: size, fill: false, partial: false).pixelBytes()
            let whole = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_thumbnail_webp(file.descriptor, 1, $0, width, height, interesting, sizing, 0)
            }.pixelBytes()
            let libvips = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_thumbnail_descriptor(file.descriptor, $0, width, height, interesting, sizing, 0)
            }.pixelBytes()
            return (thumbs, whole, libvips)
        }
        #expect(thumbs.count == whole.count && libvips.count == whole.count)
        let reference = detail(whole, width: size.width)
        #expect(detail(thumbs, width: size.width) >= 0.9 * reference)
        #expect(detail(libvips, width: size.width) < 0.85 * reference)
    }
}
