import CVips
import CVipsShim
import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Renders generated images (every orientation, alpha, 16-bit, grey, CMYK, all containers).
@Suite struct VipsRendererTests {
    let renderer = VipsRenderer()
    let folder = TemporaryFolder()

    private func write(
        _ image: SyntheticImage, _ container: SyntheticImage.Container = .jpeg,
        orientation: Int = 1, name: String? = nil
    ) throws -> String {
        try folder.write(
            try image.encoded(as: container, orientation: orientation),
            to: name ?? "image-\(orientation).\(container.rawValue)")
    }

    private func spec(
        _ width: Int, _ height: Int, _ mode: ContentMode = .aspectFit,
        _ format: ThumbnailFormat = .png
    ) -> RenditionSpec {
        RenditionSpec(size: PixelSize(width: width, height: height), contentMode: mode, format: format, quality: 90)
    }

    @Test(arguments: 1...8)
    func everyOrientationComesOutUpright(orientation: Int) throws {
        let path = try write(SyntheticImage(width: 480, height: 320), orientation: orientation)
        let probe = try renderer.probe(path)
        #expect(probe.pixelSize == PixelSize(width: 480, height: 320))
        #expect((probe.exifOrientation ?? 1) == orientation)

        let thumbnail = try renderer.render(path, spec: spec(240, 240))
        #expect(thumbnail.pixelSize == PixelSize(width: 240, height: 160))
        let pixels = try DecodedPixels(thumbnail)
        // Quadrant colours of SyntheticImage: red, green / blue, yellow.
        let topLeft = pixels.colour(atFractionX: 0.2, y: 0.2)
        let topRight = pixels.colour(atFractionX: 0.8, y: 0.2)
        let bottomLeft = pixels.colour(atFractionX: 0.2, y: 0.8)
        #expect(topLeft.r > 150 && topLeft.g < 110, "top left should be red, is \(topLeft)")
        #expect(topRight.g > 130 && topRight.r < 110, "top right should be green, is \(topRight)")
        #expect(bottomLeft.b > 150 && bottomLeft.r < 110, "bottom left should be blue, is \(bottomLeft)")

        let reference = try renderer.render(
            try write(SyntheticImage(width: 480, height: 320), name: "reference.jpg"),
            spec: spec(240, 240))
        #expect(pixels.meanAbsoluteDifference(to: try DecodedPixels(reference)) < 2.5)
    }

