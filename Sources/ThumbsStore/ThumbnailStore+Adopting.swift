import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// What an adoption gave the new path (see ``ThumbnailStore/adopt(_:)``).
    public struct Adoption: Sendable, Hashable {
        /// The metadata record, now the new path's too.
        public var metadata: AssetMetadata
        /// The asset whose entries were copied.
        public var from: String
        /// Thumbnails copied.
        public var thumbnails = 0
    }

    /// A file to recognise by its content (see ``adopt(_:)``).
    public struct AdoptionRequest: Sendable, Hashable {
        public var identity: ContentIdentity
        /// The asset the file now is.
        public var assetID: String

        public init(identity: ContentIdentity, assetID: String) {
            self.identity = identity
            self.assetID = assetID
        }
    }

    /// Gives each request's asset what the cache holds of another asset whose file has the
    /// same content identity (the same file moved, renamed or copied): its metadata record, its
    /// thumbnails of that version and a failure remembered for it, copied, so that the new path
    /// needs neither an inspection nor a render. Nil for a request no record's identity matches.
    /// The other asset's entries stay: a move's old path is forgotten when a walk finds it
    /// gone, a copy's stays in the library. Looked up first in a read transaction: only
    /// requests that match are written, all in one transaction.
    public func adopt(_ requests: [AdoptionRequest]) async throws -> [Adoption?] {
        let matching = try environment.read { transaction throws(StoreError) in
            var matching: [Int] = []
            for (index, request) in requests.enumerated()
            where try holder(of: request.identity, other: Array(request.assetID.utf8), in: transaction) != nil {
                matching.append(index)
            }
            return matching
        }
        var adoptions = [Adoption?](repeating: nil, count: requests.count)
        guard !matching.isEmpty else { return adoptions }
        var chosen: [(index: Int, request: AdoptionRequest, prefix: [UInt8])] = []
        for index in matching {
            chosen.append((index, requests[index], try ThumbnailKey.assetPrefix(requests[index].assetID)))
        }
        let second = accessSecond(configuration.clock())
        let made = try await onWriter { [self, chosen] transaction, book throws(StoreError) -> [(Int, Adoption)] in
            var made: [(Int, Adoption)] = []
            for entry in chosen {
                if let adoption = try adopt(
                    entry.request, prefix: entry.prefix, second: second, in: transaction, &book)
                {
                    made.append((entry.index, adoption))
                }
            }
            if book.liveBytes > configuration.budget.bytes {
                _ = try evict(downTo: configuration.lowWaterMark, in: transaction, &book)
            }
            return made
        }
        for (index, adoption) in made { adoptions[index] = adoption }
        return adoptions
    }

    /// One adoption, inside the write transaction.
    private func adopt(
        _ request: AdoptionRequest, prefix: [UInt8], second: UInt32, in transaction: LMDBTransaction,
        _ book: inout Bookkeeping
    ) throws(StoreError) -> Adoption? {
        let key = Array(request.assetID.utf8)
        guard let (holder, metadata) = try holder(of: request.identity, other: key, in: transaction) else {
            return nil
        }
        let version = ThumbnailKey.fingerprintBytes(request.identity.fingerprint)
        try replaceContentEntry(key, from: storedMetadata(key, in: transaction), to: metadata, in: transaction)
        try transaction.put(metadataTable, key, metadata.encoded())
        var adoption = Adoption(metadata: metadata, from: String(decoding: holder, as: UTF8.self))
        // The new path's thumbnails of other versions are stale, as a write would find them.
        _ = try removeThumbnails(of: request.assetID, keeping: version, in: transaction, &book)
        let holderVersion = holder + [0] + version
        for old in try keys(in: thumbnails, withPrefix: holderVersion, transaction) {
            guard let record = try transaction.value(thumbnails, old) else { continue }
            let copy = prefix + version + old[holderVersion.count...]
            try removeThumbnail(copy, in: transaction, &book)
            try transaction.put(thumbnails, copy, record)
            book.liveBytes += Bookkeeping.cost(keyCount: copy.count, recordCount: record.count)
            book.entries += 1
            try setAccessSecond(second, for: copy, in: transaction)
            adoption.thumbnails += 1
        }
        if let failure = try transaction.value(failures, holderVersion) {
            for stale in try keys(in: failures, withPrefix: prefix, transaction) {
                try transaction.delete(failures, stale)
            }
            try transaction.put(failures, prefix + version, failure)
        }
        return adoption
    }

    /// The first asset other than `other` whose metadata record keeps `identity`, with that
    /// record.
    private func holder(of identity: ContentIdentity, other: [UInt8], in transaction: LMDBTransaction)
        throws(StoreError) -> ([UInt8], AssetMetadata)?
    {
        let prefix = Self.contentPrefix(identity)
        for entry in try keys(in: contents, withPrefix: prefix, transaction) {
            let holder = Array(entry[prefix.count...])
            guard holder != other, let metadata = try storedMetadata(holder, in: transaction),
                metadata.contentIdentity == identity
            else { continue }
            return (holder, metadata)
        }
        return nil
    }

    /// Moves the contents entry of the metadata record under `key` from what `stored` keeps to
    /// what `metadata` keeps (nil: the record is removed).
    func replaceContentEntry(
        _ key: [UInt8], from stored: AssetMetadata?, to metadata: AssetMetadata?, in transaction: LMDBTransaction
    ) throws(StoreError) {
        let old = stored?.contentIdentity, new = metadata?.contentIdentity
        guard old != new else { return }
        if let old { try transaction.delete(contents, Self.contentPrefix(old) + key) }
        if let new { try transaction.put(contents, Self.contentPrefix(new) + key, []) }
    }

    /// The bytes every contents key of `identity` starts with.
    static func contentPrefix(_ identity: ContentIdentity) -> [UInt8] {
        var writer = ByteWriter(capacity: 24)
        writer.raw(ThumbnailKey.fingerprintBytes(identity.fingerprint))
        writer.u64(identity.signature)
        return writer.bytes
    }
}
