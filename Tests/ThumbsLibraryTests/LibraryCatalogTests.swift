import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsStore

/// The catalog answers the albums and moments ``AlbumBuilder`` and ``Moments`` build from the same
/// assets, and follows them as they change and go.
@Suite struct LibraryCatalogTests {
    let folder = TemporaryFolder()
    static let utc = TimeZone(identifier: "UTC")!
    static let now = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01

    private func catalog() throws -> LibraryCatalog {
        LibraryCatalog(
            store: try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache")),
            timeZone: Self.utc)
    }

    /// A photo (or video) taken `day` of May 2024 at `hour`, modified `modified` days before
    /// ``now``.
    static func asset(
        _ path: String, day: Int, hour: Int = 12, video: Bool = false, modified: Int = 100, size: UInt64 = 1_000,
        readable: Bool = true, subtypes: MediaSubtypes = [], burst: BurstMembership? = nil, root: String = "/library"
    ) -> Asset {
        let fingerprint = FileFingerprint(
            size: size,
            modificationTimeNanoseconds: Int64((now.timeIntervalSince1970 - Double(modified) * 86_400) * 1e9))
        var properties = ImageProperties(
            mediaType: video ? .mp4 : .jpeg, pixelSize: PixelSize(width: 40, height: 30),
            captureDate: CaptureDate(exif: String(format: "2024:05:%02d %02d:00:00", day, hour), offset: "+00:00"),
            fingerprint: fingerprint)
        properties.mediaSubtypes = subtypes
        properties.burst = burst
        return Asset(
            root: root, relativePath: path, mediaType: video ? .mp4 : .jpeg, fingerprint: fingerprint,
            properties: readable ? properties : nil)
    }

    /// Photos over three folders and two roots: a video, a panorama, a burst of three (grouped
    /// as the walk groups it), a Live Photo, one unreadable, two recently added.
    static func library() -> [Asset] {
        var live = asset("b/live.heic", day: 3)
        live.pairedMovie = PairedMovie(
            relativeFilePath: FilePath("b/live.mov"), mediaType: .quickTime,
            fingerprint: FileFingerprint(size: 5_000, modificationTimeNanoseconds: 7), duration: 2.5)
        var bursts = BurstGrouping()
        _ = bursts.admit(
            (1...3).map {
                asset("c/burst\($0).jpg", day: 4, hour: $0, burst: BurstMembership(identifier: "B", isCover: $0 == 2))
            })
        return [
            asset("a/1.jpg", day: 1), asset("a/2.jpg", day: 1, hour: 9), asset("a/3.mp4", day: 2, video: true),
            asset("a/pano.jpg", day: 2, subtypes: .photoPanorama), asset("a/new.jpg", day: 5, modified: 3),
            asset("a/broken.jpg", day: 6, modified: 1, readable: false), live,
            asset("top.jpg", day: 1, hour: 1), asset("x.jpg", day: 7, root: "/other"),
        ] + bursts.releaseAll()
    }

    private static func built(_ assets: [Asset], roots: [String]) -> [AssetCollection] {
        var builder = AlbumBuilder(now: now)
        var batch = LibraryBatch()
        batch.assets = assets.filter { roots.contains($0.root) }
        builder.add(batch)
        return builder.smartAlbums + builder.folderAlbums
    }

    /// What a listing shows of an album: all but the walk's estimate.
    private static func shown(_ albums: [AssetCollection]) -> [String] {
        albums.map {
            "\($0.title) \($0.photoCount)/\($0.videoCount) \($0.totalBytes) \($0.keyAssets.map(\.relativePath))"
        }
    }

