import ThumbsCore
import ThumbsSupport

/// Placeholders and the partial flag live in the metadata cache, beside the fingerprint they were
/// made for: a record is replaced whole when its file changes (the walk writes what it probed),
/// and what was kept of an older version of the file goes with it.
extension ThumbnailStore {
    /// The placeholder kept for this version of the asset's file; nil when there is none, or the
    /// metadata cache holds another version (the file changed since).
    public func placeholder(for assetID: String, fingerprint: FileFingerprint) throws(StoreError) -> ThumbHash? {
        guard let metadata = try metadata(for: assetID), metadata.fingerprint == fingerprint else { return nil }
        return metadata.placeholder
    }

    /// Keeps `placeholder` in the asset's metadata record, leaving the rest of it as it is, if
    /// the record is of `fingerprint`'s version of the file; returns whether it was kept. An
    /// asset the metadata cache does not know (or knows at another version) keeps nothing: the
    /// placeholder would describe a file the cache does not vouch for.
    @discardableResult
    public func setPlaceholder(
        _ placeholder: ThumbHash, for assetID: String, fingerprint: FileFingerprint
    ) async throws -> Bool {
        try await setPlaceholders([
            PlaceholderEntry(assetID: assetID, fingerprint: fingerprint, placeholder: placeholder)
        ])
            == 1
    }

    /// ``setPlaceholder(_:for:fingerprint:)`` for many assets, in one transaction; returns how
    /// many were kept.
    @discardableResult
    public func setPlaceholders(_ entries: [PlaceholderEntry]) async throws -> Int {
        guard !entries.isEmpty else { return 0 }
        return try await onWriter { [self] transaction, _ throws(StoreError) in
            var kept = 0
            for entry in entries {
                let key = Array(entry.assetID.utf8)
                // Read and written in the same transaction: a walk that replaces the record for
                // a new version of the file cannot slip in between.
                guard var metadata = try storedMetadata(key, in: transaction),
                    metadata.fingerprint == entry.fingerprint
                else { continue }
                kept += 1
                guard metadata.placeholder != entry.placeholder else { continue }
                metadata.placeholder = entry.placeholder
                try transaction.put(metadataTable, key, metadata.encoded())
            }
            return kept
        }
    }

    /// Sets the partial flag of the asset's metadata record, if the record is of `fingerprint`'s
    /// version of the file (see ``putThumbnails(_:)``): a record of another version, or none,
    /// keeps nothing, as for placeholders.
    func markPartial(_ assetID: String, fingerprint: FileFingerprint, in transaction: LMDBTransaction)
        throws(StoreError)
    {
        let key = Array(assetID.utf8)
        guard var metadata = try storedMetadata(key, in: transaction), metadata.fingerprint == fingerprint,
            !metadata.isPartial
        else { return }
        metadata.isPartial = true
        try transaction.put(metadataTable, key, metadata.encoded())
    }

    /// The metadata record under `key`; nil when there is none or it cannot be read (a damaged
    /// record is replaced, not a reason to fail the write).
    func storedMetadata(_ key: [UInt8], in transaction: LMDBTransaction) throws(StoreError) -> AssetMetadata? {
        try transaction.withValue(metadataTable, key) { try? AssetMetadata(decoding: $0) } ?? nil
    }
}
