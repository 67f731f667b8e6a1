extension ThumbnailStore {
    /// Among the stored renditions of the same version of the asset other than `key`'s, the one
    /// closest in size to `size` (with `atLeast`, only those covering it), copied out: the
    /// degraded stand-in of opportunistic delivery, or an acceptable final one for a fast resize.
    /// Neither a hit nor an access.
    public func closestThumbnail(to key: ThumbnailKey, size: PixelSize, atLeast: Bool) throws(StoreError) -> StoredThumbnail? {
        let exact = try key.encoded()
        let prefix = try ThumbnailKey.assetPrefix(key.assetID) + ThumbnailKey.fingerprintBytes(key.fingerprint)
        return try environment.read { transaction throws(StoreError) -> StoredThumbnail? in
            var candidates: [(key: [UInt8], size: PixelSize)] = []
            try transaction.forEach(thumbnails, from: prefix) { candidate, record throws(StoreError) in
                guard candidate.count >= prefix.count, candidate.prefix(prefix.count).elementsEqual(prefix) else { return false }
                if !candidate.elementsEqual(exact) {
                    candidates.append((Array(candidate), try StoredThumbnail.Header(decoding: record).pixelSize))
                }
                return true
            }
            guard let chosen = RenditionChoice.closest(candidates, to: size, atLeast: atLeast, size: \.size) else { return nil }
            return try transaction.withValue(thumbnails, chosen.key) { record throws(StoreError) in
                try StoredThumbnail(decoding: record)
            }
        }
    }
}
