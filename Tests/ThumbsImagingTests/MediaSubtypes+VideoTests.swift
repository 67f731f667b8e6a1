import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport

/// Slow motion and time-lapse as a video's probe reads them: from the stream's frame rate and
/// Android's capture rate, on clips the `ffmpeg` command makes, and never on the shared videos.
@Suite("MediaSubtypes of videos: slow motion and time-lapse")
struct MediaSubtypesVideoTests {
    let folder = TemporaryFolder()

    private func probe(_ name: String) throws -> ImageProperties {
        try VipsRenderer().probe(folder.path + "/" + name)
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aStreamOf100FramesASecondOrMoreIsSlowMotion() throws {
        let expected: [Int: MediaSubtypes] = [30: [], 60: [], 120: .videoHighFrameRate, 240: .videoHighFrameRate]
        for (rate, subtypes) in expected {
            try VideoSubtypeFiles.clip(at: folder.path + "/\(rate).mp4", frameRate: rate)
            let probed = try probe("\(rate).mp4")
            #expect(probed.mediaSubtypes == subtypes, "\(rate) fps")
            #expect(probed.video?.frameRate.map { Int($0.rounded()) } == rate)
        }
    }

    /// FFmpeg's text form of the tag and Android's own float32 say the same.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func androidsCaptureRateSaysSlowMotionOrTimeLapse() throws {
        let expected: [(captureRate: Float, subtypes: MediaSubtypes)] = [
            (240, .videoHighFrameRate), (120, .videoHighFrameRate), (0.5, .videoTimelapse), (6, .videoTimelapse),
            (30, []), (20, []),
        ]
        for (captureRate, subtypes) in expected {
            let text = "text\(captureRate).mp4"
            try VideoSubtypeFiles.clip(
                at: folder.path + "/" + text, frameRate: 30,
                tags: [VideoSubtypeFiles.androidCaptureRate: "\(captureRate)"])
            #expect(try probe(text).mediaSubtypes == subtypes, "\(captureRate) as text")
            let float = "float\(captureRate).mp4"
            try VideoSubtypeFiles.androidClip(at: folder.path + "/" + float, captureRate: captureRate)
            let probed = try probe(float)
            #expect(probed.mediaSubtypes == subtypes, "\(captureRate) as a float")
            // The stream still plays at its own rate.
            #expect(probed.video?.frameRate.map { Int($0.rounded()) } == 30)
        }
    }

    /// An iPhone's slow motion is a 240 fps stream; `full-frame-rate-playback-intent`, which
    /// iPhones write on ordinary movies too, says nothing of it.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func anIPhonesSlowMotionIsItsStreamsRate() throws {
        let tags: KeyValuePairs = [
            "com.apple.quicktime.make": "Apple", "com.apple.quicktime.model": "iPhone 15 Pro",
            "com.apple.quicktime.full-frame-rate-playback-intent": "0",
        ]
        try VideoSubtypeFiles.clip(at: folder.path + "/slomo.mov", frameRate: 240, tags: tags)
        try VideoSubtypeFiles.clip(at: folder.path + "/ordinary.mov", frameRate: 30, tags: tags)
        #expect(try probe("slomo.mov").mediaSubtypes == .videoHighFrameRate)
        #expect(try probe("ordinary.mov").mediaSubtypes == [])
    }

    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func noSharedVideoIsSlowMotionOrATimeLapse() throws {
        for name in [
            "flower.mp4", "iPhone_XR_IMG_3589.mov", "dolbyVision-hdr.MOV", "portrait_4k60.mp4", "bear-vp9.webm",
            "Nikon_D90_DSC_0009.AVI",
        ] {
            #expect(try VipsRenderer().probe(SharedMedia.path("video/\(name)")).mediaSubtypes == [], "\(name)")
        }
    }
}
