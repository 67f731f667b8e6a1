import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

/// Animated AVIF (AVIF image sequences), which libheif does not read, through libavif: the
/// probe counts the frames, the thumbnail is the first frame.
@Suite struct AVIFSequenceFileTests {
    let folder = TemporaryFolder()
    private static let grid = RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFit)

    /// A sequence of a photo-like frame and then `greyFrames` plain grey ones, with the first
    /// frame's PNG beside it.
    private func sequence(name: String, greyFrames: Int = 2) throws -> (sequence: String, firstFrame: String) {
        try folder.write(SyntheticImage(width: 240, height: 160).encoded(as: .png), to: "\(name)-0.png")
        try folder.write(PlainImage(width: 240, height: 160).encoded(as: .png), to: "\(name)-grey.png")
        let frames =
            [folder.path + "/\(name)-0.png"] + Array(repeating: folder.path + "/\(name)-grey.png", count: greyFrames)
        let path = folder.path + "/\(name).avif"
        try GeneratedMedia.animatedAVIF(at: path, frames: frames)
        return (path, frames[0])
    }

    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func theProbeCountsTheFrames() throws {
        let made = try sequence(name: "count", greyFrames: 4)
        let properties = try VipsRenderer().probe(made.sequence)
        #expect(properties.mediaType == .avif)
        #expect(properties.pixelSize == PixelSize(width: 240, height: 160))
        #expect(properties.pageCount == 5)
    }

    /// The thumbnail is the first frame: the photo, not the grey frames after it.
    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func theThumbnailIsTheFirstFrame() throws {
        let made = try sequence(name: "first")
        let renderer = VipsRenderer()
        let thumbnail = try DecodedPixels(renderer.render(made.sequence, spec: Self.grid))
        let firstFrame = try DecodedPixels(renderer.render(made.firstFrame, spec: Self.grid))
        let grey = try DecodedPixels(renderer.render(folder.path + "/first-grey.png", spec: Self.grid))
        #expect(thumbnail.size == PixelSize(width: 128, height: 85))
        #expect(thumbnail.meanAbsoluteDifference(to: firstFrame) < 3)
        #expect(thumbnail.meanAbsoluteDifference(to: grey) > 20)
    }

    /// FFmpeg's AVIF muxer writes sequences too (libaom's AV1, no alpha).
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func ffmpegsSequencesRender() throws {
        let path = folder.path + "/ffmpeg.avif"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "0.5", "-pix_fmt", "yuv420p",
            "-c:v", "libaom-av1", "-cpu-used", "8", path,
        ])
        let renderer = VipsRenderer()
        #expect(try renderer.probe(path).pageCount == 5)
        #expect(try renderer.render(path, spec: Self.grid).pixelSize == PixelSize(width: 128, height: 96))
    }

    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func aCutSequenceIsTruncatedAndAHugeOneRefused() throws {
        let made = try sequence(name: "cut")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: made.sequence)))
        try folder.write(Array(bytes.prefix(bytes.count / 2)), to: "half.avif")
        let error = #expect(throws: ImagingError.self) {
            try VipsRenderer().render(folder.path + "/half.avif", spec: Self.grid)
        }
        #expect(error?.kind == .truncated, "\(String(describing: error))")
        #expect(throws: ImagingError.tooManyPixels(width: 240, height: 160, limit: 1000)) {
            try VipsRenderer(pixelLimit: 1000).probe(made.sequence)
        }
    }

    /// The decode's estimate covers libavif's planes and the first frame's copies.
    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func decodeMemoryCoversTheWholeFrame() throws {
        let made = try sequence(name: "memory")
        let file = try AVIFSequenceFile(ImageSource(ImageLocation(path: made.sequence)), pixelLimit: 1_000_000)
        #expect(file.decodeMemory(covering: PixelSize(width: 1, height: 1), renditionPixels: 0) >= 240 * 160 * 12)
    }
}
