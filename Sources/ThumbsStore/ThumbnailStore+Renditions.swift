import ThumbsImaging
import ThumbsSupport

extension ThumbnailStore {
    /// Among the stored renditions of the same version of the asset other than `key`'s, the one
    /// closest in size to `size` (with `atLeast`, only those covering it), copied out: the
    /// degraded stand-in of opportunistic delivery, or an acceptable final one for a fast resize.
    /// Neither a hit nor an access.
    ///
    /// With `servingFinal`, only renditions that may stand for `key`'s final image qualify (see
    /// `RenditionChoice`).
    public func closestThumbnail(
        to key: ThumbnailKey, size: PixelSize, atLeast: Bool,
        servingFinal: Bool = false
    ) throws(StoreError) -> StoredThumbnail? {
        let exact = try key.encoded()
        let prefix = try ThumbnailKey.assetPrefix(key.assetID) + ThumbnailKey.fingerprintBytes(key.fingerprint)
        return try environment.read { transaction throws(StoreError) -> StoredThumbnail? in
            var candidates: [(key: [UInt8], size: PixelSize)] = []
            try transaction.forEach(thumbnails, from: prefix) { candidate, record throws(StoreError) in
                guard candidate.count >= prefix.count, candidate.prefix(prefix.count).elementsEqual(prefix) else {
                    return false
                }
                let header = try StoredThumbnail.Header(decoding: record)
                // A key of another layout (an older version's) stands in for nothing.
                guard !candidate.elementsEqual(exact),
                    let rendition = RenditionSpec(
                        storageKey: UnsafeRawBufferPointer(rebasing: candidate[prefix.count...]))
                else { return true }
                if !servingFinal || RenditionChoice.canServeAsFinal(rendition, for: key.rendition) {
                    candidates.append((Array(candidate), header.pixelSize))
                }
                return true
            }
            guard let chosen = RenditionChoice.closest(candidates, to: size, atLeast: atLeast, size: \.size) else {
                return nil
            }
            return try transaction.withValue(thumbnails, chosen.key) { record throws(StoreError) in
                try StoredThumbnail(decoding: record)
            }
        }
    }
}