    @Test func fillCropsToExactlyTheBoxAndFitStaysInside() throws {
        let path = try write(SyntheticImage(width: 900, height: 300))
        #expect(
            try renderer.render(path, spec: spec(200, 200, .aspectFill)).pixelSize == PixelSize(width: 200, height: 200)
        )
        #expect(
            try renderer.render(path, spec: spec(200, 200, .aspectFit)).pixelSize == PixelSize(width: 200, height: 67))
    }

    @Test func doesNotUpscaleUnlessAsked() throws {
        let path = try write(SyntheticImage(width: 120, height: 80))
        #expect(try renderer.render(path, spec: spec(512, 512)).pixelSize == PixelSize(width: 120, height: 80))
        var enlarged = spec(480, 480)
        enlarged.allowsUpscaling = true
        #expect(try renderer.render(path, spec: enlarged).pixelSize == PixelSize(width: 480, height: 320))
    }

    @Test(arguments: SyntheticImage.Pixels.allCases)
    func convertsEveryPixelLayoutToSRGB(pixels: SyntheticImage.Pixels) throws {
        let container: SyntheticImage.Container =
            switch pixels {
            case .rgb16, .rgba, .greyAlpha16, .grey: .png
            case .cmyk: .tiff
            case .rgb: .webp
            }
        let path = try write(SyntheticImage(width: 400, height: 300, pixels: pixels), container)
        for format in ThumbnailFormat.allCases {
            let thumbnail = try renderer.render(path, spec: spec(200, 200, .aspectFit, format))
            let decoded = try DecodedPixels(thumbnail)
            #expect(decoded.width == 200 && decoded.height == 150)
            // JPEG flattens alpha; colour output always has three colour bands.
            #expect(decoded.bands == ([.rgba, .greyAlpha16].contains(pixels) && format != .jpeg ? 4 : 3))
            let topLeft = decoded.colour(atFractionX: 0.2, y: 0.2)
            if [.grey, .greyAlpha16].contains(pixels) {
                #expect(topLeft.r == topLeft.g && topLeft.g == topLeft.b)
            } else {
                #expect(topLeft.r > topLeft.b + 60, "\(pixels) \(format): top left should be red, is \(topLeft)")
            }
        }
    }

    /// Thumbs' PNG encoder is lossless: grey, grey and alpha, RGB and RGBA, down to one pixel,
    /// libvips reads back the very samples encoded.
    @Test func pngThumbnailsKeepEverySample() throws {
        for bands in 1...4 {
            for (width, height) in [(1, 1), (7, 3), (257, 64)] {
                let samples = (0..<(width * height * bands)).map { UInt8(truncatingIfNeeded: ($0 * 37) ^ ($0 >> 5)) }
                let decoded = try VipsCallGate.run { () throws(ImagingError) -> (pixels: [UInt8], bands: Int) in
                    guard
                        let made = samples.withUnsafeBytes({
                            vips_image_new_from_memory_copy(
                                $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
                        })
                    else { throw .corrupt(VipsError.takeMessage()) }
                    let png = try VipsRenderer.png(of: VipsImageHandle(made))
                    guard let opened = png.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) })
                    else { throw .corrupt(VipsError.takeMessage()) }
                    let image = VipsImageHandle(opened)
                    return (try image.pixelBytes(), image.bands)
                }
                #expect(decoded.bands == bands && decoded.pixels == samples, "\(bands) bands, \(width)x\(height)")
            }
        }
    }

    @Test func embeddedColourProfileIsConvertedToSRGB() throws {
        // The same colours, stored as Display P3 numbers with a P3 profile attached.
        let srgb = try SyntheticImage(width: 300, height: 200).encoded(as: .png)
        let srgbPath = try folder.write(srgb, to: "srgb.png")
        let opened = try #require(srgb.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) })
        let image = VipsImageHandle(opened)
        let p3 = try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_icc_transform(image.pointer, $0, "p3") }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(thumbs_vips_pngsave_buffer(p3.pointer, &buffer, &length, 1, 0) == 0)
        let p3Bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        g_free(buffer)
        let p3Path = try folder.write(p3Bytes, to: "p3.png")
        // The stored numbers differ from the sRGB ones: ignoring the profile would show.
        #expect(try DecodedPixels(p3Bytes).meanAbsoluteDifference(to: DecodedPixels(srgb)) > 5)

        let reference = try DecodedPixels(renderer.render(srgbPath, spec: spec(150, 150)))
        let converted = try DecodedPixels(renderer.render(p3Path, spec: spec(150, 150)))
        #expect(converted.meanAbsoluteDifference(to: reference) < 2, "P3 numbers come back as the sRGB colours")
    }

    /// The transform kept for a profile gives the pixels libvips' icc_transform gives, for RGB
    /// and (with a shared photo's Gray Gamma 2.2 profile) grey pictures, made and kept alike, but
    /// for lcms' sRGB profile in place of libvips': a value may differ by up to 2 levels, and
    /// few do.
    @Test func aKeptTransformConvertsAsLibvipsIccTransform() throws {
        try VipsRuntime.ensureStarted()
        let png = try SyntheticImage(width: 300, height: 200).encoded(as: .png)
        let rgb = VipsImageHandle(
            try #require(png.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }))
        var pictures = [
            try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_icc_transform(rgb.pointer, $0, "p3") }
                .inMemory(ImagingError.corrupt)
        ]
        let grey = SharedPhotos.root.appendingPathComponent("exports/concert.jpg").path
        if FileManager.default.fileExists(atPath: grey) {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: grey)))
            let opened = try #require(bytes.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) })
            pictures.append(try VipsImageHandle(opened).inMemory(ImagingError.corrupt))
            #expect(pictures[1].bands == 1 && pictures[1].has("icc-profile-data"))
        }
        for picture in pictures {
            let theirs = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_icc_transform(picture.pointer, $0, "srgb")
            }
            for _ in 0..<2 {
                let ours = try #require(try VipsRenderer.convertedToSRGB(picture, ImagingError.corrupt))
                #expect(ours.bands == 3 && ours.interpretation == VIPS_INTERPRETATION_sRGB)
                #expect(!ours.has("icc-profile-data"))
                let (ourBytes, theirBytes) = (try ours.pixelBytes(), try theirs.pixelBytes())
                try #require(ourBytes.count == theirBytes.count)
                let differences = zip(ourBytes, theirBytes).map { abs(Int($0) - Int($1)) }
                #expect(differences.max() ?? 0 <= 2, "\(picture.bands) bands")
                #expect(differences.count { $0 > 0 } * 20 < differences.count, "\(picture.bands) bands")
            }
        }
        // A profile of another kind of picture is left to libvips.
        let p3Profile = try #require(pictures[0].blob("icc-profile-data"))
        #expect(p3Profile.withUnsafeBufferPointer { thumbs_srgb_transform_for($0.baseAddress, $0.count, 1) } == nil)
    }

    /// A profile that is sRGB already is recognised (and its photo not converted: the colours
    /// come out as they are stored); Display P3 and damaged profiles are not.
    @Test func aProfileThatIsSRGBAlreadyIsRecognised() throws {
        let plain = try SyntheticImage(width: 300, height: 200).encoded(as: .png)
        let image = VipsImageHandle(
            try #require(plain.withUnsafeBytes { thumbs_vips_open_buffer($0.baseAddress, $0.count) }))
        func profile(_ name: String) throws -> [UInt8] {
            let tagged = try VipsImageHandle.make(ImagingError.corrupt) {
                thumbs_vips_icc_transform(image.pointer, $0, name)
            }
            return try #require(tagged.blob("icc-profile-data"))
        }
        let srgb = try profile("srgb"), p3 = try profile("p3")
        #expect(thumbs_icc_is_srgb(srgb, srgb.count) == 1)
        #expect(thumbs_icc_is_srgb(p3, p3.count) == 0)
        // Cut short, emptied of its tags, or noise: never sRGB, and nothing read past the end.
        for damaged in [
            Array(srgb.prefix(srgb.count / 2)), Array(srgb.prefix(140)), Array(repeating: 0xFF, count: 400),
        ] {
            #expect(thumbs_icc_is_srgb(damaged, damaged.count) == 0)
        }
        var shuffled = srgb
        shuffled[128..<132] = [0x7F, 0xFF, 0xFF, 0xFF]  // a tag count far past the end
        #expect(thumbs_icc_is_srgb(shuffled, shuffled.count) == 0)

        // A photo carrying the sRGB profile renders as the same photo without one.
        let tagged = try VipsImageHandle.make(ImagingError.corrupt) {
            thumbs_vips_icc_transform(image.pointer, $0, "srgb")
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(thumbs_vips_pngsave_buffer(tagged.pointer, &buffer, &length, 1, 0) == 0)
        let taggedBytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        g_free(buffer)
        let reference = try DecodedPixels(
            renderer.render(try folder.write(plain, to: "plain.png"), spec: spec(150, 150)))
        let rendered = try DecodedPixels(
            renderer.render(try folder.write(taggedBytes, to: "tagged.png"), spec: spec(150, 150)))
        #expect(rendered.meanAbsoluteDifference(to: reference) < 0.5)
    }

    @Test func stripsMetadata() throws {
        let path = try write(SyntheticImage(width: 300, height: 200), orientation: 6)
        let thumbnail = try renderer.render(path, spec: spec(100, 100, .aspectFit, .jpeg))
        let output = try folder.write(thumbnail.bytes, to: "out.jpg")
        let properties = try renderer.probe(output)
        #expect(properties.exifOrientation == nil)
        #expect(properties.pixelSize == PixelSize(width: 100, height: 67))
    }

    @Test func severalRenditionsFromOneDecodeMatchDirectRenders() throws {
        let path = try write(SyntheticImage(width: 2400, height: 1600), orientation: 6)
        let specs = [
            spec(1024, 1024), spec(512, 512, .aspectFill), spec(300, 200, .aspectFill),
            spec(256, 256), spec(64, 64, .aspectFill),
        ]
        let together = try renderer.render(path, specs: specs)
        #expect(together.count == specs.count)
        for (spec, derived) in zip(specs, together) {
            let direct = try renderer.render(path, spec: spec)
            #expect(derived.pixelSize == direct.pixelSize, "\(spec)")
            let difference = try DecodedPixels(derived).meanAbsoluteDifference(to: try DecodedPixels(direct))
            #expect(difference < 2.0, "\(spec): mean absolute difference \(difference)")
        }
    }

    @Test func noEmbeddedPreviewWhenTheFileHasNone() throws {
        // libvips writes no EXIF thumbnail, so a generated JPEG has none.
        let path = try write(SyntheticImage(width: 300, height: 200))
        #expect(try renderer.probe(path).embeddedPreviewSize == nil)
        #expect(try renderer.embeddedPreview(path) == nil)
    }

    @Test(arguments: [1, 3, 6, 8])
    func embeddedPreviewIsUpright(orientation: Int) throws {
        let jpeg = try ExifThumbnailJPEG.make(
            SyntheticImage(width: 1600, height: 1200),
            thumbnail: PixelSize(width: 160, height: 120), orientation: orientation)
        let path = try folder.write(jpeg, to: "with-preview-\(orientation).jpg")
        #expect(try renderer.probe(path).embeddedPreviewSize == PixelSize(width: 160, height: 120))
        let preview = try #require(try renderer.embeddedPreview(path))
        #expect(preview.pixelSize == PixelSize(width: 160, height: 120))
        let full = try renderer.render(path, spec: spec(160, 120))
        let difference = try DecodedPixels(preview).meanAbsoluteDifference(to: DecodedPixels(full))
        #expect(difference < 4, "preview and photo agree, the same way up (\(difference))")
    }

    @Test func letterboxedPreviewIsTrimmedToThePhotosShape() throws {
        // A 3:2 photo with a 4:3 thumbnail, as cameras write them (bars included in the pixels).
        let jpeg = try ExifThumbnailJPEG.make(
            SyntheticImage(width: 1500, height: 1000),
            thumbnail: PixelSize(width: 160, height: 120), orientation: 1)
        let path = try folder.write(jpeg, to: "letterboxed.jpg")
        let preview = try #require(try renderer.embeddedPreview(path))
        #expect(preview.pixelSize == PixelSize(width: 160, height: 107))
    }

    @Test func damagedEmbeddedPreviewIsNoPreview() throws {
        let jpeg = try ExifThumbnailJPEG.make(
            SyntheticImage(width: 800, height: 600),
            thumbnail: PixelSize(width: 160, height: 120), orientation: 1,
            damaged: true)
        let path = try folder.write(jpeg, to: "damaged-preview.jpg")
        #expect(try renderer.embeddedPreview(path) == nil)
        #expect(try renderer.render(path, spec: spec(100, 100)).pixelSize == PixelSize(width: 100, height: 75))
    }

    @Test func probeReadsALivePhotoStillsContentIdentifier() throws {
        let identifier = "0F6F6C3E-4C5B-4B8E-9B0C-2D1E0A9F8E7D"
        let still = try folder.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: identifier), to: "live.jpg")
        let probed = try VipsRenderer().probe(still)
        #expect(probed.contentIdentifier == identifier && probed.cameraMake == "Apple")
        #expect(probed.embeddedMovie == nil)
        let plain = try folder.write(try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg), to: "plain.jpg")
        #expect(try VipsRenderer().probe(plain).contentIdentifier == nil)
    }

    @Test(
        .enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsSkipReason),
        .enabled(if: LivePhotoFiles.hasExiftool, LivePhotoFiles.exiftoolSkipReason))
    func probeReadsALivePhotoHEICsContentIdentifier() throws {
        let identifier = "6A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"
        let path = folder.path + "/live.heic"
        try LivePhotoFiles.iPhoneHEIC(at: path, contentIdentifier: identifier)
        let probed = try VipsRenderer().probe(path)
        #expect(probed.mediaType == .heif && probed.contentIdentifier == identifier)
    }
}
