import Foundation
import SystemPackage
import Testing
import ThumbsCore
@testable import ThumbsLibrary

@Suite struct BurstGroupingTests {
    /// A frame of burst `burst` taken `second` seconds into 2024-05-01 (UTC).
    static func frame(_ path: String, burst: String?, second: Int, cover: Bool = false) -> Asset {
        let fingerprint = FileFingerprint(size: 1_000, modificationTimeNanoseconds: 1)
        var properties = ImageProperties(
            mediaType: .jpeg, pixelSize: PixelSize(width: 40, height: 30),
            captureDate: CaptureDate(exif: String(format: "2024:05:01 10:00:%02d", second), offset: "+00:00"),
            fingerprint: fingerprint)
        properties.burst = burst.map { BurstMembership(identifier: $0, isCover: cover) }
        return Asset(
            root: "/library", relativePath: path, mediaType: .jpeg, fingerprint: fingerprint, properties: properties)
    }

    @Test func theFirstFrameStandsForABurstWithoutACover() {
        var bursts = BurstGrouping()
        let frames = (0..<12).reversed().map { Self.frame("DCIM/IMG_\(100 + $0).JPG", burst: "A", second: $0) }
        #expect(bursts.admit(frames + [Self.frame("DCIM/other.jpg", burst: nil, second: 30)]).count == 1)
        #expect(bursts.release(root: "/library", folder: FilePath("elsewhere")).isEmpty)
        let listed = bursts.release(root: "/library", folder: FilePath("DCIM"))
        #expect(listed.count == 12)
        let representatives = listed.filter(\.representsBurst)
        #expect(representatives.map(\.relativePath) == ["DCIM/IMG_100.JPG"] && representatives[0].burstFrameCount == 12)
        #expect(listed.filter(\.isHiddenBurstFrame).count == 11)
        #expect(bursts.releaseAll().isEmpty)
    }

    @Test func theCoverStandsForItsBurstAndBurstsStayApart() {
        var bursts = BurstGrouping()
        _ = bursts.admit([
            Self.frame("a/1.jpg", burst: "A", second: 1), Self.frame("a/2.jpg", burst: "A", second: 2, cover: true),
            Self.frame("a/3.jpg", burst: "B", second: 3), Self.frame("b/4.jpg", burst: "A", second: 4),
        ])
        let listed = bursts.releaseAll()
        #expect(listed.filter(\.representsBurst).map(\.relativePath).sorted() == ["a/2.jpg", "a/3.jpg", "b/4.jpg"])
        #expect(listed.first { $0.relativePath == "a/2.jpg" }?.burstFrameCount == 2)
    }

    /// PhotoKit's rule: a burst is one asset in a fetch, an album's counts and the moments,
    /// unless the fetch asks for every frame; its bytes are every frame's.
    @Test func aBurstCountsOnceInAlbumsAndMoments() {
        var bursts = BurstGrouping()
        _ = bursts.admit((0..<12).map { Self.frame("DCIM/IMG_\($0).JPG", burst: "A", second: $0) })
        var batch = LibraryBatch()
        batch.assets = bursts.releaseAll() + [Self.frame("DCIM/single.jpg", burst: nil, second: 40)]
        var builder = AlbumBuilder(now: Date())
        builder.add(batch)
        let albums = Dictionary(uniqueKeysWithValues: builder.smartAlbums.map { ($0.title, $0) })
        #expect(albums["All Photos"]?.photoCount == 2 && albums["All Photos"]?.totalBytes == 13_000)
        #expect(albums["Bursts"]?.photoCount == 1)
        #expect(builder.folderAlbums.first?.photoCount == 2)
        #expect(albums["Videos"] == nil && albums["Screenshots"] == nil, "empty smart albums are not listed")
        #expect(Moments(sorting: batch.assets, timeZone: .gmt).assetCount == 2)
        var merged = Moments(timeZone: .gmt)
        merged.merge(batch.assets)
        #expect(merged.assetCount == 2 && merged == Moments(sorting: batch.assets, timeZone: .gmt))
        #expect(batch.assets.filter(FetchOptions().includes).count == 2)
        #expect(batch.assets.filter(FetchOptions(includeAllBurstAssets: true).includes).count == 13)
    }
}
