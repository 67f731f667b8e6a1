import CHeifShim
import Foundation
import Glibc
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSamples
import ThumbsTestSupport

/// A HEIF or AVIF still rendered without libvips gives the thumbnails the engine's libvips path
/// gives, byte for byte, placeholders included; what it does not take, it leaves to the engine.
/// Synthetic files are written by heif-enc (Debian's libheif-examples).
@Suite struct HEIFHandlerDirectTests {
    let folder = TemporaryFolder("thumbs-direct-heif")
    let engine = VipsRenderer()
    let handler = HEIFHandler()

    static let specSets = JPEGHandlerDirectTests.specSets

    /// The shared HEIC, HEIF and AVIF stills, and whether they decode.
    static let sharedStills = SharedPhotos.entries.filter { ["HEIC", "AVIF"].contains($0.notes["content_type"]) }

    /// Both paths' thumbnails of the file at `path`, or nil when the direct path declines it.
    func bothPaths(_ path: String, specs: [RenditionSpec]) throws -> (direct: [Thumbnail], engine: [Thumbnail])? {
        let source = try ImageSource(ImageLocation(path: path))
        guard let direct = handler.renderedWithoutLibvips(source, specs: specs, engine: engine) else { return nil }
        return (direct, try engine.render(source, as: handler, specs: specs))
    }

    func expectSame(_ rendered: (direct: [Thumbnail], engine: [Thumbnail]), _ comment: Comment? = nil) {
        #expect(rendered.direct.count == rendered.engine.count, comment)
        for (direct, engine) in zip(rendered.direct, rendered.engine) {
            #expect(direct.bytes == engine.bytes, comment)
            #expect(direct.pixelSize == engine.pixelSize && direct.format == engine.format, comment)
            #expect(direct.placeholder == engine.placeholder, comment)
        }
    }

    /// A file heif-enc encodes from a synthetic PNG (`arguments` before the input and output).
    func encoded(
        _ image: SyntheticImage, as name: String, _ arguments: [String] = []
    ) throws -> String {
        let png = try folder.write(try image.encoded(as: .png), to: name + ".png")
        let output = folder.url.appendingPathComponent(name).path
        let result = try ThumbsProcess.run(
            arguments + ["-q", "80", "-o", output, png], executablePath: SubtypeFiles.heifEnc)
        try #require(result.status == 0, "heif-enc: \(result.standardError)")
        return output
    }

