import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// The listing kept for `folder` of `root`; nil when none is kept, or its record is of
    /// another version or damaged (the walk then knows nothing gone from it, and keeps a new one).
    public func folderListing(root: String, folder: [UInt8]) throws(StoreError) -> FolderListing? {
        let key = FolderListing.key(root: root, folder: folder)
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(folders, key) { record in
                (try? FolderListing(decoding: record)) ?? nil
            } ?? nil
        }
    }

    /// The ``FolderListing/Digest/recorded`` digest of the listing kept for `folder` of `root`,
    /// read without the names; nil when none is kept or its record is of another version.
    public func folderListingDigest(root: String, folder: [UInt8]) throws(StoreError) -> UInt64? {
        let key = FolderListing.key(root: root, folder: folder)
        return try environment.read { transaction throws(StoreError) in
            try transaction.withValue(folders, key) { FolderListing.recordedDigest($0) } ?? nil
        }
    }

    /// The listings kept for folders of `root` whose ``FolderListing/folderHash(_:)`` is not in
    /// `visited`: after a whole walk of the root, the folders that are gone.
    public func folderListings(under root: String, except visited: Set<UInt64>) throws(StoreError)
        -> [FolderListing]
    {
        let prefix = FolderListing.rootPrefix(root)
        return try environment.read { transaction throws(StoreError) in
            var found: [FolderListing] = []
            try transaction.forEach(folders, from: prefix) { key, record in
                guard key.count == prefix.count + 8, key.prefix(prefix.count).elementsEqual(prefix) else {
                    return false
                }
                let hash = key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                if !visited.contains(hash), let listing = (try? FolderListing(decoding: record)) ?? nil,
                    listing.root == root
                {
                    found.append(listing)
                }
                return true
            }
            return found
        }
    }

    /// Keeps `listings`, each replacing its folder's; one that ``FolderListing/isStorable`` says
    /// cannot be kept removes its folder's instead.
    public func putFolderListings(_ listings: [FolderListing]) async throws {
        guard !listings.isEmpty else { return }
        let records = listings.map { listing in
            (
                key: FolderListing.key(root: listing.root, folder: listing.folder),
                record: listing.isStorable ? listing.encoded() : nil
            )
        }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for entry in records {
                if let record = entry.record {
                    try transaction.put(folders, entry.key, record)
                } else {
                    try transaction.delete(folders, entry.key)
                }
            }
        }
    }

    /// Forgets the listings of `folders` of `root`, and their ``WarmedFolder`` records.
    public func removeFolderListings(root: String, folders removed: [[UInt8]]) async throws {
        guard !removed.isEmpty else { return }
        let keys = removed.map { FolderListing.key(root: root, folder: $0) }
        try await onWriter { [self] transaction, _ throws(StoreError) in
            for key in keys {
                try transaction.delete(folders, key)
                try deleteWarmedFolders(key, in: transaction)
            }
        }
    }

    /// Forgets everything the cache holds of `assetIDs`, whose files are gone: their thumbnails
    /// of every version, metadata records (and content entries) and failures, in one
    /// transaction, with the ``WarmedFolder`` records of `folders`, the folders that held them
    /// (the others' hold). Returns how many thumbnails went.
    @discardableResult
    public func forget(_ assetIDs: [String], inFolders folders: [(root: String, folder: [UInt8])]) async throws
        -> Int
    {
        guard !assetIDs.isEmpty else { return 0 }
        let assets = try assetIDs.map { id throws(StoreError) in (id: id, prefix: try ThumbnailKey.assetPrefix(id)) }
        let folderKeys = Set(folders.map { FolderListing.key(root: $0.root, folder: $0.folder) })
        return try await onWriter { [self] transaction, book throws(StoreError) in
            var removed = 0
            for key in folderKeys { try deleteWarmedFolders(key, in: transaction) }
            for entry in assets {
                removed += try removeThumbnails(of: entry.id, keeping: nil, in: transaction, &book)
                let key = Array(entry.id.utf8)
                try replaceContentEntry(key, from: storedMetadata(key, in: transaction), to: nil, in: transaction)
                try transaction.delete(metadataTable, key)
                for failure in try keys(in: failures, withPrefix: entry.prefix, transaction) {
                    try transaction.delete(failures, failure)
                }
            }
            return removed
        }
    }
}
