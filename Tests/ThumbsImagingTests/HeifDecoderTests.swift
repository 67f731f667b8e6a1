import CHeif
import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport

/// libheif's picture as stored, averaged down and turned by Thumbs, is the picture libvips'
/// loader gets from libheif upright.
@Suite struct HeifDecoderTests {
    let folder = TemporaryFolder()

    /// A target no stored thumbnail covers: the picture itself is decoded.
    private static let anyTarget = PixelSize(width: 100_000, height: 100_000)

    private func file(_ path: String) throws(ImagingError) -> ImageFile {
        try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 200_000_000)
    }

    /// The picture as stored, at 1/`shrink`, and the orientation that turns it upright.
    private func decoded(
        _ path: String, shrink: Int32, target: PixelSize = anyTarget
    ) throws -> (pixels: [UInt8], size: PixelSize, orientation: Int32)? {
        try VipsCallGate.run { () throws(ImagingError) in
            guard let picture = try HeifDecoder.decode(file(path), shrink: shrink, target: target)
            else { return nil }
            return (try picture.image.pixelBytes(), picture.image.size, picture.orientation)
        }
    }

    /// The whole picture decoded here and turned upright as a render turns it.
    private func upright(_ path: String) throws -> (pixels: [UInt8], size: PixelSize)? {
        try VipsCallGate.run { () throws(ImagingError) in
            guard let picture = try HeifDecoder.decode(file(path), shrink: 1, target: Self.anyTarget)
            else { return nil }
            let turned = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_orient(picture.image.pointer, $0, picture.orientation)
            }
            return (try turned.pixelBytes(), turned.size)
        }
    }

    /// libvips' loader: libheif's picture, turned by libheif.
    private func loadedByLibvips(_ path: String) throws -> (pixels: [UInt8], size: PixelSize) {
        let picture = try DecodedPixels(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        return (picture.bytes, picture.size)
    }

    /// A HEIC written by libheif's encoder whose pixels say where they are (red grows across,
    /// green down, blue is the parity of both), stored so that `orientation` (1...8) turns it
    /// upright: libheif writes that as irot and imir boxes.
    private func heic(
        orientation: Int32 = 1, width: Int32 = 102, height: Int32 = 78, alpha: Bool = false,
        thumbnailSide: Int32? = nil, name: String
    ) throws -> String {
        try DecodingLibrary.libheif.open()
        let context = try #require(heif_context_alloc())
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        #expect(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok)
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_lossy_quality(encoder, 95)
        var image: OpaquePointer?
        let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        #expect(heif_image_create(width, height, heif_colorspace_RGB, chroma, &image).code == heif_error_Ok)
        defer { heif_image_release(image) }
        #expect(heif_image_add_plane(image, heif_channel_interleaved, width, height, 8).code == heif_error_Ok)
        var stride: Int32 = 0
        let plane = try #require(heif_image_get_plane(image, heif_channel_interleaved, &stride))
        let bands = alpha ? 4 : 3
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let pixel = plane + y * Int(stride) + x * bands
                pixel[0] = UInt8(x * 255 / Int(width - 1))
                pixel[1] = UInt8(y * 255 / Int(height - 1))
                pixel[2] = (x / 8 + y / 8) % 2 == 0 ? 40 : 215
                if alpha { pixel[3] = UInt8(255 - x % 128) }
            }
        }
        let options = try #require(heif_encoding_options_alloc())
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        var handle: OpaquePointer?
        #expect(heif_context_encode_image(context, image, encoder, options, &handle).code == heif_error_Ok)
        defer { heif_image_handle_release(handle) }
        if let thumbnailSide {
            #expect(
                heif_context_encode_thumbnail(context, image, handle, encoder, options, thumbnailSide, nil).code
                    == heif_error_Ok)
        }
        let path = folder.path + "/\(name).heic"
        #expect(heif_context_write_to_file(context, path).code == heif_error_Ok)
        return path
    }

    @Test func everyOrientationIsTurnedAsLibheifTurnsIt() throws {
        for orientation: Int32 in 1...8 {
            let path = try heic(orientation: orientation, name: "oriented-\(orientation)")
            let stored = try #require(try decoded(path, shrink: 1))
            #expect(stored.orientation == orientation)
            #expect(stored.size == PixelSize(width: 102, height: 78))
            let turned = try #require(try upright(path))
            let libvips = try loadedByLibvips(path)
            #expect(turned.size == libvips.size, "orientation \(orientation)")
            #expect(turned.pixels == libvips.pixels, "orientation \(orientation)")
        }
    }

    @Test func aShrunkPictureIsTheMeanOfEachBlock() throws {
        let path = try heic(orientation: 6, name: "blocks")
        let whole = try #require(try decoded(path, shrink: 1))
        for shrink in [2, 4, 8] {
            let shrunk = try #require(try decoded(path, shrink: Int32(shrink)))
            // 102 × 78 in blocks of `shrink`: the last column and row of blocks are partial.
            let width = (102 + shrink - 1) / shrink, height = (78 + shrink - 1) / shrink
            #expect(shrunk.size == PixelSize(width: width, height: height))
            #expect(shrunk.orientation == 6)
            var expected: [UInt8] = []
            for row in 0..<height {
                for column in 0..<width {
                    let ys = row * shrink..<min(78, row * shrink + shrink)
                    let xs = column * shrink..<min(102, column * shrink + shrink)
                    for band in 0..<3 {
                        let sum = ys.reduce(0) { total, y in
                            xs.reduce(total) { $0 + Int(whole.pixels[(y * 102 + $1) * 3 + band]) }
                        }
                        let count = ys.count * xs.count
                        expected.append(UInt8((sum + count / 2) / count))
                    }
                }
            }
            #expect(shrunk.pixels == expected, "1/\(shrink)")
        }
    }

    /// A stored thumbnail at least 2.5 times the thumbnail, across and down, is decoded in the
    /// picture's place, as libvips' loader decodes it; a smaller one is not used.
    @Test func aStoredThumbnailStandsInWhenTwoAndAHalfTimesTheThumbnail() throws {
        let path = try heic(orientation: 6, width: 640, height: 480, thumbnailSide: 160, name: "with-thumbnail")
        // Upright, the photo is 480 × 640 and its thumbnail 120 × 160.
        let item = try #require(try decoded(path, shrink: 4, target: PixelSize(width: 48, height: 64)))
        #expect(item.size == PixelSize(width: 120, height: 160) && item.orientation == 1)
        let libvips = try VipsCallGate.run { () throws(ImagingError) in
            let source = try ImageSource(ImageLocation(path: path))
            return try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_heif_thumbnail(source.descriptor, $0)
            }.pixelBytes()
        }
        #expect(item.pixels == libvips)
        // Twice a 60 × 80 thumbnail: the picture is decoded, at a scale.
        let picture = try #require(try decoded(path, shrink: 2, target: PixelSize(width: 60, height: 80)))
        #expect(picture.size == PixelSize(width: 320, height: 240) && picture.orientation == 6)
        // A fill of 48 × 48 covers 48 × 64: 2.5 times across, so the thumbnail stands in.
        #expect(try decoded(path, shrink: 4, target: PixelSize(width: 48, height: 48))?.size.width == 120)
    }

    @Test func picturesWithAlphaAreLeftToLibvips() throws {
        let path = try heic(alpha: true, name: "alpha")
        #expect(try decoded(path, shrink: 1) == nil)
        #expect(try loadedByLibvips(path).size == PixelSize(width: 102, height: 78))
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func everySharedHEIFDecodesAsLibvipsLoaderDoes() throws {
        let heifs = SharedPhotos.entries.filter { $0.notes["loader"] == "heifload" && $0.expectedError == nil }
        #expect(heifs.count >= 7)
        // libavif's PQ AVIF is tone-mapped here (ToneMapTests), where libvips' loader shows its
        // code values.
        let hdr = "exports/seine_hdr_srgb.avif"
        #expect(try upright(SharedPhotos.root.appendingPathComponent(hdr).path) != nil)
        var leftToLibvips: [String] = []
        for entry in heifs where entry.relativePath != hdr {
            guard let turned = try upright(entry.path) else {
                leftToLibvips.append(entry.relativePath)
                continue
            }
            let libvips = try loadedByLibvips(entry.path)
            #expect(turned.size == libvips.size, "\(entry)")
            #expect(turned.pixels == libvips.pixels, "\(entry)")
        }
        #expect(leftToLibvips.isEmpty)
    }

    /// An SDR AVIF is decoded here only at 8 bits, to the pixels of libvips' loader; at 10 bits it
    /// is left to the loader. A PQ one (ToneMapTests) is decoded here at any depth.
    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func sdrAVIFsAreDecodedAsLibvipsLoaderDecodesThem() throws {
        let png = folder.path + "/pattern.png"
        _ = try HDRPattern.write(to: png, transfer: "pq")
        func encoded(_ name: String, depth: String, cicp: String) throws -> String {
            let path = folder.path + "/\(name).avif"
            try GeneratedMedia.avifenc(["-d", depth, "-y", "444", "--cicp", cicp, png, path])
            return path
        }
        let srgb8 = try encoded("srgb-8", depth: "8", cicp: "1/13/6")
        let picture = try #require(try upright(srgb8))
        let libvips = try loadedByLibvips(srgb8)
        #expect(picture.size == libvips.size)
        #expect(picture.pixels.elementsEqual(libvips.pixels))
        #expect(try decoded(try encoded("bt2020-10", depth: "10", cicp: "9/1/9"), shrink: 1) == nil)
        let pq = try decoded(try encoded("pq-10", depth: "10", cicp: "9/16/9"), shrink: 2)
        #expect(pq?.size == PixelSize(width: 128, height: 64))
    }
}
