import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// A rendition with gain maps, served: an HDR photo's thumbnail is an Ultra HDR JPEG, still
/// `image/jpeg`, with its headroom in a header; an SDR photo's is a plain JPEG.
@Suite("ThumbnailServer: HDR thumbnails", .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
struct ThumbnailServerHDRTests {
    @Test func anHDRPhotosThumbnailCarriesItsGainMapAndHeadroom() async throws {
        var fixture = try ServerFixture(photos: 1)
        fixture.renditions.append(
            Rendition(name: "hdr", spec: RenditionSpec(size: PixelSize(width: 256, height: 256), hdr: .gainMap)))
        let source = SharedPhotos.root.appendingPathComponent("exports/seine_sdr_gainmap_srgb.jpg")
        try fixture.photos.write(Array(try Data(contentsOf: source)), to: "seine.jpg")
        try await fixture.run { client, _ in
            let renditions = try await client.get("/api/renditions").json()["renditions"] as? [[String: Any]] ?? []
            #expect(renditions.map { $0["hdr"] as? String } == ["sdr", "sdr", "sdr", "gainmap"])
            let assets = try await client.allAssets()
            let byName = Dictionary(uniqueKeysWithValues: assets.map { ($0["name"] as? String ?? "", $0) })
            let hdr = try #require(byName["seine.jpg"]), sdr = try #require(byName["photo-0.jpg"])
            #expect(hdr["mediaSubtypes"] as? [String] == ["hdr"])

            let answer = try await client.get("/thumbnails/\(try #require(hdr["id"] as? String))/hdr")
            #expect(answer.status == .ok && answer.headers[.contentType] == "image/jpeg")
            let bytes = Array(answer.body.readableBytesView)
            #expect(UltraHDRJPEG.gainMapRange(in: bytes, length: bytes.count) != nil)
            let headroom = try #require(answer.headers[ThumbnailServerHDRTests.headroom].flatMap(Double.init))
            #expect(abs(headroom - 1.3) < 0.01, "the file's own HDRCapacityMax")
            // Asked without a gain map, the same photo's thumbnail has none.
            let plain = try await client.get("/thumbnails/\(try #require(hdr["id"] as? String))/medium")
            #expect(plain.headers[ThumbnailServerHDRTests.headroom] == nil)

            let sdrAnswer = try await client.get("/thumbnails/\(try #require(sdr["id"] as? String))/hdr")
            let sdrBytes = Array(sdrAnswer.body.readableBytesView)
            #expect(sdrAnswer.status == .ok && sdrAnswer.headers[ThumbnailServerHDRTests.headroom] == nil)
            #expect(UltraHDRJPEG.gainMapRange(in: sdrBytes, length: sdrBytes.count) == nil)
        }
    }

    private static let headroom = HTTPField.Name("X-Thumbs-HDR-Headroom")!
}
