import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// Evicts least recently used thumbnails until the cache holds at most `target` bytes
    /// (default: the low-water mark); returns how many were evicted.
    @discardableResult
    public func evict(downTo target: ByteCount? = nil) async throws -> Int {
        let bytes = target?.bytes ?? configuration.lowWaterMark
        let accesses = pendingAccess.withLock { $0 }
        let evicted = try await onWriter { [self] transaction, book throws(StoreError) in
            // Reads noted since the last flush count before anything is evicted.
            try applyAccesses(accesses, in: transaction)
            return try evict(downTo: bytes, in: transaction, &book)
        }
        forgetApplied(accesses)
        return evicted
    }

    /// Walks the LRU index from its start (oldest access first) deleting entries until the live
    /// bytes are at most `target`. Only the entries evicted are visited: no scan, no sort.
    func evict(downTo target: Int64, in transaction: LMDBTransaction, _ book: inout Bookkeeping) throws(StoreError)
        -> Int
    {
        var evicted = 0
        while book.liveBytes > target {
            // Collected in small runs, then deleted, so the cursor never walks over its own deletions.
            var run: [[UInt8]] = []
            try transaction.forEach(lru) { key, _ in
                run.append(Array(key))
                return run.count < 64
            }
            guard !run.isEmpty else { break }
            for lruKey in run {
                let key = Array(lruKey.dropFirst(4))
                if try removeThumbnail(key, in: transaction, &book) {
                    evicted += 1
                } else {
                    try transaction.delete(lru, lruKey)  // an orphan: nothing to free, drop it
                }
                if book.liveBytes <= target { break }
            }
        }
        if evicted > 0 { book.noteRemoval() }
        return evicted
    }
}