    @Test(
        .enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason), arguments: ["photo.heic", "photo.avif"])
    func anEncodedStillGivesTheEnginesBytes(name: String) throws {
        let path = try encoded(SyntheticImage(width: 900, height: 600), as: name)
        let source = try ImageSource(ImageLocation(path: path))
        #expect(handler.libraries(for: source) == [.libheif])
        for specs in Self.specSets {
            expectSame(try #require(try bothPaths(path, specs: specs), "declined \(name)"), "\(name) \(specs)")
        }
    }

    /// A stored thumbnail two and a half times the thumbnail is decoded in the picture's place,
    /// without libvips, whatever the size asked; alpha and ten bits are the engine's.
    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func aThumbnailItemIsDecodedWithoutLibvipsAlphaAndTenBitsAreTheEngines() throws {
        let thumbnailed = try encoded(SyntheticImage(width: 900, height: 600), as: "thumbnailed.heic", ["-t", "320"])
        let alpha = try encoded(SyntheticImage(width: 300, height: 200, pixels: .rgba), as: "alpha.heic")
        let deep = try encoded(SyntheticImage(width: 300, height: 200, pixels: .rgb16), as: "deep.heic", ["-b", "10"])
        let small = RenditionSpec(size: PixelSize(width: 128, height: 128))
        #expect(try bothPaths(alpha, specs: [small]) == nil)
        #expect(try bothPaths(deep, specs: [small]) == nil)
        for path in [alpha, deep] {
            #expect(
                handler.libraries(for: try ImageSource(ImageLocation(path: path))) == [.libvips, .libheif], "\(path)")
        }
        #expect(handler.libraries(for: try ImageSource(ImageLocation(path: thumbnailed))) == [.libheif])
        for specs in Self.specSets + [[RenditionSpec(size: PixelSize(width: 512, height: 512), format: .png)]] {
            expectSame(try #require(try bothPaths(thumbnailed, specs: specs)), "\(specs)")
        }
    }

    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func webPOutputUpscalingAndATruncatedFileAreTheEngines() throws {
        let path = try encoded(SyntheticImage(width: 300, height: 200), as: "small.heic")
        let webP = RenditionSpec(size: PixelSize(width: 100, height: 100), format: .webp)
        let upscaled = RenditionSpec(size: PixelSize(width: 600, height: 600), allowsUpscaling: true)
        #expect(try bothPaths(path, specs: [webP]) == nil)
        #expect(try bothPaths(path, specs: [upscaled]) == nil)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = try folder.write(Array(whole.prefix(whole.count * 2 / 3)), to: "truncated.heic")
        #expect(handler.libraries(for: try ImageSource(ImageLocation(path: truncated))) == [.libvips, .libheif])
        #expect(try bothPaths(truncated, specs: Self.specSets[0]) == nil)
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: sharedStills.filter { $0.expectedError == nil })
    func everySharedStillGivesTheEnginesBytesOrIsTheEngines(entry: SharedPhotos.Entry) throws {
        let source = try ImageSource(ImageLocation(path: entry.path))
        let meta = try #require(HEIFMetaBox(in: FileBytes(source.file, size: source.fingerprint.size)))
        for specs in Self.specSets {
            // What the boxes say in the renderer's process is what the decode finds.
            let rendered = try bothPaths(entry.path, specs: specs)
            #expect(
                HEIFHandler.takesWithoutLibvips(meta) == (rendered != nil),
                "\(entry.relativePath) \(specs)")
            if let rendered { expectSame(rendered, "\(entry.relativePath) \(specs)") }
        }
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: sharedStills.filter { $0.expectedError != nil })
    func aBrokenSharedStillIsTheEnginesToReport(entry: SharedPhotos.Entry) throws {
        let source = try ImageSource(ImageLocation(path: entry.path))
        #expect(handler.libraries(for: source) == [.libvips, .libheif])
        #expect(handler.renderedWithoutLibvips(source, specs: Self.specSets[0], engine: engine) == nil)
        #expect(throws: ImagingError.self) { try handler.probe(source, engine: engine) }
        do {
            _ = try handler.render(source, specs: Self.specSets[0], engine: engine)
            Issue.record("\(entry.relativePath) rendered")
        } catch {
            #expect(error.kind == entry.expectedError)
        }
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: sharedStills.filter { $0.expectedError == nil })
    func everySharedStillsPropertiesAreLibvipss(entry: SharedPhotos.Entry) throws {
        let source = try ImageSource(ImageLocation(path: entry.path))
        #expect(try handler.probe(source, engine: engine) == (try engine.probe(source, as: handler)))
    }

    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func anEncodedStillsPropertiesAreLibvipss() throws {
        let exif = ["exif-ifd0-Make": "Thumbs Camera", "exif-ifd0-Model": "T1 (mark II)"]
        let jpeg = try folder.write(
            try SyntheticImage(width: 900, height: 600, exif: exif).encoded(as: .jpeg, orientation: 6), to: "exif.jpg")
        let path = folder.url.appendingPathComponent("exif.heic").path
        let result = try ThumbsProcess.run(["-t", "160", "-o", path, jpeg], executablePath: SubtypeFiles.heifEnc)
        try #require(result.status == 0, "heif-enc: \(result.standardError)")
        let source = try ImageSource(ImageLocation(path: path))
        let direct = try handler.probe(source, engine: engine)
        #expect(direct == (try engine.probe(source, as: handler)))
        #expect(direct.cameraModel == "T1" && direct.embeddedPreviewSize != nil)
    }

    /// libheif picks its decoders by the libraries its process opened; the shared photos whose
    /// boxes say libheif alone renders them.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aSharedStillNeedsLibvipsOnlyForWhatLibheifAloneDoesNotRender() throws {
        func libraries(_ path: String) throws -> Set<DecodingLibrary> {
            let location = ImageLocation(path: SharedPhotos.root.appendingPathComponent(path).path)
            return handler.libraries(for: try ImageSource(location))
        }
        #expect(try libraries("phone/HMD_Nokia_8.3_5G.heif") == [.libheif])
        #expect(try libraries("exports/8bit-sRGB.avif") == [.libheif])
        #expect(try libraries("exports/mountains.avif") == [.libheif])
        #expect(try libraries("phone/iphone_13_pro_max.HEIC") == [.libheif], "a thumbnail item")
        #expect(try libraries("exports/seine_hdr_srgb.avif") == [.libheif], "10 bits, HDR: tone-mapped")
    }

    /// libheif's own decoders (libde265, dav1d) give the pixels FFmpeg's plugged into it give.
    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        arguments: sharedStills.filter { $0.expectedError == nil })
    func libheifsOwnDecodersGiveFFmpegsPixels(entry: SharedPhotos.Entry) throws {
        try HeifRuntime.ensureStarted()
        let isAV1 = entry.notes["content_type"] == "AVIF"
        let plugged = String(cString: isAV1 ? thumbs_heif_av1_decoder_name() : thumbs_heif_hevc_decoder_name())
        try #require(plugged.contains("FFmpeg"), "libheif decodes with \(plugged)")
        let source = try ImageSource(ImageLocation(path: entry.path))
        func decoded(by decoder: String?) -> (pixels: [UInt8], width: Int32, height: Int32)? {
            var picture = thumbs_heif_picture()
            defer {
                free(picture.pixels)
                free(picture.icc)
            }
            // At full size, for a target no stored thumbnail covers.
            let status = thumbs_heif_decode(source.descriptor, decoder, 1, 1 << 20, 1 << 20, &picture)
            guard status == Int32(THUMBS_HEIF_DECODED), let pixels = picture.pixels else { return nil }
            let count = Int(picture.width) * Int(picture.height) * 3
            return (Array(UnsafeBufferPointer(start: pixels, count: count)), picture.width, picture.height)
        }
        let ffmpeg = try #require(decoded(by: nil), "\(entry.relativePath) left to libvips' loader")
        let own = try #require(decoded(by: isAV1 ? "dav1d" : "libde265"))
        #expect(ffmpeg.width == own.width && ffmpeg.height == own.height)
        #expect(ffmpeg.pixels == own.pixels, "\(entry.relativePath)")
    }
}
