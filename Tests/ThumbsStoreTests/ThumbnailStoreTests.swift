import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

@Suite struct ThumbnailStoreTests {
    let folder = TemporaryFolder()
    let clock = TestClock()
    typealias F = StoreFixtures

    private func store(budget: Int64 = 1 << 30) throws -> ThumbnailStore {
        try ThumbnailStore(configuration: .testing(folder, budget: budget, clock: clock))
    }

    @Test func storesAndReturnsThumbnails() async throws {
        let store = try store()
        try await store.putThumbnails([
            .init(key: F.key("a"), thumbnail: F.thumbnail(1)),
            .init(key: F.key("a", rendition: F.preview), thumbnail: F.thumbnail(2)),
        ])
        let stored = try #require(try store.thumbnail(for: F.key("a")))
        #expect(stored.thumbnail == F.thumbnail(1))
        #expect(stored.createdAt == Date(timeIntervalSince1970: clock.date.timeIntervalSince1970.rounded(.down)))
        #expect(try store.thumbnail(for: F.key("a", rendition: F.preview))?.thumbnail == F.thumbnail(2))
        #expect(try store.thumbnail(for: F.key("b")) == nil)
        let statistics = try store.statistics()
        #expect(statistics.thumbnails == 2 && statistics.hits == 2 && statistics.misses == 1)
        #expect(try store.verify().isConsistent)
    }

