import Foundation
import Synchronization
import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// What one batch of thumbnail writes did.
    public struct WriteReport: Sendable, Hashable {
        /// Entries written (new or replaced).
        public var written = 0
        /// Older versions (other fingerprints) of the same assets removed.
        public var staleRemoved = 0
        /// Least recently used entries evicted to stay within the budget.
        public var evicted = 0
    }

    /// Stores a batch of thumbnails in one transaction on the writer thread, replacing entries
    /// with the same key and removing the assets' entries for other fingerprints (older versions
    /// of their files). Evicts least recently used entries if the batch takes the cache past its
    /// budget. A partial thumbnail (``/ThumbsCore/Thumbnail/isPartial``) sets
    /// ``AssetMetadata/isPartial`` in its asset's metadata record, when that record is of the
    /// same version of the file. Throws `StoreError`, or `CancellationError` if cancelled
    /// before it started.
    @discardableResult
    public func putThumbnails(_ entries: [ThumbnailEntry]) async throws -> WriteReport {
        guard !entries.isEmpty else { return WriteReport() }
        let now = configuration.clock()
        let records = try entries.map { entry throws(StoreError) in
            (key: try entry.key.encoded(), record: StoredThumbnail(thumbnail: entry.thumbnail, createdAt: now))
        }
        // One version per asset: where a batch holds two, the last one given wins.
        let versions = Dictionary(
            entries.map { ($0.key.assetID, $0.key.fingerprint) }, uniquingKeysWith: { _, last in last })
        let current = zip(entries, records).filter { versions[$0.0.key.assetID] == $0.0.key.fingerprint }.map(\.1)
        let partial = Set(entries.filter { $0.thumbnail.isPartial }.map(\.key.assetID)).compactMap { assetID in
            versions[assetID].map { (assetID: assetID, fingerprint: $0) }
        }
        let second = accessSecond(now)
        let accesses = pendingAccess.withLock { $0 }
        let report = try await onWriter { [self] transaction, book throws(StoreError) in
            var report = WriteReport()
            for (assetID, fingerprint) in versions {
                report.staleRemoved += try removeThumbnails(
                    of: assetID, keeping: ThumbnailKey.fingerprintBytes(fingerprint), in: transaction, &book)
            }
            // Reads noted since the last flush count before anything is evicted.
            try applyAccesses(accesses, in: transaction)
            for entry in current {
                try removeThumbnail(entry.key, in: transaction, &book)
                try transaction.put(thumbnails, entry.key, count: entry.record.encodedCount) {
                    entry.record.encode(into: $0)
                }
                book.liveBytes += Bookkeeping.cost(keyCount: entry.key.count, recordCount: entry.record.encodedCount)
                book.entries += 1
                try setAccessSecond(second, for: entry.key, in: transaction)
                report.written += 1
            }
            for version in partial {
                try markPartial(version.assetID, fingerprint: version.fingerprint, in: transaction)
            }
            if book.liveBytes > configuration.budget.bytes {
                report.evicted = try evict(downTo: configuration.lowWaterMark, in: transaction, &book)
            }
            return report
        }
        forgetApplied(accesses)
        return report
    }

    /// Removes every thumbnail of `assetID` (all renditions, all versions); returns how many.
    @discardableResult
    public func removeThumbnails(of assetID: String) async throws -> Int {
        _ = try ThumbnailKey.assetPrefix(assetID)
        return try await onWriter { [self] transaction, book throws(StoreError) in
            book.noteRemoval()
            return try removeThumbnails(of: assetID, keeping: nil, in: transaction, &book)
        }
    }

    /// Stores metadata records, replacing older ones of the same assets. A record without a
    /// placeholder keeps the one already stored for the same version of the file, and so does
    /// its partial flag, so that writing what a probe learnt again never loses them; a new
    /// version of the file starts without either.
    public func putMetadata(_ entries: [MetadataEntry]) async throws {
        guard !entries.isEmpty else { return }
        let records = entries.map { (key: Array($0.assetID.utf8), metadata: $0.metadata) }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for var record in records {
                let stored = try storedMetadata(record.key, in: transaction)
                if let stored, stored.fingerprint == record.metadata.fingerprint {
                    record.metadata.placeholder = record.metadata.placeholder ?? stored.placeholder
                    record.metadata.isPartial = record.metadata.isPartial || stored.isPartial
                    record.metadata.contentSignature = record.metadata.contentSignature ?? stored.contentSignature
                }
                try replaceContentEntry(record.key, from: stored, to: record.metadata, in: transaction)
                try transaction.put(metadataTable, record.key, record.metadata.encoded())
            }
        }
    }

    /// Forgets the metadata of assets that are gone.
    public func removeMetadata(of assetIDs: [String]) async throws {
        try await onWriter { [self] transaction, book throws(StoreError) in
            if !assetIDs.isEmpty { book.noteRemoval() }
            for assetID in assetIDs {
                let key = Array(assetID.utf8)
                try replaceContentEntry(key, from: storedMetadata(key, in: transaction), to: nil, in: transaction)
                try transaction.delete(metadataTable, key)
            }
        }
    }

    /// Remembers failures, each for one version of one asset's file, replacing what was
    /// remembered for other versions of it.
    public func recordFailures(_ entries: [FailureEntry]) async throws {
        guard !entries.isEmpty else { return }
        let records = try entries.map { entry throws(StoreError) in
            (
                prefix: try ThumbnailKey.assetPrefix(entry.assetID),
                version: ThumbnailKey.fingerprintBytes(entry.fingerprint), record: entry.failure.encoded()
            )
        }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for entry in records {
                for key in try keys(in: failures, withPrefix: entry.prefix, transaction) {
                    try transaction.delete(failures, key)
                }
                try transaction.put(failures, entry.prefix + entry.version, entry.record)
            }
        }
    }

    /// Forgets every failure remembered for `assetID` (after a successful render, or removal).
    public func clearFailures(of assetID: String) async throws {
        let prefix = try ThumbnailKey.assetPrefix(assetID)
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for key in try keys(in: failures, withPrefix: prefix, transaction) { try transaction.delete(failures, key) }
        }
    }

    /// Writes the access times noted by reads since the last flush, and the hit and miss counts.
    /// Runs by itself when enough accesses are pending or they are one resolution old; call it
    /// before a process exits. Nothing noted is lost if the write fails.
    public func flushAccessTimes() async throws {
        let accesses = pendingAccess.withLock { $0 }
        let hits = unsavedHits.exchange(0, ordering: .relaxed)
        let misses = unsavedMisses.exchange(0, ordering: .relaxed)
        guard !accesses.isEmpty || hits != 0 || misses != 0 else { return }
        do {
            try await onWriter { [self] transaction, book throws(StoreError) in
                book.hits += hits
                book.misses += misses
                try applyAccesses(accesses, in: transaction)
            }
        } catch {
            unsavedHits.add(hits, ordering: .relaxed)
            unsavedMisses.add(misses, ordering: .relaxed)
            throw error
        }
        forgetApplied(accesses)
        lastAccessFlush.store(Int64(accessSecond(configuration.clock())), ordering: .relaxed)
    }

    /// Moves each noted entry still present to its noted access time (never backwards).
    func applyAccesses(_ accesses: [[UInt8]: UInt32], in transaction: LMDBTransaction) throws(StoreError) {
        for (key, second) in accesses {
            // The entry may have been evicted or replaced since it was read.
            guard try transaction.withValue(thumbnails, key, { _ in true }) == true else { continue }
            if let old = try accessSecond(of: key, in: transaction), old >= second { continue }
            try setAccessSecond(second, for: key, in: transaction)
        }
    }

    /// Drops the notes a committed write applied, keeping any newer note of the same key.
    func forgetApplied(_ accesses: [[UInt8]: UInt32]) {
        pendingAccess.withLock { pending in
            for (key, second) in accesses where (pending[key] ?? .max) <= second { pending[key] = nil }
        }
    }

    /// Keeps the writer thread busy while `body` runs, so that nothing is committed meanwhile:
    /// for tests of what must not wait for a commit.
    package func withWriterHeld<T>(_ body: () async throws -> T) async throws -> T {
        let release = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            Task { [writer] in
                // The writer's own thread waits, not a cooperative one.
                try? await writer.run {
                    started.resume()
                    release.wait()
                }
            }
        }
        defer { release.signal() }
        return try await body()
    }

    // MARK: Inside a write transaction

    /// Runs `body` in a write transaction on the writer thread, with the bookkeeping loaded
    /// before and saved after it in the same transaction.
    func onWriter<T: Sendable>(
        _ body: @escaping @Sendable (LMDBTransaction, inout Bookkeeping) throws(StoreError) -> T
    ) async throws -> T {
        let environment = environment, info = info
        return try await writer.run {
            try environment.write { transaction throws(StoreError) in
                var book = try Bookkeeping(transaction, info)
                let result = try body(transaction, &book)
                try book.save(transaction, info)
                return result
            }
        }
    }

    func accessSecond(of key: [UInt8], in transaction: LMDBTransaction) throws(StoreError) -> UInt32? {
        try transaction.withValue(access, key) { bytes throws(StoreError) in
            var reader = ByteReader(bytes, record: "access time")
            return try reader.u32()
        }
    }

    /// Moves `key` to `second` in the access table and the LRU index.
    func setAccessSecond(_ second: UInt32, for key: [UInt8], in transaction: LMDBTransaction) throws(StoreError) {
        if let old = try accessSecond(of: key, in: transaction) {
            try transaction.delete(lru, Self.lruKey(old, key))
        }
        var writer = ByteWriter(capacity: 4)
        writer.u32(second)
        try transaction.put(access, key, writer.bytes)
        try transaction.put(lru, Self.lruKey(second, key), [])
    }

    static func lruKey(_ second: UInt32, _ key: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + key.count)
        writer.u32(second)
        writer.raw(key)
        return writer.bytes
    }

    /// Deletes one thumbnail with its access time and LRU entry; returns whether it existed.
    @discardableResult
    func removeThumbnail(_ key: [UInt8], in transaction: LMDBTransaction, _ book: inout Bookkeeping) throws(StoreError)
        -> Bool
    {
        guard let recordCount = try transaction.withValue(thumbnails, key, { $0.count }) else { return false }
        if let second = try accessSecond(of: key, in: transaction) {
            try transaction.delete(lru, Self.lruKey(second, key))
            try transaction.delete(access, key)
        }
        try transaction.delete(thumbnails, key)
        book.liveBytes -= Bookkeeping.cost(keyCount: key.count, recordCount: recordCount)
        book.entries -= 1
        return true
    }

    /// Deletes the thumbnails of `assetID` whose fingerprint is not `keeping` (all when nil).
    func removeThumbnails(
        of assetID: String, keeping fingerprint: [UInt8]?, in transaction: LMDBTransaction, _ book: inout Bookkeeping
    ) throws(StoreError) -> Int {
        let prefix = try ThumbnailKey.assetPrefix(assetID)
        var removed = 0
        for key in try keys(in: thumbnails, withPrefix: prefix, transaction) {
            if let fingerprint, key.count >= prefix.count + fingerprint.count,
                key[prefix.count..<prefix.count + fingerprint.count].elementsEqual(fingerprint)
            {
                continue
            }
            if try removeThumbnail(key, in: transaction, &book) { removed += 1 }
        }
        return removed
    }

    /// The keys of `database` that start with `prefix`, copied (so the caller may delete them).
    func keys(in database: LMDBDatabase, withPrefix prefix: [UInt8], _ transaction: LMDBTransaction) throws(StoreError)
        -> [[UInt8]]
    {
        var found: [[UInt8]] = []
        try transaction.forEach(database, from: prefix) { key, _ in
            guard key.count >= prefix.count, key.prefix(prefix.count).elementsEqual(prefix) else { return false }
            found.append(Array(key))
            return true
        }
        return found
    }
}
