import CLMDB
import ThumbsSupport

/// The cache's running totals, read at the start of a write and saved in the same transaction,
/// so they can never disagree with the entries after a crash.
struct Bookkeeping {
    var liveBytes: Int64 = 0
    var entries: Int64 = 0
    var hits: Int64 = 0
    var misses: Int64 = 0

    private static let names = ["liveBytes", "entries", "hits", "misses"]

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
        (liveBytes, entries, hits, misses) = (values[0], values[1], values[2], values[3])
    }

    func save(_ transaction: LMDBTransaction, _ info: LMDBDatabase) throws(StoreError) {
        for (name, value) in zip(Self.names, [liveBytes, entries, hits, misses]) {
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
