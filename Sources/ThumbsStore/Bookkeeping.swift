import CLMDB
import ThumbsSupport

/// The cache's running totals, read at the start of a write and saved in the same transaction,
/// so they can never disagree with the entries after a crash.
struct Bookkeeping {
    var liveBytes: Int64 = 0
    var entries: Int64 = 0
    var hits: Int64 = 0
    var misses: Int64 = 0
    /// How many transactions removed a thumbnail or a metadata record: what a
    /// ``WarmedFolder`` was warmed at, and is stale after (``ThumbnailStore/removalGeneration()``).
    var removals: Int64 = 0

    private static let names = ["liveBytes", "entries", "hits", "misses", "removals"]

    /// Whether this transaction removed something (``noteRemoval()``).
    private var removed = false

    /// Notes that the transaction removes a thumbnail or a metadata record.
    mutating func noteRemoval() { removed = true }

    /// Totals of nothing, for a new cache.
    init() {}

    init(_ transaction: LMDBTransaction, _ info: LMDBDatabase) throws(StoreError) {
        var values: [Int64] = []
        for name in Self.names {
            let value = try transaction.withValue(info, Array(name.utf8)) { bytes throws(StoreError) in
                var reader = ByteReader(bytes, record: "bookkeeping")
                return try reader.i64()
            }
            values.append(value ?? 0)
        }
        (liveBytes, entries, hits, misses, removals) = (values[0], values[1], values[2], values[3], values[4])
    }

    func save(_ transaction: LMDBTransaction, _ info: LMDBDatabase) throws(StoreError) {
        // One step per transaction, however much it removed.
        let removals = removed ? removals + 1 : removals
        for (name, value) in zip(Self.names, [liveBytes, entries, hits, misses, removals]) {
            var writer = ByteWriter(capacity: 8)
            writer.i64(value)
            try transaction.put(info, Array(name.utf8), writer.bytes)
        }
    }

    /// What one thumbnail entry counts against the budget: its key and its record.
    static func cost(keyCount: Int, recordCount: Int) -> Int64 {
        Int64(keyCount + recordCount)
    }
}
