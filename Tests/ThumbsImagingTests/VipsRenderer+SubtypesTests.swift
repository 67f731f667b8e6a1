import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

@testable import ThumbsImaging

/// What a probe says of a still's subtypes and burst, on files generated for each and on real
/// phones' files.
@Suite struct VipsRendererSubtypesTests {
    let renderer = VipsRenderer()
    let folder = TemporaryFolder()

    func probe(_ relativePath: String) throws -> ImageProperties {
        try renderer.probe(ImageLocation(root: FilePath(folder.path), relativePath: FilePath(relativePath)))
    }

    @Test func aBurstOfTwelveIPhoneFramesSharesItsUUID() throws {
        let uuid = "2F0E6A8C-1B3D-4E5F-9A7B-8C6D5E4F3A2B"
        for frame in 0..<12 {
            _ = try folder.write(
                try SubtypeFiles.iPhoneBurstFrame(burstUUID: uuid, shade: frame), to: "IMG_\(1000 + frame).JPG")
        }
        for frame in 0..<12 {
            let properties = try probe("IMG_\(1000 + frame).JPG")
            #expect(properties.burst == BurstMembership(identifier: uuid))
            #expect(properties.cameraMake == "Apple" && properties.mediaSubtypes == [])
        }
    }

    @Test func pixelFramesAreABurstByNameAndItsCover() throws {
        let jpeg = try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg)
        for name in ["00000IMG_00000_BURST20201123164411530_COVER.jpg", "00001IMG_00001_BURST20201123164411530.jpg"] {
            _ = try folder.write(jpeg, to: name)
            #expect(
                try probe(name).burst
                    == BurstMembership(identifier: "BURST20201123164411530", isCover: name.contains("COVER")))
        }
        #expect(try probe("00000IMG_00000_BURST20201123164411530_COVER.jpg").mediaSubtypes == [])
    }

    @Test(.enabled(if: LivePhotoFiles.hasExiftool, LivePhotoFiles.exiftoolSkipReason))
    func xmpBurstIsReadBeforeTheName() throws {
        let path = folder.path + "/00000IMG_00000_BURST20201123164411530_COVER.jpg"
        try SubtypeFiles.taggedJPEG(
            at: path,
            tags: ["-XMP-GCamera:BurstID=b9b16484-0edd-4836-b95b-9230a77d2139", "-XMP-GCamera:BurstPrimary=1"])
        #expect(
            try probe("00000IMG_00000_BURST20201123164411530_COVER.jpg").burst
                == BurstMembership(identifier: "b9b16484-0edd-4836-b95b-9230a77d2139", isCover: true))
    }

    @Test(.enabled(if: LivePhotoFiles.hasExiftool, LivePhotoFiles.exiftoolSkipReason))
    func exiftoolsTagsMakePanoramasPortraitsAndScreenshots() throws {
        let cases: [(String, [String], MediaSubtypes)] = [
            (
                "sphere.jpg", ["-XMP-GPano:ProjectionType=equirectangular", "-XMP-GPano:UsePanoramaViewer=True"],
                .photoPanorama
            ),
            ("portrait.jpg", ["-XMP-GDepth:Format=RangeInverse", "-XMP-GDepth:Mime=image/jpeg"], .photoDepthEffect),
            ("shot.jpg", ["-Make=Apple", "-EXIF:UserComment=Screenshot"], .photoScreenshot),
            ("comment.jpg", ["-EXIF:UserComment=Holiday"], []),
        ]
        for (name, tags, subtypes) in cases {
            try SubtypeFiles.taggedJPEG(at: folder.path + "/" + name, tags: tags)
            #expect(try probe(name).mediaSubtypes == subtypes, "\(name)")
        }
    }

    @Test func screenshotsByNameFolderAndScreenSize() throws {
        let small = try SyntheticImage(width: 64, height: 48).encoded(as: .png)
        _ = try folder.write(small, to: "Screenshot_20240101-120000.png")
        try FileManager.default.createDirectory(atPath: folder.path + "/Screenshots", withIntermediateDirectories: true)
        _ = try folder.write(small, to: "Screenshots/capture.png")
        _ = try folder.write(try SyntheticImage(width: 1170, height: 2532).encoded(as: .png), to: "phone.png")
        _ = try folder.write(small, to: "drawing.png")
        for name in ["Screenshot_20240101-120000.png", "Screenshots/capture.png", "phone.png"] {
            #expect(try probe(name).mediaSubtypes == .photoScreenshot, "\(name)")
        }
        #expect(try probe("drawing.png").mediaSubtypes == [])
    }

    @Test func aJPEGWithISOGainMapMetadataIsHDR() throws {
        _ = try folder.write(try SubtypeFiles.isoGainMapJPEG(), to: "gainmap.jpg")
        #expect(try probe("gainmap.jpg").mediaSubtypes == .photoHDR)
    }

    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func aHEICWithADepthMapIsAPortrait() throws {
        try SubtypeFiles.depthHEIC(at: folder.path + "/portrait.heic")
        #expect(try probe("portrait.heic").mediaSubtypes == .photoDepthEffect)
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func phonesGainMapsAndPQPicturesAreHDR() throws {
        for name in [
            "phone/PXL_ultrahdr_01.jpg", "phone/iphone_13_pro_max.HEIC", "exports/seine_hdr_srgb.avif",
            "exports/seine_sdr_gainmap_srgb.jpg",
        ] {
            let properties = try renderer.probe(SharedPhotos.root.appendingPathComponent(name).path)
            #expect(properties.mediaSubtypes == .photoHDR, "\(name)")
            #expect(properties.burst == nil, "\(name)")
        }
        // blackbug.png is a PNG of 2048 × 1536 without a camera's Make: a camera's size, not a
        // screen's.
        for name in [
            "phone/HMD_Nokia_8.3_5G.heif", "phone/20220514_102409.jpg", "exports/8bit-sRGB.avif",
            "exports/blackbug.png",
        ] {
            #expect(
                try renderer.probe(SharedPhotos.root.appendingPathComponent(name).path).mediaSubtypes == [], "\(name)")
        }
    }
}
