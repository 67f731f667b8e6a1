import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsRendering
import ThumbsTestSupport

@testable import ThumbsImaging

/// HDR videos' poster frames as Ultra HDR JPEGs (`thumbs_video_poster_light`,
/// `VideoHandler+GainMap.swift`): scripts/make-test-hdr.py's PQ and HLG patterns as clips by
/// `ffmpeg`, whose gain maps scripts/check-gain-map.py reconstructs against the patterns' light;
/// SDR clips, which carry none; the iPhone's HLG clip, turned by its display matrix, whose light
/// must be upright as its poster is.
@Suite("Videos' gain maps: PQ and HLG posters as Ultra HDR JPEGs")
struct VideoGainMapTests {
    private let folder = TemporaryFolder()
    /// The patterns are 256 × 128: the rendition is the picture at its own size, its gain map
    /// 128 × 64, 16 pixels to a patch.
    private static let gainMap = RenditionSpec(size: PixelSize(width: 256, height: 256), hdr: .gainMap)
    private static let sdr = RenditionSpec(size: PixelSize(width: 256, height: 256))

    /// What scripts/check-gain-map.py's `pattern` prints that these tests judge.
    private struct PatternCheck: Decodable {
        let headroomStops: Double
        let litPatches: Int
        let meanStops: Double
        let maxStops: Double

        enum CodingKeys: String, CodingKey {
            case headroomStops = "headroom_stops"
            case litPatches = "lit_patches"
            case meanStops = "mean_stops"
            case maxStops = "max_stops"
        }
    }

    /// The `pattern` ("pq" or "hlg") as a 2-second 10-bit HEVC clip in BT.2020, labelled with
    /// `transfer` (ffmpeg's name; none when nil), losslessly coded, as ToneMapTests makes its
    /// clips: only the conversion and the light are measured.
    private func video(transfer: String?, pattern: String, file: String) throws -> String {
        let png = folder.path + "/\(file).png", path = folder.path + "/\(file).mp4"
        _ = try HDRPattern.write(to: png, transfer: pattern)
        try GeneratedMedia.ffmpeg(
            [
                "-loop", "1", "-i", png, "-t", "2", "-r", "25",
                "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv444p10le",
                "-c:v", "libx265", "-x265-params", "lossless=1:log-level=error",
            ] + (transfer.map { ["-color_trc", $0] } ?? [])
                + ["-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_range", "tv", path])
        return path
    }

