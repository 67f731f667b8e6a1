import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

/// A JPEG rendered without libvips gives the thumbnails the engine's libvips path gives, byte
/// for byte, placeholders included; what it does not take, it leaves to the engine.
@Suite struct JPEGHandlerDirectTests {
    let folder = TemporaryFolder("thumbs-direct-jpeg")
    let engine = VipsRenderer()
    let handler = JPEGHandler()

    static let specSets: [[RenditionSpec]] = [
        [RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFit, format: .png)],
        [RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFill, format: .jpeg)],
        [
            RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
            RenditionSpec(size: PixelSize(width: 1024, height: 1024), contentMode: .aspectFit),
            RenditionSpec(size: PixelSize(width: 64, height: 64), contentMode: .aspectFit, format: .png),
        ],
    ]

    var paths: DirectPathComparison<JPEGHandler> { DirectPathComparison(handler: handler) }

    @Test(arguments: [1, 3, 6, 8])
    func aTurnedPhotoGivesTheEnginesBytes(orientation: Int) throws {
        let path = try folder.write(
            SyntheticImage(width: 900, height: 600).encoded(as: .jpeg, orientation: orientation),
            to: "turned-\(orientation).jpg")
        for specs in Self.specSets { try paths.expectSame(path, specs: specs, "orientation \(orientation)") }
    }

    @Test func progressiveAndGreyPhotosGiveTheEnginesBytes() throws {
        let progressive = try folder.write(
            SyntheticImage(width: 2400, height: 1600).encoded(as: .jpeg, quality: 80, progressive: true),
            to: "progressive.jpg")
        let grey = try folder.write(
            SyntheticImage(width: 700, height: 500, pixels: .grey).encoded(as: .jpeg), to: "grey.jpg")
        for path in [progressive, grey] {
            for specs in Self.specSets { try paths.expectSame(path, specs: specs, "\(path)") }
        }
    }

    @Test func aPhotosEXIFFieldsAndThumbnailAreLibvipss() throws {
        let exif = [
            "exif-ifd0-Make": "Thumbs Camera", "exif-ifd0-Model": "T1 (mark II)",
            "exif-ifd2-DateTimeOriginal": "2024:06:01 12:30:15", "exif-ifd2-OffsetTimeOriginal": "+02:00",
        ]
        for orientation in [1, 6] {
            let path = try folder.write(
                SyntheticImage(width: 900, height: 600, exif: exif).encoded(as: .jpeg, orientation: orientation),
                to: "exif-\(orientation).jpg")
            let probes = try paths.bothProbes(path)
            #expect(probes.direct == probes.engine)
            #expect(probes.direct.cameraModel == "T1" && probes.direct.captureDate != nil)
        }
        for orientation in [1, 8] {
            let thumbnail = try folder.write(
                try ExifThumbnailJPEG.make(
                    SyntheticImage(width: 1000, height: 500), thumbnail: PixelSize(width: 160, height: 120),
                    orientation: orientation),
                to: "exif-thumbnail-\(orientation).jpg")
            let probes = try paths.bothProbes(thumbnail)
            #expect(probes.direct == probes.engine && probes.direct.embeddedPreviewSize != nil)
        }
    }

    @Test func webPOutputUpscalingAndCMYKAreTheEnginesToMake() throws {
        let photo = try folder.write(SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "photo.jpg")
        let cmyk = try folder.write(
            SyntheticImage(width: 300, height: 200, pixels: .cmyk).encoded(as: .jpeg), to: "cmyk.jpg")
        let webP = RenditionSpec(size: PixelSize(width: 100, height: 100), format: .webp)
        let upscaled = RenditionSpec(size: PixelSize(width: 600, height: 600), allowsUpscaling: true)
        #expect(try paths.bothPaths(photo, specs: [webP]) == nil)
        #expect(try paths.bothPaths(photo, specs: [upscaled]) == nil)
        #expect(try paths.bothPaths(cmyk, specs: Self.specSets[0]) == nil)
    }

    /// A process that confines itself first opens libvips for a JPEG only where its header, its
    /// end or its profile's header tells that libvips may have to take it over: a profile other
    /// than sRGB is converted by lcms alone.
    @Test func aPlainJPEGNeedsNoLibrary() throws {
        func libraries(_ name: String, _ bytes: [UInt8]) throws -> Set<DecodingLibrary> {
            let path = try folder.write(bytes, to: name)
            return handler.libraries(for: try ImageSource(ImageLocation(path: path)))
        }
        let plain = try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg)
        #expect(try libraries("plain.jpg", plain) == [])
        #expect(try libraries("truncated.jpg", Array(plain.dropLast(100))) == [.libvips])
        let cmyk = try SyntheticImage(width: 30, height: 20, pixels: .cmyk).encoded(as: .jpeg)
        #expect(try libraries("cmyk.jpg", cmyk) == [.libvips])
        if SharedPhotos.isPresent {
            func shared(_ path: String) throws -> Set<DecodingLibrary> {
                let location = ImageLocation(path: SharedPhotos.root.appendingPathComponent(path).path)
                return handler.libraries(for: try ImageSource(location))
            }
            #expect(try shared("phone/dog_exif_extended_xmp_icc.jpg") == [], "an sRGB profile")
            #expect(try shared("2019-trip/book-beside-flowers.jpg") == [], "an sRGB profile")
            #expect(try shared("phone/PXL_ultrahdr_01.jpg") == [], "Display P3")
            #expect(try shared("exports/concert.jpg") == [], "a grey profile")
            // An RGB photo whose profile says grey: lcms would not convert it.
            var p3 = Array(try Data(contentsOf: SharedPhotos.root.appendingPathComponent("phone/PXL_ultrahdr_01.jpg")))
            let signature = Array("ICC_PROFILE\0".utf8)
            let segment = try #require(p3.indices.first { p3[$0...].starts(with: signature) })
            let space = segment + 14 + 16  // past the signature, its sequence number and count
            p3.replaceSubrange(space..<space + 4, with: Array("GRAY".utf8))
            #expect(try libraries("p3-said-grey.jpg", p3) == [.libvips])
        }
    }

    @Test func aTruncatedPhotoIsTheEnginesToRenderInPart() throws {
        let whole = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        let path = try folder.write(Array(whole.prefix(whole.count * 2 / 3)), to: "truncated.jpg")
        #expect(try paths.bothPaths(path, specs: Self.specSets[0]) == nil)
    }

    /// A camera's photo damaged mid-picture, past libvips' rule (a hundred warnings), is
    /// rendered in part as the engine's partial path renders it, byte for byte, once settled;
    /// while it may still be being written, it is the engine's.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aSettledPhotoDamagedPastLibvipsRuleIsRenderedInPartAsTheEngineRendersIt() throws {
        let path = SharedPhotos.root.appendingPathComponent("broken/corrupted.jpg").path
        for specs in Self.specSets {
            let rendered = try #require(try paths.bothPaths(path, specs: specs), "\(specs)")
            #expect(rendered.direct.count == specs.count)
            for (direct, engine) in zip(rendered.direct, rendered.engine) {
                #expect(direct.bytes == engine.bytes, "\(specs)")
                #expect(direct.isPartial && engine.isPartial && direct.placeholder == engine.placeholder)
            }
        }
        let fresh = try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: path))), to: "fresh.jpg")
        #expect(try paths.bothPaths(fresh, specs: Self.specSets[0]) == nil)
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: SharedPhotos.entries.filter { $0.notes["loader"] == "jpegload" && $0.expectedError == nil })
    func everySharedJPEGTheDirectPathTakesGivesTheEnginesBytes(entry: SharedPhotos.Entry) throws {
        let specs = Self.specSets[2]
        guard let rendered = try paths.bothPaths(entry.path, specs: specs) else {
            // Declined: CMYK, or damage libjpeg warns about, which the engine renders.
            #expect(
                entry.notes["bands"] == "4" || entry.rendersPartially || entry.notes["decode_fail_on_warning"] != "ok")
            return
        }
        for (direct, engine) in zip(rendered.direct, rendered.engine) {
            #expect(direct.bytes == engine.bytes)
            #expect(direct.placeholder == engine.placeholder)
        }
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: SharedPhotos.entries.filter { $0.notes["loader"] == "jpegload" && $0.expectedError == nil })
    func everySharedJPEGsPropertiesAreLibvipss(entry: SharedPhotos.Entry) throws {
        let probes = try paths.bothProbes(entry.path)
        #expect(probes.direct == probes.engine)
    }
}
