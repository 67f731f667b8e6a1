import CVipsShim
import Foundation
import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Every file of ../shared/photos: good ones render upright at the right size, damaged ones that
/// decode in part render partial thumbnails, broken ones give the typed error their MANIFEST
/// notes call for.
@Suite(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
struct SharedPhotosTests {
    let renderer = VipsRenderer()
    let fit = RenditionSpec(size: PixelSize(width: 320, height: 320), contentMode: .aspectFit, format: .png)

    /// Size after orientation: libvips reports JPEG/PNG/TIFF sizes as stored and HEIF sizes with
    /// the container rotation already applied.
    static func uprightSize(_ entry: SharedPhotos.Entry) -> PixelSize? {
        guard let size = entry.vipsSize else { return nil }
        let stored = PixelSize(width: size.width, height: size.height)
        let orientation = Int(entry.notes["orientation"] ?? "1") ?? 1
        let heif = entry.notes["loader"] == "heifload"
        return !heif && orientation >= 5 ? stored.transposed : stored
    }

    @Test(arguments: SharedPhotos.entries)
    func rendersOrFailsAsTheManifestSays(entry: SharedPhotos.Entry) throws {
        if let expected = entry.expectedError {
            let error = try #require(throws: ImagingError.self) { try renderer.render(entry.path, spec: fit) }
            #expect(error.kind == expected, "\(entry): \(error)")
            #expect(!error.description.contains("\n"))
            return
        }
        let thumbnail = try renderer.render(entry.path, spec: fit)
        let upright = try #require(Self.uprightSize(entry))
        #expect(try renderer.probe(entry.path).pixelSize == upright)
        let expectedSize = RenditionGeometry.outputSize(source: upright, spec: fit)
        #expect(thumbnail.pixelSize == expectedSize)
        #expect(try DecodedPixels(thumbnail).width == expectedSize.width)
        #expect(thumbnail.isPartial == entry.rendersPartially)
    }

    @Test(arguments: ["Landscape", "Portrait"])
    func orientationSamplesAllLookLikeTheUprightOne(shape: String) throws {
        let folder = SharedPhotos.root.appendingPathComponent("orientation")
        let reference = try DecodedPixels(
            renderer.render(folder.appendingPathComponent("\(shape)_1.jpg").path, spec: fit))
        for index in [0, 2, 3, 4, 5, 6, 7, 8] {
            let path = folder.appendingPathComponent("\(shape)_\(index).jpg").path
            let pixels = try DecodedPixels(renderer.render(path, spec: fit))
            // The samples differ only in the digit drawn on them.
            let difference = pixels.meanAbsoluteDifference(to: reference)
            #expect(difference < 6, "\(shape)_\(index): mean absolute difference \(difference)")
        }
    }

    @Test func heicWithBothRotationsIsTurnedOnce() throws {
        // iPhone HEIC: EXIF orientation 6 and HEIF irot 270 describe the same quarter turn.
        // libheif applies irot; libvips then drops the EXIF tag so it is not applied again.
        let path = SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path
        let properties = try renderer.probe(path)
        #expect(properties.pixelSize == PixelSize(width: 3024, height: 4032))
        #expect(properties.exifOrientation == nil)
        #expect(try renderer.render(path, spec: fit).pixelSize == PixelSize(width: 240, height: 320))
    }

    @Test func probeReadsCameraDateAndPreview() throws {
        let iphone = try renderer.probe(SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path)
        #expect(iphone.mediaType == .heif)
        #expect(iphone.cameraMake == "Apple" && iphone.cameraModel == "iPhone 13 Pro Max")
        #expect(iphone.captureDate?.description == "2022-02-16T12:55:41+01:00")
        #expect(iphone.embeddedPreviewSize == PixelSize(width: 240, height: 320))

        let xiaomi = try renderer.probe(SharedPhotos.root.appendingPathComponent("phone/Xiaomi_Mi_9T.jpg").path)
        #expect(xiaomi.mediaType == .jpeg && xiaomi.exifOrientation == 6)
        #expect(xiaomi.pixelSize == PixelSize(width: 3000, height: 4000))
        #expect(xiaomi.embeddedPreviewSize == PixelSize(width: 240, height: 320))

        let disguised = try renderer.probe(
            SharedPhotos.root.appendingPathComponent("phone/heic_with_jpg_extension.jpg").path)
        #expect(disguised.mediaType == .heif)

        let animated = try renderer.probe(SharedPhotos.root.appendingPathComponent("exports/animated-loop-3.gif").path)
        #expect(animated.pageCount == 10 && animated.pixelSize == PixelSize(width: 370, height: 285))
    }

    @Test func embeddedPreviewsOfRealPhotos() throws {
        let heic = SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path
        let heifPreview = try #require(try renderer.embeddedPreview(heic))
        #expect(heifPreview.pixelSize == PixelSize(width: 240, height: 320))

        let canon = SharedPhotos.root.appendingPathComponent(
            "2007-12-holiday/Canon Powershot SD750 - 2007.12.26.n.IMG_3704.JPG"
        ).path
        let preview = try #require(try renderer.embeddedPreview(canon))
        let full = try renderer.render(canon, spec: RenditionSpec(size: preview.pixelSize, contentMode: .aspectFill))
        let difference = try DecodedPixels(preview).meanAbsoluteDifference(to: DecodedPixels(full))
        #expect(difference < 20, "the preview shows the same picture (\(difference))")

        // Orientation 6: the 320x240 EXIF thumbnail is turned upright with the photo.
        let xiaomi = SharedPhotos.root.appendingPathComponent("phone/Xiaomi_Mi_9T.jpg").path
        let turned = try #require(try renderer.embeddedPreview(xiaomi))
        #expect(turned.pixelSize == PixelSize(width: 240, height: 320))
        let photo = try renderer.render(xiaomi, spec: RenditionSpec(size: turned.pixelSize, contentMode: .aspectFill))
        let turnedDifference = try DecodedPixels(turned).meanAbsoluteDifference(to: DecodedPixels(photo))
        #expect(turnedDifference < 20, "the preview is the same way up as the photo (\(turnedDifference))")
        #expect(
            try renderer.embeddedPreview(SharedPhotos.root.appendingPathComponent("orientation/Landscape_6.jpg").path)
                == nil)
    }

    @Test func severalRenditionsOfRealPhotosMatchDirectRenders() throws {
        let specs = [
            RenditionSpec(size: PixelSize(width: 1024, height: 1024), format: .png),
            RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill, format: .png),
            RenditionSpec(size: PixelSize(width: 120, height: 80), contentMode: .aspectFill, format: .png),
        ]
        // HEIC is left out: for outputs no larger than the HEIF's stored thumbnail, libvips'
        // shrink-on-load decodes that thumbnail instead of the photo, so a direct render differs
        // from one derived from the photo by more than encoder noise (by design, not by error).
        for name in [
            "phone/Xiaomi_Mi_9T.jpg", "2019-trip/craft-beer.jpg", "exports/weld_16bit.png",
            "scans/Oregon Scientific DS6639 - DSC_0307 - small - CMYK.tiff",
        ] {
            let path = SharedPhotos.root.appendingPathComponent(name).path
            for (spec, derived) in zip(specs, try renderer.render(path, specs: specs)) {
                let direct = try renderer.render(path, spec: spec)
                #expect(derived.pixelSize == direct.pixelSize)
                let difference = try DecodedPixels(derived).meanAbsoluteDifference(to: DecodedPixels(direct))
                #expect(difference < 2.5, "\(name) \(spec): \(difference)")
            }
        }
    }

    /// Thumbnails may be shared: a phone photo's GPS position, its camera details and its colour
    /// profile stay behind, in every format.
    @Test(arguments: ["phone/HMD_Nokia_8.3_5G.jpg", "phone/PXL_ultrahdr_01.jpg", "phone/iphone_13_pro_max.HEIC"])
    func thumbnailsCarryNoMetadata(relativePath: String) throws {
        let path = SharedPhotos.root.appendingPathComponent(relativePath).path
        for format in ThumbnailFormat.allCases {
            let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), format: format)
            let thumbnail = try renderer.render(path, spec: spec)
            let opened = thumbnail.bytes.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }
            let image = VipsImageHandle(try #require(opened))
            for field in ["exif-data", "xmp-data", "iptc-data", "icc-profile-data", "exif-ifd3-GPSLatitude"] {
                #expect(!image.has(field), "\(relativePath) as \(format): \(field)")
            }
        }
    }

    /// HEIF to WebP once read freed memory inside libvips (visible under AddressSanitizer) and
    /// gave different bytes from run to run.
    @Test func heifToWebPIsTheSameEveryTime() throws {
        let path = SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path
        let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), format: .webp)
        let first = try renderer.render(path, spec: spec)
        for _ in 0..<3 { #expect(try renderer.render(path, spec: spec).bytes == first.bytes) }
    }
}
