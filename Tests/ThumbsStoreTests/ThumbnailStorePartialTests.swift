import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// The metadata cache's partial flag: set by storing a partial thumbnail of the version its
/// record is of, kept across probes of that version and reopening, gone with a new version.
@Suite struct ThumbnailStorePartialTests {
    let folder = TemporaryFolder()
    let clock = TestClock()
    typealias F = StoreFixtures
    let version1 = FileFingerprint(size: 1000, modificationTimeNanoseconds: 1)
    let version2 = FileFingerprint(size: 1000, modificationTimeNanoseconds: 2)

    private func store() throws -> ThumbnailStore {
        try ThumbnailStore(configuration: .testing(folder, clock: clock))
    }

    private func metadata(_ fingerprint: FileFingerprint) -> AssetMetadata {
        AssetMetadata(
            ImageProperties(
                mediaType: .jpeg, pixelSize: PixelSize(width: 400, height: 300), pageCount: 1,
                fingerprint: fingerprint))
    }

    private func partial(_ seed: Int) -> Thumbnail {
        var thumbnail = F.thumbnail(seed)
        thumbnail.isPartial = true
        return thumbnail
    }

    @Test func aPartialThumbnailFlagsItsVersionAndTheFlagPersists() async throws {
        do {
            let store = try store()
            try await store.putMetadata([
                .init(assetID: "a", metadata: metadata(version1)), .init(assetID: "b", metadata: metadata(version1)),
            ])
            try await store.putThumbnails([
                .init(key: F.key("a", version: 1), thumbnail: partial(1)),
                .init(key: F.key("b", version: 1), thumbnail: F.thumbnail(2)),
            ])
            #expect(try store.metadata(for: "a")?.isPartial == true)
            #expect(try store.metadata(for: "b")?.isPartial == false, "a whole thumbnail flags nothing")
            var expected = metadata(version1)
            expected.isPartial = true
            #expect(try store.metadata(for: "a") == expected, "the rest of the record is as it was")
        }
        let reopened = try store()
        #expect(try reopened.metadata(for: "a")?.isPartial == true, "read back from the cache")
        #expect(try reopened.metadata(for: "b")?.isPartial == false)
    }

    @Test func theFlagIsKeptForItsVersionAndGoesWithANewOne() async throws {
        let store = try store()
        try await store.putMetadata([.init(assetID: "a", metadata: metadata(version1))])
        try await store.putThumbnails([.init(key: F.key("a", version: 1), thumbnail: partial(1))])

        // Probed again, the same version keeps its flag.
        try await store.putMetadata([.init(assetID: "a", metadata: metadata(version1))])
        #expect(try store.metadata(for: "a")?.isPartial == true)

        // The file changed: its new record, and the whole thumbnail of it, are not partial.
        try await store.putMetadata([.init(assetID: "a", metadata: metadata(version2))])
        #expect(try store.metadata(for: "a")?.isPartial == false)
        try await store.putThumbnails([.init(key: F.key("a", version: 2), thumbnail: F.thumbnail(3))])
        #expect(try store.metadata(for: "a")?.isPartial == false)
    }

    @Test func aPartialThumbnailOfAnotherVersionOrAnUnknownAssetFlagsNothing() async throws {
        let store = try store()
        try await store.putMetadata([.init(assetID: "a", metadata: metadata(version2))])
        try await store.putThumbnails([
            .init(key: F.key("a", version: 1), thumbnail: partial(1)),
            .init(key: F.key("unknown", version: 1), thumbnail: partial(2)),
        ])
        #expect(try store.metadata(for: "a")?.isPartial == false)
        #expect(try store.metadata(for: "unknown") == nil)
    }
}
