extension ThumbnailStore {
    /// Keeps `result` under `name`, replacing what was kept there.
    public func saveFetchResult(_ result: FetchResult, named name: String) async throws {
        var writer = ByteWriter(capacity: 8 + result.count * 40)
        writer.u8(1)
        writer.u32(UInt32(result.count))
        for entry in result.entries {
            writer.string(entry.id)
            writer.u64(entry.fingerprint.size)
            writer.i64(entry.fingerprint.modificationTimeNanoseconds)
        }
        let record = writer.bytes
        let key = Array(name.utf8)
        try await onWriter { [self] transaction, _ throws(StoreError) in
            try transaction.put(environment[StoreTables.cursors], key, record)
        }
    }

    /// The fetch result kept under `name`, if any.
    public func fetchResult(named name: String) throws(StoreError) -> FetchResult? {
        let cursors = environment[StoreTables.cursors]
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(cursors, Array(name.utf8)) { record throws(StoreError) in
                var reader = ByteReader(record, record: "fetch result")
                _ = try reader.u8()
                let count = Int(try reader.u32())
                var entries: [FetchResult.Entry] = []
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let id = try reader.string()
                    entries.append(FetchResult.Entry(
                        id: id, fingerprint: FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())))
                }
                return FetchResult(entries: entries)
            }
        }
    }
}
