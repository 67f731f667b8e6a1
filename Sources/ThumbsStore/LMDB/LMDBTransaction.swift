import CLMDB
import ThumbsSupport

/// One LMDB transaction, lent to a closure by ``LMDBEnvironment/read(_:)`` or
/// ``LMDBEnvironment/write(_:)``: it must not escape it, and neither may the value buffers it
/// lends, which point into the memory map.
struct LMDBTransaction {
    let pointer: OpaquePointer
    let isReadOnly: Bool

    /// Lends the value stored under `key` to `body`, or nil when there is none.
    func withValue<T>(
        _ database: LMDBDatabase, _ key: [UInt8],
        _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        var found = MDB_val()
        let code = key.withUnsafeBytes { keyBytes -> Int32 in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_get(pointer, database.handle, &keyValue, &found)
        }
        if code == MDB_NOTFOUND { return nil }
        try check(code, "get")
        return try body(UnsafeRawBufferPointer(start: found.mv_data, count: found.mv_size))
    }

    /// A copy of the value stored under `key`.
    func value(_ database: LMDBDatabase, _ key: [UInt8]) throws(StoreError) -> [UInt8]? {
        try withValue(database, key) { Array($0) }
    }

    /// Stores `count` bytes under `key`, written in place by `fill` (MDB_RESERVE: no copy).
    func put(
        _ database: LMDBDatabase, _ key: [UInt8], count: Int,
        _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(StoreError) {
        var reserved = MDB_val(mv_size: count, mv_data: nil)
        let code = key.withUnsafeBytes { keyBytes -> Int32 in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_put(pointer, database.handle, &keyValue, &reserved, UInt32(MDB_RESERVE))
        }
        try check(code, "put")
        fill(UnsafeMutableRawBufferPointer(start: reserved.mv_data, count: count))
    }

    func put(_ database: LMDBDatabase, _ key: [UInt8], _ value: [UInt8]) throws(StoreError) {
        try put(database, key, count: value.count) { target in
            value.withUnsafeBytes { target.copyMemory(from: $0) }
        }
    }

    /// Deletes `key`; returns whether it was there.
    @discardableResult
    func delete(_ database: LMDBDatabase, _ key: [UInt8]) throws(StoreError) -> Bool {
        let code = key.withUnsafeBytes { keyBytes -> Int32 in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_del(pointer, database.handle, &keyValue, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try check(code, "delete")
        return true
    }

    /// Deletes every entry of `database` (the database itself stays).
    func empty(_ database: LMDBDatabase) throws(StoreError) {
        try check(mdb_drop(pointer, database.handle, 0), "empty")
    }

    /// Visits entries in key order, starting at the first key ≥ `start` (or the first key), while
    /// `body` returns true. Keys and values are lent for the call only.
    func forEach(
        _ database: LMDBDatabase, from start: [UInt8]? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(StoreError) -> Bool
    ) throws(StoreError) {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(pointer, database.handle, &cursor), "open cursor")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        var code: Int32
        if let start {
            code = start.withUnsafeBytes { startBytes -> Int32 in
                key = MDB_val(
                    mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
                return mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
            }
        } else {
            code = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
        }
        while code == 0 {
            let more = try body(
                UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size),
                UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            guard more else { return }
            code = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
        }
        if code != MDB_NOTFOUND { try check(code, "iterate") }
    }

    /// Page size, pages in use and map size of the environment. Read inside a transaction:
    /// the meta page lives in the map, which a concurrent resize may move.
    func environmentUsage() -> (pageSize: Int, pagesUsed: Int, mapSize: Int) {
        let environment = mdb_txn_env(pointer)
        var info = MDB_envinfo()
        var stat = MDB_stat()
        mdb_env_info(environment, &info)
        mdb_env_stat(environment, &stat)
        return (Int(stat.ms_psize), info.me_last_pgno + 1, info.me_mapsize)
    }

    /// Entries and pages of one database.
    func statistics(_ database: LMDBDatabase) throws(StoreError) -> MDB_stat {
        var stat = MDB_stat()
        try check(mdb_stat(pointer, database.handle, &stat), "stat")
        return stat
    }
}
