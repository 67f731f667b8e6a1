import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// `ThumbnailStore.merge(into:from:)` on real LMDB caches: shard caches written through the
/// store, closed, then merged.
@Suite struct ThumbnailStoreMergeTests {
    let folder = TemporaryFolder()
    let clock = TestClock()
    typealias F = StoreFixtures

    private func configuration(_ name: String, budget: Int64 = 1 << 30) -> StoreConfiguration {
        var configuration = StoreConfiguration(
            path: folder.path + "/" + name, budget: ByteCount(budget), initialMapSize: 16 << 20)
        configuration.clock = { [clock] in clock.date }
        return configuration
    }

    /// Opens the cache `name`, lets `body` write to it, and closes it.
    private func fill(_ name: String, _ body: (ThumbnailStore) async throws -> Void) async throws {
        let store = try ThumbnailStore(configuration: configuration(name))
        try await body(store)
        try await store.flushAccessTimes()
    }

    private func open(_ name: String) throws -> ThumbnailStore {
        try ThumbnailStore(configuration: configuration(name))
    }

    private func entries(_ range: Range<Int>, version: Int64 = 1, seed: Int = 0) -> [ThumbnailStore.ThumbnailEntry] {
        range.map { .init(key: F.key("asset\($0)", version: version), thumbnail: F.thumbnail($0 + seed, count: 500)) }
    }

    private func metadata(_ asset: String, version: Int64) -> ThumbnailStore.MetadataEntry {
        .init(
            assetID: asset,
            metadata: AssetMetadata(
                fingerprint: FileFingerprint(size: 1000, modificationTimeNanoseconds: version), mediaType: .jpeg))
    }

