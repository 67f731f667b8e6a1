import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport

/// Videos through FFmpeg: the shared camera and phone clips, and clips the `ffmpeg` command makes
/// (every rotation, H.264, HEVC, VP9, a fade from black, damaged files).
@Suite("VideoFile: videos through FFmpeg")
struct VideoFileTests {
    private static let grid = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFit)

    /// A 2-second clip of the four-colour scene (red top left, green top right, blue bottom
    /// left, white bottom right), `width` x `height`, a keyframe a second.
    private static func quadrantClip(
        in folder: TemporaryFolder, name: String, codec: [String] = ["-c:v", "libx264"], width: Int = 320,
        height: Int = 240, filter: String? = nil
    ) throws -> String {
        let half = "\(width / 2)x\(height / 2)"
        let scene =
            "color=red:s=\(half)[a];color=0x00ff00:s=\(half)[b];color=blue:s=\(half)[c];color=white:s=\(half)[d];"
            + "[a][b]hstack[top];[c][d]hstack[bottom];[top][bottom]vstack,format=yuv420p"
            + (filter.map { ",\($0)" } ?? "")
        let path = folder.url.appendingPathComponent(name).path
        try GeneratedMedia.ffmpeg(
            ["-f", "lavfi", "-i", "\(scene),trim=duration=2", "-r", "25", "-g", "25"] + codec + [path])
        return path
    }

    private static func colourName(_ colour: (r: Int, g: Int, b: Int)) -> String {
        switch (colour.r > 160, colour.g > 160, colour.b > 160) {
        case (true, false, false): "red"
        case (false, true, false): "green"
        case (false, false, true): "blue"
        case (true, true, true): "white"
        default: "other"
        }
    }

    /// The colours of the four quadrants, clockwise from the top left.
    private static func quadrants(_ thumbnail: Thumbnail) throws -> [String] {
        let pixels = try DecodedPixels(thumbnail)
        return [(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)].map {
            colourName(pixels.colour(atFractionX: $0.0, y: $0.1))
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func everyRotationIsTurnedUprightOnce() async throws {
        let folder = TemporaryFolder()
        let plain = try Self.quadrantClip(in: folder, name: "plain.mp4")
        let renderer = ThumbnailRenderer()
        // What FFmpeg itself shows for each display rotation, turned as it turns the frame.
        let upright = ["red", "green", "white", "blue"]
        for rotate in [0, 90, 180, 270] {
            let turned = folder.url.appendingPathComponent("rotate\(rotate).mp4").path
            try GeneratedMedia.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", turned])
            let shown = folder.url.appendingPathComponent("shown\(rotate).png").path
            try GeneratedMedia.ffmpeg(["-i", turned, "-frames:v", "1", shown])
            let expected = try Self.quadrants(
                Thumbnail(
                    bytes: Array(try Data(contentsOf: URL(fileURLWithPath: shown))),
                    pixelSize: PixelSize(width: 1, height: 1), format: .png))
            let thumbnail = try await renderer.render(turned, spec: Self.grid)
            let properties = try await renderer.probe(turned)
            #expect(try Self.quadrants(thumbnail) == expected, "rotate=\(rotate)")
            #expect(Set(expected) == Set(upright))
            let sideways = rotate % 180 != 0
            #expect(
                properties.pixelSize
                    == (sideways ? PixelSize(width: 240, height: 320) : PixelSize(width: 320, height: 240)))
            #expect(
                thumbnail.pixelSize
                    == (sideways ? PixelSize(width: 192, height: 256) : PixelSize(width: 256, height: 192)))
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func h264HEVCAndVP9GiveTheSamePicture() async throws {
        let folder = TemporaryFolder()
        let renderer = ThumbnailRenderer()
        for (name, codec) in [
            ("h264.mp4", ["-c:v", "libx264"]), ("hevc.mp4", ["-c:v", "libx265", "-x265-params", "log-level=none"]),
            ("vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime"]),
        ] {
            let path = try Self.quadrantClip(in: folder, name: name, codec: codec)
            let thumbnail = try await renderer.render(path, spec: Self.grid)
            #expect(try Self.quadrants(thumbnail) == ["red", "green", "white", "blue"], "\(name)")
            let video = try #require(try await renderer.probe(path).video)
            #expect(video.codec == ["h264.mp4": "h264", "hevc.mp4": "hevc", "vp9.webm": "vp9"][name])
            #expect(abs((video.duration ?? 0) - 2) < 0.1 && abs((video.frameRate ?? 0) - 25) < 0.1)
            #expect(!video.hasAudio)
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aFadeFromBlackIsNotThePoster() async throws {
        let folder = TemporaryFolder()
        let path = try Self.quadrantClip(in: folder, name: "fade.mp4", filter: "fade=in:0:20")
        let thumbnail = try await ThumbnailRenderer().render(path, spec: Self.grid)
        #expect(try Self.quadrants(thumbnail) == ["red", "green", "white", "blue"])
        // The degraded picture is the first keyframe, black or not: it costs the least.
        let first = try #require(try await ThumbnailRenderer().embeddedPreview(path))
        #expect(try DecodedPixels(first).colour(atFractionX: 0.25, y: 0.25).r < 40)
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func damagedVideosFailWithTheirKind() async throws {
        let folder = TemporaryFolder()
        let whole = try Self.quadrantClip(in: folder, name: "whole.mov", codec: ["-c:v", "libx264"])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: whole)))
        // The moov atom comes last, as cameras write it: half a file has none.
        let cut = try folder.write(Array(bytes.prefix(bytes.count / 2)), to: "cut.mov")
        let audio = folder.url.appendingPathComponent("audio.mp4").path
        try GeneratedMedia.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", audio])
        let empty = try folder.write([], to: "empty.mp4")
        // A Matroska signature, then noise.
        let garbage = try folder.write(
            [0x1A, 0x45, 0xDF, 0xA3] + (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 131) }, to: "garbage.mkv")
        let renderer = ThumbnailRenderer()
        let expected: [(String, ImagingError.Kind)] = [
            (cut, .truncated), (audio, .noVideoStream), (empty, .emptyFile), (garbage, .corrupt),
        ]
        for (path, kind) in expected {
            do {
                _ = try await renderer.render(path, spec: Self.grid)
                Issue.record("\(path) rendered")
            } catch let error as ImagingError {
                #expect(error.kind == kind, "\(path): \(error)")
            }
        }
    }

    /// A download cut short in its first few hundred bytes: FFmpeg finds the stream but not its
    /// size (0x0, codec "none"). Every such cut fails with a typed error; none traps.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func clipsCutInTheirFirstBytesFailTyped() async throws {
        let folder = TemporaryFolder()
        let whole = folder.url.appendingPathComponent("whole.mp4").path
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25,trim=duration=1", "-c:v", "libx264",
            "-movflags", "+faststart", whole,
        ])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: whole)))
        let renderer = ThumbnailRenderer()
        var kinds: Set<ImagingError.Kind> = []
        for length in Array(stride(from: 8, to: 1200, by: 16)) + [400, 480] {
            let cut = try folder.write(Array(bytes.prefix(length)), to: "cut\(length).mp4")
            do {
                _ = try await renderer.render(cut, spec: Self.grid)
            } catch let error as ImagingError {
                kinds.insert(error.kind)
            }
        }
        #expect(kinds.isSubset(of: [.corrupt, .truncated, .noVideoStream, .unsupportedFormat]), "\(kinds)")
    }

    /// The first 400 and 480 bytes of a real clip: a stream of 0x0 pixels.
    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func aSharedClipCutAfter400BytesIsCorrupt() async throws {
        let folder = TemporaryFolder()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: SharedMedia.path("video/flower.mp4"))))
        for length in [400, 480] {
            let cut = try folder.write(Array(bytes.prefix(length)), to: "flower\(length).mp4")
            await #expect(throws: ImagingError.corrupt("the picture is 0x0 pixels")) {
                try await ThumbnailRenderer().render(cut, spec: Self.grid)
            }
        }
    }

    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func everySharedVideoGetsItsRenditionsUpright() async throws {
        let renderer = ThumbnailRenderer()
        let specs = [
            RenditionSpec(size: PixelSize(width: 1024, height: 1024), contentMode: .aspectFit),
            RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        ]
        let portrait: Set = ["portrait_4k60.mp4", "dolbyVision-hdr.MOV"]
        for name in [
            "flower.mp4", "iPhone_XR_IMG_3589.mov", "dolbyVision-hdr.MOV", "portrait_4k60.mp4", "bear-vp9.webm",
            "Nikon_D90_DSC_0009.AVI",
        ] {
            let path = SharedMedia.path("video/\(name)")
            let properties = try await renderer.probe(path)
            #expect(properties.mediaType.isVideo && properties.video != nil, "\(name)")
            #expect((properties.pixelSize.height > properties.pixelSize.width) == portrait.contains(name), "\(name)")
            let thumbnails = try await renderer.render(path, specs: specs)
            // Filled square, 256 wide unless the video is smaller (never enlarged).
            let fill = thumbnails[1].pixelSize
            #expect(
                fill.width == fill.height
                    && fill.width == min(256, properties.pixelSize.width, properties.pixelSize.height), "\(name)")
            let fit = thumbnails[0].pixelSize
            #expect((fit.height > fit.width) == portrait.contains(name), "\(name)")
            // Not a black or flat frame.
            let pixels = try DecodedPixels(thumbnails[1])
            let samples = stride(from: 0.1, to: 1, by: 0.2).flatMap { x in
                stride(from: 0.1, to: 1, by: 0.2).map { pixels.colour(atFractionX: x, y: $0).g }
            }
            #expect((samples.max() ?? 0) - (samples.min() ?? 0) > 20, "\(name)")
        }
        let iPhone = try await renderer.probe(SharedMedia.path("video/iPhone_XR_IMG_3589.mov"))
        #expect(iPhone.captureDate?.description == "2020-04-17T10:03:47-06:00")
        do {
            _ = try await renderer.render(SharedMedia.path("broken/IMG_3589_truncated.mov"), spec: Self.grid)
            Issue.record("a half-copied video rendered")
        } catch let error as ImagingError {
            #expect(error.kind == .truncated)
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aLivePhotosMovieHasItsContentIdentifier() throws {
        let folder = TemporaryFolder()
        let identifier = "9D8C7B6A-5F4E-4D3C-8B2A-1F0E9D8C7B6A"
        let tagged = folder.path + "/live.mov"
        try LivePhotoFiles.liveMovie(at: tagged, contentIdentifier: identifier)
        #expect(try VipsRenderer().probe(tagged).contentIdentifier == identifier)
        let plain = try Self.quadrantClip(in: folder, name: "plain.mov")
        #expect(try VipsRenderer().probe(plain).contentIdentifier == nil)
    }

    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func aRealIPhoneMovieHasItsContentIdentifier() throws {
        let probed = try VipsRenderer().probe(SharedMedia.path("video/iPhone_XR_IMG_3589.mov"))
        #expect(probed.contentIdentifier == "1EA799FF-8384-4BC4-87AA-139A814D9125")
        #expect(probed.embeddedMovie == nil)
    }
}
