import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport

/// AVIF image sequences libavif cannot parse are read by FFmpeg.
@Suite struct AVIFSequenceHandlerTests {
    let folder = TemporaryFolder()

    /// A sequence with an audio track beside its frames, as FFmpeg's MP4 muxer writes it under
    /// the `avis` brand: libavif 0.11 fails it ("BMFF parsing failed"), FFmpeg reads its first
    /// frame, and it stays an animated AVIF, of as many pages as frames.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aSequenceWithAudioGetsItsFirstFrameThroughFFmpeg() throws {
        let path = folder.path + "/audio.avif"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-f", "lavfi", "-i", "sine=duration=1",
            "-c:v", "libaom-av1", "-cpu-used", "8", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
            "-f", "mp4", "-brand", "avis", path,
        ])
        let source = try ImageSource(ImageLocation(path: path))
        #expect(throws: ImagingError.self) { try AVIFSequenceFile(source, pixelLimit: 1_000_000) }
        let renderer = VipsRenderer()
        let properties = try renderer.probe(path)
        #expect(properties.mediaType == .avif && properties.video == nil)
        #expect(properties.pixelSize == PixelSize(width: 160, height: 120))
        #expect(properties.pageCount == 10)
        let spec = RenditionSpec(size: PixelSize(width: 64, height: 64), contentMode: .aspectFit)
        #expect(try renderer.render(path, spec: spec).pixelSize == PixelSize(width: 64, height: 48))
        #expect(try renderer.embeddedPreview(path) == nil)
    }

    /// A file that neither libavif nor FFmpeg reads fails with libavif's error.
    @Test func aSequenceNeitherReadsKeepsLibavifsError() throws {
        let bytes = [0, 0, 0, 0x1C] + Array("ftypavis\0\0\0\0avifavismsf1".utf8) + [UInt8](repeating: 0x41, count: 64)
        let path = try folder.write(bytes, to: "broken.avif")
        let error = #expect(throws: ImagingError.self) { try VipsRenderer().probe(path) }
        #expect(error?.kind == .corrupt || error?.kind == .truncated, "\(String(describing: error))")
    }
}
