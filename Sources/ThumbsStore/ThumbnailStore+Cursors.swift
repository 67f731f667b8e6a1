import ThumbsSupport

extension ThumbnailStore {
    /// Keeps `record` under `name` in the cursors table, replacing what was kept there. What a
    /// cursor holds is its owner's business (the library keeps its fetch results here); the
    /// store only keeps it safe, in one transaction like every other write.
    package func saveCursor(_ record: [UInt8], named name: String) async throws {
        let key = Array(name.utf8)
        try await onWriter { [self] transaction, _ throws(StoreError) in
            try transaction.put(environment[StoreTables.cursors], key, record)
        }
    }

    /// Decodes the record kept under `name` with `decode`, or nil when there is none. The bytes
    /// are lent from the map for the duration of the call.
    package func cursor<T>(
        named name: String, _ decode: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        let cursors = environment[StoreTables.cursors]
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(cursors, Array(name.utf8), decode)
        }
    }
}
