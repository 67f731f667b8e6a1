import Foundation
import Testing
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

    @Test func libRawNamesItsRelease() throws {
        let libraries = try DecoderLibraries.linked()
        #expect(libraries.libRaw.first?.isNumber == true && libraries.libRaw.contains("."))
    }
}
