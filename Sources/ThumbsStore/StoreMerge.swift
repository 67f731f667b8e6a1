import CLMDB
import Foundation
import ThumbsCore
import ThumbsSupport

/// Merges the tables of several caches into an empty environment, in one write transaction, in
/// key order (every insert an append). See ``ThumbnailStore/merge(into:from:)`` for the rules.
///
/// Thumbnails are decided an asset at a time: of the versions of its file the inputs hold, the
/// one with the most recently made thumbnail is kept (a cache keeps one version per asset); of
/// several thumbnails under one key, the most recently made, with the latest access time any
/// input recorded for that key. When the result would pass the budget, a first pass adds up the
/// kept bytes by access time and the second leaves out the least recently used, down to the
/// low-water mark, exactly as eviction would.
struct StoreMerge {
    let inputs: [LMDBEnvironment]
    /// The input whose cursors (fetch results) are kept: the destination's own, when it had any.
    let keepsCursorsOf: Int?
    let output: LMDBEnvironment
    let budget: Int64
    let lowWaterMark: Int64

    /// A thumbnail the merge keeps.
    private struct Kept {
        let key: UnsafeRawBufferPointer
        let record: UnsafeRawBufferPointer
        let second: UInt32
        var cost: Int64 { Bookkeeping.cost(keyCount: key.count, recordCount: record.count) }
    }

    /// Which of the kept thumbnails eviction leaves out: every one used before `second`, and at
    /// `second` the first in key order (LRU order) until `bytesAtSecond` are left out.
    private struct Eviction {
        var second: UInt32 = 0
        var bytesAtSecond: Int64 = 0
    }

    func run() throws(StoreError) -> ThumbnailStore.MergeReport {
        try withReadTransactions(inputs[...]) { transactions throws(StoreError) in
            var eviction: Eviction?
            var inputBytes: Int64 = 0
            for index in transactions.indices {
                inputBytes += try Bookkeeping(transactions[index], table(StoreTables.info, index)).liveBytes
            }
            if inputBytes > budget { eviction = try plan(transactions) }
            return try output.write { out throws(StoreError) in
                var report = ThumbnailStore.MergeReport(inputs: inputs.count)
                var book = Bookkeeping()
                try mergeThumbnails(transactions, into: out, eviction, &book, &report)
                try mergeMetadata(transactions, into: out, &report)
                try mergeFailures(transactions, into: out, &report)
                if let keepsCursorsOf {
                    try transactions[keepsCursorsOf].forEach(table(StoreTables.cursors, keepsCursorsOf)) {
                        key, value throws(StoreError) in
                        try out.append(output[StoreTables.cursors], key, count: value.count) {
                            $0.copyMemory(from: value)
                        }
                        return true
                    }
                }
                for index in transactions.indices {
                    let counts = try Bookkeeping(transactions[index], table(StoreTables.info, index))
                    book.hits += counts.hits
                    book.misses += counts.misses
                }
                try book.save(out, output[StoreTables.info])
                report.liveBytes = book.liveBytes
                return report
            }
        }
    }

    private func table(_ name: String, _ input: Int) -> LMDBDatabase { inputs[input][name] }

    /// Walks every input's thumbnails an asset at a time, handing `body` what is kept.
    private func forEachKept(
        _ transactions: [LMDBTransaction], _ report: inout ThumbnailStore.MergeReport,
        _ body: (Kept) throws(StoreError) -> Void
    ) throws(StoreError) {
        try withCursors(transactions, { table(StoreTables.thumbnails, $0) }) { cursors throws(StoreError) in
            var walk = MergeWalk(cursors: cursors, groupLength: MergeWalk.throughFirstNUL)
            while let group = try walk.next() {
                for kept in try decide(group, transactions, &report) { try body(kept) }
            }
        }
    }

