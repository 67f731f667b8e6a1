import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// How many of the cache's transactions have removed a thumbnail or a metadata record
    /// (evictions, forgotten files, replaced versions): a ``WarmedFolder`` holds only while this
    /// is what it was warmed at.
    public func removalGeneration() throws(StoreError) -> Int64 {
        try environment.read { transaction throws(StoreError) in try Bookkeeping(transaction, info).removals }
    }

    /// The record of `folder` of `root` if a warm of `context` left it with nothing to do, and
    /// nothing was removed from the cache since: nil when there is none, it is stale, of another
    /// version or damaged (the folder is then warmed file by file, and a new record kept). Each
    /// context keeps its own records: a server's listing walks and `thumbs warm` over the same
    /// cache each pass over the folders they left (a warm records the folders it left for a
    /// listing walk too).
    public func warmedFolder(root: String, folder: [UInt8], context: UInt64) throws(StoreError) -> WarmedFolder? {
        let key = Self.warmedKey(root: root, folder: folder, context: context)
        return try environment.read { transaction throws(StoreError) in
            let removals = try Bookkeeping(transaction, info).removals
            let record = try transaction.withValue(warmed, key) { record in
                (try? WarmedFolder(decoding: record)) ?? nil
            }
            guard let record = record ?? nil, record.generation == removals, record.root == root,
                record.folder == folder, record.context == context
            else { return nil }
            return record
        }
    }

    /// Keeps `folders`, each replacing its folder's record.
    public func putWarmedFolders(_ folders: [WarmedFolder]) async throws {
        let records = folders.filter(\.isStorable).map { folder in
            (
                key: Self.warmedKey(root: folder.root, folder: folder.folder, context: folder.context),
                record: folder.encoded()
            )
        }
        guard !records.isEmpty else { return }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for entry in records { try transaction.put(warmed, entry.key, entry.record) }
        }
    }

    /// The folder's listing key, then the context.
    static func warmedKey(root: String, folder: [UInt8], context: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 24)
        writer.raw(FolderListing.key(root: root, folder: folder))
        writer.u64(context)
        return writer.bytes
    }

    /// Deletes the records of the folder of listing key `folderKey`, of every context.
    func deleteWarmedFolders(_ folderKey: [UInt8], in transaction: LMDBTransaction) throws(StoreError) {
        var keys: [[UInt8]] = []
        try transaction.forEach(warmed, from: folderKey) { key, _ in
            guard key.starts(with: folderKey) else { return false }
            keys.append(Array(key))
            return true
        }
        for key in keys { try transaction.delete(warmed, key) }
    }
}
