import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

/// A JPEG's header read from its segments says what libvips' header says: the stored size, the
/// orientation, whether it is progressive.
@Suite struct JPEGHeaderTests {
    let folder = TemporaryFolder("thumbs-jpeg-header")

    func read(_ bytes: [UInt8]) -> JPEGHeader? { JPEGHeader(in: FileBytes(bytes)) }

    @Test func aTurnedProgressivePhotosHeader() throws {
        let image = SyntheticImage(width: 900, height: 600)
        let header = try #require(read(try image.encoded(as: .jpeg, orientation: 6, quality: 80, progressive: true)))
        #expect(header.storedSize == PixelSize(width: 600, height: 900))
        #expect(header.uprightSize == PixelSize(width: 900, height: 600))
        #expect(header.orientation == 6 && header.isProgressive && header.components == 3)
        // libvips writes 4:2:0 below quality 90.
        #expect(header.samplesPerPixel == 1.5)
        let plain = try #require(read(try image.encoded(as: .jpeg, quality: 95)))
        #expect(plain.orientation == 1 && !plain.isProgressive && plain.samplesPerPixel == 3)
    }

    @Test func aGreyPhotoHasOneComponent() throws {
        let grey = try #require(read(try SyntheticImage(width: 70, height: 50, pixels: .grey).encoded(as: .jpeg)))
        #expect(grey.components == 1 && grey.samplesPerPixel == 1)
    }

    @Test func cmykTruncatedHeadersAndOtherFilesHaveNone() throws {
        #expect(read(try SyntheticImage(width: 30, height: 20, pixels: .cmyk).encoded(as: .jpeg)) == nil)
        #expect(read(try SyntheticImage(width: 30, height: 20).encoded(as: .png)) == nil)
        let jpeg = try SyntheticImage(width: 30, height: 20).encoded(as: .jpeg)
        #expect(read(Array(jpeg.prefix(20))) == nil)
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: SharedPhotos.entries.filter { $0.notes["loader"] == "jpegload" && $0.expectedError == nil })
    func everySharedJPEGsHeaderIsLibvipss(entry: SharedPhotos.Entry) throws {
        let file = try ImageFile(ImageSource(ImageLocation(path: entry.path)), pixelLimit: 500_000_000)
        let source = try ImageSource(ImageLocation(path: entry.path))
        guard let header = JPEGHeader(in: FileBytes(source.file, size: source.fingerprint.size)) else {
            // CMYK, or bytes between segments that libjpeg skips with a warning.
            #expect(file.bands == 4 || entry.relativePath.hasPrefix("broken/"))
            return
        }
        #expect(header.storedSize == file.storedSize)
        #expect(header.uprightSize == file.uprightSize)
        #expect(header.isProgressive == file.isInterlaced)
        #expect(header.components == file.bands)
    }
}
