import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// Files recognised by their content under a new path: ``ThumbnailStore/adopt(_:)``, and the
/// contents entries that metadata writes and removals keep beside their records.
@Suite struct ThumbnailStoreAdoptingTests {
    let folder = TemporaryFolder()
    typealias F = StoreFixtures

    private func store() throws -> ThumbnailStore {
        try ThumbnailStore(configuration: .testing(folder))
    }

    private static let version = FileFingerprint(size: 1000, modificationTimeNanoseconds: 1)
    private static let identity = ContentIdentity(fingerprint: version, signature: 0xABCD)

    private static func metadata(signature: UInt64? = identity.signature) -> AssetMetadata {
        var metadata = AssetMetadata(
            fingerprint: version, mediaType: .jpeg,
            properties: ImageProperties(
                mediaType: .jpeg, pixelSize: PixelSize(width: 640, height: 480), fingerprint: version))
        metadata.contentSignature = signature
        return metadata
    }

    /// Metadata, both renditions and a remembered failure of "old", at the version it had.
    private func storeOld(in store: ThumbnailStore) async throws {
        try await store.putMetadata([.init(assetID: "old", metadata: Self.metadata())])
        try await store.putThumbnails([
            .init(key: F.key("old"), thumbnail: F.thumbnail(1)),
            .init(key: F.key("old", rendition: F.preview), thumbnail: F.thumbnail(2)),
        ])
    }

    @Test func aFileUnderANewPathGetsTheOldPathsMetadataAndThumbnails() async throws {
        let store = try store()
        try await storeOld(in: store)
        let adoptions = try await store.adopt([.init(identity: Self.identity, assetID: "new")])
        let adoption = try #require(adoptions.first ?? nil)
        #expect(adoption.from == "old" && adoption.thumbnails == 2)
        #expect(try store.metadata(for: "new") == Self.metadata())
        #expect(try store.thumbnail(for: F.key("new"))?.thumbnail == F.thumbnail(1))
        #expect(try store.thumbnail(for: F.key("new", rendition: F.preview))?.thumbnail == F.thumbnail(2))
        #expect(try store.thumbnail(for: F.key("old"))?.thumbnail == F.thumbnail(1), "the old path's stay")
        #expect(try store.verify().isConsistent)
        #expect(try store.statistics().thumbnails == 4)
    }

    @Test func aRememberedFailureComesWithTheFile() async throws {
        let store = try store()
        try await store.putMetadata([.init(assetID: "old", metadata: Self.metadata())])
        let failure = FailureRecord(.corrupt("bad"), failedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try await store.recordFailures([.init(assetID: "old", fingerprint: Self.version, failure: failure)])
        _ = try await store.adopt([.init(identity: Self.identity, assetID: "new")])
        #expect(try store.failure(for: "new", fingerprint: Self.version)?.kind == failure.kind)
    }

    @Test func anotherSignatureSizeOrTimeIsNotTheSameFile() async throws {
        let store = try store()
        try await storeOld(in: store)
        let others = [
            ContentIdentity(fingerprint: Self.version, signature: 0xABCE),
            ContentIdentity(
                fingerprint: FileFingerprint(size: 1001, modificationTimeNanoseconds: 1), signature: 0xABCD),
            ContentIdentity(
                fingerprint: FileFingerprint(size: 1000, modificationTimeNanoseconds: 2), signature: 0xABCD),
        ]
        let adoptions = try await store.adopt(others.map { .init(identity: $0, assetID: "new") })
        #expect(adoptions == [nil, nil, nil])
        #expect(try store.metadata(for: "new") == nil)
        #expect(try store.statistics().thumbnails == 2)
    }

    @Test func aRecordWithoutASignatureIsNeverRecognised() async throws {
        let store = try store()
        try await store.putMetadata([.init(assetID: "old", metadata: Self.metadata(signature: nil))])
        #expect(try await store.adopt([.init(identity: Self.identity, assetID: "new")]) == [nil])
    }

    @Test func aForgottenOrRewrittenRecordTakesItsContentEntryWithIt() async throws {
        let store = try store()
        try await storeOld(in: store)
        try await store.forget(["old"], inFolders: [])
        #expect(try await store.adopt([.init(identity: Self.identity, assetID: "new")]) == [nil])
        #expect(try store.statistics().thumbnails == 0)
        try await store.putMetadata([.init(assetID: "old", metadata: Self.metadata())])
        var rewritten = Self.metadata(signature: 0x1234)
        rewritten.fingerprint = FileFingerprint(size: 999, modificationTimeNanoseconds: 5)
        try await store.putMetadata([.init(assetID: "old", metadata: rewritten)])
        #expect(try await store.adopt([.init(identity: Self.identity, assetID: "new")]) == [nil])
    }

    @Test func aWriteOfTheSameVersionWithoutASignatureKeepsTheStoredOne() async throws {
        let store = try store()
        try await storeOld(in: store)
        try await store.putMetadata([.init(assetID: "old", metadata: Self.metadata(signature: nil))])
        #expect(try store.metadata(for: "old")?.contentSignature == Self.identity.signature)
        #expect(try await store.adopt([.init(identity: Self.identity, assetID: "new")]).first??.from == "old")
    }
}
