import CLMDB
import ThumbsSupport

/// A cursor over one database, stepped by its owner rather than driving a closure (as
/// ``LMDBTransaction/forEach(_:from:_:)`` does): a merge walks several at once, each at its own
/// pace. Lent by ``LMDBTransaction/withCursor(_:_:)`` and closed when that returns; the key and
/// value it lends point into the map and are valid while the transaction is.
struct LMDBCursor {
    private let pointer: OpaquePointer
    /// The entry the cursor is on; nil once it has passed the last.
    private(set) var current: (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)?

    fileprivate init(_ pointer: OpaquePointer) throws(StoreError) {
        self.pointer = pointer
        try move(MDB_FIRST)
    }

    /// Steps to the next entry in key order.
    mutating func advance() throws(StoreError) {
        try move(MDB_NEXT)
    }

    private mutating func move(_ operation: MDB_cursor_op) throws(StoreError) {
        var key = MDB_val(), value = MDB_val()
        let code = mdb_cursor_get(pointer, &key, &value, operation)
        if code == MDB_NOTFOUND {
            current = nil
            return
        }
        try check(code, "iterate")
        current = (
            UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size),
            UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
        )
    }

}

extension LMDBTransaction {
    /// Lends a cursor on the first entry of `database` to `body`, and closes it after.
    func withCursor<T>(
        _ database: LMDBDatabase, _ body: (inout LMDBCursor) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        var opened: OpaquePointer?
        try check(mdb_cursor_open(pointer, database.handle, &opened), "open cursor")
        guard let opened else { throw .store("no cursor", "open cursor") }
        defer { mdb_cursor_close(opened) }
        var cursor = try LMDBCursor(opened)
        return try body(&cursor)
    }

    /// Stores `count` bytes under `key`, which sorts after every key of `database` (MDB_APPEND:
    /// no search, and pages filled whole), written in place by `fill`.
    func append(
        _ database: LMDBDatabase, _ key: UnsafeRawBufferPointer, count: Int,
        _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(StoreError) {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var reserved = MDB_val(mv_size: count, mv_data: nil)
        try check(mdb_put(pointer, database.handle, &keyValue, &reserved, UInt32(MDB_RESERVE | MDB_APPEND)), "append")
        fill(UnsafeMutableRawBufferPointer(start: reserved.mv_data, count: count))
    }
}
