import CLMDB
import Glibc
import ThumbsSupport

/// Walks the same table of several environments in key order at once, one group at a time: the
/// entries of every input whose keys share a prefix (an asset's, say), so that a merge decides
/// between them knowing them all. Keys are compared as LMDB compares them (bytes, then length),
/// which puts each group's entries next to each other in every input.
///
/// Each step looks at every input's current key: merging n caches costs n comparisons per
/// group, nothing for tens of shards.
struct MergeWalk {
    /// One input's entry; key and value point into that input's map, valid while its read
    /// transaction is.
    struct Entry {
        let input: Int
        let key: UnsafeRawBufferPointer
        let value: UnsafeRawBufferPointer
    }

    private var cursors: [LMDBCursor]
    /// How many bytes of a key make its group.
    private let groupLength: (UnsafeRawBufferPointer) -> Int

    init(cursors: [LMDBCursor], groupLength: @escaping (UnsafeRawBufferPointer) -> Int) {
        self.cursors = cursors
        self.groupLength = groupLength
    }

    /// The key up to and including its first NUL (an asset id's prefix), or the whole key.
    static func throughFirstNUL(_ key: UnsafeRawBufferPointer) -> Int {
        key.firstIndex(of: 0).map { $0 + 1 } ?? key.count
    }

    /// The next group, in key order inside each input; nil when every input is done.
    mutating func next() throws(StoreError) -> [Entry]? {
        var smallest: UnsafeRawBufferPointer?
        for cursor in cursors {
            guard let key = cursor.current?.key else { continue }
            let group = UnsafeRawBufferPointer(rebasing: key[..<groupLength(key)])
            if let current = smallest, Self.compare(group, current) >= 0 { continue }
            smallest = group
        }
        guard let smallest else { return nil }
        let group = Array(smallest)
        var entries: [Entry] = []
        for index in cursors.indices {
            while let (key, value) = cursors[index].current,
                key.count >= group.count, key.prefix(group.count).elementsEqual(group),
                groupLength(key) == group.count
            {
                entries.append(Entry(input: index, key: key, value: value))
                try cursors[index].advance()
            }
        }
        return entries
    }

    /// LMDB's default order: bytes, then the shorter first.
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}

/// Lends read transactions on every one of `environments`, all open at once, to `body`.
func withReadTransactions<T>(
    _ environments: ArraySlice<LMDBEnvironment>, _ opened: [LMDBTransaction] = [],
    _ body: ([LMDBTransaction]) throws(StoreError) -> T
) throws(StoreError) -> T {
    guard let first = environments.first else { return try body(opened) }
    return try first.read { transaction throws(StoreError) in
        try withReadTransactions(environments.dropFirst(), opened + [transaction], body)
    }
}

/// Lends cursors on `database(input)` of every transaction, all open at once, to `body`.
func withCursors<T>(
    _ transactions: [LMDBTransaction], _ database: (Int) -> LMDBDatabase, _ opened: [LMDBCursor] = [],
    _ body: ([LMDBCursor]) throws(StoreError) -> T
) throws(StoreError) -> T {
    guard opened.count < transactions.count else { return try body(opened) }
    return try transactions[opened.count].withCursor(database(opened.count)) { cursor throws(StoreError) in
        try withCursors(transactions, database, opened + [cursor], body)
    }
}