    /// The gain map JPEG an Ultra HDR JPEG carries, by its MPF index.
    private static func gainMapJPEG(of thumbnail: Thumbnail) throws -> [UInt8] {
        let range = try #require(UltraHDRJPEG.gainMapRange(in: thumbnail.bytes, length: thumbnail.bytes.count))
        return Array(thumbnail.bytes[range])
    }

    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason),
        arguments: [("pq", "smpte2084"), ("hlg", "arib-std-b67")])
    func hdrVideoPosterCarriesItsLight(pattern: String, transfer: String) throws {
        let path = try video(transfer: transfer, pattern: pattern, file: pattern)
        let thumbnail = try VipsRenderer().render(path, specs: [Self.gainMap])[0]
        #expect(thumbnail.pixelSize == PixelSize(width: 256, height: 128))
        let gainMap = try DecodedPixels(try Self.gainMapJPEG(of: thumbnail))
        #expect(gainMap.size == PixelSize(width: 128, height: 64), "a quarter of the rendition's area")
        let headroom = try #require(UltraHDRJPEG.headroom(of: thumbnail.bytes), "the gain map states its headroom")
        #expect(headroom > 0, "\(pattern): the pattern's light reaches above SDR white")

        let jpeg = folder.path + "/\(pattern)-thumbnail.jpg"
        try Data(thumbnail.bytes).write(to: URL(fileURLWithPath: jpeg))
        let printed = try GeneratedMedia.script(
            "check-gain-map.py", ["pattern", jpeg, "--transfer", pattern, "--primaries", "bt2020"])
        let check = try JSONDecoder().decode(PatternCheck.self, from: Data(printed.utf8))
        #expect(check.litPatches > 0)
        #expect(
            check.meanStops < 0.35,
            "\(pattern): \(check.meanStops) stops off (at most \(check.maxStops)), headroom \(check.headroomStops)")
    }

    /// Labelled SDR (BT.709's transfer, which the header states, so that nothing more is
    /// decoded), or not labelled at all (the frame is then decoded to tell): no gain map, the
    /// very rendition an SDR spec gives.
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason),
        arguments: ["bt709", nil] as [String?])
    func sdrVideoPosterCarriesNoGainMap(transfer: String?) throws {
        let path = try video(transfer: transfer, pattern: "hlg", file: transfer ?? "unlabelled")
        let renditions = try VipsRenderer().render(path, specs: [Self.gainMap, Self.sdr])
        #expect(UltraHDRJPEG.gainMapRange(in: renditions[0].bytes, length: renditions[0].bytes.count) == nil)
        #expect(UltraHDRJPEG.headroom(of: renditions[0].bytes) == nil)
        #expect(renditions[0].bytes == renditions[1].bytes)
        let source = try ImageSource(ImageLocation(path: path))
        let file = try VideoFile(source, pixelLimit: 1 << 24, timeLimit: .seconds(10))
        #expect(file.mayBeHDR == (transfer == nil), "transfer \(file.transferCharacteristics)")
        #expect(
            try VideoHandler().gainMapSource(
                source, size: PixelSize(width: 128, height: 64), fill: false, engine: VipsRenderer()) == nil)
    }

    /// The iPhone's HLG clip is stored 1280 × 720 and turned a quarter by its display matrix:
    /// its light is turned as its poster is, so that the gain map lies over the picture. The
    /// light has the primary's upright shape, and, brought to the gain map's size, follows the
    /// primary's brightness (in stops) more closely than it does turned half round or mirrored.
    @Test(.enabled(if: SharedMedia.isPresent, SharedMedia.skipReason))
    func sharedHLGClipsLightIsUprightAsItsPosterIs() throws {
        let clip = SharedMedia.path("video/dolbyVision-hdr.MOV")
        let thumbnail = try VipsRenderer().render(clip, specs: [Self.gainMap])[0]
        #expect(thumbnail.pixelSize == PixelSize(width: 144, height: 256))
        let headroom = try #require(UltraHDRJPEG.headroom(of: thumbnail.bytes))
        #expect(headroom > 0)
        let gainMap = try DecodedPixels(try Self.gainMapJPEG(of: thumbnail))
        #expect(gainMap.size == PixelSize(width: 72, height: 128))

        let source = try ImageSource(ImageLocation(path: clip))
        let found = try VideoHandler().gainMapSource(source, size: gainMap.size, fill: false, engine: VipsRenderer())
        guard case .light(let light) = try #require(found) else {
            Issue.record("a video's gain map comes from its light")
            return
        }
        let primaryAspect = Double(thumbnail.pixelSize.width) / Double(thumbnail.pixelSize.height)
        let lightAspect = Double(light.size.width) / Double(light.size.height)
        #expect(abs(lightAspect - primaryAspect) < 0.02, "light \(light.size), primary \(thumbnail.pixelSize)")

        let primary = try DecodedPixels(thumbnail)
        let linear = (0..<256).map { Float(UltraHDRRendition.srgbToLinear(Double($0) / 255)) }
        let luminance = (0..<primary.size.pixelCount).map { index in
            let pixel = index * primary.bands
            return 0.2126 * linear[Int(primary.bytes[pixel])] + 0.7152 * linear[Int(primary.bytes[pixel + 1])]
                + 0.0722 * linear[Int(primary.bytes[pixel + 2])]
        }
        let shown = Self.stops(
            try #require(GainPlane(size: primary.size, channels: 1, values: luminance)), gainMap.size)
        let upright = Self.correlation(Self.stops(light, gainMap.size), shown)
        // Turned half round, mirrored left to right, mirrored top to bottom.
        let wrong = [3, 2, 4].map { Self.correlation(Self.stops(light.upright(orientation: $0), gainMap.size), shown) }
        #expect(upright > 0.9 && upright > (wrong.max() ?? 0) + 0.15, "upright \(upright), turned \(wrong)")
    }

    /// `plane` resized to `size`, each value in stops (log2, above a floor of 1/64).
    private static func stops(_ plane: GainPlane, _ size: PixelSize) -> [Float] {
        plane.resampled(to: size, fill: false).values.map { log2(max($0, 0) + 1.0 / 64) }
    }

    /// Pearson's correlation of two series of the same length.
    private static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let count = Double(a.count)
        let meanA = a.reduce(0.0) { $0 + Double($1) } / count, meanB = b.reduce(0.0) { $0 + Double($1) } / count
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (x, y) in zip(a, b) {
            let (dx, dy) = (Double(x) - meanA, Double(y) - meanB)
            covariance += dx * dy
            varianceA += dx * dx
            varianceB += dy * dy
        }
        return varianceA > 0 && varianceB > 0 ? covariance / (varianceA * varianceB).squareRoot() : 0
    }
}