    @Test func lendsRecordsWithoutCopying() async throws {
        let store = try store()
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(1, count: 100))])
        let count = try store.withThumbnailRecord(for: F.key("a")) { $0.count }
        #expect(count == StoredThumbnail.headerSize + 100)
        let lent = try store.withThumbnailBytes(for: F.key("a")) { bytes, size, format in
            (Array(bytes), size, format)
        }
        #expect(lent?.0 == F.thumbnail(1, count: 100).bytes)
        #expect(lent?.1 == PixelSize(width: 256, height: 256) && lent?.2 == .jpeg)
    }

    @Test func changedFileNeverGetsItsOldThumbnail() async throws {
        let store = try store()
        try await store.putThumbnails([
            .init(key: F.key("a", version: 1), thumbnail: F.thumbnail(1)),
            .init(key: F.key("a", version: 1, rendition: F.preview), thumbnail: F.thumbnail(2)),
        ])
        #expect(try store.thumbnail(for: F.key("a", version: 2)) == nil)
        let report = try await store.putThumbnails([.init(key: F.key("a", version: 2), thumbnail: F.thumbnail(3))])
        #expect(report.staleRemoved == 2, "both renditions of the old version go")
        #expect(try store.thumbnail(for: F.key("a", version: 1)) == nil)
        #expect(try store.thumbnail(for: F.key("a", version: 2))?.thumbnail == F.thumbnail(3))
        #expect(try store.verify().isConsistent)
    }

    @Test func replacingAnEntryKeepsTheTotalsRight() async throws {
        let store = try store()
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(1, count: 5_000))])
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(2, count: 7_000))])
        let verification = try store.verify()
        #expect(verification.isConsistent, "\(verification.problems)")
        #expect(verification.thumbnails == 1)
    }

    @Test func evictsLeastRecentlyUsedDownToTheLowWaterMark() async throws {
        // Room for ten 20 KB thumbnails.
        let store = try store(budget: 10 * 20_100)
        for index in 0..<10 {
            try await store.putThumbnails([.init(key: F.key("asset\(index)"), thumbnail: F.thumbnail(index))])
            clock.advance(seconds: 61)
        }
        // Reading the oldest makes it the most recently used.
        #expect(try store.thumbnail(for: F.key("asset0")) != nil)
        try await store.flushAccessTimes()
        clock.advance(seconds: 61)
        let report = try await store.putThumbnails([.init(key: F.key("asset10"), thumbnail: F.thumbnail(10))])
        #expect(report.evicted == 2, "down to 90 % of ten entries leaves nine")
        #expect(try store.containsThumbnail(for: F.key("asset0")), "recently read, kept")
        #expect(try !store.containsThumbnail(for: F.key("asset1")))
        #expect(try !store.containsThumbnail(for: F.key("asset2")))
        #expect(try store.containsThumbnail(for: F.key("asset3")))
        let statistics = try store.statistics()
        #expect(statistics.liveBytes.bytes <= Int64(Double(10 * 20_100) * 0.9))
        #expect(try store.verify().isConsistent)

        #expect(try await store.evict(downTo: ByteCount(0)) == 9)
        #expect(try store.statistics().thumbnails == 0)
        #expect(try store.verify().isConsistent)
    }

    @Test func readInsideALentReadDoesNotDeadlock() async throws {
        let store = try store()
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(1))])
        let nested = try store.withThumbnailBytes(for: F.key("a")) { _, _, _ in
            (try? store.containsThumbnail(for: F.key("a"))) ?? false
        }
        #expect(nested == true)
    }

    @Test func aBatchKeepsOneVersionPerAsset() async throws {
        let store = try store()
        try await store.putThumbnails([
            .init(key: F.key("a", version: 1), thumbnail: F.thumbnail(1)),
            .init(key: F.key("a", version: 2), thumbnail: F.thumbnail(2)),
        ])
        #expect(try !store.containsThumbnail(for: F.key("a", version: 1)))
        #expect(try store.thumbnail(for: F.key("a", version: 2))?.thumbnail == F.thumbnail(2))
        #expect(try store.verify().isConsistent)
    }

    @Test func pendingAccessesCountBeforeEviction() async throws {
        let store = try store(budget: 3 * 20_100)
        for index in 0..<3 {
            try await store.putThumbnails([.init(key: F.key("asset\(index)"), thumbnail: F.thumbnail(index))])
            clock.advance(seconds: 61)
        }
        // Read but not flushed: the eviction must still see asset0 as the newest.
        _ = try store.thumbnail(for: F.key("asset0"))
        clock.advance(seconds: 61)
        try await store.putThumbnails([.init(key: F.key("asset3"), thumbnail: F.thumbnail(3))])
        #expect(try store.containsThumbnail(for: F.key("asset0")))
        #expect(try !store.containsThumbnail(for: F.key("asset1")))
    }

    @Test func readsWithinOneIntervalNoteOneAccess() async throws {
        let store = try store()
        try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(1))])
        for _ in 0..<5 { _ = try store.thumbnail(for: F.key("a")) }
        #expect(store.pendingAccess.withLock { $0.count } == 0, "read in the interval it was written: nothing to note")
        clock.advance(seconds: 120)
        for _ in 0..<5 { _ = try store.thumbnail(for: F.key("a")) }
        #expect(store.pendingAccess.withLock { $0.count } == 1)
        try await store.flushAccessTimes()
        #expect(store.pendingAccess.withLock { $0.count } == 0)
        _ = try store.thumbnail(for: F.key("a"))
        #expect(store.pendingAccess.withLock { $0.count } == 0, "the access time was written")
    }

    @Test func mapGrowsWhenFull() async throws {
        let store = try ThumbnailStore(configuration: .testing(folder, clock: clock, initialMapSize: 1 << 20))
        for batch in 0..<10 {
            try await store.putThumbnails(
                (0..<25).map { .init(key: F.key("asset\(batch)-\($0)"), thumbnail: F.thumbnail(batch * 100 + $0)) })
        }
        let statistics = try store.statistics()
        #expect(statistics.thumbnails == 250)
        #expect(statistics.mapSize.bytes > 1 << 20)
        #expect(try store.thumbnail(for: F.key("asset9-24"))?.thumbnail == F.thumbnail(924))
        #expect(try store.verify().isConsistent)
    }

    @Test func rememberedFailuresLastUntilTheFileChanges() async throws {
        let store = try store()
        let version1 = FileFingerprint(size: 10, modificationTimeNanoseconds: 1)
        let version2 = FileFingerprint(size: 10, modificationTimeNanoseconds: 2)
        try await store.recordFailures([
            .init(assetID: "a", fingerprint: version1, failure: FailureRecord(.truncated("Premature end")))
        ])
        #expect(try store.failure(for: "a", fingerprint: version1)?.kind == .truncated)
        #expect(try store.failure(for: "a", fingerprint: version2) == nil, "a changed file is tried again")
        try await store.recordFailures([
            .init(assetID: "a", fingerprint: version2, failure: FailureRecord(.corrupt("bad")))
        ])
        #expect(try store.failure(for: "a", fingerprint: version1) == nil, "the older version's memo is gone")
        #expect(try store.failure(for: "a", fingerprint: version2)?.kind == .corrupt)
        try await store.clearFailures(of: "a")
        #expect(try store.failure(for: "a", fingerprint: version2) == nil)
    }

    @Test func metadataCacheRoundTripsAndSumsSizes() async throws {
        let store = try store()
        let photo = ImageProperties(
            mediaType: .heif, pixelSize: PixelSize(width: 3024, height: 4032), exifOrientation: 6,
            captureDate: CaptureDate(exif: "2022:02:16 12:55:41", offset: "+01:00"), cameraMake: "Apple",
            cameraModel: "iPhone 13 Pro Max", embeddedPreviewSize: PixelSize(width: 240, height: 320),
            pageCount: 1, fingerprint: FileFingerprint(size: 2_182_707, modificationTimeNanoseconds: 42))
        let video = AssetMetadata(
            fingerprint: FileFingerprint(size: 9_000_000, modificationTimeNanoseconds: 7),
            mediaType: .mp4)
        try await store.putMetadata([
            .init(assetID: "photo", metadata: AssetMetadata(photo)), .init(assetID: "video", metadata: video),
        ])
        #expect(try store.metadata(for: "photo") == AssetMetadata(photo))
        #expect(try store.metadata(for: "video") == video)
        let total = try store.totalFileSize(of: ["photo", "video", "unknown"])
        #expect(total.bytes == 11_182_707 && total.unknownAssetIDs == ["unknown"])
        try await store.removeMetadata(of: ["video"])
        #expect(try store.metadata(for: "video") == nil)
    }

    /// File sizes come from records: damaged ones adding up past what a size can be are an
    /// error, not an overflow.
    @Test func fileSizesFromDamagedRecordsAddingUpPastAnySizeAreAnError() async throws {
        let store = try store()
        let huge = AssetMetadata(
            fingerprint: FileFingerprint(size: UInt64.max, modificationTimeNanoseconds: 1), mediaType: .jpeg)
        let half = AssetMetadata(
            fingerprint: FileFingerprint(size: UInt64(Int64.max) / 2 + 1, modificationTimeNanoseconds: 1),
            mediaType: .jpeg)
        try await store.putMetadata([
            .init(assetID: "huge", metadata: huge), .init(assetID: "a", metadata: half),
            .init(assetID: "b", metadata: half),
        ])
        #expect(throws: StoreError.self) { try store.totalFileSize(of: ["a", "huge"]) }
        #expect(throws: StoreError.self) { try store.totalFileSize(of: ["a", "b"]) }
        #expect(try store.totalFileSize(of: ["a"]).bytes == UInt64(Int64.max) / 2 + 1)
    }

    @Test func placeholdersAreKeptForTheVersionTheirRecordIsOf() async throws {
        let store = try store()
        let version1 = FileFingerprint(size: 1000, modificationTimeNanoseconds: 1)
        let version2 = FileFingerprint(size: 1000, modificationTimeNanoseconds: 2)
        let photo = ImageProperties(
            mediaType: .jpeg, pixelSize: PixelSize(width: 400, height: 300), cameraMake: "Canon", pageCount: 1,
            fingerprint: version1)
        let hash = try #require(ThumbHash(base64: "IQcGXYJ/OHdXR6d3d3p3d3B3197A"))
        try await store.putMetadata([.init(assetID: "a", metadata: AssetMetadata(photo))])
        #expect(try store.placeholder(for: "a", fingerprint: version1) == nil)

        #expect(try await store.setPlaceholder(hash, for: "a", fingerprint: version1))
        #expect(try store.placeholder(for: "a", fingerprint: version1) == hash)
        var expected = AssetMetadata(photo)
        expected.placeholder = hash
        #expect(try store.metadata(for: "a") == expected, "the rest of the record is as it was")
        #expect(try store.placeholder(for: "a", fingerprint: version2) == nil, "made for another version")

        // Neither another version nor an unknown asset takes one.
        let other = try #require(ThumbHash(base64: "XtgNMhiCgGeHh3h4cHoN54c="))
        #expect(try await !store.setPlaceholder(other, for: "a", fingerprint: version2))
        #expect(try await !store.setPlaceholder(other, for: "unknown", fingerprint: version1))
        #expect(try store.metadata(for: "a") == expected && store.metadata(for: "unknown") == nil)

        // Probed again, the same version keeps its placeholder; a new version has none.
        try await store.putMetadata([.init(assetID: "a", metadata: AssetMetadata(photo))])
        #expect(try store.placeholder(for: "a", fingerprint: version1) == hash)
        var changed = photo
        changed.fingerprint = version2
        try await store.putMetadata([.init(assetID: "a", metadata: AssetMetadata(changed))])
        #expect(try store.placeholder(for: "a", fingerprint: version2) == nil)
        #expect(try store.placeholder(for: "a", fingerprint: version1) == nil)
        #expect(try await store.setPlaceholders([.init(assetID: "a", fingerprint: version2, placeholder: other)]) == 1)
        #expect(try store.placeholder(for: "a", fingerprint: version2) == other)
    }

    @Test func theSmallestRenditionOfAVersionIsFoundWithoutAnAccess() async throws {
        let store = try store()
        func thumbnail(_ width: Int, _ height: Int) -> Thumbnail {
            Thumbnail(bytes: [UInt8(width & 255)], pixelSize: PixelSize(width: width, height: height), format: .jpeg)
        }
        let small = RenditionSpec(size: PixelSize(width: 120, height: 120))
        try await store.putThumbnails([
            .init(key: F.key("a"), thumbnail: thumbnail(256, 256)),
            .init(key: F.key("a", rendition: F.preview), thumbnail: thumbnail(1024, 768)),
            .init(key: F.key("a", rendition: small), thumbnail: thumbnail(120, 90)),
            .init(key: F.key("b", rendition: small), thumbnail: thumbnail(12, 9)),
        ])
        let version = F.key("a").fingerprint
        #expect(try store.smallestThumbnail(of: "a", fingerprint: version)?.thumbnail == thumbnail(120, 90))
        #expect(try store.smallestThumbnail(of: "a", fingerprint: F.key("a", version: 2).fingerprint) == nil)
        #expect(try store.smallestThumbnail(of: "c", fingerprint: version) == nil)
        let statistics = try store.statistics()
        #expect(statistics.hits == 0 && statistics.misses == 0)
    }

    @Test func standInsAreChosenByTheSpecInTheirKey() async throws {
        let store = try store()
        let webp = RenditionSpec(size: PixelSize(width: 512, height: 512), format: .webp)
        try await store.putThumbnails([
            .init(key: F.key("a"), thumbnail: F.thumbnail(1)),
            .init(key: F.key("a", rendition: F.preview), thumbnail: F.thumbnail(2)),
            .init(key: F.key("a", rendition: webp), thumbnail: F.thumbnail(3)),
        ])
        // An older version's key, with the rendition as text: it stands in for nothing.
        let legacy =
            try ThumbnailKey.assetPrefix("a") + ThumbnailKey.fingerprintBytes(F.key("a").fingerprint)
            + Array("1024x1024-fit-q82.jpeg".utf8)
        let record = StoredThumbnail(thumbnail: F.thumbnail(4))
        try await store.onWriter { [thumbnails = store.thumbnails] transaction, _ throws(StoreError) in
            try transaction.put(thumbnails, legacy, count: record.encodedCount) { record.encode(into: $0) }
        }
        // Every fixture thumbnail is 256x256: what decides is the spec each key holds.
        let wanted = F.key("a", rendition: RenditionSpec(size: PixelSize(width: 200, height: 200)))
        let final = try store.closestThumbnail(
            to: wanted, size: wanted.rendition.size, atLeast: true, servingFinal: true)
        #expect(final?.thumbnail == F.thumbnail(2), "only the fit JPEG may stand for a fit JPEG")
        let degraded = try store.closestThumbnail(to: wanted, size: wanted.rendition.size, atLeast: false)
        #expect(degraded != nil && degraded?.thumbnail != F.thumbnail(4), "any rendition but the unreadable key")
    }

    @Test func renditionSpecsRoundTripThroughTheirKeys() {
        for spec in [
            F.grid, F.preview,
            RenditionSpec(
                size: PixelSize(width: 16_384, height: 1), contentMode: .aspectFill,
                format: .png, quality: 100, allowsUpscaling: true),
            RenditionSpec(size: PixelSize(width: 512, height: 512), hdr: .gainMap),
        ] {
            let bytes = spec.storageKey
            #expect(bytes.withUnsafeBytes { RenditionSpec(storageKey: $0) } == spec)
            // An SDR spec keeps the first layout, so that what a cache holds is still found.
            #expect(bytes.count == (spec.hdr == .sdr ? 13 : 14) && bytes[0] == (spec.hdr == .sdr ? 1 : 2))
        }
        var sdrInSecondLayout = RenditionSpec(size: PixelSize(width: 512, height: 512), hdr: .gainMap).storageKey
        sdrInSecondLayout[13] = 0
        #expect(sdrInSecondLayout.withUnsafeBytes { RenditionSpec(storageKey: $0) } == nil)
        #expect(Array("256x256-fill-q82.jpeg".utf8).withUnsafeBytes { RenditionSpec(storageKey: $0) } == nil)
    }

    @Test func removesEveryThumbnailOfAnAsset() async throws {
        let store = try store()
        try await store.putThumbnails([
            .init(key: F.key("a"), thumbnail: F.thumbnail(1)),
            .init(key: F.key("a", rendition: F.preview), thumbnail: F.thumbnail(2)),
            .init(key: F.key("ab"), thumbnail: F.thumbnail(3)),
        ])
        #expect(try await store.removeThumbnails(of: "a") == 2)
        #expect(try store.containsThumbnail(for: F.key("ab")), "a longer id sharing the prefix is untouched")
        #expect(try store.verify().isConsistent)
    }

    @Test func refusesBadAssetIDs() async throws {
        let store = try store()
        #expect(throws: StoreError.self) { try store.thumbnail(for: F.key("")) }
        #expect(throws: StoreError.self) { try store.thumbnail(for: F.key(String(repeating: "x", count: 300))) }
        await #expect(throws: StoreError.self) {
            try await store.putThumbnails([.init(key: F.key("a\u{0}b"), thumbnail: F.thumbnail(1))])
        }
    }

    @Test func onePathIsOneEnvironmentPerProcess() throws {
        let first = try store()
        let second = try store()
        #expect(first.environment === second.environment)
    }

    @Test func compactionGivesSpaceBack() async throws {
        let configuration = StoreConfiguration.testing(folder, clock: clock)
        do {
            let store = try ThumbnailStore(configuration: configuration)
            for batch in 0..<8 {
                try await store.putThumbnails(
                    (0..<25).map { .init(key: F.key("asset\(batch)-\($0)"), thumbnail: F.thumbnail($0)) })
            }
            #expect(throws: StoreError.self) { try ThumbnailStore.compact(path: configuration.path) }
            try await store.evict(downTo: ByteCount(100_000))
        }
        let report = try ThumbnailStore.compact(path: configuration.path)
        #expect(report.bytesAfter < report.bytesBefore / 4, "\(report)")
        let reopened = try ThumbnailStore(configuration: configuration)
        #expect(try reopened.verify().isConsistent)
        #expect(try reopened.statistics().thumbnails == 4)
    }

    /// A process forked while the cache was open holds a copy of its lock descriptor (until it
    /// runs a program, which this one never does); the cache, once closed, is free all the same.
    @Test func aProcessForkedWhileTheCacheWasOpenDoesNotKeepItBusy() async throws {
        let configuration = StoreConfiguration.testing(folder, clock: clock)
        var child = ForkedChild?.none
        do {
            let store = try ThumbnailStore(configuration: configuration)
            try await store.putThumbnails([.init(key: F.key("a"), thumbnail: F.thumbnail(1))])
            child = try ForkedChild()
        }
        defer { child?.end() }
        _ = try ThumbnailStore.compact(path: configuration.path)
    }

    /// On a full device LMDB's short write comes back as EIO; the store says what it is.
    @Test(.enabled(if: getuid() == 0, "mounting a small file system needs root"))
    func aFullDeviceIsReportedAsSuch() async throws {
        let device = TemporaryFolder("thumbs-full")
        let mount = try ThumbsProcess.run(
            ["-t", "tmpfs", "-o", "size=2m", "tmpfs", device.path], executablePath: "/bin/mount")
        try #require(mount.status == 0, "mounting a small tmpfs needs root: \(mount.standardError)")
        defer { _ = try? ThumbsProcess.run([device.path], executablePath: "/bin/umount") }
        let store = try ThumbnailStore(
            configuration: StoreConfiguration(path: device.path + "/cache", initialMapSize: 16 << 20))
        var failure: StoreError?
        for batch in 0..<20 where failure == nil {
            do {
                try await store.putThumbnails(
                    (0..<10).map { .init(key: F.key("asset\(batch)-\($0)"), thumbnail: F.thumbnail($0)) })
            } catch let error as StoreError {
                failure = error
            }
        }
        let error = try #require(failure, "4 MB of thumbnails do not fit in 2 MB")
        #expect(error.isNoSpace && error.message == "no space left on the cache's device", "\(error)")
    }
}
