import Foundation

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
    /// budget. Throws `StoreError`, or `CancellationError` if cancelled before it started.
    @discardableResult
    public func putThumbnails(_ entries: [(key: ThumbnailKey, thumbnail: Thumbnail)]) async throws -> WriteReport {
        guard !entries.isEmpty else { return WriteReport() }
        let now = configuration.clock()
        let records = try entries.map { entry throws(StoreError) in
            (key: try entry.key.encoded(), record: StoredThumbnail(thumbnail: entry.thumbnail, createdAt: now))
        }
        let versions = Dictionary(entries.map { ($0.key.assetID, $0.key.fingerprint) }, uniquingKeysWith: { _, last in last })
        let tick = accessTick(now)
        return try await onWriter { [self] transaction, book throws(StoreError) in
            var report = WriteReport()
            for (assetID, fingerprint) in versions {
                report.staleRemoved += try removeThumbnails(
                    of: assetID, keeping: ThumbnailKey.fingerprintBytes(fingerprint), in: transaction, &book)
            }
            for entry in records {
                try removeThumbnail(entry.key, in: transaction, &book)
                try transaction.put(thumbnails, entry.key, count: entry.record.encodedCount) { entry.record.encode(into: $0) }
                book.liveBytes += Bookkeeping.cost(keyCount: entry.key.count, recordCount: entry.record.encodedCount)
                book.entries += 1
                try setAccessTick(tick, for: entry.key, in: transaction)
                report.written += 1
            }
            if book.liveBytes > configuration.budget.bytes {
                report.evicted = try evict(downTo: configuration.lowWaterMark, in: transaction, &book)
            }
            return report
        }
    }

    /// Removes every thumbnail of `assetID` (all renditions, all versions); returns how many.
    @discardableResult
    public func removeThumbnails(of assetID: String) async throws -> Int {
        _ = try ThumbnailKey.assetPrefix(assetID)
        return try await onWriter { [self] transaction, book throws(StoreError) in
            try removeThumbnails(of: assetID, keeping: nil, in: transaction, &book)
        }
    }

    /// Stores metadata records, replacing older ones of the same assets.
    public func putMetadata(_ entries: [(assetID: String, metadata: AssetMetadata)]) async throws {
        guard !entries.isEmpty else { return }
        let records = entries.map { (Array($0.assetID.utf8), $0.metadata.encoded()) }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for (key, record) in records { try transaction.put(metadataTable, key, record) }
        }
    }

    /// Forgets the metadata of assets that are gone.
    public func removeMetadata(of assetIDs: [String]) async throws {
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for assetID in assetIDs { try transaction.delete(metadataTable, Array(assetID.utf8)) }
        }
    }

    /// Remembers failures, each for one version of one asset's file, replacing what was
    /// remembered for other versions of it.
    public func recordFailures(
        _ entries: [(assetID: String, fingerprint: FileFingerprint, failure: FailureRecord)]
    ) async throws {
        guard !entries.isEmpty else { return }
        let records = try entries.map { entry throws(StoreError) in
            (prefix: try ThumbnailKey.assetPrefix(entry.assetID),
             version: ThumbnailKey.fingerprintBytes(entry.fingerprint), record: entry.failure.encoded())
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
    /// Runs by itself when enough accesses are pending; call it before a process exits.
    public func flushAccessTimes() async throws {
        let pending = pendingAccess.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        let hits = unsavedHits.exchange(0, ordering: .relaxed)
        let misses = unsavedMisses.exchange(0, ordering: .relaxed)
        guard !pending.isEmpty || hits != 0 || misses != 0 else { return }
        try await onWriter { [self] transaction, book throws(StoreError) in
            book.hits += hits
            book.misses += misses
            for (key, tick) in pending {
                // The entry may have been evicted or replaced since it was read.
                guard try transaction.withValue(thumbnails, key, { _ in true }) == true else { continue }
                if let old = try accessTick(of: key, in: transaction), old >= tick { continue }
                try setAccessTick(tick, for: key, in: transaction)
            }
        }
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

    func accessTick(of key: [UInt8], in transaction: LMDBTransaction) throws(StoreError) -> UInt32? {
        try transaction.withValue(access, key) { bytes throws(StoreError) in
            var reader = ByteReader(bytes, record: "access time")
            return try reader.u32()
        }
    }

    /// Moves `key` to `tick` in the access table and the LRU index.
    func setAccessTick(_ tick: UInt32, for key: [UInt8], in transaction: LMDBTransaction) throws(StoreError) {
        if let old = try accessTick(of: key, in: transaction) {
            try transaction.delete(lru, Self.lruKey(old, key))
        }
        var writer = ByteWriter(capacity: 4)
        writer.u32(tick)
        try transaction.put(access, key, writer.bytes)
        try transaction.put(lru, Self.lruKey(tick, key), [])
    }

    static func lruKey(_ tick: UInt32, _ key: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + key.count)
        writer.u32(tick)
        writer.raw(key)
        return writer.bytes
    }

    /// Deletes one thumbnail with its access time and LRU entry; returns whether it existed.
    @discardableResult
    func removeThumbnail(_ key: [UInt8], in transaction: LMDBTransaction, _ book: inout Bookkeeping) throws(StoreError) -> Bool {
        guard let recordCount = try transaction.withValue(thumbnails, key, { $0.count }) else { return false }
        if let tick = try accessTick(of: key, in: transaction) {
            try transaction.delete(lru, Self.lruKey(tick, key))
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
               key[prefix.count..<prefix.count + fingerprint.count].elementsEqual(fingerprint) { continue }
            if try removeThumbnail(key, in: transaction, &book) { removed += 1 }
        }
        return removed
    }

    /// The keys of `database` that start with `prefix`, copied (so the caller may delete them).
    func keys(in database: LMDBDatabase, withPrefix prefix: [UInt8], _ transaction: LMDBTransaction) throws(StoreError) -> [[UInt8]] {
        var found: [[UInt8]] = []
        try transaction.forEach(database, from: prefix) { key, _ in
            guard key.count >= prefix.count, key.prefix(prefix.count).elementsEqual(prefix) else { return false }
            found.append(Array(key))
            return true
        }
        return found
    }
}
