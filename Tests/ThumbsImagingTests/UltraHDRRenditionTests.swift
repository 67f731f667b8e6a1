import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport

/// Renditions with gain maps, checked by the format's own formula (scripts/check-gain-map.py):
/// the HDR picture a viewer reconstructs at full boost matches the source's light (a PQ or HLG
/// pattern's, from the standards' formulas) or the source's own reconstruction (an Ultra HDR
/// JPEG's, an Apple HEIC's) within 0.35 stops on average where it is lit, and the primary
/// picture is the SDR rendition.
@Suite("UltraHDRRendition: gain maps a viewer reconstructs the source from")
struct UltraHDRRenditionTests {
    private let folder = TemporaryFolder()
    private static let tolerance = 0.35

    /// The patterns are 256 × 128: their renditions are at their own size.
    private static let sdr = RenditionSpec(size: PixelSize(width: 256, height: 256), quality: 90)
    private static let gainMap = RenditionSpec(size: PixelSize(width: 256, height: 256), quality: 90, hdr: .gainMap)

    /// The SDR and gain-map renditions of `path` from one render, written beside each other.
    private func rendered(_ path: String, sdr: RenditionSpec = sdr, gainMap: RenditionSpec = gainMap) throws
        -> (sdr: String, hdr: String, thumbnail: Thumbnail)
    {
        let thumbnails = try VipsRenderer().render(path, specs: [sdr, gainMap])
        let name = URL(fileURLWithPath: path).lastPathComponent
        let sdrPath = folder.path + "/\(name).sdr.jpg", hdrPath = folder.path + "/\(name).hdr.jpg"
        try Data(thumbnails[0].bytes).write(to: URL(fileURLWithPath: sdrPath))
        try Data(thumbnails[1].bytes).write(to: URL(fileURLWithPath: hdrPath))
        return (sdrPath, hdrPath, thumbnails[1])
    }

    /// The pattern of `transfer` as a lossless 10-bit AVIF in BT.2020.
    private func patternAVIF(_ transfer: String) throws -> String {
        let png = folder.path + "/\(transfer).png", path = folder.path + "/\(transfer).avif"
        _ = try HDRPattern.write(to: png, transfer: transfer)
        try GeneratedMedia.avifenc(
            [
                "-d", "10", "-y", "444", "--min", "0", "--max", "0", "-s", "8", "--cicp",
                transfer == "pq" ? "9/16/9" : "9/18/9", png, path,
            ])
        return path
    }