    private func failure(_ asset: String, _ kind: ImagingError.Kind) -> ThumbnailStore.FailureEntry {
        .init(
            assetID: asset, fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1),
            failure: FailureRecord(kind: kind, message: kind.rawValue))
    }

    @Test func theMergeHoldsEveryShardsThumbnailsMetadataAndFailures() async throws {
        try await fill("a") { store in
            try await store.putThumbnails(entries(0..<10))
            try await store.putMetadata((0..<10).map { metadata("asset\($0)", version: 1) })
            try await store.recordFailures([failure("broken-a", .corrupt)])
        }
        try await fill("b") { store in
            try await store.putThumbnails(entries(10..<25))
            try await store.putMetadata((10..<25).map { metadata("asset\($0)", version: 1) })
            try await store.recordFailures([failure("broken-b", .truncated)])
        }
        let report = try ThumbnailStore.merge(
            into: configuration("merged"), from: [folder.path + "/a", folder.path + "/b"])
        #expect(report.inputs == 2 && report.thumbnails == 25 && report.metadata == 25 && report.failures == 2)
        #expect(report.superseded == 0 && report.evicted == 0 && report.unreadable == 0)
        let merged = try open("merged")
        #expect(try merged.verify().problems.isEmpty)
        for entry in entries(0..<25) {
            #expect(try merged.thumbnail(for: entry.key)?.thumbnail == entry.thumbnail)
            #expect(try merged.metadata(for: entry.key.assetID)?.fingerprint == entry.key.fingerprint)
        }
        let fingerprint = FileFingerprint(size: 1, modificationTimeNanoseconds: 1)
        #expect(try merged.failure(for: "broken-a", fingerprint: fingerprint)?.kind == .corrupt)
        #expect(try merged.failure(for: "broken-b", fingerprint: fingerprint)?.kind == .truncated)
        #expect(try merged.statistics().thumbnails == 25)
        #expect(try merged.statistics().liveBytes.bytes == report.liveBytes)
    }

    /// The merged records keep their content identities: a file of a shard moved since is
    /// recognised in the merged cache.
    @Test func theMergedRecordsRecogniseTheirFilesUnderNewPaths() async throws {
        var signed = metadata("asset0", version: 1)
        signed.metadata.contentSignature = 77
        try await fill("a") { store in
            try await store.putThumbnails(entries(0..<1))
            try await store.putMetadata([signed])
        }
        _ = try ThumbnailStore.merge(into: configuration("merged"), from: [folder.path + "/a"])
        let merged = try open("merged")
        let identity = ContentIdentity(fingerprint: signed.metadata.fingerprint, signature: 77)
        let adoptions = try await merged.adopt([.init(identity: identity, assetID: "moved")])
        #expect(adoptions.first??.from == "asset0" && adoptions.first??.thumbnails == 1)
    }

    /// The same key in two caches: the thumbnail made last wins. Two versions of one file: the
    /// version with the newest thumbnails is the only one kept, and the newest metadata wins.
    @Test func theNewerWins() async throws {
        try await fill("a") { store in
            try await store.putThumbnails(entries(0..<4, seed: 100))
            try await store.putMetadata([metadata("asset3", version: 1)])
        }
        clock.advance(seconds: 60)
        try await fill("b") { store in
            try await store.putThumbnails(entries(0..<3, seed: 200))
            try await store.putThumbnails(entries(3..<4, version: 2, seed: 200))
            try await store.putMetadata([metadata("asset3", version: 2)])
        }
        // Listed first, the older cache does not win by its place.
        let report = try ThumbnailStore.merge(
            into: configuration("merged"), from: [folder.path + "/a", folder.path + "/b"])
        #expect(report.thumbnails == 4 && report.superseded == 5)
        let merged = try open("merged")
        for entry in entries(0..<3, seed: 200) {
            #expect(try merged.thumbnail(for: entry.key)?.thumbnail == entry.thumbnail)
        }
        #expect(try merged.thumbnail(for: F.key("asset3", version: 1)) == nil)
        #expect(try merged.thumbnail(for: F.key("asset3", version: 2)) != nil)
        #expect(try merged.metadata(for: "asset3")?.fingerprint.modificationTimeNanoseconds == 2)
        #expect(try merged.verify().problems.isEmpty)
    }

    @Test func theDestinationKeepsItsOwnEntries() async throws {
        try await fill("dest") { try await $0.putThumbnails(entries(0..<5)) }
        try await fill("a") { try await $0.putThumbnails(entries(5..<8)) }
        let report = try ThumbnailStore.merge(into: configuration("dest"), from: [folder.path + "/a"])
        #expect(report.inputs == 2 && report.thumbnails == 8)
        let merged = try open("dest")
        for entry in entries(0..<8) { #expect(try merged.thumbnail(for: entry.key)?.thumbnail == entry.thumbnail) }
        #expect(try merged.verify().problems.isEmpty)
    }

    /// Past the destination's budget, the least recently used are left out, down to the
    /// low-water mark, whichever cache they came from.
    @Test func theBudgetLeavesOutTheLeastRecentlyUsed() async throws {
        for (name, range) in [("a", 0..<10), ("b", 10..<20)] {
            try await fill(name) { store in
                for entry in entries(range) {
                    clock.advance(seconds: 120)
                    try await store.putThumbnails([entry])
                }
            }
        }
        // The first ones written to "a" are read last: they are the most recently used.
        try await fill("a") { store in
            clock.advance(seconds: 120)
            for entry in entries(0..<3) { _ = try store.thumbnail(for: entry.key) }
        }
        // Every entry costs the same: the budget holds ten, the low-water mark nine.
        let budget = try open("b").statistics().liveBytes.bytes
        let report = try ThumbnailStore.merge(
            into: configuration("merged", budget: budget), from: [folder.path + "/a", folder.path + "/b"])
        let merged = try open("merged")
        #expect(try merged.verify().problems.isEmpty)
        let kept = try entries(0..<20).filter { try merged.containsThumbnail(for: $0.key) }.map(\.key.assetID)
        #expect(report.evicted + report.thumbnails == 20 && report.liveBytes <= Int64(Double(budget) * 0.9))
        #expect(Set(kept).isSuperset(of: ["asset0", "asset1", "asset2", "asset19", "asset18"]), "\(kept)")
        #expect(!kept.contains("asset3") && !kept.contains("asset10"), "\(kept)")
    }

    /// A damaged source fails the merge before anything is written: the destination is as it was.
    @Test func aDamagedSourceLeavesTheDestinationAsItWas() async throws {
        try await fill("dest") { try await $0.putThumbnails(entries(0..<5)) }
        try await fill("a") { try await $0.putThumbnails(entries(5..<400)) }
        let dataFile = folder.path + "/a/data.mdb"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dataFile)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: dataFile))
        try handle.seek(toOffset: 8192)
        try handle.write(contentsOf: Data(repeating: 0xEE, count: size - 8192))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/dest/data.mdb"))
        let error = try #require(throws: StoreError.self) {
            try ThumbnailStore.merge(into: configuration("dest"), from: [folder.path + "/a"])
        }
        #expect(error.isDamaged, "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/dest/data.mdb")) == before)
        #expect(try open("dest").statistics().thumbnails == 5)
    }

    @Test func whatIsNotACacheIsNamedTwiceOrIsInUseIsRefused() async throws {
        try await fill("a") { try await $0.putThumbnails(entries(0..<2)) }
        #expect(throws: StoreError.self) {
            try ThumbnailStore.merge(into: configuration("dest"), from: [folder.path + "/nothing"])
        }
        #expect(throws: StoreError.self) {
            try ThumbnailStore.merge(into: configuration("a"), from: [folder.path + "/a"])
        }
        #expect(throws: StoreError.self, "named twice") {
            try ThumbnailStore.merge(into: configuration("dest"), from: [folder.path + "/a", folder.path + "/a/"])
        }
        let open = try open("dest")
        #expect(throws: StoreError.self) {
            try ThumbnailStore.merge(into: configuration("dest"), from: [folder.path + "/a"])
        }
        _ = open
    }
}
