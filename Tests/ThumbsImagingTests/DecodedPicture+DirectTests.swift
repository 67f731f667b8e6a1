import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport

/// A video's frame made into thumbnails without libvips gives libvips' bytes: every rotation, the
/// shared videos (HDR ones tone-mapped first), and the first keyframe encoded at its own size.
@Suite struct DecodedPictureDirectTests {
    let folder = TemporaryFolder()

    /// Both paths from one decode of `path`'s poster; fails when the direct path declines.
    private func expectSame(_ path: String, specs: [RenditionSpec], _ note: String) throws {
        let file = try VideoFile(
            try ImageSource(ImageLocation(path: path)), pixelLimit: 100_000_000, timeLimit: .seconds(60))
        let upright = file.uprightSize
        let outputs = specs.map { RenditionGeometry.outputSize(source: upright, spec: $0) }
        let decodeSize = RenditionGeometry.sharedDecodeSize(source: upright, specs: specs)
        let picture = try file.poster(covering: decodeSize, degraded: false)
        let direct = try #require(
            try picture.renditionsWithoutLibvips(upright: upright, specs: specs, outputs: outputs), "\(note)")
        let engine = try VipsRenderer.renditionsByLibvips(of: picture, upright: upright, specs: specs, outputs: outputs)
        #expect(direct.map(\.bytes) == engine.map(\.bytes), "\(note)")
        #expect(direct.map(\.pixelSize) == engine.map(\.pixelSize), "\(note)")
        #expect(direct.map(\.placeholder) == engine.map(\.placeholder), "\(note)")
        let keyframe = try file.poster(covering: PixelSize(width: 1, height: 1), degraded: true)
        let preview = try #require(try keyframe.encodedWithoutLibvips(format: .jpeg, quality: 80), "\(note)")
        let previewByLibvips = try VipsCallGate.run { () throws(ImagingError) in
            let image = try keyframe.image(ImagingError.corrupt)
            return try VipsRenderer.encode(image, spec: RenditionSpec(size: image.size, format: .jpeg, quality: 80))
        }
        #expect(preview.bytes == previewByLibvips.bytes, "\(note) preview")
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func everyRotationGivesTheEnginesBytes() throws {
        let plain = folder.path + "/plain.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=480x270:rate=10", "-t", "1", "-pix_fmt", "yuv420p", plain,
        ])
        for rotate in [0, 90, 180, 270] {
            let turned = folder.path + "/rotate\(rotate).mp4"
            try GeneratedMedia.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", turned])
            for specs in JPEGHandlerDirectTests.specSets { try expectSame(turned, specs: specs, "rotate \(rotate)") }
        }
    }

    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func sharedVideosGiveTheEnginesBytes() throws {
        let videos = try FileManager.default.contentsOfDirectory(atPath: SharedMedia.path("video")).sorted()
        #expect(!videos.isEmpty)
        for name in videos {
            for specs in JPEGHandlerDirectTests.specSets.prefix(2) {
                try expectSame(SharedMedia.path("video/" + name), specs: specs, name)
            }
        }
    }

    /// What the direct path leaves to libvips: WebP, an enlargement, a cover picture.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func webPAndEnlargingAreLibvips() throws {
        let clip = folder.path + "/clip.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-pix_fmt", "yuv420p", clip,
        ])
        let file = try VideoFile(
            try ImageSource(ImageLocation(path: clip)), pixelLimit: 100_000_000, timeLimit: .seconds(60))
        let picture = try file.poster(covering: PixelSize(width: 64, height: 64), degraded: false)
        let upright = file.uprightSize
        for spec in [
            RenditionSpec(size: PixelSize(width: 64, height: 64), format: .webp),
            RenditionSpec(size: PixelSize(width: 640, height: 640), allowsUpscaling: true),
        ] {
            let outputs = [RenditionGeometry.outputSize(source: upright, spec: spec)]
            #expect(try picture.renditionsWithoutLibvips(upright: upright, specs: [spec], outputs: outputs) == nil)
        }
        let cover = DecodedPicture(content: .encoded([0xFF, 0xD8]), orientation: 1)
        #expect(try cover.uprightPixelPicture() == nil)
    }
}
