import CLMDB
import Foundation
import Glibc
import Synchronization
import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// Counts, sizes and hit rates, read in one snapshot.
    public func statistics() throws(StoreError) -> StoreStatistics {
        try environment.read { transaction throws(StoreError) in
            let usage = transaction.environmentUsage()
            let book = try Bookkeeping(transaction, info)
            return StoreStatistics(
                thumbnails: Int(try transaction.statistics(thumbnails).ms_entries),
                liveBytes: ByteCount(book.liveBytes), budget: configuration.budget,
                metadataEntries: Int(try transaction.statistics(metadataTable).ms_entries),
                failures: Int(try transaction.statistics(failures).ms_entries),
                hits: book.hits + unsavedHits.load(ordering: .relaxed),
                misses: book.misses + unsavedMisses.load(ordering: .relaxed),
                pageSize: usage.pageSize, pagesUsed: usage.pagesUsed, mapSize: ByteCount(Int64(usage.mapSize)))
        }
    }

    /// Checks the file, then that the indexes agree.
    ///
    /// The file first: every tree page of every table and every overflow page is read and
    /// bounds-checked outside LMDB, so damage is reported rather than followed; a damaged file
    /// is one problem and nothing more is read. Then the indexes: every thumbnail has an access
    /// time and an LRU entry at that time, every LRU entry has its thumbnail, every record
    /// decodes, and the byte and entry totals match the entries. Reads everything, in one
    /// snapshot.
    public func verify() throws(StoreError) -> VerificationReport {
        do throws(StoreError) {
            try Self.checkFile(path: configuration.path)
        } catch  where error.isDamaged {
            return VerificationReport(problems: ["damaged: \(error)"])
        }
        return try environment.read { transaction throws(StoreError) in
            var report = VerificationReport()
            let book = try Bookkeeping(transaction, info)
            try transaction.forEach(thumbnails) { key, record throws(StoreError) in
                report.thumbnails += 1
                report.liveBytes += Bookkeeping.cost(keyCount: key.count, recordCount: record.count)
                let keyBytes = Array(key)
                do throws(StoreError) { _ = try StoredThumbnail(decoding: record) } catch {
                    report.problems.append("thumbnail \(Self.printable(keyBytes)): \(error.message)")
                }
                guard let second = try accessSecond(of: keyBytes, in: transaction) else {
                    report.problems.append("thumbnail \(Self.printable(keyBytes)) has no access time")
                    return true
                }
                if try transaction.withValue(lru, Self.lruKey(second, keyBytes), { _ in true }) == nil {
                    report.problems.append("thumbnail \(Self.printable(keyBytes)) is missing from the LRU index")
                }
                return true
            }
            var lruEntries = 0
            try transaction.forEach(lru) { lruKey, _ throws(StoreError) in
                lruEntries += 1
                let key = Array(lruKey.dropFirst(4))
                if try transaction.withValue(thumbnails, key, { _ in true }) == nil {
                    report.problems.append("LRU entry \(Self.printable(key)) has no thumbnail")
                }
                return true
            }
            if lruEntries != report.thumbnails {
                report.problems.append("\(lruEntries) LRU entries for \(report.thumbnails) thumbnails")
            }
            if book.liveBytes != report.liveBytes {
                report.problems.append("recorded \(book.liveBytes) live bytes, entries hold \(report.liveBytes)")
            }
            if book.entries != Int64(report.thumbnails) {
                report.problems.append("recorded \(book.entries) entries, found \(report.thumbnails)")
            }
            return report
        }
    }

    /// Checks every page of the cache file at `path` (a folder) from outside LMDB, as
    /// ``verify()`` does first: throws a ``StoreError`` whose ``StoreError/isDamaged`` is true
    /// when the file is damaged. Safe on any file; the cache need not be open.
    public static func checkFile(path: String) throws(StoreError) {
        // Writers are held off meanwhile (as when a cache is opened): a commit during the walk
        // could reuse pages under it and look like damage. Non-blocking: a FIFO in its place
        // would otherwise hold the open until a writer came.
        let writers = Glibc.open(path + "/thumbs.writer", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if writers >= 0 { try LMDBEnvironment.lock(writers, LOCK_SH, "lock \(path)/thumbs.writer") }
        defer { if writers >= 0 { close(writers) } }
        try LMDBFileCheck.check(folder: path, depth: .everyPage)
    }

    /// Moves the cache at `path` aside, to a sibling folder named after it and the time
    /// (`thumbs.damaged-20261123-101500`), and returns where it went; the next open starts a new,
    /// empty cache. Nothing is deleted. No process may be using the cache: like compaction, this
    /// takes the cache's process lock exclusively, and fails when another process holds it.
    public static func moveAside(path: String, now: Date = Date()) throws(StoreError) -> String {
        let operation = "move \(path) aside"
        guard !LMDBEnvironment.isOpen(path: path) else {
            throw .store("the cache is open in this process; close it first", operation)
        }
        // Held until the folder has moved: a process that opens the path meanwhile waits for it
        // and then finds a new, empty cache there.
        let lock = Glibc.open(path + "/thumbs.lock", O_RDWR | O_CLOEXEC)
        guard lock >= 0 || errno == ENOENT else { throw StoreError(code: errno, operation) }
        defer { if lock >= 0 { close(lock) } }
        guard lock < 0 || flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw StoreError(resultCode: .busy, message: "another process is using the cache", operation: operation)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let folder = URL(fileURLWithPath: path).standardizedFileURL.path
        var target = folder + ".damaged-" + formatter.string(from: now)
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = folder + ".damaged-" + formatter.string(from: now) + "-\(attempt)"
        }
        guard rename(folder, target) == 0 else { throw StoreError(code: errno, operation) }
        return target
    }

    /// A key for messages: the asset id, then the rest as hex.
    private static func printable(_ key: [UInt8]) -> String {
        guard let nul = key.firstIndex(of: 0) else { return key.map { String(format: "%02x", $0) }.joined() }
        return String(decoding: key[..<nul], as: UTF8.self) + "/"
            + key[(nul + 1)...].map { String(format: "%02x", $0) }.joined()
    }

    /// What compaction gave back.
    public struct CompactionReport: Sendable, Hashable {
        public var bytesBefore: Int64
        public var bytesAfter: Int64
    }

    /// Rewrites the cache at `path` without its free pages, giving the space back to the file
    /// system. The cache must not be open, in this process or any other: compaction swaps the
    /// data file, which a process holding it open would not see. It holds the cache's process
    /// lock exclusively throughout, so no process opens the cache meanwhile.
    public static func compact(path: String) throws(StoreError) -> CompactionReport {
        let operation = "compact \(path)"
        guard !LMDBEnvironment.isOpen(path: path) else {
            throw .store("the cache is open in this process; close it first", operation)
        }
        let dataFile = path + "/data.mdb"
        let before = try replacingDataFile(
            of: path, scratchPrefix: LMDBEnvironment.compactionScratchPrefix, operation: operation
        ) { scratch throws(StoreError) in
            let before = Self.fileSize(dataFile)
            try copyCompacted(path: path, to: scratch)
            return before
        }
        return CompactionReport(bytesBefore: before, bytesAfter: Self.fileSize(dataFile))
    }

    /// Holds the process lock of the cache at `path` exclusively (`EBUSY` when another process
    /// uses it) while `write` makes a new data file in a scratch folder inside it (named
    /// `scratchPrefix`…, removed however this ends), then puts that file in place of the
    /// cache's in one rename: a process killed at any point leaves the cache as it was, or
    /// replaced whole. What compaction and merging share.
    static func replacingDataFile<T>(
        of path: String, scratchPrefix: String, operation: String,
        _ write: (_ scratch: String) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let lock = Glibc.open(path + "/thumbs.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw StoreError(code: errno, operation) }
        // Unlocked before it is closed, as LMDBEnvironment's process lock is.
        defer {
            flock(lock, LOCK_UN)
            close(lock)
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw StoreError(resultCode: .busy, message: "another process is using the cache", operation: operation)
        }
        var template = Array((path + "/" + scratchPrefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw StoreError(code: errno, operation) }
        let scratch = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try write(scratch)
        // The new file reaches the disk before it replaces the old one, and the rename after it.
        try syncFile(scratch + "/data.mdb", operation)
        guard rename(scratch + "/data.mdb", path + "/data.mdb") == 0 else { throw StoreError(code: errno, operation) }
        try syncFile(path, operation)
        return result
    }

    /// Opens the environment (without the process lock the caller holds), copies it compacted,
    /// and closes it again on return.
    private static func copyCompacted(path: String, to folder: String) throws(StoreError) {
        let environment = try LMDBEnvironment.open(
            path: path, options: .init(databaseNames: StoreTables.all, takesProcessLock: false))
        try environment.copyCompacted(to: folder)
    }

    private static func syncFile(_ path: String, _ operation: String) throws(StoreError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError(code: errno, operation) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StoreError(code: errno, operation) }
    }

    private static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
