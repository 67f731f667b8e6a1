import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsSupport
import ThumbsTestSupport

/// HDR pictures and videos (PQ, HLG) as SDR sRGB thumbnails (`CToneMap`): patterns of known code
/// values, encoded by avifenc and ffmpeg, against the pixels scripts/make-test-hdr.py computes
/// from the standards' formulas; the shared PQ AVIF and HLG iPhone clip; SDR left as it was.
@Suite("CToneMap: PQ and HLG pictures and videos as SDR sRGB")
struct ToneMapTests {
    private let folder = TemporaryFolder()
    /// PNG, so that the comparison measures the tone map and not an encoder; the patterns are
    /// 256 × 128, so the thumbnail is the picture at its own size.
    private static let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), format: .png)

    /// The tolerance: on average within 6 levels per channel, and within 3 on the grey ramp.
    private static func expectClose(_ comparison: HDRPattern.Comparison, _ label: String) {
        #expect(comparison.meanDifference.allSatisfy { $0 <= 6 }, "\(label): \(comparison)")
        #expect(comparison.largestGreyDifference <= 3, "\(label): \(comparison)")
    }

    /// The pattern as a 10-bit 4:4:4 AVIF with the nclx `cicp` (primaries/transfer/matrix), and
    /// an alpha channel of `alpha` everywhere when given, losslessly coded, so that only the
    /// colour conversion and the tone map are measured.
    private func avif(transfer: String, primaries: String, cicp: String, alpha: Int? = nil) throws
        -> (String, HDRPattern)
    {
        let name = "\(transfer)-\(primaries)" + (alpha.map { "-alpha\($0)" } ?? "")
        let png = folder.path + "/\(name).png", path = folder.path + "/\(name).avif"
        let pattern = try HDRPattern.write(to: png, transfer: transfer, primaries: primaries, alpha: alpha)
        try Self.encodeAVIF(png, to: path, cicp: cicp)
        return (path, pattern)
    }

    /// The 16-bit PNG `png` as a lossless 10-bit 4:4:4 AVIF at `path`, labelled with `cicp`.
    private static func encodeAVIF(_ png: String, to path: String, cicp: String) throws {
        try GeneratedMedia.avifenc(
            [
                "-d", "10", "-y", "444", "--min", "0", "--max", "0", "--minalpha", "0", "--maxalpha", "0", "-s", "8",
                "--cicp", cicp, png, path,
            ])
    }

    /// The `pattern` ("pq" or "hlg") as a 2-second 10-bit HEVC clip in BT.2020, labelled with
    /// `transfer` (ffmpeg's name; none when nil), losslessly coded; with `peak`, its pixels
    /// expected for that peak in cd/m², which its SEI states by the x265 parameter given (none
    /// when nil).
    private func video(
        transfer: String?, pattern name: String, file: String? = nil, peak: (Int, String?)? = nil
    ) throws -> (String, HDRPattern) {
        let png = folder.path + "/\(name).png", path = folder.path + "/\(file ?? name).mp4"
        let pattern = try HDRPattern.write(to: png, transfer: name, peak: peak?.0 ?? 1000)
        try GeneratedMedia.ffmpeg(
            [
                "-loop", "1", "-i", png, "-t", "2", "-r", "25",
                "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv444p10le",
                "-c:v", "libx265", "-x265-params",
                "lossless=1:log-level=error" + (peak?.1.map { ":\($0)" } ?? ""),
            ] + (transfer.map { ["-color_trc", $0] } ?? [])
                + ["-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_range", "tv", path])
        return (path, pattern)
    }

    private func rendered(_ path: String) async throws -> DecodedPixels {
        try DecodedPixels(try await ThumbnailRenderer().render(path, spec: Self.spec))
    }

    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqAVIFInBT2020IsToneMappedAsTheFormulasSay() async throws {
        let (path, pattern) = try avif(transfer: "pq", primaries: "bt2020", cicp: "9/16/9")
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ BT.2020")
    }

    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqAVIFWithAlphaIsToneMappedAndKeepsItsAlpha() async throws {
        let (path, pattern) = try avif(transfer: "pq", primaries: "bt2020", cicp: "9/16/9", alpha: 32768)
        let pixels = try await rendered(path)
        #expect(pixels.bands == 4, "the thumbnail keeps the alpha")
        Self.expectClose(pattern.compared(with: pixels), "PQ BT.2020 with alpha")
        let alphas = Set(stride(from: 3, to: pixels.bytes.count, by: max(4, pixels.bands)).map { pixels.bytes[$0] })
        #expect(alphas == [128], "half transparent everywhere: \(alphas.sorted())")
    }

    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func hlgAVIFInBT2020IsToneMappedAsTheFormulasSay() async throws {
        let (path, pattern) = try avif(transfer: "hlg", primaries: "bt2020", cicp: "9/18/9")
        Self.expectClose(pattern.compared(with: try await rendered(path)), "HLG BT.2020")
    }

    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqAVIFInDisplayP3IsToneMappedAsTheFormulasSay() async throws {
        let (path, pattern) = try avif(transfer: "pq", primaries: "p3", cicp: "12/16/9")
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ P3")
    }

    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqVideoPosterIsToneMappedAsTheFormulasSay() async throws {
        let (path, pattern) = try video(transfer: "smpte2084", pattern: "pq")
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ video")
    }

    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func hlgVideoPosterIsToneMappedAsTheFormulasSay() async throws {
        let (path, pattern) = try video(transfer: "arib-std-b67", pattern: "hlg")
        Self.expectClose(pattern.compared(with: try await rendered(path)), "HLG video")
    }

    /// A PQ picture that states its peak, as a maximum content light level (`clli`) or as its
    /// mastering display's (`mdcv`), of 4000 cd/m², is mapped from it, not from 1000 cd/m²: its
    /// highlights roll off later.
    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason),
        arguments: [["--max-cll", "4000", "--max-fall", "400"], ["--mastering-peak", "4000"]])
    func pqAVIFStatingItsPeakIsMappedFromIt(stated: [String]) async throws {
        let (plain, _) = try avif(transfer: "pq", primaries: "bt2020", cicp: "9/16/9")
        let pattern = try HDRPattern.write(to: folder.path + "/peak.png", transfer: "pq", peak: 4000)
        let path = folder.path + "/stated.avif"
        _ = try GeneratedMedia.script("make-test-hdr.py", ["light-level", plain, path] + stated)
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ from 4000 cd/m², \(stated)")
    }

    /// The same for a clip whose HEVC SEI states it (x265's `max-cll`, or its `master-display`).
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason),
        arguments: [
            "max-cll=4000,400", "master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(40000000,50)",
        ])
    func pqVideoStatingItsPeakIsMappedFromIt(stated: String) async throws {
        let (path, pattern) = try video(transfer: "smpte2084", pattern: "pq", file: "pq-4000", peak: (4000, stated))
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ video from 4000 cd/m², \(stated)")
    }

    /// The same for a clip whose container states it (a `clli` box in its sample entry, added by
    /// scripts/make-test-hdr.py light-level) and whose stream does not.
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqVideoWhoseContainerStatesItsPeakIsMappedFromIt() async throws {
        let (plain, pattern) = try video(transfer: "smpte2084", pattern: "pq", file: "pq-unstated", peak: (4000, nil))
        let path = folder.path + "/pq-clli.mp4"
        _ = try GeneratedMedia.script("make-test-hdr.py", ["light-level", plain, path, "--max-cll", "4000"])
        Self.expectClose(pattern.compared(with: try await rendered(path)), "PQ video with a clli box of 4000 cd/m²")
    }

    /// A PQ file's stored thumbnail, the degraded image of opportunistic delivery, is tone-mapped
    /// as its picture is: libvips' loader showed its code values. The pattern is the thumbnail
    /// item (scripts/make-test-hdr.py thumbnail: avifenc writes none) of a picture of it at twice
    /// the size.
    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func pqThumbnailItemIsToneMappedAsThePictureIs() async throws {
        let png = folder.path + "/small.png", small = folder.path + "/small.avif"
        let pattern = try HDRPattern.write(to: png, transfer: "pq")
        try Self.encodeAVIF(png, to: small, cicp: "9/16/9")
        let doubled = folder.path + "/doubled.png", large = folder.path + "/doubled.avif"
        let path = folder.path + "/with-thumbnail.avif"
        let resized = try ThumbsProcess.run(
            ["resize", png, doubled, "2", "--kernel", "nearest"], executablePath: GeneratedMedia.vips)
        try #require(resized.status == 0, "\(resized.standardError)")
        try Self.encodeAVIF(doubled, to: large, cicp: "9/16/9")
        _ = try GeneratedMedia.script("make-test-hdr.py", ["thumbnail", large, small, path])
        let degraded = try #require(
            try await ThumbnailRenderer().embeddedPreview(path, format: .png, quality: 90, priority: .interactive))
        let pixels = try DecodedPixels(degraded)
        #expect(pixels.size == PixelSize(width: 256, height: 128), "the thumbnail item, not the picture")
        Self.expectClose(pattern.compared(with: pixels), "PQ thumbnail item")
    }

    /// The HLG pattern's clip labelled as SDR (BT.709's transfer) has the poster it has
    /// unlabelled, code values shown as they are, pixel for pixel; only HDR is tone-mapped.
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func sdrVideoIsNotToneMapped() async throws {
        let (hlg, _) = try video(transfer: "arib-std-b67", pattern: "hlg")
        let (sdr, _) = try video(transfer: "bt709", pattern: "hlg", file: "bt709")
        let (unlabelled, _) = try video(transfer: nil, pattern: "hlg", file: "unlabelled")
        let sdrPoster = try await rendered(sdr)
        #expect(sdrPoster.bytes == (try await rendered(unlabelled)).bytes)
        #expect(try await rendered(hlg).bytes != sdrPoster.bytes)
    }

    /// libavif's PQ AVIF (BT.709 primaries) against the SDR picture the photographer exported
    /// from the same raw: shown as code values it was 37 levels darker on average.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func sharedPQAVIFLooksLikeItsSDRExport() async throws {
        let hdr = try await rendered(SharedPhotos.root.appendingPathComponent("exports/seine_hdr_srgb.avif").path)
        let sdr = try await rendered(
            SharedPhotos.root.appendingPathComponent("exports/seine_sdr_gainmap_srgb.jpg").path)
        #expect(hdr.size == sdr.size)
        #expect(hdr.meanAbsoluteDifference(to: sdr) < 16)
    }

    /// The iPhone's HLG clip (BT.2020): its poster against ffmpeg's decode of the same frame,
    /// upright and at the thumbnail's size, tone-mapped by scripts/make-test-hdr.py.
    @Test(
        .enabled(if: SharedMedia.isPresent, SharedMedia.skipReason),
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func sharedHLGClipIsToneMappedAsTheFormulasSay() async throws {
        let clip = SharedMedia.path("video/dolbyVision-hdr.MOV")
        let poster = try await rendered(clip)
        #expect(poster.size == PixelSize(width: 144, height: 256))
        let codes = folder.path + "/frame.rgb48", expected = folder.path + "/frame.rgb"
        try GeneratedMedia.ffmpeg([
            "-i", clip, "-frames:v", "1",
            "-vf", "scale=w=144:h=256:in_color_matrix=bt2020:in_range=tv,format=rgb48le", "-f", "rawvideo", codes,
        ])
        _ = try GeneratedMedia.script("make-test-hdr.py", ["frame", codes, expected, "--transfer", "hlg"])
        let reference = Array(try Data(contentsOf: URL(fileURLWithPath: expected)))
        #expect(reference.count == 144 * 256 * 3)
        var sums = [0, 0, 0]
        for pixel in 0..<(144 * 256) {
            for band in 0..<3 {
                sums[band] += abs(Int(poster.bytes[pixel * poster.bands + band]) - Int(reference[pixel * 3 + band]))
            }
        }
        let means = sums.map { Double($0) / Double(144 * 256) }
        #expect(means.allSatisfy { $0 <= 6 }, "mean difference per channel \(means)")
    }
}