    /// What is kept of one asset's thumbnails, in key order.
    private func decide(
        _ group: [MergeWalk.Entry], _ transactions: [LMDBTransaction], _ report: inout ThumbnailStore.MergeReport
    ) throws(StoreError) -> [Kept] {
        let prefixLength = MergeWalk.throughFirstNUL(group[0].key)
        let versionEnd = prefixLength + 16
        var made: [(entry: MergeWalk.Entry, createdAt: Date)] = []
        for entry in group {
            guard entry.key.count > versionEnd, let header = try? StoredThumbnail.Header(decoding: entry.value) else {
                report.unreadable += 1
                continue
            }
            made.append((entry, header.createdAt))
        }
        // The version of the file with the most recently made thumbnail; the first input's on a tie.
        guard let newest = made.max(by: { $0.createdAt < $1.createdAt })?.entry else { return [] }
        let version = Array(newest.key[prefixLength..<versionEnd])
        let current = made.filter { $0.entry.key[prefixLength..<versionEnd].elementsEqual(version) }
        report.superseded += made.count - current.count
        // The inputs' entries interleave: gathered by key, then taken in LMDB's key order.
        let byKey = Dictionary(grouping: current) { Array($0.entry.key) }
        var kept: [Kept] = []
        for key in byKey.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let candidates = byKey[key, default: []]
            // The most recently made; of equal ones, the first input's (`max` keeps the first).
            guard let winner = candidates.max(by: { $0.createdAt < $1.createdAt }) else { continue }
            var second: UInt32 = 0
            for candidate in candidates {
                let input = candidate.entry.input
                let access = try transactions[input].withValue(table(StoreTables.access, input), key) {
                    bytes throws(StoreError) in
                    var reader = ByteReader(bytes, record: "access time")
                    return try reader.u32()
                }
                second = max(second, access ?? Self.second(candidate.createdAt))
            }
            report.superseded += candidates.count - 1
            kept.append(Kept(key: winner.entry.key, record: winner.entry.value, second: second))
        }
        return kept
    }

    /// A time as the access table keeps it; any time a damaged record may hold is brought in range.
    private static func second(_ date: Date) -> UInt32 {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite ? UInt32(min(max(seconds, 0), Double(UInt32.max))) : 0
    }

    /// The first pass, when the inputs together pass the budget: what eviction will leave out.
    private func plan(_ transactions: [LMDBTransaction]) throws(StoreError) -> Eviction? {
        var bytesBySecond: [UInt32: Int64] = [:]
        var total: Int64 = 0
        var report = ThumbnailStore.MergeReport(inputs: 0)
        try forEachKept(transactions, &report) { kept in
            bytesBySecond[kept.second, default: 0] += kept.cost
            total += kept.cost
        }
        guard total > budget else { return nil }
        var toFree = total - lowWaterMark
        for second in bytesBySecond.keys.sorted() {
            let bytes = bytesBySecond[second, default: 0]
            if bytes >= toFree { return Eviction(second: second, bytesAtSecond: toFree) }
            toFree -= bytes
        }
        return Eviction(second: .max, bytesAtSecond: .max)
    }

    private func mergeThumbnails(
        _ transactions: [LMDBTransaction], into out: LMDBTransaction, _ eviction: Eviction?,
        _ book: inout Bookkeeping, _ report: inout ThumbnailStore.MergeReport
    ) throws(StoreError) {
        var atSecondLeft = eviction?.bytesAtSecond ?? 0
        var written = Bookkeeping()
        var evicted = 0
        try forEachKept(transactions, &report) { kept throws(StoreError) in
            if let eviction, kept.second < eviction.second || (kept.second == eviction.second && atSecondLeft > 0) {
                if kept.second == eviction.second { atSecondLeft -= kept.cost }
                evicted += 1
                return
            }
            try out.append(output[StoreTables.thumbnails], kept.key, count: kept.record.count) {
                $0.copyMemory(from: kept.record)
            }
            var second = ByteWriter(capacity: 4)
            second.u32(kept.second)
            try out.append(output[StoreTables.access], kept.key, count: 4) { target in
                second.bytes.withUnsafeBytes { target.copyMemory(from: $0) }
            }
            try out.put(output[StoreTables.lru], ThumbnailStore.lruKey(kept.second, Array(kept.key)), [])
            written.liveBytes += kept.cost
            written.entries += 1
        }
        book.liveBytes = written.liveBytes
        book.entries = written.entries
        report.thumbnails = Int(written.entries)
        report.evicted = evicted
    }

    /// One record per asset: the newest version of its file (latest modification time), and of
    /// equal ones the first holding a placeholder; with the contents entry of each record kept
    /// (the inputs' own are not merged: they follow from the records).
    private func mergeMetadata(
        _ transactions: [LMDBTransaction], into out: LMDBTransaction, _ report: inout ThumbnailStore.MergeReport
    ) throws(StoreError) {
        let contents = output[StoreTables.contents]
        let kept = try keepOnePerGroup(
            StoreTables.metadata, transactions, into: out, groupLength: { $0.count },
            decode: { bytes throws(StoreError) in try AssetMetadata(decoding: bytes) },
            prefers: Self.prefers, &report
        ) { key, metadata throws(StoreError) in
            guard let identity = metadata.contentIdentity else { return }
            try out.put(contents, ThumbnailStore.contentPrefix(identity) + key, [])
        }
        report.metadata = kept
    }

    /// Whether `candidate` replaces `current`: a newer version of the file, or the same version
    /// with a placeholder where `current` has none.
    private static func prefers(_ candidate: AssetMetadata, to current: AssetMetadata) -> Bool {
        guard candidate.fingerprint == current.fingerprint else {
            return candidate.fingerprint.modificationTimeNanoseconds > current.fingerprint.modificationTimeNanoseconds
        }
        return current.placeholder == nil && candidate.placeholder != nil
    }

    /// One failure per asset, as the memo keeps: the most recent.
    private func mergeFailures(
        _ transactions: [LMDBTransaction], into out: LMDBTransaction, _ report: inout ThumbnailStore.MergeReport
    ) throws(StoreError) {
        let kept = try keepOnePerGroup(
            StoreTables.failures, transactions, into: out, groupLength: MergeWalk.throughFirstNUL,
            decode: { bytes throws(StoreError) in try FailureRecord(decoding: bytes) },
            prefers: { (candidate: FailureRecord, current: FailureRecord) in candidate.failedAt > current.failedAt },
            &report)
        report.failures = kept
    }

    /// Walks the table `name` of every input a group at a time and appends the one entry of each
    /// group kept: the first that decodes, replaced by any later one it `prefers` to the one kept
    /// so far. Records that do not decode are left out. Returns how many entries were kept.
    private func keepOnePerGroup<Record>(
        _ name: String, _ transactions: [LMDBTransaction], into out: LMDBTransaction,
        groupLength: @escaping (UnsafeRawBufferPointer) -> Int,
        decode: (UnsafeRawBufferPointer) throws(StoreError) -> Record,
        prefers: (_ candidate: Record, _ current: Record) -> Bool,
        _ report: inout ThumbnailStore.MergeReport,
        kept keep: (_ key: [UInt8], _ record: Record) throws(StoreError) -> Void = { _, _ in }
    ) throws(StoreError) -> Int {
        var kept = 0, superseded = 0, unreadable = 0
        try withCursors(transactions, { table(name, $0) }) { cursors throws(StoreError) in
            var walk = MergeWalk(cursors: cursors, groupLength: groupLength)
            while let group = try walk.next() {
                var best: (entry: MergeWalk.Entry, record: Record)?
                for entry in group {
                    guard let record = try? decode(entry.value) else {
                        unreadable += 1
                        continue
                    }
                    if let current = best?.record, !prefers(record, current) { continue }
                    best = (entry, record)
                }
                guard let best else { continue }
                superseded += group.count - 1
                try out.append(output[name], best.entry.key, count: best.entry.value.count) {
                    $0.copyMemory(from: best.entry.value)
                }
                try keep(Array(best.entry.key), best.record)
                kept += 1
            }
        }
        report.superseded += superseded
        report.unreadable += unreadable
        return kept
    }
}
