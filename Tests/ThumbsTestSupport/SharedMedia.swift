import Foundation
import Testing
import ThumbsCoreTestSupport

/// The real videos and camera RAW files in ../shared/media (videos in `video/`, RAW files in
/// `raw/`, damaged ones in `broken/`).
///
/// Tests that need them are disabled, with this reason shown, when the folder is absent.
package enum SharedMedia {
    package static let skipReason: Comment = "../shared/media is absent: tests on real videos and RAW files skipped"

    /// `$THUMBS_SHARED_MEDIA`, else ../shared/media beside the repository.
    package static let root: URL =
        ProcessInfo.processInfo.environment["THUMBS_SHARED_MEDIA"]
        .map { URL(fileURLWithPath: $0) }
        ?? SharedPhotos.root.deletingLastPathComponent().appendingPathComponent("media")

    package static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path)
    }

    package static func path(_ relativePath: String) -> String {
        root.appendingPathComponent(relativePath).path
    }
}

/// Media made for a test by the real tools: videos by the `ffmpeg` command, AVIF pictures and
/// sequences by `avifenc` (Debian's libavif-bin), JPEG XL and GIF by the `vips` command (and JPEG XL
/// with an orientation by libjxl's `cjxl`, Debian's libjxl-tools), DNG files by
/// scripts/make-test-dng.py and HDR test patterns by scripts/make-test-hdr.py (numpy, tifffile,
/// in the Python `$THUMBS_TEST_PYTHON` names; scripts/test sets these up).
package enum GeneratedMedia {
    package static let ffmpegSkipReason: Comment = "the ffmpeg command is absent: generated-video tests skipped"
    package static let avifencSkipReason: Comment =
        "the avifenc command (Debian's libavif-bin) is absent: generated-AVIF tests skipped"
    package static let dngSkipReason: Comment =
        "no Python with numpy and tifffile ($THUMBS_TEST_PYTHON, set by scripts/test): generated-DNG tests skipped"
    package static let hdrSkipReason: Comment =
        "no Python with numpy ($THUMBS_TEST_PYTHON, set by scripts/test): generated-HDR tests skipped"

    package static let ffmpeg = "/usr/bin/ffmpeg"
    package static var hasFFmpeg: Bool { FileManager.default.isExecutableFile(atPath: ffmpeg) }
    package static let avifenc = "/usr/bin/avifenc"
    package static var hasAvifenc: Bool { FileManager.default.isExecutableFile(atPath: avifenc) }

    package static var python: String? {
        ProcessInfo.processInfo.environment["THUMBS_TEST_PYTHON"].flatMap {
            FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil
        }
    }

    /// Runs `ffmpeg` quietly with `arguments`, failing the test on a non-zero status.
    package static func ffmpeg(_ arguments: [String]) throws {
        let outcome = try ThumbsProcess.run(
            ["-hide_banner", "-loglevel", "error", "-y"] + arguments, executablePath: ffmpeg)
        guard outcome.status == 0 else { throw GenerationFailure(tool: "ffmpeg", message: outcome.standardError) }
    }

    package static let vipsSkipReason: Comment =
        "the vips command (Debian's libvips-tools) is absent: JPEG XL tests skipped"

    package static let vips = "/usr/bin/vips"
    package static var hasVips: Bool { FileManager.default.isExecutableFile(atPath: vips) }

    package static let vipsGIFSkipReason: Comment =
        "the vips command (Debian's libvips-tools) is absent: generated-GIF tests skipped"

    /// Writes `image` (a file libvips reads) as a GIF at `path`, with libvips' `gifsave` (the
    /// `vips` command).
    package static func gif(at path: String, from image: String) throws {
        let outcome = try ThumbsProcess.run(["copy", image, path], executablePath: vips)
        guard outcome.status == 0 else { throw GenerationFailure(tool: "vips", message: outcome.standardError) }
    }

    /// Runs `avifenc` quietly with `arguments`, failing the test on a non-zero status.
    package static func avifenc(_ arguments: [String]) throws {
        let outcome = try ThumbsProcess.run(arguments, executablePath: avifenc)
        guard outcome.status == 0 else { throw GenerationFailure(tool: "avifenc", message: outcome.standardError) }
    }

    /// Writes the PNG files `frames` as an AVIF image sequence (major brand `avis`) at `path`,
    /// ten frames a second, nearly lossless, with libavif's `avifenc`.
    package static func animatedAVIF(at path: String, frames: [String]) throws {
        try avifenc(["--speed", "10", "--min", "0", "--max", "4", "--fps", "10"] + frames + [path])
    }

    /// Writes `image` (a file libvips reads) as a lossless JPEG XL codestream at `path`, with
    /// libvips' `jxlsave` (the `vips` command).
    package static func jpegXL(at path: String, from image: String) throws {
        let outcome = try ThumbsProcess.run(["copy", image, path + "[lossless]"], executablePath: vips)
        guard outcome.status == 0 else { throw GenerationFailure(tool: "vips", message: outcome.standardError) }
    }

    package static let cjxlSkipReason: Comment =
        "the cjxl command (Debian's libjxl-tools) is absent: JPEG XL orientation tests skipped"

    package static let cjxl = "/usr/bin/cjxl"
    package static var hasCjxl: Bool { FileManager.default.isExecutableFile(atPath: cjxl) }

    /// Writes the pixels of the JPEG `jpeg` as a lossless JPEG XL codestream at `path`, with
    /// libjxl's `cjxl`, which turns the JPEG's EXIF orientation into the codestream's own.
    package static func jpegXL(at path: String, fromJPEG jpeg: String) throws {
        let outcome = try ThumbsProcess.run([jpeg, path, "--lossless_jpeg=0", "-d", "0"], executablePath: cjxl)
        guard outcome.status == 0 else { throw GenerationFailure(tool: "cjxl", message: outcome.standardError) }
    }

    /// Writes a DNG with scripts/make-test-dng.py (`arguments` as its own, after the output).
    package static func dng(at path: String, _ arguments: [String]) throws {
        _ = try script("make-test-dng.py", [path] + arguments)
    }

    /// Runs scripts/`name` with `$THUMBS_TEST_PYTHON`, returning what it printed.
    package static func script(_ name: String, _ arguments: [String]) throws -> String {
        guard let python else { throw GenerationFailure(tool: "python", message: "no THUMBS_TEST_PYTHON") }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/\(name)").path
        let outcome = try ThumbsProcess.run([script] + arguments, executablePath: python)
        guard outcome.status == 0 else { throw GenerationFailure(tool: name, message: outcome.standardError) }
        return outcome.standardOutput
    }

    package struct GenerationFailure: Error, CustomStringConvertible {
        package let tool: String
        package let message: String
        package var description: String { "\(tool) failed: \(message)" }
    }
}
