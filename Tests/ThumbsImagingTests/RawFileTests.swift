import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport

/// Camera RAW through LibRaw: the shared old and unusual files, and DNGs made by
/// scripts/make-test-dng.py with previews of several sizes.
@Suite("RawFile: camera RAW through LibRaw")
struct RawFileTests {
    private static func fit(_ side: Int) -> RenditionSpec {
        RenditionSpec(size: PixelSize(width: side, height: side), contentMode: .aspectFit)
    }

    /// The colours of the four quadrants, clockwise from the top left (the generated scene is
    /// red, green, white, blue upright).
    private static func quadrants(_ thumbnail: Thumbnail) throws -> [String] {
        let pixels = try DecodedPixels(thumbnail)
        return [(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)].map {
            let colour = pixels.colour(atFractionX: $0.0, y: $0.1)
            return switch (colour.r > 140, colour.g > 140, colour.b > 140) {
            case (true, false, false): "red"
            case (false, true, false): "green"
            case (false, false, true): "blue"
            case (true, true, true): "white"
            default: "other \(colour)"
            }
        }
    }

    @Test(.enabled(if: GeneratedMedia.python != nil, GeneratedMedia.dngSkipReason))
    func aDNGRendersFromItsPreviewWhenItCoversAndFromTheSensorWhenNot() async throws {
        let folder = TemporaryFolder()
        let renderer = ThumbnailRenderer()
        for orientation in [1, 3, 6, 8] {
            let path = folder.url.appendingPathComponent("o\(orientation).dng").path
            try GeneratedMedia.dng(
                at: path,
                [
                    "--raw", "640x480", "--preview", "160x120:rgb", "--preview", "1024x768:jpeg", "--orientation",
                    "\(orientation)",
                ])
            let properties = try await renderer.probe(path)
            let sideways = orientation >= 5
            #expect(properties.mediaType == .cameraRaw && properties.exifOrientation == orientation)
            #expect(
                properties.pixelSize
                    == (sideways ? PixelSize(width: 480, height: 640) : PixelSize(width: 640, height: 480)))
            // 256 and 512 from the 1024 preview; 1024 fits the sensor's 640x480 at most, and the
            // preview is that large too.
            let thumbnails = try await renderer.render(path, specs: [Self.fit(256), Self.fit(512)])
            for thumbnail in thumbnails {
                #expect(
                    try Self.quadrants(thumbnail) == ["red", "green", "white", "blue"], "orientation \(orientation)")
                #expect((thumbnail.pixelSize.height > thumbnail.pixelSize.width) == sideways)
            }
            let degraded = try #require(try await renderer.embeddedPreview(path))
            #expect(try Self.quadrants(degraded) == ["red", "green", "white", "blue"])
        }
    }

    @Test(.enabled(if: GeneratedMedia.python != nil, GeneratedMedia.dngSkipReason))
    func aSmallPreviewIsNeverPassedOffAsThePhoto() async throws {
        let folder = TemporaryFolder()
        let path = folder.url.appendingPathComponent("small-preview.dng").path
        try GeneratedMedia.dng(at: path, ["--raw", "1200x800", "--preview", "160x120:jpeg", "--orientation", "1"])
        let renderer = ThumbnailRenderer()
        // The preview (160 wide) cannot make a 512 rendition: the sensor data is decoded.
        let thumbnail = try await renderer.render(path, spec: Self.fit(512))
        #expect(thumbnail.pixelSize == PixelSize(width: 512, height: 341))
        #expect(try Self.quadrants(thumbnail) == ["red", "green", "white", "blue"])
        // As the degraded image, the small preview is just right.
        let degraded = try #require(try await renderer.embeddedPreview(path))
        #expect(degraded.pixelSize.width <= 160)
    }

    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func theSharedRAWFilesRenderOrFailWithTheirKind() async throws {
        let renderer = ThumbnailRenderer()
        // Canon CRW: a 640x480 JPEG preview for the small renditions, the sensor for 1024.
        let canon = SharedMedia.path("raw/Canon_PowerShot_G2_CRW_0304.CRW")
        let probed = try await renderer.probe(canon)
        #expect(probed.cameraMake == "Canon" && probed.cameraModel == "PowerShot G2")
        #expect(probed.pixelSize == PixelSize(width: 2312, height: 1720))
        #expect(probed.embeddedPreviewSize == PixelSize(width: 640, height: 480))
        let canonThumbnails = try await renderer.render(canon, specs: [Self.fit(1024), Self.fit(256)])
        #expect(
            canonThumbnails.map(\.pixelSize) == [
                PixelSize(width: 1024, height: 762), PixelSize(width: 256, height: 190),
            ])
        // Kodak KDC: an 80x60 preview only, and pixels half again as wide as tall. libvips alone
        // would give the 80x60 preview as the photo; the sensor decode gives the photo's shape.
        let kodak = SharedMedia.path("raw/Kodak_DC120_P003908.KDC")
        #expect(try await renderer.probe(kodak).pixelSize == PixelSize(width: 1301, height: 976))
        let kodakThumbnail = try await renderer.render(kodak, spec: Self.fit(256))
        #expect(kodakThumbnail.pixelSize == PixelSize(width: 256, height: 192))
        // LibRaw 0.20 reads neither GoPro's GPR nor a JPEG XL DNG: a typed failure, never the
        // small preview libvips would find in the DNG.
        for name in [
            "GoPro_HERO7_Black_GOPR8508.GPR", "nikon_z_9_high_efficiency_compressed_dx_cropped_max_overexposed.dng",
        ] {
            do {
                _ = try await renderer.render(SharedMedia.path("raw/\(name)"), spec: Self.fit(256))
                Issue.record("\(name) rendered")
            } catch let error as ImagingError {
                #expect(error.kind == .unsupportedFormat, "\(name): \(error)")
            }
        }
    }
}
