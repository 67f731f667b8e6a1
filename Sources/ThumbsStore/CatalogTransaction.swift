import CLMDB
import ThumbsSupport

/// The library catalog's tables within one transaction of the cache, lent to a closure by
/// ``ThumbnailStore/readCatalog(_:)`` or ``ThumbnailStore/writeCatalog(_:)``: raw keys and
/// records, which the library gives their meaning (`LibraryCatalog`). It must not escape the
/// closure, and neither may the buffers it lends, which point into the memory map.
package struct CatalogTransaction {
    /// A table of the catalog.
    package enum Table: Sendable {
        /// Asset id → the asset's record.
        case assets
        /// A list's entries, in the list's order: list ‖ group ‖ order ‖ asset id → nothing.
        case order
        /// What each group of a list holds: list ‖ group → its counts.
        case groups
    }

    struct Tables: Sendable {
        let assets: LMDBDatabase
        let order: LMDBDatabase
        let groups: LMDBDatabase

        subscript(_ table: Table) -> LMDBDatabase {
            switch table {
            case .assets: assets
            case .order: order
            case .groups: groups
            }
        }
    }

    let transaction: LMDBTransaction
    let tables: Tables

    /// Lends the record under `key` to `body`; nil when there is none.
    package func withValue<T>(
        _ table: Table, _ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        try transaction.withValue(tables[table], key, body)
    }

    /// Visits entries in key order from the first key ≥ `start`, while `body` returns true.
    package func forEach(
        _ table: Table, from start: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(StoreError) -> Bool
    ) throws(StoreError) {
        try transaction.forEach(tables[table], from: start, body)
    }

    /// Stores `value` under `key` (in a write only).
    package func put(_ table: Table, _ key: [UInt8], _ value: [UInt8]) throws(StoreError) {
        try transaction.put(tables[table], key, value)
    }

    /// Deletes `key`; returns whether it was there (in a write only).
    @discardableResult
    package func delete(_ table: Table, _ key: [UInt8]) throws(StoreError) -> Bool {
        try transaction.delete(tables[table], key)
    }
}

extension ThumbnailStore {
    /// Lends the catalog's tables to `body` in one read snapshot.
    package func readCatalog<T>(_ body: (CatalogTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
        let tables = catalogTables
        return try environment.read { transaction throws(StoreError) in
            try body(CatalogTransaction(transaction: transaction, tables: tables))
        }
    }

    /// Empties the catalog's tables, in one transaction that counts as a removal when they held
    /// anything (``removalGeneration()``): a warm's records of folders it passed over counted on
    /// the catalog's entries.
    package func emptyCatalog() async throws {
        let tables = catalogTables
        try await onWriter { transaction, book throws(StoreError) in
            for table in [tables.assets, tables.order, tables.groups]
            where try transaction.statistics(table).ms_entries > 0 {
                book.noteRemoval()
                try transaction.empty(table)
            }
        }
    }

    /// Lends the catalog's tables to `body` in one write transaction, on the store's writer.
    package func writeCatalog<T: Sendable>(
        _ body: @escaping @Sendable (CatalogTransaction) throws(StoreError) -> T
    ) async throws -> T {
        let tables = catalogTables
        return try await onWriter { transaction, _ throws(StoreError) in
            try body(CatalogTransaction(transaction: transaction, tables: tables))
        }
    }
}