    @Test(
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason), arguments: ["pq", "hlg"])
    func aPQOrHLGPicturesGainMapRestoresItsLight(transfer: String) throws {
        let (sdr, hdr, thumbnail) = try rendered(try patternAVIF(transfer))
        let reconstruction = try GainMapCheck.pattern(hdr, transfer: transfer)
        #expect(reconstruction.meanStops < Self.tolerance && reconstruction.lit >= 20, "\(transfer): \(reconstruction)")
        // The pattern reaches PQ's 10000 cd/m² (HLG's 1000): far above SDR white.
        #expect(reconstruction.headroomStops > (transfer == "pq" ? 5 : 2), "\(reconstruction)")
        #expect(UltraHDRJPEG.headroom(of: thumbnail.bytes) == reconstruction.headroomStops)
        #expect(try GainMapCheck.primaryDifference(hdr, from: sdr) == 0, "the primary is the SDR rendition")
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason),
        arguments: ["phone/PXL_ultrahdr_01.jpg", "exports/seine_sdr_gainmap_srgb.jpg"])
    func anUltraHDRJPEGsGainMapIsCarriedOver(name: String) throws {
        let source = SharedPhotos.root.appendingPathComponent(name).path
        let (sdr, hdr, _) = try rendered(source)
        let reconstruction = try GainMapCheck.compare(hdr, with: source)
        #expect(reconstruction.meanStops < Self.tolerance, "\(name): \(reconstruction)")
        #expect(try GainMapCheck.primaryDifference(hdr, from: sdr) == 0)
    }

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func anAppleHEICsGainMapIsCarriedOver() throws {
        let source = SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path
        let (sdr, hdr, _) = try rendered(source)
        let reconstruction = try GainMapCheck.compare(hdr, withApple: source)
        #expect(reconstruction.meanStops < Self.tolerance, "\(reconstruction)")
        #expect(try GainMapCheck.primaryDifference(hdr, from: sdr) == 0)
    }

    /// A fill crops the gain map as it crops the picture: half the rendition's size.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aFilledRenditionsGainMapIsHalfItsSize() throws {
        let source = SharedPhotos.root.appendingPathComponent("phone/PXL_ultrahdr_01.jpg").path
        var fill = Self.gainMap
        fill.contentMode = .aspectFill
        fill.size = PixelSize(width: 200, height: 120)
        let thumbnail = try VipsRenderer().render(source, specs: [fill])[0]
        let range = try #require(UltraHDRJPEG.gainMapRange(in: thumbnail.bytes, length: thumbnail.bytes.count))
        #expect(try DecodedPixels(Array(thumbnail.bytes[range])).size == PixelSize(width: 100, height: 60))
    }

    /// The headroom is the light's peak over SDR white, not the greatest gain, which a colour
    /// the SDR picture shows dark can push far past it.
    @Test func theHeadroomIsTheLightsPeakNotTheGreatestGain() throws {
        let light = try #require(GainPlane(size: PixelSize(width: 3, height: 1), channels: 1, values: [4, 1, 0.5]))
        let (plane, metadata) = try UltraHDRRendition.computed(light: light, sdr: [1, 0.01, 0.5])
        #expect(abs(metadata.capacityMaximum - 2) < 1e-6)
        #expect(metadata.maximum[0] > 5 && metadata.minimum == [0])
        #expect(plane.values.allSatisfy { (0...1).contains($0) })
        // Nothing brighter than SDR white: a small headroom still, and a range to encode in.
        let dim = try UltraHDRRendition.computed(
            light: try #require(GainPlane(size: PixelSize(width: 1, height: 1), channels: 1, values: [0.5])), sdr: [0.5]
        ).1
        #expect(dim.capacityMaximum > 0 && dim.maximum[0] > dim.minimum[0])
    }

    /// A gain map whose decode would pass the decode budget, where the SDR rendition's did not,
    /// is left out: the rendition is still the picture.
    @Test(.enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func aGainMapOverTheDecodeBudgetIsLeftOut() throws {
        let png = folder.path + "/large.png", path = folder.path + "/large.avif"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=2048x1536", "-frames:v", "1", "-pix_fmt", "rgb48be", png,
        ])
        try GeneratedMedia.avifenc(["-d", "10", "-y", "444", "-s", "8", "--cicp", "9/16/9", png, path])
        let small = RenditionSpec(size: PixelSize(width: 64, height: 64), hdr: .gainMap)
        // The SDR rendition reserves 6 bytes a pixel of the picture, its light 12.
        let tight = VipsRenderer(decodeMemoryBudget: ByteCount(9 * 2048 * 1536))
        let left = try tight.render(path, specs: [small])[0]
        #expect(UltraHDRJPEG.gainMapRange(in: left.bytes, length: left.bytes.count) == nil)
        var sdr = small
        sdr.hdr = .sdr
        #expect(left == (try tight.render(path, specs: [sdr])[0]))
        let whole = try VipsRenderer().render(path, specs: [small])[0]
        #expect(UltraHDRJPEG.gainMapRange(in: whole.bytes, length: whole.bytes.count) != nil)
    }

    /// An SDR photo's rendition is what it is without a gain map.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func anSDRPhotosRenditionCarriesNoGainMap() throws {
        for name in ["exports/8bit-sRGB.avif", "orientation/Landscape_6.jpg", "phone/HMD_Nokia_8.3_5G.heif"] {
            let path = SharedPhotos.root.appendingPathComponent(name).path
            let thumbnails = try VipsRenderer().render(path, specs: [Self.sdr, Self.gainMap])
            #expect(thumbnails[0] == thumbnails[1], "\(name)")
        }
    }
}
