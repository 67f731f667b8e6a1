import Foundation
import Testing
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport

/// What ``DecoderLibraries`` reports against what the libraries' own programs say.
@Suite struct DecoderLibrariesTests {
    private static let vips = "/usr/bin/vips"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: vips), "the vips command is absent"))
    func libvipsVersionAndRawLoaderMatchTheVipsCommand() throws {
        let libraries = try DecoderLibraries.linked()
        let version = try ThumbsProcess.run(["--version"], executablePath: Self.vips).standardOutput
        // "vips-8.14.1" (8.15 and later add the build date after a space).
        #expect(version.hasPrefix("vips-\(libraries.libvips)"))
        let operations = try ThumbsProcess.run(["-l"], executablePath: Self.vips).standardOutput
        #expect(libraries.libvipsReadsRaw == operations.contains("dcrawload"))
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func ffmpegVersionMatchesTheFFmpegCommand() throws {
        let libraries = try DecoderLibraries.linked()
        let banner = try ThumbsProcess.run(["-version"], executablePath: GeneratedMedia.ffmpeg).standardOutput
        #expect(banner.hasPrefix("ffmpeg version \(libraries.ffmpeg) "))
    }

    /// libheif picks FFmpeg's HEVC decoder over libde265.
    @Test func heicPicturesAreDecodedByFFmpeg() throws {
        #expect(try DecoderLibraries.linked().heicDecoder.hasPrefix("FFmpeg HEVC decoder"))
    }

    private static let heifConvert = "/usr/bin/heif-convert"

    /// FFmpeg's HEVC decoder gives libde265's pixels: every shared HEIC decoded whole in this
    /// process equals what `heif-convert` (libheif with libde265, in a process of its own)
    /// writes, byte for byte.
    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        .enabled(if: FileManager.default.isExecutableFile(atPath: heifConvert), "heif-convert is absent"))
    func everySharedHEICDecodesToLibde265sPixels() throws {
        let folder = TemporaryFolder()
        let heics = SharedPhotos.entries.filter { $0.note("content_type") == "HEIC" && $0.expectedError == nil }
        #expect(heics.count >= 3)
        try Self.expectHeifConvertsPixels(of: heics, in: folder)
    }

    /// libheif picks FFmpeg's dav1d for AV1 over its own dav1d plugin, which prints to stderr.
    @Test func avifPicturesAreDecodedByFFmpeg() throws {
        #expect(try DecoderLibraries.linked().avifDecoder.hasPrefix("FFmpeg AV1 decoder"))
    }

    /// FFmpeg's dav1d gives the pixels of libheif's own dav1d plugin: every shared 8-bit AVIF of
    /// one picture decoded whole in this process equals what `heif-convert` writes, byte for byte.
    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        .enabled(if: FileManager.default.isExecutableFile(atPath: heifConvert), "heif-convert is absent"))
    func everySharedAVIFDecodesToLibheifsPixels() throws {
        let folder = TemporaryFolder()
        let avifs = SharedPhotos.entries.filter {
            $0.note("content_type") == "AVIF" && $0.note("vips_format") == "uchar" && $0.note("pages") == nil
        }
        #expect(avifs.count >= 2)
        try Self.expectHeifConvertsPixels(of: avifs, in: folder)
    }

    /// JPEG XL is read by libvips' jxlload, from the module the `vips` command loads too.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: vips), "the vips command is absent"))
    func jpegXLIsReadByLibvipsJxlload() throws {
        let operations = try ThumbsProcess.run(["-l"], executablePath: Self.vips).standardOutput
        #expect(try DecoderLibraries.linked().jpegXLLoader == (operations.contains("jxlload") ? "jxlload" : "none"))
    }

    /// libavif's version is the one `avifenc` (the same library) reports ("Version: 0.11.1 (dav1d…").
    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func libavifVersionMatchesAvifenc() throws {
        let libraries = try DecoderLibraries.linked()
        let banner = try ThumbsProcess.run(["--version"], executablePath: GeneratedMedia.avifenc)
        #expect((banner.standardOutput + banner.standardError).contains("Version: \(libraries.libavif) "))
    }

    @Test func libRawNamesItsRelease() throws {
        let libraries = try DecoderLibraries.linked()
        #expect(libraries.libRaw.first?.isNumber == true && libraries.libRaw.contains("."))
    }

    /// Each of `entries` decoded whole in this process equals what `heif-convert` writes, byte
    /// for byte: both as libvips' loader gives them (libheif's for the HEIF file), not resized.
    private static func expectHeifConvertsPixels(of entries: [SharedPhotos.Entry], in folder: TemporaryFolder) throws {
        for (index, entry) in entries.enumerated() {
            let png = folder.path + "/\(index).png"
            let converted = try ThumbsProcess.run([entry.path, png], executablePath: heifConvert)
            try #require(converted.status == 0, "\(entry): \(converted.standardError)")
            let reference = try DecodedPixels(Array(Data(contentsOf: URL(fileURLWithPath: png))))
            let ours = try DecodedPixels(Array(Data(contentsOf: URL(fileURLWithPath: entry.path))))
            #expect(ours.size == reference.size, "\(entry)")
            #expect(ours.bytes == reference.bytes, "\(entry)")
        }
    }
}
