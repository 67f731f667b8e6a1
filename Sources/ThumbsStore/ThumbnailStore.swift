import Foundation
import Synchronization
import ThumbsCore
import ThumbsSupport

/// The thumbnail cache: encoded thumbnails under a byte budget with least-recently-used
/// eviction, the metadata (file-size) cache, and the failure memo, in one LMDB environment.
///
/// Reads are synchronous and cheap (microseconds, a memory-mapped lookup); they never write.
/// Their access times are collected in memory and written in batches, at most once per
/// ``StoreConfiguration/accessTimeResolution`` per thumbnail. Writes are `async`: they run one at
/// a time on the store's writer thread, many entries per transaction.
/// Several processes may use one cache at once.
/// ```swift
/// let store = try ThumbnailStore(configuration: StoreConfiguration(path: "/tmp/cache"))
/// try await store.putThumbnails([.init(key: key, thumbnail: thumbnail)])
/// let hit = try store.thumbnail(for: key)
/// ```
public final class ThumbnailStore: Sendable {
    public let configuration: StoreConfiguration
    let environment: LMDBEnvironment
    let writer = BlockingThreadPool(name: "thumbs-store", threadCount: 1)

    let thumbnails: LMDBDatabase
    let access: LMDBDatabase
    let lru: LMDBDatabase
    let metadataTable: LMDBDatabase
    let failures: LMDBDatabase
    let info: LMDBDatabase
    let contents: LMDBDatabase
    let folders: LMDBDatabase
    let warmed: LMDBDatabase
    let catalogTables: CatalogTransaction.Tables

    /// Access times read but not yet written: encoded key → access time (seconds since 1970).
    let pendingAccess = LockedValue<[[UInt8]: UInt32]>([:])
    let unsavedHits = Atomic<Int64>(0)
    let unsavedMisses = Atomic<Int64>(0)
    let accessFlushScheduled = Atomic<Bool>(false)
    /// When pending access times were last written (seconds since 1970).
    let lastAccessFlush: Atomic<Int64>
    /// Pending access times that trigger a background write (so does their age: one resolution).
    static let accessFlushThreshold = 512

    /// Opens (creating if needed) the cache at `configuration.path`.
    public init(configuration: StoreConfiguration) throws(StoreError) {
        self.configuration = configuration
        environment = try LMDBEnvironment.open(
            path: configuration.path,
            options: .init(initialMapSize: configuration.initialMapSize, databaseNames: StoreTables.all))
        thumbnails = environment[StoreTables.thumbnails]
        access = environment[StoreTables.access]
        lru = environment[StoreTables.lru]
        metadataTable = environment[StoreTables.metadata]
        failures = environment[StoreTables.failures]
        info = environment[StoreTables.info]
        contents = environment[StoreTables.contents]
        folders = environment[StoreTables.folders]
        warmed = environment[StoreTables.warmed]
        catalogTables = CatalogTransaction.Tables(
            assets: environment[StoreTables.catalogAssets], order: environment[StoreTables.catalogOrder],
            groups: environment[StoreTables.catalogGroups])
        lastAccessFlush = Atomic(Int64(configuration.clock().timeIntervalSince1970))
    }

    /// Access times are whole seconds in every process (so LRU order holds across processes
    /// with different resolutions); the resolution only decides when a read is worth a write.
    func accessSecond(_ date: Date) -> UInt32 {
        UInt32(clamping: Int64(date.timeIntervalSince1970))
    }

    // MARK: Thumbnails

    /// The thumbnail stored under `key`, copied out of the map; nil when there is none. Counts a
    /// hit or a miss and notes the access for LRU.
    public func thumbnail(for key: ThumbnailKey) throws(StoreError) -> StoredThumbnail? {
        try withThumbnailRecord(for: key) { record throws(StoreError) in try StoredThumbnail(decoding: record) }
    }

