import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// How many of the cache's transactions have removed a thumbnail or a metadata record
    /// (evictions, forgotten files, replaced versions): a ``WarmedFolder`` holds only while this
    /// is what it was warmed at.
    public func removalGeneration() throws(StoreError) -> Int64 {
        try environment.read { transaction throws(StoreError) in try Bookkeeping(transaction, info).removals }
    }

    /// The record of `folder` of `root` if a warm left it with nothing to do, and nothing was
    /// removed from the cache since: nil when there is none, it is stale, of another version or
    /// damaged (the folder is then warmed file by file, and a new record kept).
    public func warmedFolder(root: String, folder: [UInt8]) throws(StoreError) -> WarmedFolder? {
        let key = FolderListing.key(root: root, folder: folder)
        return try environment.read { transaction throws(StoreError) in
            let removals = try Bookkeeping(transaction, info).removals
            let record = try transaction.withValue(warmed, key) { record in
                (try? WarmedFolder(decoding: record)) ?? nil
            }
            guard let record = record ?? nil, record.generation == removals, record.root == root,
                record.folder == folder
            else { return nil }
            return record
        }
    }

    /// Keeps `folders`, each replacing its folder's record.
    public func putWarmedFolders(_ folders: [WarmedFolder]) async throws {
        let records = folders.filter(\.isStorable).map { folder in
            (key: FolderListing.key(root: folder.root, folder: folder.folder), record: folder.encoded())
        }
        guard !records.isEmpty else { return }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for entry in records { try transaction.put(warmed, entry.key, entry.record) }
        }
    }
}