    @Test func albumsAndMomentsAreWhatTheWalkBuilds() async throws {
        let catalog = try catalog()
        let assets = Self.library()
        try await catalog.keep(assets)
        for roots in [["/library"], ["/library", "/other"]] {
            #expect(
                Self.shown(try catalog.albums(roots: roots, now: Self.now))
                    == Self.shown(Self.built(assets, roots: roots)))
            let moments = Moments(sorting: assets.filter { roots.contains($0.root) }, timeZone: Self.utc)
            #expect(
                try catalog.moments(roots: roots).map { "\($0.day) \($0.photos) \($0.videos)" }
                    == moments.sections.map {
                        "\($0.day) \($0.items.filter { !$0.isVideo }.count) \($0.items.filter(\.isVideo).count)"
                    })
        }
        let folderA = try #require(try catalog.albums(roots: ["/library"], now: Self.now).first { $0.title == "a" })
        #expect(folderA.estimatedCount == 6)
    }

    @Test func aChangedAssetMovesAndAForgottenOneLeavesNothing() async throws {
        let catalog = try catalog()
        var assets = Self.library()
        try await catalog.keep(assets)
        try await catalog.keep(assets)  // the same again: nothing moves
        let index = try #require(assets.firstIndex { $0.relativePath == "a/2.jpg" })
        assets[index] = Self.asset("a/2.jpg", day: 9, video: false, size: 4_000)
        try await catalog.keep([assets[index]])
        #expect(
            Self.shown(try catalog.albums(roots: ["/library"], now: Self.now))
                == Self.shown(Self.built(assets, roots: ["/library"])))
        let days = try catalog.moments(roots: ["/library"])
        #expect(days.contains { $0.day == Day(year: 2024, month: 5, day: 9) && $0.photos == 1 }, "\(days)")

        try await catalog.forget(assets.map(\.id))
        #expect(Self.shown(try catalog.albums(roots: ["/library"], now: Self.now)) == ["All Photos 0/0 0 []"])
        #expect(try catalog.moments(roots: ["/library", "/other"]).isEmpty)
        let left = try catalog.store.readCatalog { transaction throws(StoreError) in
            var entries = 0
            for table in [CatalogTransaction.Table.assets, .order, .groups] {
                try transaction.forEach(table, from: [0]) { _, _ in
                    entries += 1
                    return true
                }
            }
            return entries
        }
        #expect(left == 1, "no entry and no group is left behind: the layout's record alone")
    }

    @Test func assetsKeptAgainInAnotherTimeZoneMoveToItsDays() async throws {
        let utc = try catalog()
        let assets = Self.library()
        try await utc.keep(assets)
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let losAngeles = LibraryCatalog(store: utc.store, timeZone: zone)
        try await losAngeles.keep(assets)
        let moments = Moments(sorting: assets.filter { $0.root == "/library" }, timeZone: zone)
        #expect(
            try losAngeles.moments(roots: ["/library"]).map(\.day) == moments.sections.map(\.day))
        #expect(
            moments.sections.map(\.day)
                != Moments(sorting: assets.filter { $0.root == "/library" }, timeZone: Self.utc).sections.map(\.day))
        try await losAngeles.forget(assets.map(\.id))
        #expect(try losAngeles.moments(roots: ["/library", "/other"]).isEmpty)
    }

    @Test func aCatalogOfAnotherLayoutIsEmptiedAndNotRead() async throws {
        let catalog = try catalog()
        try await catalog.keep(Self.library())
        try await catalog.markWalked(roots: ["/library"], at: Self.now)
        let before = try catalog.store.removalGeneration()
        try await catalog.store.writeCatalog { transaction throws(StoreError) in
            try transaction.put(.groups, [0], [LibraryCatalog.layout &+ 1])
        }
        #expect(try catalog.walkedWhole(roots: ["/library"]) == nil)
        try await catalog.keep([Self.library()[0]])
        #expect(try catalog.store.removalGeneration() == before + 1, "what counted on it is stale")
        #expect(try catalog.walkedWhole(roots: ["/library"]) == nil, "emptied, until a walk is kept whole")
        #expect(try catalog.albums(roots: ["/library"], now: Self.now).first?.photoCount == 1)
    }

    @Test func aCatalogIsReadOnlyForRootsWalkedWholeInItsTimeZone() async throws {
        let catalog = try catalog()
        #expect(try catalog.walkedWhole(roots: ["/library"]) == nil)
        try await catalog.markWalked(roots: ["/library"], at: Self.now)
        #expect(try catalog.walkedWhole(roots: ["/library"]) == Self.now)
        #expect(try catalog.walkedWhole(roots: ["/library", "/other"]) == nil)
        let tokyo = LibraryCatalog(store: catalog.store, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(try tokyo.walkedWhole(roots: ["/library"]) == nil)
    }

    @Test func anAssetReadsBackFromItsRecord() throws {
        for asset in Self.library() {
            // The placeholder is the metadata cache's, not the record's: a walk that finds one a
            // warm made since the asset was kept leaves the record as it is.
            var withPlaceholder = asset
            withPlaceholder.placeholder = ThumbHash(rgba: [UInt8](repeating: 128, count: 64), width: 4, height: 4)
            #expect(withPlaceholder.catalogRecord(timeZone: Self.utc) == asset.catalogRecord(timeZone: Self.utc))
            let record = asset.catalogRecord(timeZone: Self.utc)
            let read = try #require(try record.withUnsafeBytes { try Asset(catalogRecord: $0) })
            #expect(read == asset)
            #expect(read.pairedMovie == asset.pairedMovie && read.representsBurst == asset.representsBurst)
            #expect(read.burstFrameCount == asset.burstFrameCount && read.placeholder == asset.placeholder)
            for cut in [1, 12, record.count - 1] {
                #expect(throws: StoreError.self) {
                    try record.prefix(cut).withUnsafeBytes { try Asset(catalogRecord: $0) }
                }
            }
        }
        var otherVersion = Self.library()[0].catalogRecord(timeZone: Self.utc)
        otherVersion[0] = 99
        #expect(try otherVersion.withUnsafeBytes { try Asset(catalogRecord: $0) } == nil)
    }
}
