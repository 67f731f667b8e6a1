import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// libjpeg-turbo driven directly gives the pixels libvips' loader gives, and a progressive file
/// read only in part gives the pixels of the whole.
@Suite struct JpegDecoderTests {
    let folder = TemporaryFolder()

    private func file(_ path: String) throws(ImagingError) -> ImageFile {
        try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 200_000_000)
    }

    private func decoded(
        _ path: String, shrink: Int32, skipping: Bool = true
    ) throws -> (pixels: [UInt8], size: PixelSize, skipped: Bool)? {
        try VipsCallGate.run { () throws(ImagingError) in
            guard let picture = try JpegDecoder.decode(file(path), shrink: shrink, skippingUnneededScans: skipping)
            else { return nil }
            return (try picture.image.pixelBytes(), picture.image.size, picture.skippedScans)
        }
    }

    /// libvips' own loader at the same scale, not turned upright.
    private func loadedByLibvips(_ path: String, shrink: Int32) throws -> (pixels: [UInt8], size: PixelSize) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try VipsCallGate.run { () throws(ImagingError) in
            guard let opened = bytes.withUnsafeBytes({ thumbs_vips_open_jpeg_buffer($0.baseAddress, $0.count, shrink) })
            else { throw .corrupt(VipsError.takeMessage()) }
            let image = VipsImageHandle(opened)
            return (try image.pixelBytes(), image.size)
        }
    }

    @Test func aProgressiveJPEGScaledByEightSkipsItsLumaACScansAndKeepsEveryPixel() throws {
        // Quality 80: libvips subsamples the chroma, which a 1/8 decode makes with the 2x2
        // IDCT, from AC coefficients too; only the luma's AC scans can go.
        let path = try folder.write(
            try SyntheticImage(width: 2400, height: 1800).encoded(as: .jpeg, quality: 80, progressive: true),
            to: "progressive.jpg")
        let partial = try #require(try decoded(path, shrink: 8))
        let whole = try #require(try decoded(path, shrink: 8, skipping: false))
        #expect(partial.skipped && !whole.skipped)
        #expect(partial.size == PixelSize(width: 300, height: 225))
        #expect(partial.pixels == whole.pixels)
        for shrink: Int32 in [2, 4] {
            let scaled = try #require(try decoded(path, shrink: shrink))
            #expect(scaled.pixels == (try decoded(path, shrink: shrink, skipping: false))?.pixels)
        }
    }

    @Test func aProgressiveJPEGWithFullChromaScaledByEightIsDecodedFromItsDCScans() throws {
        // Quality 95: libvips keeps the chroma whole, so every component is decoded from its DC
        // alone at 1/8, and every AC scan is left out.
        let path = try folder.write(
            try SyntheticImage(width: 2000, height: 1600).encoded(as: .jpeg, quality: 95, progressive: true),
            to: "progressive-444.jpg")
        let partial = try #require(try decoded(path, shrink: 8))
        #expect(partial.skipped)
        #expect(partial.pixels == (try decoded(path, shrink: 8, skipping: false))?.pixels)
    }

    @Test func aTruncatedProgressiveJPEGFailsAsTruncatedEvenWhereItsScansAreNotNeeded() throws {
        // The file ends inside its last scan, which a 1/8 decode would not read: the file is
        // damaged all the same, and says so, as the full decode does.
        let whole = try SyntheticImage(width: 2400, height: 1800).encoded(as: .jpeg, quality: 80, progressive: true)
        let path = try folder.write(Array(whole.prefix(whole.count - 1000)), to: "cut.jpg")
        let error = try #require(throws: ImagingError.self) { try decoded(path, shrink: 8) }
        #expect(error.kind == .truncated, "\(error)")
    }

    @Test func aBaselineJPEGIsReadWhole() throws {
        let path = try folder.write(
            try SyntheticImage(width: 1200, height: 900).encoded(as: .jpeg, quality: 80), to: "baseline.jpg")
        let picture = try #require(try decoded(path, shrink: 8))
        #expect(!picture.skipped)
        #expect(picture.pixels == (try loadedByLibvips(path, shrink: 8)).pixels)
    }

    @Test func aTruncatedJPEGFailsAsTruncated() throws {
        let whole = try SyntheticImage(width: 1200, height: 900).encoded(as: .jpeg)
        let path = try folder.write(Array(whole.prefix(whole.count / 2)), to: "half.jpg")
        let error = try #require(throws: ImagingError.self) { try decoded(path, shrink: 2) }
        #expect(error.kind == .truncated, "\(error)")
    }

    /// Bytes between two segments, or before the end marker: libjpeg warns of "extraneous bytes
    /// before marker", and decodes as libvips' loader decodes such a file, to the same pixels.
    @Test func aJPEGLibjpegWarnsAboutDecodesAsLibvipsLoaderDecodesIt() throws {
        var between = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        between.insert(contentsOf: [0x00, 0x11, 0x22], at: 2 + 2 + Int(between[4]) << 8 + Int(between[5]))
        var beforeEnd = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        beforeEnd.insert(contentsOf: [UInt8](repeating: 0, count: 16), at: beforeEnd.count - 2)
        for (name, bytes) in [("between.jpg", between), ("before-end.jpg", beforeEnd)] {
            let path = try folder.write(bytes, to: name)
            for shrink: Int32 in [1, 2, 8] {
                let picture = try #require(try decoded(path, shrink: shrink), "\(name)")
                #expect(picture.pixels == (try loadedByLibvips(path, shrink: shrink)).pixels, "\(name) at 1/\(shrink)")
            }
        }
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func everySharedJPEGDecodesAsLibvipsLoaderDoes() throws {
        let jpegs = SharedPhotos.entries.filter {
            $0.notes["loader"] == "jpegload" && $0.notes["decode"] == "ok" && $0.expectedError == nil
        }
        #expect(jpegs.count >= 30)
        var leftToLibvips = 0
        for entry in jpegs {
            for shrink: Int32 in [1, 2, 4, 8] {
                guard let picture = try decoded(entry.path, shrink: shrink) else {
                    leftToLibvips += 1
                    continue
                }
                let libvips = try loadedByLibvips(entry.path, shrink: shrink)
                #expect(picture.size == libvips.size, "\(entry) at 1/\(shrink)")
                #expect(picture.pixels == libvips.pixels, "\(entry) at 1/\(shrink)")
            }
        }
        // The CMYK JPEG, at every scale.
        #expect(leftToLibvips == 4)
    }
}
