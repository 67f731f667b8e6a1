import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport
import ThumbsSamples

/// The placeholder of an encoded thumbnail, and of a render's smallest one.
@Suite struct ThumbHashThumbnailTests {
    @Test func aLosslessThumbnailHashesAsItsPixels() throws {
        for (image, container) in [
            (SyntheticImage(width: 90, height: 60), SyntheticImage.Container.png),
            (SyntheticImage(width: 60, height: 90, pixels: .rgba), .png),
        ] {
            // The file's pixels, RGBA: SyntheticImage's alpha rises from 128 at the left edge.
            let rgb = image.uprightRGB()
            var pixels: [UInt8] = []
            for index in 0..<image.width * image.height {
                let x = index % image.width
                let alpha = image.pixels == .rgba ? 128 + x * 127 / image.width : 255
                pixels += rgb[index * 3..<index * 3 + 3] + [UInt8(alpha)]
            }
            let encoded = try image.encoded(as: container)
            let thumbnail = Thumbnail(
                bytes: encoded, pixelSize: PixelSize(width: image.width, height: image.height), format: .png)
            let hash = try ThumbHash(encoded: thumbnail)
            #expect(hash == ThumbHash(rgba: pixels, width: image.width, height: image.height))
            #expect(hash.hasAlpha == (image.pixels == .rgba))
        }
    }

    @Test func aLargerThumbnailIsShrunkToFitTheHash() throws {
        let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        let hash = try ThumbHash(encoded: jpeg)
        #expect(!hash.hasAlpha && hash.approximateAspectRatio == 7.0 / 5)
        let grey = try SyntheticImage(width: 300, height: 200, pixels: .grey).encoded(as: .webp)
        // Grey: the colour differences are kept in steps of 1/31.5, so a grey may come back a
        // step off in each.
        let average = try ThumbHash(encoded: grey).averageColor
        #expect(abs(average.red - average.green) < 0.04 && abs(average.green - average.blue) < 0.04)
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: Array(jpeg.prefix(jpeg.count / 2))) }
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: [0xFF, 0xD8, 0xFF]) }
        #expect(throws: ImagingError.self) { try ThumbHash(encoded: []) }
    }

    @Test(arguments: [SyntheticImage.Pixels.rgb, .grey])
    func aRendersSmallestThumbnailCarriesThePlaceholderOfItsPicture(pixels: SyntheticImage.Pixels) throws {
        let folder = TemporaryFolder()
        let path = try folder.write(
            SyntheticImage(width: 600, height: 400, pixels: pixels).encoded(as: .jpeg), to: "photo.jpg")
        let specs = [
            RenditionSpec(size: PixelSize(width: 512, height: 512)),
            RenditionSpec(size: PixelSize(width: 96, height: 96), contentMode: .aspectFill, format: .png),
            RenditionSpec(size: PixelSize(width: 256, height: 256)),
        ]
        for thumbnails in [
            try VipsRenderer().render(path, specs: specs), [try VipsRenderer().render(path, spec: specs[1])],
        ] {
            let smallest = try #require(thumbnails.first { $0.pixelSize == PixelSize(width: 96, height: 96) })
            #expect(thumbnails.filter { $0.placeholder != nil } == [smallest])
            // A lossless thumbnail under the hash's 100 x 100: the same pixels as its file's (a
            // grey one's pixels as libvips makes them sRGB).
            #expect(smallest.placeholder == (try ThumbHash(encoded: smallest)))
        }
        // A JPEG's placeholder is made from the pixels before they were encoded: close to the
        // hash of the decoded file, not equal.
        let jpeg = try VipsRenderer().render(path, specs: [specs[0], specs[2]])
        #expect(try #require(jpeg[1].placeholder).resembles(try ThumbHash(encoded: jpeg[1])))
    }
}