    /// Lends the encoded bytes of the thumbnail stored under `key` to `body` without copying
    /// them out of the map (to write them to a socket or a file, say); nil when there is none.
    /// The buffer is valid only during the call. Counts a hit or a miss like
    /// ``thumbnail(for:)``.
    public func withThumbnailBytes<T>(
        for key: ThumbnailKey, _ body: (UnsafeRawBufferPointer, PixelSize, ThumbnailFormat) -> T
    ) throws(StoreError) -> T? {
        try withThumbnailRecord(for: key) { record throws(StoreError) in
            let header = try StoredThumbnail.Header(decoding: record)
            return body(
                UnsafeRawBufferPointer(rebasing: record[StoredThumbnail.headerSize...]),
                header.pixelSize, header.format)
        }
    }

    /// Lends the stored record for `key` (header and encoded bytes, see ``StoredThumbnail``) to
    /// `body` without copying; the buffer is valid only during the call.
    func withThumbnailRecord<T>(
        for key: ThumbnailKey, _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        let encodedKey = try key.encoded()
        let second = accessSecond(configuration.clock())
        let (result, recordedSecond) = try environment.read { transaction throws(StoreError) -> (T?, UInt32?) in
            guard let value = try transaction.withValue(thumbnails, encodedKey, body) else { return (nil, nil) }
            return (
                value,
                try transaction.withValue(access, encodedKey) { bytes throws(StoreError) in
                    var reader = ByteReader(bytes, record: "access time")
                    return try reader.u32()
                }
            )
        }
        guard result != nil else {
            unsavedMisses.add(1, ordering: .relaxed)
            return nil
        }
        unsavedHits.add(1, ordering: .relaxed)
        if recordedSecond.map({ Int64(second) - Int64($0) >= Int64(configuration.accessTimeResolution) }) ?? true {
            noteAccess(encodedKey, second: second)
        }
        return result
    }

    /// Whether a thumbnail is stored under `key`; neither a hit nor an access.
    public func containsThumbnail(for key: ThumbnailKey) throws(StoreError) -> Bool {
        let encodedKey = try key.encoded()
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(thumbnails, encodedKey) { _ in true } ?? false
        }
    }

    private func noteAccess(_ key: [UInt8], second: UInt32) {
        let pending = pendingAccess.withLock { pending in
            pending[key] = second
            return pending.count
        }
        let age = Int64(second) - lastAccessFlush.load(ordering: .relaxed)
        guard pending >= Self.accessFlushThreshold || age >= Int64(configuration.accessTimeResolution),
            accessFlushScheduled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        Task.detached { [self] in
            try? await flushAccessTimes()
            accessFlushScheduled.store(false, ordering: .relaxed)
        }
    }

    // MARK: Metadata and failures

    /// The cached metadata of `assetID`, whatever its fingerprint (compare it with the file's).
    public func metadata(for assetID: String) throws(StoreError) -> AssetMetadata? {
        let key = Array(assetID.utf8)
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(metadataTable, key) { record throws(StoreError) in
                try AssetMetadata(decoding: record)
            }
        }
    }

    /// The total file size of `assetIDs` from the metadata cache, without touching the files;
    /// ids without cached metadata are listed apart.
    public func totalFileSize(of assetIDs: [String]) throws(StoreError) -> FileSizeTotal {
        try environment.read { transaction throws(StoreError) in
            var total: UInt64 = 0
            var unknown: [String] = []
            for assetID in assetIDs {
                let size = try transaction.withValue(metadataTable, Array(assetID.utf8)) { record throws(StoreError) in
                    try AssetMetadata(decoding: record).fileSize
                }
                guard let size else {
                    unknown.append(assetID)
                    continue
                }
                // Sizes read from records: damaged ones could add up past what a UInt64 holds,
                // where real files' sizes stay far below what an off_t holds.
                let (sum, overflow) = total.addingReportingOverflow(size)
                guard !overflow, sum <= UInt64(Int64.max) else {
                    throw .store("file sizes that add up past \(Int64.max) bytes", "total the file sizes")
                }
                total = sum
            }
            return FileSizeTotal(bytes: total, unknownAssetIDs: unknown)
        }
    }

    /// The remembered failure of this version of the asset's file, if it failed before.
    public func failure(for assetID: String, fingerprint: FileFingerprint) throws(StoreError) -> FailureRecord? {
        let key = try ThumbnailKey.assetPrefix(assetID) + ThumbnailKey.fingerprintBytes(fingerprint)
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(failures, key) { record throws(StoreError) in try FailureRecord(decoding: record)
            }
        }
    }
}
